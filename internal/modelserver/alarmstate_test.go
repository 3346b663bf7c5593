package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A question whether an alarm is on is read as a state, never as its
// time, checked against that alarm's own switch; the verifier judges the
// answer the same way.
func TestAlarmStateIsReadAsAState(t *testing.T) {
	for _, g := range []string{"Is my Wake up alarm on?", "Is the first alarm enabled or disabled?", "07:00的闹钟开着吗？", "07:00 alarm on or off?"} {
		ps := readGoal(g)
		if len(ps) != 1 || ps[0].Ask != "" || !strings.Contains(ps[0].Todo, "Read the state of") || len(ps[0].Expect) != 1 || ps[0].Expect[0].Type != postcond.TypeState {
			t.Errorf("%q: planned %+v, want one read of the alarm's state", g, ps)
		}
	}
	clock := observation{App: "Clock", Elems: []uitree.Listed{{Text: "Alarm", ID: "title"},
		{Text: "07:00 Wake up"}, {Desc: "07:00 Wake up", Class: "Switch", Checkable: true, Checked: true},
		{Text: "08:30 Gym"}, {Desc: "08:30 Gym", Class: "Switch", Checkable: true, Checked: false}}}
	for _, c := range []struct{ task, msg, want string }{
		{"Read whether the alarm labelled Gym is on or off in Clock", "Done: Read whether the alarm labelled Gym is on or off in Clock: off", "done"},
		{"Read whether the alarm labelled Gym is on or off in Clock", "It is on", "failed"},
		{"Read whether the first alarm is on or off in Clock", "The first alarm is on", "done"},
		{"Read whether the first alarm is on or off in Clock", "07:00", "failed"},
		{"Read whether the 08:30 alarm is on or off in Clock", "on", "failed"},
		{"Read whether the 08:30 alarm is on or off in Clock", "Off.", "done"},
	} {
		if v := judgeClaim(clock, c.task, c.msg); v.Status != c.want {
			t.Errorf("%q answered %q: %s (%s), want %s", c.task, c.msg, v.Status, v.Evidence, c.want)
		}
	}
}
