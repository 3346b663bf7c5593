package workflows

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// The planner sees the todo it replans after: its last actions with their
// results, and always the time, the zone and the budget (docs/design.md §3).
func TestReplannerSeesTheTodosLastActionsAndTheBudget(t *testing.T) {
	f := &fakeWorld{
		plans:   []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"open settings", "turn on wifi"}, TaskType: "settings"}},
		replans: []activities.PlanDecision{{Status: activities.PlanReplanned, Plan: []string{"turn on wifi"}}, {Status: activities.PlanDone, Response: "on"}},
		scripts: map[string][]autoglm.Action{
			"open settings": {launch("Settings"), finish("settings open")},
			"turn on wifi":  {tap(500, 212), finish("wifi on")},
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "turn on wifi", Device: "emu-1", Options: GoalOptions{TimeZone: "Asia/Shanghai", MaxSteps: 40}})
	if r.Status != GoalDone || len(f.replanInputs) != 2 {
		t.Fatalf("result %+v, %d replans", r, len(f.replanInputs))
	}
	first, second := f.replanInputs[0], f.replanInputs[1]
	if len(first.LastActions) != 1 || !strings.Contains(first.LastActions[0], "Settings") || !strings.Contains(first.LastActions[0], "→ ok") {
		t.Errorf("first replan's last actions %q, want the todo's Launch and its result", first.LastActions)
	}
	if len(second.LastActions) != 1 || !strings.Contains(second.LastActions[0], "Tap") {
		t.Errorf("second replan's last actions %q, want the second todo's tap", second.LastActions)
	}
	s := second.Situation
	if s.Now.IsZero() || s.TimeZone != "Asia/Shanghai" || s.MaxSteps != 40 || s.TodoMaxSteps != DefaultTodoMaxSteps || s.StepsUsed <= first.Situation.StepsUsed {
		t.Errorf("situations %+v then %+v", first.Situation, s)
	}
}
