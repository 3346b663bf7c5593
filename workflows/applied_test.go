package workflows

import (
	"slices"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// sendWorld is a goal whose one todo types a message and taps Send; the
// Step that taps Send fails after the phone took it with err. The goal
// replans the same todo after a failure.
func sendWorld(err error) (*fakeWorld, GoalInput, string) {
	typeHi := autoglm.Action{Name: autoglm.ActionType, Text: "hi"}
	send := tap(916, 875)
	key := "com.example.messages|Send|hi"
	todo := "send hi to Alice"
	f := &fakeWorld{
		plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{todo}, TaskType: "message"}},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{todo}},
			{Status: activities.PlanDone, Response: "sent"},
			{Status: activities.PlanDone, Response: "sent"},
		},
		scripts:    map[string][]autoglm.Action{todo: {typeHi, send, send, finish("sent hi to Alice")}},
		commitKeys: map[string]string{actionKey(send): key},
		failAfter:  map[string]error{actionKey(send): err},
	}
	return f, GoalInput{Goal: "send hi to Alice", Device: "emu-1"}, key
}

// A Send the phone took, then a think that got a non-retryable model error
// (an HTTP 400, as providers answer a refused image): the todo fails with
// the commit recorded, and the todo run after it does not send again; the
// goal does not end done with two sends (docs/design.md §4,
// ChangeKeepApplied).
func TestASendBeforeAFailedThinkIsNotSentAgain(t *testing.T) {
	f, in, key := sendWorld(temporal.NewNonRetryableApplicationError(
		"executor model: llm: http://model/v1/chat/completions: 400 Bad Request: the image was refused", activities.ErrTypeModelPermanent, nil))
	r := runGoal(t, newEnv(t, f), in)
	if n := f.sent[key]; n != 1 {
		t.Fatalf("the message went out %d times (goal %s); log:\n%s", n, r.Status, strings.Join(f.log, "\n"))
	}
	if len(r.Todos) == 0 {
		t.Fatalf("goal = %+v", r)
	}
	first := r.Todos[0]
	if !slices.Contains(first.CommitKeys, key) || len(first.Committed) == 0 {
		t.Errorf("the failed todo recorded no commit: %+v", first)
	}
	if !slices.Contains(f.log, "refused "+actionKey(tap(916, 875))) {
		t.Errorf("the todo run again did not refuse the same Send; log:\n%s", strings.Join(f.log, "\n"))
	}
	// The replanner was told of the Send.
	if len(f.replanInputs) == 0 || len(f.replanInputs[0].Done) == 0 || !strings.Contains(strings.Join(f.replanInputs[0].Done[0].Committed, " "), key) {
		t.Errorf("the replanner did not see the commit: %+v", f.replanInputs)
	}
}

// The same goal in a todo run from before ChangeKeepApplied (its marker at
// version 2) drops the Send's result and sends the message twice: what
// the change fixes, kept as it ran for histories recorded before it.
func TestASendBeforeAFailedThinkBeforeKeepApplied(t *testing.T) {
	f, in, key := sendWorld(temporal.NewNonRetryableApplicationError(
		"executor model: 400 Bad Request", activities.ErrTypeModelPermanent, nil))
	env := newEnv(t, f)
	env.OnGetVersion(ChangeTodoMarkersOnce, workflow.DefaultVersion, todoMarkersOnceLatest).Return(workflow.Version(2))
	runGoal(t, env, in)
	if n := f.sent[key]; n != 2 {
		t.Fatalf("the message went out %d times in a run from before the change; want the old path's 2", n)
	}
}

// An error after the Send that alone would have been retried (a blob
// store that did not answer) runs the step's look and think again without
// the Send: the todo goes on and ends done with one Send, recorded.
func TestARetryableErrorAfterASendRunsTheRestOfTheStepAgain(t *testing.T) {
	f, in, key := sendWorld(temporal.NewApplicationError("blob store: context deadline exceeded", activities.ErrTypeBlob))
	r := runGoal(t, newEnv(t, f), in)
	if n := f.sent[key]; n != 1 || r.Status != GoalDone {
		t.Fatalf("sent %d times, goal %s; log:\n%s", n, r.Status, strings.Join(f.log, "\n"))
	}
	if td := r.Todos[0]; td.Status != TodoDone || !slices.Contains(td.CommitKeys, key) {
		t.Fatalf("todo = %+v", td)
	}
	// The step after the failed one only looked and thought, told of the Send.
	var again *activities.StepInput
	for i, s := range f.steps {
		if s.In.Act != nil && actionKey(*s.In.Act) == actionKey(tap(916, 875)) && i+1 < len(f.steps) {
			again = &f.steps[i+1].In
			break
		}
	}
	if again == nil || again.Act != nil || !again.Think || !strings.Contains(again.PreviousAction, "Tap") || again.PreviousResult != "ok" {
		t.Fatalf("the step after the failed one = %+v", again)
	}
}
