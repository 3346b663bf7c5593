package losthost

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestGoalWaitsForAWorkerToServeItsPhone starts goals on a phone no worker
// serves yet, while a worker without phones runs the goals themselves (a
// phone host restarting, docs/design.md §5). The first goal must say it
// waits for a worker to serve the phone, not fail, and once the phone's
// worker starts it must end done with its message sent once. A second
// goal, with a short device_wait_deadline and no phone worker, must fail
// with an error that names the phone and the fix.
func TestGoalWaitsForAWorkerToServeItsPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs goals on the embedded server")
	}
	ctx := context.Background()
	st, err := stack.Start(ctx, stack.Options{Config: drilltest.Config(t), ADB: stack.BuiltinADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	shared, err := st.AddHost(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	stopShared, err := st.StartWorkerWith(ctx, shared.Config)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopShared)
	serial := st.Serials[0]

	// Past its deadline a goal fails, naming the fix.
	short, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: `Send "unserved short" to Alice Chen in Messages`, Device: serial,
		Options: workflows.GoalOptions{DeviceWaitDeadline: 20 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	res, err := st.Goals.Result(rctx, short)
	cancel()
	if err != nil || res.Status != workflows.GoalFailed || !strings.Contains(res.Reason, "no worker served phone "+serial) ||
		!strings.Contains(res.Reason, "device_wait_deadline") || !strings.Contains(res.NextStep, "go run ./worker") {
		t.Fatalf("goal on a phone nobody served past its deadline = %+v, %v; want failed naming the phone, the deadline and the fix", res, err)
	}
	t.Logf("past its deadline: %s", res.Reason)

	text := "unserved drill"
	id, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: serial,
		Options: workflows.GoalOptions{DeviceWaitDeadline: 10 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	s, ok := waitStatus(st, id, 2*time.Minute, func(s workflows.Status) bool {
		return strings.HasPrefix(s.WaitingFor, "waiting for a worker to serve phone "+serial+" since ")
	})
	if !ok {
		t.Fatalf("the goal does not say it waits for a worker to serve its phone: %+v", s)
	}
	t.Logf("status: %q", s.WaitingFor)
	// The lease request's own look lasts 15 s: a goal that failed on it
	// would have done so by now.
	if s, ok := waitStatus(st, id, 40*time.Second, func(s workflows.Status) bool { return s.Phase == workflows.GoalFailed }); ok {
		t.Fatalf("the goal failed while waiting for a worker: %+v", s)
	}
	stop, err := st.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	rctx, cancel = context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	res, err = st.Goals.Result(rctx, id)
	if err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("goal %s once its phone was served: %+v, %v", id, res, err)
	}
	var sent []string
	for _, m := range st.Phones[0].State().MessagesSent {
		sent = append(sent, m.Text)
	}
	if strings.Join(sent, "|") != text {
		t.Errorf("messages sent = %q, want %q once", sent, text)
	}
}
