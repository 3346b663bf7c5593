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
