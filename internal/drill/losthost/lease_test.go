package losthost

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestLeaseTerminatedMidGoal terminates the phone's lease workflow while
// goal a drives the phone, then starts goal b on the same phone. The lease
// b's request starts again must learn from the goals that a holds the
// phone (docs/design.md §5): b waits ("device busy: held by a") and uses
// the phone only after a's last phone activity closed and the lease took
// a's release; both end done, each message sent once.
func TestLeaseTerminatedMidGoal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two goals on the embedded server")
	}
	ctx := context.Background()
	st, err := stack.Start(ctx, stack.Options{Config: drilltest.Config(t), ADB: stack.BuiltinADB,
		Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	stop, err := st.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	serial := st.Serials[0]
	a := sendGoal(t, st, "lease drill a")
	waitActing(t, st, a)
	if err := st.Client.TerminateWorkflow(ctx, workflows.LeaseWorkflowID(serial), "", "drill: the lease is lost"); err != nil {
		t.Fatal(err)
	}
	b := sendGoal(t, st, "lease drill b")
	if s, ok := waitStatus(st, b, 2*time.Minute, func(s workflows.Status) bool {
		return strings.Contains(s.WaitingFor, "device busy: held by "+a)
	}); !ok {
		t.Fatalf("goal b does not wait for a after the lease was terminated: %+v", s)
	}
	rctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	for _, id := range []string{a, b} {
		res, err := st.Goals.Result(rctx, id)
		if err != nil || res.Status != workflows.GoalDone {
			t.Fatalf("goal %s: %v %s %s", id, err, res.Status, res.Reason)
		}
	}
	// The guarantee is about the phone, not a's workflow close: a releases
	// the phone before it closes, so b may rightly start in between.
	h, err := drill.ReadHandover(ctx, st.Client, serial, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Check(st.Phones[0].State().InputLog); err != nil {
		t.Error(err)
	}
	var sent []string
	for _, m := range st.Phones[0].State().MessagesSent {
		sent = append(sent, m.Text)
	}
	if strings.Join(sent, "|") != "lease drill a|lease drill b" {
		t.Errorf("messages sent = %q, want a's then b's, once each", sent)
	}
}

// TestDoubleBookingIsCaught forges a double-booking on the embedded server:
// while goal a drives the phone, goal b, queued behind it, is sent the
// grant the lease would send it. The handover check must say the phone was
// double-booked: a check that passed here would pass anything.
func TestDoubleBookingIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two goals on the embedded server")
	}
	ctx := context.Background()
	st := stacktest.Start(ctx, t, stack.Options{Config: drilltest.Config(t), ADB: stack.BuiltinADB})
	serial := st.Serials[0]
	a := sendGoal(t, st, "forged grant a")
	waitActing(t, st, a)
	b := sendGoal(t, st, "forged grant b")
	if s, ok := waitStatus(st, b, 2*time.Minute, func(s workflows.Status) bool {
		return strings.Contains(s.WaitingFor, "device busy: held by "+a)
	}); !ok {
		t.Fatalf("goal b does not wait for a: %+v", s)
	}
	v, err := st.Client.QueryWorkflow(ctx, b, "", workflows.QueryLeaseClaim)
	if err != nil {
		t.Fatal(err)
	}
	var claim activities.LeaseClaim
	if err := v.Get(&claim); err != nil || claim.RequestID == "" {
		t.Fatalf("goal b's lease claim: %+v, %v", claim, err)
	}
	grant := activities.LeaseGrant{Serial: serial, GoalID: b, RequestID: claim.RequestID}
	if err := st.Client.SignalWorkflow(ctx, b, "", workflows.SignalLeaseGranted, grant); err != nil {
		t.Fatal(err)
	}
	queue := workflows.DeviceTaskQueue(serial)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(200 * time.Millisecond) {
		uses, err := drill.GoalPhoneUses(ctx, st.Client, b, queue)
		if err == nil && len(uses) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("goal b never used the phone after the forged grant (%v)", err)
		}
	}
	h, err := drill.ReadHandover(ctx, st.Client, serial, a, b)
	if err != nil {
		t.Fatal(err)
	}
	err = h.Check(st.Phones[0].State().InputLog)
	if err == nil || !strings.Contains(err.Error(), "double-booked") {
		t.Fatalf("the handover check said %v on a forged double-booking, want it to name it", err)
	}
	t.Logf("caught: %v", err)
}

// sendGoal starts a goal on the stack's phone that sends text to Alice Chen.
func sendGoal(t *testing.T, st *stack.Stack, text string) string {
	t.Helper()
	id, _, err := st.Goals.Start(context.Background(), goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: st.Serials[0]})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// waitActing waits until goal id's first todo has taken two steps: the goal
// holds the phone and drives it.
func waitActing(t *testing.T, st *stack.Stack, id string) {
	t.Helper()
	if _, ok := waitStatus(st, id+"/todo-1", 3*time.Minute, func(s workflows.Status) bool { return s.Steps >= 2 }); !ok {
		t.Fatalf("goal %s's todo never took two steps", id)
	}
}
