package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// A finish that admits failure is verified as failed: the todo fails with
// the evidence, the replanner sees it, and a goal the planner calls done
// ends failed with a reason naming the todo.
func TestFinishAdmittingFailureFailsTheGoal(t *testing.T) {
	f := &fakeWorld{
		plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"book a train"}, TaskType: "general"}},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{"book a train"}},
			{Status: activities.PlanDone, Response: "Done: book a train"},
		},
		scripts: map[string][]autoglm.Action{"book a train": {finish(`I do not know how to do "book a train" on this phone`), finish("cannot book: no travel app")}},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "book a train", Device: "emu-1"})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "book a train") {
		t.Fatalf("result = %+v, want failed naming the todo", r)
	}
	if got := todoStatuses(r); !slices.Equal(got, []string{TodoFailed, TodoFailed}) {
		t.Fatalf("todo statuses = %v", got)
	}
	if r.Todos[0].Verified || !strings.Contains(strings.ToLower(r.Todos[0].Evidence), "i do not know how") {
		t.Fatalf("todo 1 = %+v, want unverified with the admission as evidence", r.Todos[0])
	}
	if len(f.replanInputs) == 0 || len(f.replanInputs[0].Done) == 0 || f.replanInputs[0].Done[0].Evidence == "" {
		t.Fatalf("the replanner did not see the evidence: %+v", f.replanInputs)
	}
}

// A finish the screen contradicts fails the todo even though the message
// sounds fine; a retry that is verified makes the goal done.
func TestRefutedFinishRetriedThenDone(t *testing.T) {
	f, in := verdictScenarios()["refuted then done"]()
	env := newEnv(t, f)
	r := runGoal(t, env, in)
	if r.Status != GoalDone {
		t.Fatalf("result = %+v, want done", r)
	}
	if got := todoStatuses(r); !slices.Equal(got, []string{TodoFailed, TodoDone}) {
		t.Fatalf("todo statuses = %v", got)
	}
	if r.Todos[0].Evidence != "the Wi-Fi switch is off" || !r.Todos[1].Verified {
		t.Fatalf("todos = %+v", r.Todos)
	}
	if len(f.verifies) != 2 || f.verifies[0].Task != "turn on wifi" || f.verifies[0].Screen.Hash == "" {
		t.Fatalf("verify inputs = %+v, want the task and the final screen", f.verifies)
	}
}

// The planner may drop a todo with a reason: the goal is done and the
// result shows the reason. Without a reason the goal fails.
func TestDroppedTodoNeedsAReason(t *testing.T) {
	for _, withReason := range []bool{true, false} {
		done := activities.PlanDecision{Status: activities.PlanDone, Response: "Wi-Fi is on"}
		if withReason {
			done.Dropped = []activities.Dropped{{Todo: "turn on bluetooth", Reason: "the user said Bluetooth is not needed"}}
		}
		f := &fakeWorld{
			plans:   []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn on wifi", "turn on bluetooth"}, TaskType: "settings"}},
			replans: []activities.PlanDecision{done},
			scripts: map[string][]autoglm.Action{"turn on wifi": {finish("wifi on")}},
		}
		env := newEnv(t, f)
		r := runGoal(t, env, GoalInput{Goal: "wifi and bluetooth", Device: "emu-1"})
		if withReason {
			if r.Status != GoalDone || r.Todos[1].Status != TodoSkipped || r.Todos[1].Dropped == "" {
				t.Fatalf("with a reason: result = %+v", r)
			}
			continue
		}
		if r.Status != GoalFailed || !strings.Contains(r.Reason, "skipped without a reason") {
			t.Fatalf("without a reason: result = %+v", r)
		}
	}
}

// Single-loop mode: the one todo's verdict is the goal's status.
func TestSingleModeUnverifiedFinishFails(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"open the travel app": {finish("Could not open travel: app not found")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "open the travel app", Device: "emu-1", Options: GoalOptions{Mode: ModeSingle}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "not found") {
		t.Fatalf("result = %+v", r)
	}
}

// Bare mode is the single loop without the guards: a stuck executor is not
// corrected and its finish is not verified, so its word is the status. It
// exists to measure what the guards add.
func TestBareModeTakesTheExecutorsWord(t *testing.T) {
	f := &fakeWorld{stuck: true, scripts: map[string][]autoglm.Action{"open the travel app": {
		tap(500, 500), tap(500, 500), tap(500, 500), tap(500, 500), finish("Could not open travel: app not found")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "open the travel app", Device: "emu-1", Options: GoalOptions{Mode: ModeBare}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v, want done on the executor's word", r)
	}
	if len(f.verifies) != 0 || len(f.corrects) != 0 {
		t.Fatalf("verifications = %d, corrections = %d, want none in bare mode", len(f.verifies), len(f.corrects))
	}
}

// The planner's postconditions reach the todo and its verification; the
// goal's todos show each check and whether it held, and a failed check
// fails the todo whatever the executor said.
func TestPostconditionsDecideAndAreShown(t *testing.T) {
	f, in := verdictScenarios()["postconditions"]()
	env := newEnv(t, f)
	r := runGoal(t, env, in)
	if got := todoStatuses(r); !slices.Equal(got, []string{TodoFailed, TodoDone}) {
		t.Fatalf("todo statuses = %v", got)
	}
	if len(f.verifies) != 2 || len(f.verifies[0].Expect) != 1 {
		t.Fatalf("Verify inputs = %+v, want the postcondition", f.verifies)
	}
	if c := r.Todos[0].Checks; len(c) != 1 || c[0].Held || len(r.Todos[0].Expect) != 1 {
		t.Fatalf("todo 1 = %+v, want its failed check", r.Todos[0])
	}
	if c := r.Todos[1].Checks; len(c) != 1 || !c[0].Held {
		t.Fatalf("todo 2 = %+v, want its held check", r.Todos[1])
	}
	lines := CheckLines(r.Todos[0].Expect, r.Todos[0].Checks)
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "✗") || !strings.Contains(checksMarkdown(nil, r.Todos[1].Checks), "✓ switch \"Wi-Fi\" is off") {
		t.Fatalf("shown as %q / %q", lines, checksMarkdown(nil, r.Todos[1].Checks))
	}
}
