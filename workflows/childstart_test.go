package workflows

import (
	"slices"
	"sync"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// These tests hold the goal's side of a todo's start (docs/design.md §6):
// the goal never starts two TodoWorkflows under one workflow ID (the SDK
// keys a child's commands by its workflow ID, so a second start under an ID
// it still tracks fails the start and an event of the first child would
// land on the second), and a cancel or steering that arrives as a todo
// starts is applied once the start is acknowledged, never to a child whose
// start command is not yet sent.

// startedTodos records the workflow IDs of the todos a goal starts, in
// order.
type startedTodos struct {
	mu  sync.Mutex
	ids []string
}

func (s *startedTodos) add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids = append(s.ids, id)
}

func (s *startedTodos) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.ids)
}

// A goal whose replanner replaces the remaining todos after every todo,
// re-plans a failed one with the same text and drops a pending todo that
// never ran starts each todo under its own workflow ID: replaced todos
// take indexes after the ones that ran.
func TestGoalNeverStartsTwoTodosUnderOneID(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"message Alice": {launch("Messages"), finish("sent to Alice")},
		"message Bob":   {launch("Messages"), finish("could not find Bob: failed")},
		"message Carol": {launch("Messages"), finish("sent to Carol")},
	}}
	replans := 0
	f.replanFn = func(in activities.ReplanInput) activities.PlanDecision {
		replans++
		switch replans {
		case 1: // after Alice: Bob and Carol, replacing the remaining Bob
			return activities.PlanDecision{Status: activities.PlanReplanned, Plan: []string{"message Bob", "message Carol"}}
		case 2: // after Bob failed: Bob again, dropping the pending Carol
			return activities.PlanDecision{Status: activities.PlanReplanned, Plan: []string{"message Bob", "message Carol"}}
		case 3:
			return activities.PlanDecision{Status: activities.PlanReplanned, Plan: in.Remaining}
		}
		if len(in.Remaining) > 0 {
			return activities.PlanDecision{Status: activities.PlanReplanned, Plan: in.Remaining}
		}
		return activities.PlanDecision{Status: activities.PlanDone, Response: "sent",
			Dropped: []activities.Dropped{{Todo: "message Bob", Reason: "Bob is not a contact"}}}
	}
	env := newEnv(t, f)
	var started startedTodos
	env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
		started.add(info.WorkflowExecution.ID)
	})
	r := runGoal(t, env, GoalInput{Goal: "tell Alice, Bob and Carol", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"message Alice", "message Bob"}}})
	ids := started.list()
	t.Logf("started %v; todos %v", ids, todoStatuses(r))
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("todo workflow ID %s started twice: %v", id, ids)
		}
		seen[id] = true
	}
	if len(ids) < 4 {
		t.Fatalf("started %v, want Alice, Bob, Bob again and Carol", ids)
	}
	for i, td := range r.Todos {
		if td.Index != i+1 {
			t.Fatalf("todo %d carries index %d: %+v", i+1, td.Index, r.Todos)
		}
	}
}

// A cancel that reaches the goal as its todo starts ends the todo and the
// goal cleanly: the goal closes as Canceled with its result, the todo is
// cancelled, and nothing reaches the phone.
func TestGoalCancelledAsItsTodoStarts(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"message Alice": {launch("Messages"), finish("sent")},
		"message Bob":   {launch("Messages"), finish("sent")},
	}}
	env := newEnv(t, f)
	var once sync.Once
	env.SetOnChildWorkflowStartedListener(func(*workflow.Info, workflow.Context, converter.EncodedValues) {
		once.Do(env.CancelWorkflow)
	})
	acted := 0
	env.SetOnActivityCompletedListener(func(info *activity.Info, _ converter.EncodedValue, _ error) {
		if info.ActivityType.Name == activities.NameStep {
			acted++
		}
	})
	env.ExecuteWorkflow(GoalWorkflow, GoalInput{Goal: "tell Alice and Bob", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"message Alice", "message Bob"}}})
	if !env.IsWorkflowCompleted() {
		t.Fatal("goal did not complete")
	}
	err := env.GetWorkflowError()
	var r GoalResult
	if !temporal.IsCanceledError(err) || !CanceledResult(err, &r) {
		t.Fatalf("goal ended with %v, want a cancellation carrying the result", err)
	}
	if r.Status != GoalCancelled || !slices.Equal(todoStatuses(r), []string{TodoCancelled, TodoCancelled}) {
		t.Fatalf("result = %+v", r)
	}
	if len(f.acts()) != 0 {
		t.Fatalf("acted after the cancel: %v (%d steps)", f.acts(), acted)
	}
}

// Steering sent as the todo starts reaches that todo once, after its start
// is acknowledged: an inject is applied by the todo's executor, an answer
// to nothing is not invented, and the goal ends done with nothing unused.
func TestGoalSteeringSentAsItsTodoStarts(t *testing.T) {
	const note = "use the number ending 42"
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"message Alice": {launch("Messages"), tap(1, 1), finish("sent")},
	}}
	env := newEnv(t, f)
	var once sync.Once
	env.SetOnChildWorkflowStartedListener(func(*workflow.Info, workflow.Context, converter.EncodedValues) {
		once.Do(func() {
			env.SignalWorkflow(SignalPause, nil)
			env.SignalWorkflow(SignalInject, note)
			env.SignalWorkflow(SignalResume, nil)
		})
	})
	r := runGoal(t, env, GoalInput{Goal: "tell Alice", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"message Alice"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if len(r.Unused) != 0 {
		t.Fatalf("inject left unused: %v", r.Unused)
	}
	got := 0
	for _, s := range f.steps {
		if slices.Contains(s.In.Notes, note) {
			got++
		}
	}
	if got == 0 {
		t.Fatalf("the todo's executor never saw the inject %q", note)
	}
}
