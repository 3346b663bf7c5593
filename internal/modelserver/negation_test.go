package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A clause that says what not to do asks for no action: the planner
// writes no todo for it (a todo read from its verb would do what it
// forbids), and a goal that only says what not to do is a question.
func TestPlannerDoesNotDoWhatTheGoalForbids(t *testing.T) {
	for _, c := range []struct {
		goal string
		want []string // the todos, in order; nil: a question
	}{
		{"不要关闭无线网络，只打开蓝牙", []string{"Turn on Bluetooth"}},
		{"Don't touch Wi-Fi, just switch Bluetooth on", []string{"Turn on Bluetooth"}},
		{"Turn on Bluetooth, but don't turn off Wi-Fi", []string{"Turn on Bluetooth"}},
		{"Turn on Bluetooth and do not change Wi-Fi", []string{"Turn on Bluetooth"}},
		{"别动蓝牙，把亮度调到最高", []string{"Set brightness to 100%"}},
		{"Leave Wi-Fi alone, turn Bluetooth on", []string{"Turn on Bluetooth"}},
		{"Please don't send anything to Mom", nil},
		{"不要删除任何闹钟", nil},
	} {
		ps := readGoal(c.goal)
		var todos []string
		asked := ""
		for _, p := range ps {
			if p.Ask != "" {
				asked = p.Ask
				continue
			}
			todos = append(todos, p.Todo)
			for _, e := range p.Expect {
				if e.Kind == postcond.Switch && e.Label == "Wi-Fi" {
					t.Errorf("%q: a check on Wi-Fi, which the goal says to leave: %v", c.goal, e)
				}
			}
		}
		if c.want == nil {
			if asked == "" || len(todos) > 0 {
				t.Errorf("%q: todos %q, question %q; want only a question", c.goal, todos, asked)
			}
			continue
		}
		if strings.Join(todos, " | ") != strings.Join(c.want, " | ") || asked != "" {
			t.Errorf("%q: todos %q, question %q; want %q", c.goal, todos, asked, c.want)
		}
	}
}

// The verifier's own reading leaves out what a task says not to do: "turn
// off" in "don't turn off Wi-Fi" is not the task's claim, and the switch
// it judges is the one the task switches.
func TestVerifierReadsPastWhatNotToDo(t *testing.T) {
	settings := func(wifi, bt bool) observation {
		return observation{App: "Settings", Elems: []uitree.Listed{{Text: "Settings", ID: "title"},
			{Text: "Wi-Fi", Class: "Switch", Checkable: true, Checked: wifi}, {Text: "Bluetooth", Class: "Switch", Checkable: true, Checked: bt}}}
	}
	for _, c := range []struct {
		task string
		obs  observation
		want string
	}{
		{"Don't turn off Wi-Fi", settings(false, false), "failed"},
		{"不要关闭无线网络", settings(false, false), "failed"},
		{"Turn on Bluetooth without turning off Wi-Fi", settings(true, false), "failed"},
		{"Turn on Bluetooth without turning off Wi-Fi", settings(true, true), "done"},
		{"Turn on Bluetooth, don't turn off Wi-Fi", settings(false, false), "failed"},
		{"Send Mom a message saying don't wait up", settings(true, true), "failed"},
	} {
		if v := judgeClaim(c.obs, c.task, ""); v.Status != c.want {
			t.Errorf("%q: %s (%s), want %s", c.task, v.Status, v.Evidence, c.want)
		}
	}
	if c := readClaim("Send Mom a message saying don't wait up"); c.sent != "don't wait up" {
		t.Errorf("the content of a message lost its words: sent %q", c.sent)
	}
}
