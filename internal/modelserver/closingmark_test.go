package modelserver

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// A message that ends with "!" or "！" is typed and checked with it: on
// the first plan, on a replan that runs the todo again, and by the
// executor that reads the todo.
func TestAMessagesClosingMarkIsKept(t *testing.T) {
	for _, c := range []struct{ goal, to, text string }{
		{"给Bob Li发短信：Thanks, got it!", "Bob Li", "Thanks, got it!"},
		{"请给Bob Li发消息：明天见，谢谢！", "Bob Li", "明天见，谢谢！"},
		{"Text Alice Chen: we won!!", "Alice Chen", "we won!!"},
		{"Message Bob Li: are you coming?", "Bob Li", "are you coming?"},
		{"Send Bob Li a message: see you at 8.", "Bob Li", "see you at 8"},
	} {
		ps := readGoal(c.goal)
		if len(ps) != 1 || len(ps[0].Expect) != 1 || ps[0].Expect[0].Kind != postcond.LastSent {
			t.Errorf("%q: planned %+v, want one todo checked by the last message sent", c.goal, ps)
			continue
		}
		if got := ps[0].Expect[0].Contains; got != c.text {
			t.Errorf("%q: the plan checks for %q, want %q", c.goal, got, c.text)
		}
		again := withExpect([]string{ps[0].Todo})
		if len(again[0].Expect) != 1 || again[0].Expect[0].Contains != c.text {
			t.Errorf("%q: a replan of %q checks %+v, want %q", c.goal, ps[0].Todo, again[0].Expect, c.text)
		}
		in := parseIntent(ps[0].Todo)
		if in.Kind != kindMessage || in.To != c.to || in.Text != c.text {
			t.Errorf("%q: the executor reads %q as a message to %q saying %q, want %q saying %q", c.goal, ps[0].Todo, in.To, in.Text, c.to, c.text)
		}
	}
}

// A message's words are planned whole, whatever verb sends them: its
// sentences after a colon or "saying" stay in one message, its name is
// all before the colon, and a clause that starts a todo after it is the
// next todo. Each is checked by the last message sent.
func TestAMessageIsPlannedWhole(t *testing.T) {
	for _, c := range []struct {
		goal, to, text string
		then           string // the next todo, if any
	}{
		{"text Bob Li: 收到。谢谢", "Bob Li", "收到。谢谢", ""},
		{"给张三发消息说：我到了。你在哪？", "Zhang San", "我到了。你在哪？", ""},
		{"Tell Bob Li: see you. Bring the keys", "Bob Li", "see you. Bring the keys", ""},
		{"Text Bob Li: see you soon. Then turn on Bluetooth", "Bob Li", "see you soon", "Turn on Bluetooth"},
		{"reply Bob Li: ok", "Bob Li", "ok", ""},
		{"reply to Bob Li saying I'm on my way!", "Bob Li", "I'm on my way!", ""},
		{"Respond to Alice Chen: sure", "Alice Chen", "sure", ""},
		{"write back to Bob Li: ok", "Bob Li", "ok", ""},
		{"回复Bob Li：好的！", "Bob Li", "好的！", ""},
		{"Tell Zhang San: 明天见！", "Zhang San", "明天见！", ""},
		{"给张三发消息说：好的。然后打开蓝牙", "Zhang San", "好的", "Turn on Bluetooth"},
		{"发个短信给妈妈，说我晚点回家", "Mom", "我晚点回家", ""},
		{"给Bob Li发消息，说：明天见", "Bob Li", "明天见", ""},
		{"Send Zhang San the text: Meeting at 3. Don't be late!", "Zhang San", "Meeting at 3. Don't be late!", ""},
		{"Could you ping Alice Chen and say lunch is ready?", "Alice Chen", "lunch is ready", ""},
		{"DM Bob Li: running late", "Bob Li", "running late", ""},
		{"跟张三说一声：我明天不去了。", "Zhang San", "我明天不去了", ""},
		{"Send Alice Chen a message saying “你好”，我到了", "Alice Chen", "“你好”，我到了", ""},
		{"和Bob Li说一下，会议改到三点", "Bob Li", "会议改到三点", ""},
	} {
		ps := readGoal(c.goal)
		want := 1
		if c.then != "" {
			want = 2
		}
		if len(ps) != want || len(ps[0].Expect) != 1 || ps[0].Expect[0].Kind != postcond.LastSent {
			t.Errorf("%q: planned %+v, want %d todos, the first checked by the last message sent", c.goal, ps, want)
			continue
		}
		if e := ps[0].Expect[0]; e.Conversation != c.to || e.Contains != c.text {
			t.Errorf("%q: checks %s, want the last message to %q to be %q", c.goal, e, c.to, c.text)
		}
		if in := parseIntent(ps[0].Todo); in.To != c.to || in.Text != c.text {
			t.Errorf("%q: the executor reads %q as to %q saying %q", c.goal, ps[0].Todo, in.To, in.Text)
		}
		if c.then != "" && ps[1].Todo != c.then {
			t.Errorf("%q: the next todo is %q, want %q", c.goal, ps[1].Todo, c.then)
		}
	}
}

// A message to several people goes to each of them with the same words;
// when nothing says where the names end, the planner asks.
func TestAMessageToSeveralPeople(t *testing.T) {
	for goal, want := range map[string][]string{
		"Tell Mom and Bob Li that dinner is at 7": {"Send Mom a message: dinner is at 7", "Send Bob Li a message: dinner is at 7"},
		"Let Mom and Bob Li know I'm late":        {"Send Mom a message: I'm late", "Send Bob Li a message: I'm late"},
		"告诉妈妈和张三：晚饭七点":                            {"Send Mom a message: 晚饭七点", "Send Zhang San a message: 晚饭七点"},
	} {
		ps := readGoal(goal)
		if len(ps) != len(want) {
			t.Errorf("%q: planned %+v, want %q", goal, ps, want)
			continue
		}
		for i, p := range ps {
			if p.Todo != want[i] || len(p.Expect) != 1 || p.Expect[0].Kind != postcond.LastSent {
				t.Errorf("%q: todo %d is %q %v, want %q checked by the last message sent", goal, i, p.Todo, p.Expect, want[i])
			}
		}
	}
	if ps := readGoal("Tell Mom and Bob Li dinner is at 7"); len(ps) != 1 || ps[0].Ask == "" {
		t.Errorf("names with no end planned %+v, want a question", ps)
	}
}
