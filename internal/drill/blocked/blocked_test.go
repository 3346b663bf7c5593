package blocked

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// brokenGoal is GoalWorkflow as a bad deploy ships it for the goal named
// broken: a timer added before everything else without a version guard,
// so replaying that goal's history fails its workflow task with a
// non-determinism error. Every other goal runs the real code.
func brokenGoal(broken string) func(workflow.Context, workflows.GoalInput) (workflows.GoalResult, error) {
	return func(ctx workflow.Context, in workflows.GoalInput) (workflows.GoalResult, error) {
		if workflow.GetInfo(ctx).WorkflowExecution.ID == broken {
			_ = workflow.NewTimer(ctx, time.Hour)
		}
		return workflows.GoalWorkflow(ctx, in)
	}
}

func TestBlockedHolderLosesThePhone(t *testing.T) {
	ctx := context.Background()
	cfg := drilltest.Config(t)
	cfg.Limits.BlockedHolderAfter = blockedAfter
	cfg.Limits.LeaseCheckInterval = checkInterval
	s, err := stack.Start(ctx, stack.Options{ADB: stack.BuiltinADB, Config: cfg, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	serial, phone := s.Serials[0], s.Phones[0]
	// One worker at a time serves the stack: the right code first, then a
	// broken deploy, then the fix.
	stopWorker := func() {}
	swap := func(o app.WorkerOptions) {
		t.Helper()
		stopWorker()
		wctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		stop, err := s.StartWorkerOptions(wctx, s.Config, o)
		if err != nil {
			t.Fatal(err)
		}
		stopWorker = stop
		t.Cleanup(stop)
	}
	swap(app.WorkerOptions{})

	start := func(text string) string {
		t.Helper()
		id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: serial})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	until := func(id, what string, within time.Duration, ok func(workflows.Status) bool) workflows.Status {
		t.Helper()
		deadline := time.Now().Add(within)
		var last workflows.Status
		for time.Now().Before(deadline) {
			qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			st, err := s.Goals.Status(qctx, id)
			cancel()
			if err == nil {
				if ok(st) {
					return st
				}
				last = st
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Fatalf("%s never %s; last status %+v", id, what, last)
		return last
	}
	lease := func() workflows.LeaseState {
		t.Helper()
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		v, err := s.Client.QueryWorkflow(qctx, workflows.LeaseWorkflowID(serial), "", workflows.QueryLease)
		var st workflows.LeaseState
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Logf("lease query: %v", err)
		}
		return st
	}
	send := func(id, name string, arg any, asSignal bool) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := s.Goals.Send(sctx, id, name, arg, asSignal); err != nil {
			t.Fatalf("%s %s: %v", name, id, err)
		}
	}

	// Goal a drives the phone, then waits paused mid-todo, holding it;
	// goal b queues behind it.
	a := start("blocked drill a")
	until(a+"/todo-1", "reached its second step", 3*time.Minute, func(st workflows.Status) bool { return st.Steps >= 2 })
	send(a, workflows.SignalPause, nil, false)
	until(a+"/todo-1", "paused mid-todo", time.Minute, func(st workflows.Status) bool { return st.Paused && st.WaitingFor != "" })
	b := start("blocked drill b")
	until(b, "queued for the phone", time.Minute, func(st workflows.Status) bool { return strings.Contains(st.WaitingFor, "device busy: held by "+a) })

	// A bad deploy: the new worker cannot replay goal a. A note sent to
	// the goal gives it a workflow task, which fails from then on.
	swap(app.WorkerOptions{GoalWorkflow: brokenGoal(a)})
	broken := time.Now()
	send(a, workflows.SignalInject, "a note the broken goal cannot read", true)
	var revoked workflows.RevokedHolder
	var revokedInputs int
	deadline := time.Now().Add(2 * time.Minute)
	for revoked.GoalID == "" {
		if time.Now().After(deadline) {
			t.Fatalf("the lease never took the phone from the blocked goal; lease %+v", lease())
		}
		time.Sleep(200 * time.Millisecond)
		if l := lease(); len(l.Revoked) > 0 {
			revoked, revokedInputs = l.Revoked[0], len(phone.State().InputLog)
		}
	}
	if revoked.GoalID != a || !strings.Contains(revoked.Reason, "phone taken from goal "+a+": its workflow task has failed since") ||
		!strings.Contains(revoked.Reason, "[TMPRL1100]") {
		t.Errorf("revoked %+v, want goal a with the workflow task's error", revoked)
	}
	took := time.Since(broken)
	// `starter devices` and `starter status` read the reason from the lease.
	if note := s.Goals.LeaseNote(ctx, serial); note != revoked.Reason {
		t.Errorf("devices note %q, want the lease's reason", note)
	}
	if why := s.Goals.RevokedFrom(ctx, serial, a); why != revoked.Reason {
		t.Errorf("status note %q, want the lease's reason", why)
	}
	t.Logf("%s variant: the phone was taken from the blocked goal %s after its first failed task (bound %s, checks every %s): %s",
		variant, took.Round(100*time.Millisecond), blockedAfter, checkInterval, revoked.Reason)
	if strict && took > blockedAfter+2*checkInterval+10*time.Second {
		t.Errorf("the phone changed hands %s after the goal blocked, want within %s plus a check", took, blockedAfter)
	}
	rctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	res, err := s.Goals.Result(rctx, b)
	if err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("goal b: %v %s %s", err, res.Status, res.Reason)
	}
	bDone := len(phone.State().InputLog)
	if d := describeTask(t, s, a); d < 2 {
		t.Errorf("goal a's workflow task is on attempt %d while the broken worker runs, want it failing", d)
	}

	// The fix is deployed: goal a runs again, is resumed, finds the phone
	// taken (its step is refused), asks for it and ends done.
	swap(app.WorkerOptions{})
	// As a signal: the server refuses updates while the goal's workflow
	// task is failed and waits out its retry backoff.
	send(a, workflows.SignalResume, nil, true)
	res, err = s.Goals.Result(rctx, a)
	if err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("goal a after the fix: %v %s %s (next: %s)", err, res.Status, res.Reason, res.NextStep)
	}
	if l := lease(); len(l.Revoked) != 0 {
		t.Errorf("goal a still fenced after it held the phone again: %+v", l.Revoked)
	}

	// The phone's input log: between the revoke and goal b's end only b
	// acted, and goal a's message went out once, after b's.
	log := phone.State().InputLog
	for _, e := range log[revokedInputs:bDone] {
		if slices.ContainsFunc(e.Args, func(s string) bool { return strings.Contains(s, "blocked drill a") }) {
			t.Errorf("goal a typed on the phone while it was revoked: %+v", e)
		}
	}
	var sent []string
	for _, m := range phone.State().MessagesSent {
		sent = append(sent, m.Text)
	}
	if strings.Join(sent, "|") != "blocked drill b|blocked drill a" {
		t.Errorf("messages sent = %q, want b's then a's, once each", sent)
	}
	refusedBeforeRegrant(t, s, a)
}

// describeTask is the attempt of the goal's pending workflow task (0: none).
func describeTask(t *testing.T, s *stack.Stack, id string) int32 {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := s.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	return d.GetPendingWorkflowTask().GetAttempt()
}

// refusedBeforeRegrant checks goal a's todo: its first device action after
// the fix was refused by the lease (PhoneLeaseLost), and the goal got the
// phone again only after that.
func refusedBeforeRegrant(t *testing.T, s *stack.Stack, goal string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	todo, err := drill.History(ctx, s.Client, goal+"/todo-1")
	if err != nil {
		t.Fatal(err)
	}
	var refused time.Time
	for _, e := range todo {
		if e.GetEventType() != enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED {
			continue
		}
		if f := e.GetActivityTaskFailedEventAttributes().GetFailure(); f.GetApplicationFailureInfo().GetType() == workflows.ErrTypePhoneLeaseLost {
			refused = e.GetEventTime().AsTime()
			t.Logf("goal a's step refused: %s", f.GetMessage())
			break
		}
	}
	if refused.IsZero() {
		t.Fatal("goal a's todo never had a step refused by the lease")
	}
	hist, err := drill.History(ctx, s.Client, goal)
	if err != nil {
		t.Fatal(err)
	}
	var grants []time.Time
	for _, e := range hist {
		if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED && e.GetWorkflowExecutionSignaledEventAttributes().GetSignalName() == workflows.SignalLeaseGranted {
			grants = append(grants, e.GetEventTime().AsTime())
		}
	}
	if len(grants) < 2 || grants[len(grants)-1].Before(refused) {
		t.Errorf("goal a's grants at %v, want a new one after its refused step at %v", grants, refused)
	}
}
