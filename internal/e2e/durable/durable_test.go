package durable

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

func waitStatus(t *testing.T, g *goalctl.Client, id string, d time.Duration, ok func(workflows.Status) bool) workflows.Status {
	t.Helper()
	return stacktest.WaitStatus(t, g, id, d, ok)
}

// TestGoalWaitsWithATimerAndLendsThePhone: "In 30 seconds, turn on Wi-Fi"
// with a 5-second threshold. While the goal waits it has no pending
// activity and no running todo, PhoneflowStatus is waiting_until, the
// phone's lease is free, and a second goal on the same phone runs to the
// end; after the timer the first goal takes the phone again and is done.
func TestGoalWaitsWithATimerAndLendsThePhone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	s := stacktest.Start(ctx, t, localstack.Options{ADB: localstack.AnyADB})
	phone := s.Serials[0]

	a, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "In 30 seconds, turn on Wi-Fi", Device: phone,
		Options: workflows.GoalOptions{DurableWaitAfter: 5 * time.Second, TimeZone: "Asia/Shanghai"}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStatus(t, s.Goals, a, 2*time.Minute, func(st workflows.Status) bool {
		return st.Phase == workflows.GoalWaitingUntil && st.PhoneReleased
	})
	if st.WaitUntil.IsZero() || !strings.HasPrefix(st.WaitingFor, "waiting until ") ||
		!strings.Contains(workflows.WaitLine(st, time.Now()), "(in ") {
		t.Errorf("status while waiting: until %s, waiting_for %q", st.WaitUntil, st.WaitingFor)
	}
	if len(st.Todos) < 2 || st.Todos[0].Text != "Wait 30 seconds" || st.Todos[0].Status != workflows.TodoRunning {
		t.Errorf("todos while waiting: %+v", st.Todos)
	}
	d, err := s.Client.DescribeWorkflowExecution(ctx, a, "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(d.GetPendingActivities()); n != 0 {
		t.Errorf("the waiting goal has %d pending activities", n)
	}
	if n := len(d.GetPendingChildren()); n != 0 {
		t.Errorf("the waiting goal has %d running todos", n)
	}
	// Visibility follows the workflow's search attributes asynchronously
	// (a visibility task after the upsert): it lists the goal soon, not at
	// the instant the status query does.
	var listed []goalctl.GoalInfo
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		listed, err = s.Goals.List(ctx, goalctl.ListOptions{Status: workflows.GoalWaitingUntil})
		if (err == nil && len(listed) == 1 && listed[0].ID == a) || time.Now().After(end) {
			break
		}
	}
	if err != nil || len(listed) != 1 || listed[0].ID != a {
		t.Errorf("visibility PhoneflowStatus=waiting_until lists %+v (%v), want %s", listed, err, a)
	}

	b, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Turn on Bluetooth", Device: phone})
	if err != nil {
		t.Fatal(err)
	}
	rb, err := s.Goals.Result(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if rb.Status != workflows.GoalDone {
		t.Errorf("the second goal ended %s: %s", rb.Status, rb.Reason)
	}
	if time.Now().After(st.WaitUntil) {
		t.Errorf("the second goal ended after the first one's wait (%s): it did not get the phone while the first waited", st.WaitUntil)
	}
	ra, err := s.Goals.Result(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if ra.Status != workflows.GoalDone || !strings.HasPrefix(ra.Todos[0].Result, "waited until ") {
		t.Fatalf("the waiting goal ended %s (%s): %+v", ra.Status, ra.Reason, ra.Todos)
	}
	if time.Now().Before(st.WaitUntil) {
		t.Errorf("the waiting goal ended before its wait was over (%s)", st.WaitUntil)
	}
}
