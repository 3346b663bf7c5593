package losthost

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestLeaseTerminatedMidGoal terminates the phone's lease workflow while
// goal a drives the phone, then starts goal b on the same phone. The lease
// b's request starts again must learn from the goals that a holds the
// phone (docs/design.md §24): b waits ("device busy: held by a") and its
// first todo starts only after a has ended; both end done, each message
// sent once.
func TestLeaseTerminatedMidGoal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two goals on the embedded server")
	}
	ctx := context.Background()
	st, err := stack.Start(ctx, stack.Options{ADB: stack.BuiltinADB,
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
	start := func(text string) string {
		id, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: serial})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a := start("lease drill a")
	if _, ok := waitStatus(st, a+"/todo-1", 3*time.Minute, func(s workflows.Status) bool { return s.Steps >= 2 }); !ok {
		t.Fatal("goal a's todo never took two steps")
	}
	if err := st.Client.TerminateWorkflow(ctx, workflows.LeaseWorkflowID(serial), "", "drill: the lease is lost"); err != nil {
		t.Fatal(err)
	}
	b := start("lease drill b")
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
	da, err := st.Client.DescribeWorkflowExecution(ctx, a, "")
	if err != nil {
		t.Fatal(err)
	}
	db, err := st.Client.DescribeWorkflowExecution(ctx, b+"/todo-1", "")
	if err != nil {
		t.Fatal(err)
	}
	aClosed, bTodo := da.GetWorkflowExecutionInfo().GetCloseTime().AsTime(), db.GetWorkflowExecutionInfo().GetStartTime().AsTime()
	if bTodo.Before(aClosed) {
		t.Errorf("goal b's first todo started at %v, before goal a closed at %v: the phone was double-booked", bTodo, aClosed)
	}
	var sent []string
	for _, m := range st.Phones[0].State().MessagesSent {
		sent = append(sent, m.Text)
	}
	if strings.Join(sent, "|") != "lease drill a|lease drill b" {
		t.Errorf("messages sent = %q, want a's then b's, once each", sent)
	}
}
