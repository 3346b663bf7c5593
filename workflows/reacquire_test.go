package workflows

import (
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// reacquireHarness starts the lease and a real GoalWorkflow a on the
// phone; a minute later, while a waits with the phone given back, goal-b
// takes the phone for an hour. It returns a's result.
func reacquireHarness(ctx workflow.Context, in GoalInput) (GoalResult, error) {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial)})
	if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return GoalResult{}, err
	}
	a := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-a"}), GoalWorkflow, in)
	_ = workflow.Sleep(ctx, time.Minute)
	b := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-b"}),
		leaseTestGoal, leaseGoalSpec{Wait: true, HoldFor: time.Hour})
	var r GoalResult
	err := a.Get(ctx, &r)
	_ = b.Get(ctx, nil)
	return r, err
}

// A goal with device_wait "10m" that gave its phone back for a 20-minute
// wait finds goal-b holding it for an hour when the wait ends: it queues
// for the phone at most ten minutes, showing waiting_device, then fails
// naming goal-b and the wait, without a device step after the wait.
func TestBoundedReacquireFailsNamingTheHolder(t *testing.T) {
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })

	f := &fakeWorld{scripts: map[string][]autoglm.Action{"Open the Clock app": {launch("Clock"), finish("Clock is open")}}}
	env, _ := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflowWithOptions(reacquireHarness, workflow.RegisterOptions{Name: "reacquireHarness"})
	var waiting Status
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflowByID("goal-a", QueryStatus)
		if err != nil || v.Get(&waiting) != nil {
			t.Errorf("goal-a's status query: %v", err)
		}
	}, 25*time.Minute)
	env.ExecuteWorkflow(reacquireHarness, GoalInput{Goal: "in 20 minutes open the Clock app", Device: leaseTestSerial,
		Options: GoalOptions{Plan: []string{"Wait 20 minutes", "Open the Clock app"}, DeviceWait: "10m", TimeZone: "UTC"}})
	// A goal that ends failed closes as Failed (docs/design.md §6).
	err := env.GetWorkflowError()
	if err == nil {
		t.Fatal("goal-a ended without an error; want it failed after its 10m wait for the phone back")
	}
	if waiting.Phase != GoalWaitingDevice || !strings.Contains(waiting.WaitingFor, "held by goal goal-b") || !strings.Contains(waiting.WaitingFor, "gives up at ") {
		t.Errorf("status while asking for the phone back = phase %q, waiting_for %q; want %q naming goal-b and when it gives up",
			waiting.Phase, waiting.WaitingFor, GoalWaitingDevice)
	}
	msg := err.Error()
	if !strings.Contains(msg, "goal failed: device "+leaseTestSerial+" is busy: goal goal-b") || !strings.Contains(msg, "device_wait of 10m0s") {
		t.Errorf("goal-a's end = %q, want failed naming goal-b and the 10m wait", msg)
	}
	for _, s := range f.steps {
		if strings.HasPrefix(s.WorkflowID, "goal-a") {
			t.Fatalf("goal-a acted on the phone after its wait: %+v", s)
		}
	}
}
