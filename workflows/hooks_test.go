package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// TestGoalTellsHooksItsBoundaries: a goal tells hooks its start, each
// todo's start and end and its end, in that order, each with an ID of its
// own that names the goal.
func TestGoalTellsHooksItsBoundaries(t *testing.T) {
	f := &fakeWorld{
		plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"open settings", "turn on wifi"}}},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{"turn on wifi"}},
			{Status: activities.PlanDone, Response: "Wi-Fi is on"},
		},
		scripts: map[string][]autoglm.Action{
			"open settings": {launch("Settings"), finish("settings open")},
			"turn on wifi":  {tap(500, 212), finish("wifi on")},
		},
	}
	env := newEnv(t, f)
	if r := runGoal(t, env, GoalInput{Goal: "turn on wifi", Device: "emu-1"}); r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	var kinds []hooks.Kind
	ids := map[string]bool{}
	for _, ev := range f.hooked {
		kinds = append(kinds, ev.Kind)
		if ids[ev.ID] || !strings.HasPrefix(ev.ID, testGoalID+"/") || ev.GoalID != testGoalID || ev.At.IsZero() {
			t.Errorf("event %+v: want a new ID under the goal's, and a time", ev)
		}
		ids[ev.ID] = true
	}
	want := []hooks.Kind{hooks.GoalStart, hooks.TodoStart, hooks.TodoEnd, hooks.TodoStart, hooks.TodoEnd, hooks.GoalEnd}
	if !slices.Equal(kinds, want) {
		t.Fatalf("hook events %v, want %v", kinds, want)
	}
	if end := f.hooked[len(f.hooked)-1]; end.Status != GoalDone || end.Reason != "Wi-Fi is on" {
		t.Errorf("goal_end = %+v", end)
	}
	if te := f.hooked[2]; te.Todo != 1 || te.Status != TodoDone || te.Text != "open settings" {
		t.Errorf("todo_end = %+v", te)
	}
}
