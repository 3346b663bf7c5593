package workflows

import (
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// busyWaitHarness starts the lease, lets goal-a hold the phone for an hour,
// then starts a real GoalWorkflow b on the phone and returns its result.
func busyWaitHarness(ctx workflow.Context, in GoalInput) (GoalResult, error) {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial)})
	if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return GoalResult{}, err
	}
	a := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-a"}),
		leaseTestGoal, leaseGoalSpec{Wait: true, HoldFor: time.Hour})
	_ = workflow.Sleep(ctx, time.Minute)
	var r GoalResult
	err := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-b"}), GoalWorkflow, in).Get(ctx, &r)
	_ = a.Get(ctx, nil)
	return r, err
}

// A goal with device_wait "10m" queues for a phone goal-a holds for an
// hour: meanwhile its status is waiting_device and names the holder, since
// when and when it gives up; after ten minutes it fails naming goal-a,
// without a device step.
func TestBoundedDeviceWaitFailsNamingTheHolder(t *testing.T) {
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })

	f := &fakeWorld{scripts: map[string][]autoglm.Action{"b1": {tap(4, 4), finish("b1")}}}
	env, _ := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflowWithOptions(busyWaitHarness, workflow.RegisterOptions{Name: "busyWaitHarness"})
	var waiting Status
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflowByID("goal-b", QueryStatus)
		if err != nil || v.Get(&waiting) != nil {
			t.Errorf("goal-b's status query: %v", err)
		}
	}, 6*time.Minute)
	start := env.Now()
	env.ExecuteWorkflow(busyWaitHarness, GoalInput{Goal: "b", Device: leaseTestSerial,
		Options: GoalOptions{Plan: []string{"b1"}, DeviceWait: "10m", TimeZone: "UTC"}})
	// A goal that ends failed closes as Failed (docs/design.md §6).
	err := env.GetWorkflowError()
	if err == nil {
		t.Fatal("goal-b ended without an error; want it failed after its 10m wait")
	}
	if waiting.Phase != GoalWaitingDevice {
		t.Errorf("phase while waiting = %q, want %q", waiting.Phase, GoalWaitingDevice)
	}
	giveUp := start.Add(11 * time.Minute).UTC().Format("15:04")
	heldSince := start.UTC().Format("15:04")
	want := "waiting for phone " + leaseTestSerial + ", held by goal goal-a since " + heldSince + " UTC; gives up at " + giveUp + " UTC"
	if waiting.WaitingFor != want {
		t.Errorf("waiting_for = %q, want %q", waiting.WaitingFor, want)
	}
	msg := err.Error()
	if !strings.Contains(msg, "goal failed: device "+leaseTestSerial+" is busy: goal goal-a") || !strings.Contains(msg, "device_wait of 10m0s") ||
		!strings.Contains(msg, "next: wait for goal goal-a") {
		t.Errorf("goal-b's end = %q, want failed naming goal-a and the 10m wait", msg)
	}
	for _, s := range f.steps {
		if strings.HasPrefix(s.WorkflowID, "goal-b") {
			t.Fatalf("goal-b acted on the phone it never held: %+v", s)
		}
	}
}

func TestCheckDeviceWait(t *testing.T) {
	for _, ok := range []string{"", "wait", "fail", "10m", "90s"} {
		if err := CheckDeviceWait(ok); err != nil {
			t.Errorf("CheckDeviceWait(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"soon", "0s", "-5m"} {
		if err := CheckDeviceWait(bad); err == nil {
			t.Errorf("CheckDeviceWait(%q) accepted", bad)
		}
	}
}
