package workflows

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// A todo pins the guidance version its first think carried and reports it
// with its outcome; an outcome that makes the guidance due for a rewrite
// runs RewritePrompt, and the next todo of the type runs with the new
// version.
func TestTodoGuidancePinnedRecordedAndRewritten(t *testing.T) {
	todos := []string{`Send Alice a message saying "a"`, `Send Bob a message saying "b"`, `Send Carol a message saying "c"`}
	f := &fakeWorld{
		guidance:  1,
		rewriteAt: 2,
		scripts: map[string][]autoglm.Action{
			todos[0]: {tap(500, 212), finish("sent")},
			todos[1]: {tap(500, 212), finish("sent")},
			todos[2]: {tap(500, 212), finish("sent")},
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "send three messages", Device: "emu-1", Options: GoalOptions{Plan: todos, OptimizePrompt: true}})
	if r.Status != GoalDone || len(r.Todos) != 3 {
		t.Fatalf("result = %+v", r)
	}
	if len(f.optimized) != 3 || f.optimized[0].TaskType != "" {
		t.Fatalf("optimize calls = %+v, want one per todo, without a goal task type", f.optimized)
	}
	if got := []int{f.optimized[0].Guidance, f.optimized[1].Guidance, f.optimized[2].Guidance}; got[0] != 1 || got[1] != 1 || got[2] != 2 {
		t.Fatalf("guidance versions reported = %v, want [1 1 2]", got)
	}
	if len(f.rewrites) != 1 || f.rewrites[0].From != 1 || f.rewrites[0].TodoType == "" {
		t.Fatalf("rewrites = %+v, want one from v1 after todo 2", f.rewrites)
	}
	if r.Todos[0].Guidance != 1 || r.Todos[2].Guidance != 2 {
		t.Fatalf("todo results' guidance = %d, %d", r.Todos[0].Guidance, r.Todos[2].Guidance)
	}
	// Every think after the first of todo 3 is pinned to v2.
	pinned := 0
	for _, s := range f.steps {
		if s.In.Task == todos[2] && s.In.Think && s.In.Guidance != 0 {
			if s.In.Guidance != 2 {
				t.Fatalf("todo 3 step pinned to v%d", s.In.Guidance)
			}
			pinned++
		}
	}
	if pinned == 0 {
		t.Fatal("no step of todo 3 carried its pinned guidance version")
	}
}
