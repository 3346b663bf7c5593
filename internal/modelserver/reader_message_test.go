package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// messageCases are goals whose message the planner must read whole:
// closing marks, emoji, quotes and colons inside, sentences inside, any
// send verb; the todos after the message, when a sequencing word starts
// one.
var messageCases = []struct {
	goal, to, text string
	after          int // todos planned after the message
}{
	{"请给Bob Li发消息：明天见，谢谢！", "Bob Li", "明天见，谢谢！", 0},
	{"text Bob: 收到。谢谢", "Bob", "收到。谢谢", 0},
	{"text Bob Li: 收到。谢谢！", "Bob Li", "收到。谢谢！", 0},
	{"Tell Bob: see you. Bring the keys", "Bob", "see you. Bring the keys", 0},
	{"Tell Alice: see you soon! Then turn on Bluetooth", "Alice", "see you soon!", 1},
	{"reply Bob: sounds good!", "Bob", "sounds good!", 0},
	{`reply to Alice saying "Are we still on for lunch?"`, "Alice", "Are we still on for lunch?", 0},
	{"回复张三：好的，马上到！", "Zhang San", "好的，马上到！", 0},
	{"Message Mom: Happy birthday 🎂🎉", "Mom", "Happy birthday 🎂🎉", 0},
	{"Text Zhang San: The code is 'blue-7', ok?", "Zhang San", "The code is 'blue-7', ok?", 0},
	{"给妈妈发短信说：我到家了。你早点睡！", "Mom", "我到家了。你早点睡！", 0},
	{"Ping Alice Chen: meeting moved to 3:30?!", "Alice Chen", "meeting moved to 3:30?!", 0},
	{"DM Bob Li: ok 👍", "Bob Li", "ok 👍", 0},
	{"跟张三说：周末一起吃饭吗？", "Zhang San", "周末一起吃饭吗？", 0},
	{"write back to Mom: Love you too ❤️", "Mom", "Love you too ❤️", 0},
	{"告诉李四：文件已发，请查收。", "李四", "文件已发，请查收", 0},
	{"answer Alice: Yes. See you at 7.", "Alice", "Yes. See you at 7", 0},
	{"text Bob: 收到，谢谢，然后打开蓝牙", "Bob", "收到，谢谢", 1},
	{"给Bob发消息：好的！然后打开蓝牙", "Bob", "好的！", 1},
	{"Could you text Mom: I keep saying no; that's final!", "Mom", "I keep saying no; that's final!", 0},
	{"Send Dad a message: Wait: is it today? and then go to the home screen", "Dad", "Wait: is it today?", 1},
	{"Turn on Wi-Fi and then text Bob: back online!", "Bob", "back online!", 0},
}

func TestMessageWordsSurviveThePlan(t *testing.T) {
	for _, c := range messageCases {
		ps := readGoal(c.goal)
		at := -1
		for i, p := range ps {
			if len(p.Expect) == 1 && p.Expect[0].Kind == postcond.LastSent {
				at = i
				break
			}
		}
		if at < 0 {
			t.Errorf("%q: no todo checks the message sent: %+v", c.goal, ps)
			continue
		}
		p := ps[at]
		if got := p.Expect[0]; got.Contains != c.text || got.Conversation != c.to {
			t.Errorf("%q: checks %q to %q, want %q to %q", c.goal, got.Contains, got.Conversation, c.text, c.to)
		}
		if !strings.HasSuffix(p.Todo, ": "+c.text) {
			t.Errorf("%q: todo %q does not end with the message %q", c.goal, p.Todo, c.text)
		}
		if n := len(ps) - at - 1; n != c.after {
			t.Errorf("%q: %d todos after the message, want %d: %+v", c.goal, n, c.after, ps)
		}
		// The executor types what the todo says, marks and all.
		if in := parseIntent(p.Todo); in.Text != c.text {
			t.Errorf("%q: the executor reads the text %q from %q, want %q", c.goal, in.Text, p.Todo, c.text)
		}
		// A replan reads the todo again to the same check.
		if again := readOne(p.Todo); len(again.Expect) != 1 || again.Expect[0].Contains != c.text {
			t.Errorf("%q: the replan reads %q to %+v, want the message %q", c.goal, p.Todo, again.Expect, c.text)
		}
		// And the executor does not split the message's words into parts.
		if parts := SplitGoal(p.Todo); len(parts) != 1 {
			t.Errorf("%q: the todo %q splits into %q", c.goal, p.Todo, parts)
		}
	}
}

// Every verb that sends a message gets the last_sent check.
func TestEverySendVerbIsChecked(t *testing.T) {
	for _, goal := range []string{
		"reply Bob: ok", "reply to Bob: ok", "Reply to Bob saying ok", "answer Bob: ok", "respond to Bob: ok",
		"write back to Bob: ok", "text Bob: ok", "message Bob: ok", "tell Bob: ok", "let Bob know: ok",
		"ping Bob: ok", "DM Bob: ok", "回复Bob：ok", "回Bob：ok", "给Bob发短信：ok", "告诉Bob：ok", "跟Bob说：ok",
		"和Bob说ok", "发消息给Bob：ok", "send a text to Bob: ok",
	} {
		ps := readGoal(goal)
		if len(ps) != 1 || len(ps[0].Expect) != 1 || ps[0].Expect[0].Kind != postcond.LastSent ||
			ps[0].Expect[0].Conversation != "Bob" || ps[0].Expect[0].Contains != "ok" {
			t.Errorf("%q: read %+v, want one todo checked as the message \"ok\" to Bob", goal, ps)
		}
	}
}

// Words hidden while the goal is split come back exactly, and a goal
// without a message is left as it is.
func TestProtectMessagesRoundTrip(t *testing.T) {
	for _, g := range []string{"text Bob: 收到。谢谢", "Turn on Wi-Fi", "Set an alarm at 7:30 labelled Gym", "Create a note titled A: b. c",
		"text Bob: a. Then text Alice: b!", ""} {
		if got := reveal(protectMessages(g)); got != g {
			t.Errorf("%q: round trip gives %q", g, got)
		}
	}
	if p := protectMessages("Set an alarm at 7:30 labelled Gym"); p != "Set an alarm at 7:30 labelled Gym" {
		t.Errorf("an alarm's time was taken for a message: %q", p)
	}
}
