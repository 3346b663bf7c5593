package workflows

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestTodoContinueAsNewCarriesExecutorContext(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": {tap(1, 1), tap(2, 2), tap(3, 3), finish("ok")}}}
	env := newEnv(t, f)
	env.SetCurrentHistoryLength(1000)
	in := TodoInput{Index: 1, Task: "t", Device: "emu-1", StepBudget: 50, MaxSteps: 30, UITree: true,
		FailureThreshold: 3, StuckThreshold: 3, MaxStuckRetries: 2, HistoryEventLimit: 500,
		State: &TodoRunState{Steps: 4, Turns: 2, HistoryRef: "sha256:earlier-turns"}}
	env.ExecuteWorkflow(TodoWorkflow, in)
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("want continue-as-new, got %v", err)
	}
	var next TodoInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	if next.State == nil || next.State.Steps != 4 || next.State.HistoryRef != "sha256:earlier-turns" || next.Task != "t" {
		t.Fatalf("carried = %+v", next.State)
	}
	if len(f.steps) != 0 {
		t.Fatal("stepped before continuing as new")
	}

	// The continued run picks up the carried context.
	f2 := &fakeWorld{scripts: f.scripts}
	env2 := newEnv(t, f2)
	next.HistoryEventLimit = 0
	env2.ExecuteWorkflow(TodoWorkflow, next)
	var r TodoResult
	if err := env2.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if r.Status != TodoDone || r.Steps != 4+7 || f2.steps[0].In.HistoryRef != "sha256:earlier-turns" {
		t.Fatalf("result = %+v first step = %+v", r, f2.steps[0].In)
	}
}

func TestTodoStandaloneSignals(t *testing.T) {
	// A todo signalled directly (no parent goal) gates the same way.
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": {sensitiveTap(5, 5, "buy"), finish("bought")}}}
	env := newEnv(t, f)
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalInject, "pick the cheapest")
		env.SignalWorkflow(SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	// Limits left unset take the goal defaults.
	env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1"})
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if r.Status != TodoDone || r.Result != "bought" || len(f.acts()) != 1 {
		t.Fatalf("result = %+v acts = %v", r, f.acts())
	}
	if !slices.Contains(f.steps[1].In.Notes, "pick the cheapest") {
		t.Fatalf("notes = %v", f.steps[1].In.Notes)
	}
}

func TestGoalUsesDeviceLease(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"a": {finish("ok")}}}
	env := newEnv(t, f)
	var released, waitedFor string
	DeviceLease = func(ctx workflow.Context, serial, goalID string, wait bool, waiting func(string)) (func(workflow.Context), error) {
		if !wait || serial != "emu-1" || goalID != testGoalID {
			t.Errorf("lease(%q, %q, %v)", serial, goalID, wait)
		}
		waiting("device busy: held by goal-other")
		if err := workflow.Sleep(ctx, time.Hour); err != nil {
			return nil, err
		}
		waiting("")
		return func(workflow.Context) { released = goalID }, nil
	}
	env.RegisterDelayedCallback(func() { waitedFor = status(t, env).WaitingFor }, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"a"}}})
	if r.Status != GoalDone || released != testGoalID || waitedFor != "device busy: held by goal-other" {
		t.Fatalf("result = %+v released = %q waited for %q", r, released, waitedFor)
	}

	f2 := &fakeWorld{}
	env2 := newEnv(t, f2)
	DeviceLease = func(workflow.Context, string, string, bool, func(string)) (func(workflow.Context), error) {
		return nil, &DeviceBusyError{Serial: "emu-1", Holder: "goal-other"}
	}
	r = runGoal(t, env2, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"a"}, DeviceWait: DeviceWaitFail}})
	if r.Status != GoalFailed || len(f2.steps) != 0 || r.Todos[0].Status != TodoPending {
		t.Fatalf("busy result = %+v", r)
	}
}

// TestHistoryBudgetPerStep measures what a 20-step goal puts in history per
// executor step. The test environment keeps no real history, so events are
// counted from the commands the workflows issue (each activity or child is
// scheduled/started/completed plus the workflow task that reacts to it),
// and bytes are the JSON payloads of every activity input and result.
func TestHistoryBudgetPerStep(t *testing.T) {
	var long []autoglm.Action
	for i := range 9 {
		long = append(long, tap(100+i*50, 300))
	}
	long = append(long, finish("done"))
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"a": long, "b": long},
		replans: []activities.PlanDecision{{Status: activities.PlanReplanned, Plan: []string{"b"}}, {Status: activities.PlanDone, Response: "ok"}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"a", "b"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	executorSteps := 0
	for _, s := range f.steps {
		if s.In.Think {
			executorSteps++
		}
	}
	activitiesRun := len(f.steps) + len(f.replanInputs)
	events := estimateEvents(activitiesRun, len(f.optimized), 2, 0)
	bytes := f.stepBytes
	for _, in := range f.replanInputs {
		bytes += jsonSize(in) + 100
	}
	perStepEvents := float64(events) / float64(executorSteps)
	perStepBytes := float64(bytes) / float64(executorSteps)
	t.Logf("20-step goal: %d executor steps, %d activities, ~%d events (%.1f per step), %d payload bytes (%.0f per step)",
		executorSteps, activitiesRun, events, perStepEvents, bytes, perStepBytes)
	if executorSteps != 20 || perStepEvents >= 12 || perStepBytes >= 4096 {
		t.Fatalf("over budget: %d steps, %.1f events and %.0f bytes per step", executorSteps, perStepEvents, perStepBytes)
	}
}

// TestThousandStepGoal runs a goal of more than 1,000 executor steps and
// checks, from what each run scheduled, that no run's history comes near
// the 10,240-event warning: todos are capped at 30 counted steps each and
// the goal only grows by a child and a replan per todo.
func TestThousandStepGoal(t *testing.T) {
	const todos, taps = 70, 14 // 15 thinks + 14 acts = 29 steps per todo
	var plan []string
	f := &fakeWorld{scripts: map[string][]autoglm.Action{}}
	for i := range todos {
		name := fmt.Sprintf("todo %d", i+1)
		plan = append(plan, name)
		var acts []autoglm.Action
		for j := range taps {
			acts = append(acts, tap(10+j*60, 100+i*10))
		}
		f.scripts[name] = append(acts, finish("ok"))
	}
	f.replanFn = func(in activities.ReplanInput) activities.PlanDecision {
		if len(in.Remaining) == 0 {
			return activities.PlanDecision{Status: activities.PlanDone, Response: "all done"}
		}
		return activities.PlanDecision{Status: activities.PlanReplanned, Plan: in.Remaining}
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "long", Device: "emu-1", Options: GoalOptions{Plan: plan, MaxSteps: 3000}})
	if r.Status != GoalDone || len(r.Todos) != todos {
		t.Fatalf("result: %s %s, %d todos", r.Status, r.Reason, len(r.Todos))
	}
	perRun := map[string]int{}
	thinks := 0
	for _, s := range f.steps {
		perRun[s.WorkflowID]++
		if s.In.Think {
			thinks++
		}
	}
	maxChild := 0
	for _, n := range perRun {
		// A todo run: 6 per step, its start, first task and completion (5).
		maxChild = max(maxChild, n*6+5)
	}
	goalEvents := estimateEvents(len(f.replanInputs), 0, todos, 0)
	t.Logf("%d executor steps in %d todos: goal run ~%d events, largest todo run ~%d events", thinks, todos, goalEvents, maxChild)
	if thinks < 1000 || goalEvents >= 10240 || maxChild >= 10240 {
		t.Fatalf("%d steps; goal ~%d events, todo ~%d events", thinks, goalEvents, maxChild)
	}
}

func TestTodoStepFailureCountsAndFails(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, worker.Options{Interceptors: Interceptors()})
	env.RegisterWorkflow(TodoWorkflow)
	calls := 0
	env.RegisterActivityWithOptions(func(context.Context, activities.StepInput) (activities.StepResult, error) {
		calls++
		return activities.StepResult{}, temporal.NewNonRetryableApplicationError("executor model: bad key: check api_key", activities.ErrTypeModelPermanent, nil)
	}, activity.RegisterOptions{Name: activities.NameStep})
	env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1"})
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if r.Status != TodoFailed || r.Steps != 1 || calls != 1 || r.Result != "step failed: executor model: bad key: check api_key" {
		t.Fatalf("result = %+v after %d calls", r, calls)
	}
}

// A todo that reaches its step cap is verified on the screen its last step
// left: done when the verdict is, the cap's failure otherwise.
func TestTodoAtStepCapIsVerified(t *testing.T) {
	taps := []autoglm.Action{tap(1, 1), tap(2, 2), tap(3, 3), tap(4, 4), tap(5, 5), tap(6, 6)}
	run := func(refute map[string]string) (TodoResult, *fakeWorld) {
		f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": taps}, refute: refute}
		env := newEnv(t, f)
		env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1", StepBudget: 50, MaxSteps: 4})
		var r TodoResult
		if err := env.GetWorkflowResult(&r); err != nil {
			t.Fatal(err)
		}
		return r, f
	}
	r, f := run(nil)
	if r.Status != TodoDone || !r.Verified || !strings.Contains(r.Result, "step cap reached") || len(f.verifies) != 1 || f.verifies[0].Message != "" {
		t.Fatalf("verified at the cap: result = %+v verifies = %+v", r, f.verifies)
	}
	r, f = run(map[string]string{"": "the conversation shows no such message"})
	if r.Status != TodoFailed || r.Verified || !strings.Contains(r.Result, "step cap reached") || r.Evidence != "the conversation shows no such message" || len(f.verifies) != 1 {
		t.Fatalf("refuted at the cap: result = %+v verifies = %d", r, len(f.verifies))
	}
}
