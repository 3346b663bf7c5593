package modelserver

import (
	"reflect"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// TestQuotedWordsAreOneMessage: a message's words in quotes, whatever the
// marks (straight, curly, corner brackets, guillemets, single quotes
// around apostrophes) and whatever commas, colons or "and"s they hold, are
// one message: sent and checked as the quote says, never split into
// clauses, and what follows the quote is the next todo.
func TestQuotedWordsAreOneMessage(t *testing.T) {
	for _, c := range []struct {
		goal, to, text string
		next           string // the todo after the message, if any
	}{
		{"text Bob 'hi, see you at 8' and turn on Wi-Fi", "Bob", "hi, see you at 8", "Turn on Wi-Fi"},
		{"Text Alice “running late, sorry, 10 min” and then turn on Bluetooth", "Alice", "running late, sorry, 10 min", "Turn on Bluetooth"},
		{"Message Mom ‘I'm home, don't worry’ then turn off Wi-Fi", "Mom", "I'm home, don't worry", "Turn off Wi-Fi"},
		{"Text Alice «on my way, 5 min» and turn off Wi-Fi", "Alice", "on my way, 5 min", "Turn off Wi-Fi"},
		{"给李四发消息「晚上好，记得带伞」然后打开蓝牙", "李四", "晚上好，记得带伞", "Turn on Bluetooth"},
		{"Send \"hi, all set\" to Bob and turn on Bluetooth", "Bob", "hi, all set", "Turn on Bluetooth"},
		{"Text Alice 'Don't wait for me, I'll be there at 5'", "Alice", "Don't wait for me, I'll be there at 5", ""},
		{"Tell Zhang San “lunch: noon, room 4, bring Bob's laptop”", "Zhang San", "lunch: noon, room 4, bring Bob's laptop", ""},
		{"please text Bob Li \"meet me at 5, and bring the keys\", then open Clock", "Bob Li", "meet me at 5, and bring the keys", "Open Clock"},
	} {
		got := readGoal(c.goal)
		want := []planned{{Todo: "Send " + c.to + " a message: " + c.text,
			Expect: []postcond.Check{{Kind: postcond.LastSent, Conversation: c.to, Contains: c.text}}}}
		if c.next != "" {
			want = append(want, planned{Todo: c.next})
		}
		if len(got) != len(want) {
			t.Errorf("readGoal(%q) = %s, want %d todos", c.goal, plannedList(got), len(want))
			continue
		}
		if got[0].Todo != want[0].Todo || !reflect.DeepEqual(got[0].Expect, want[0].Expect) {
			t.Errorf("readGoal(%q)[0] = %s, want %s", c.goal, plannedList(got[:1]), plannedList(want[:1]))
		}
		if c.next != "" && got[1].Todo != c.next {
			t.Errorf("readGoal(%q)[1] = %q, want %q", c.goal, got[1].Todo, c.next)
		}
	}
}

// TestQuotedWordsToMorePeople: "send X to A and B" and "text A and B X"
// send the same quoted words to each person.
func TestQuotedWordsToMorePeople(t *testing.T) {
	for _, goal := range []string{`Send “hi, there” to Bob and Alice`, `Text Bob and Alice "hi, there"`} {
		got := texts(planGoal(planContext{Goal: goal}).Plan)
		want := []string{"Send Bob a message: hi, there", "Send Alice a message: hi, there"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: plan %q, want %q", goal, got, want)
		}
	}
}

func plannedList(ps []planned) string {
	s := ""
	for _, p := range ps {
		s += "[" + p.Todo + " " + p.Ask
		for _, e := range p.Expect {
			s += " ⟨" + e.String() + "⟩"
		}
		s += "]"
	}
	return s
}
