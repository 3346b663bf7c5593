package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestScheduledRunOutcome creates a schedule on the embedded server with
// the policies phones need, triggers a run, and checks that describe reads
// the run's outcome, its model calls and the failed-run count from
// visibility.
func TestScheduledRunOutcome(t *testing.T) {
	env, g := stack(t, config.ProtocolPhoneflow)
	ctx := context.Background()
	// The phone's worker starts polling shortly after the stack is up.
	for start := time.Now(); ; time.Sleep(200 * time.Millisecond) {
		err := g.CheckDevice(ctx, env.Serial)
		if err == nil {
			break
		}
		if time.Since(start) > 30*time.Second {
			t.Fatalf("the stack's phone is not served: %v", err)
		}
	}
	req := goalctl.ScheduleRequest{Name: "bt", Goal: "Turn on Bluetooth", Device: env.Serial, Every: time.Hour,
		Jitter: time.Second, RunTimeout: 10 * time.Minute, PauseOnFailure: true}
	if err := g.CreateSchedule(ctx, req); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.DeleteSchedule(context.Background(), "bt") })
	if err := g.TriggerSchedule(ctx, "bt"); err != nil {
		t.Fatal(err)
	}
	var si goalctl.ScheduleInfo
	deadline := time.Now().Add(30 * time.Second)
	for len(si.Recent) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the triggered run never started")
		}
		time.Sleep(200 * time.Millisecond)
		var err error
		if si, err = g.DescribeSchedule(ctx, "bt"); err != nil {
			t.Fatal(err)
		}
	}
	res := waitResult(t, g, si.Recent[0].WorkflowID, 5*time.Minute)
	if res.Status != workflows.GoalDone || !env.Phone.State().Toggles.Bluetooth {
		t.Fatalf("scheduled run ended %s: %s", res.Status, res.Reason)
	}
	si, err := g.DescribeSchedule(ctx, "bt")
	if err != nil {
		t.Fatal(err)
	}
	if si.Overlap != goalctl.DefaultOverlap || si.Catchup != goalctl.DefaultCatchup || si.Jitter != time.Second ||
		si.RunTimeout != 10*time.Minute || !si.PauseOnFailure {
		t.Errorf("policies read back = overlap %s catchup %v jitter %v timeout %v pause %t", si.Overlap, si.Catchup, si.Jitter, si.RunTimeout, si.PauseOnFailure)
	}
	if si.Counts == nil || si.Counts.Failed != 0 {
		t.Errorf("counts = %+v, want 0 failed runs (and the visibility query accepted)", si.Counts)
	}
	if len(si.Outcomes) != 1 || si.Outcomes[0].Status != workflows.GoalDone || si.Outcomes[0].Usage.Executor.Calls == 0 ||
		si.Usage == nil || si.Usage.Executor.Calls != si.Outcomes[0].Usage.Executor.Calls {
		t.Errorf("outcomes = %+v, usage = %+v; want one done run with its executor calls", si.Outcomes, si.Usage)
	}
	if res.Usage != si.Outcomes[0].Usage {
		t.Errorf("run usage %+v differs from the goal's %+v", si.Outcomes[0].Usage, res.Usage)
	}
	var b bytes.Buffer
	goalctl.WriteSchedule(&b, si)
	t.Logf("schedule describe:\n%s", strings.TrimSpace(b.String()))
}
