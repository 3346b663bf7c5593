package stacktest

import (
	"context"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/workflows"
)

// StartProcess starts the worker binary bin as a child process with cfg,
// in a directory of its own, and stops it when the test ends.
func StartProcess(t testing.TB, bin string, cfg config.Config) *stack.Process {
	t.Helper()
	w, err := stack.NewProcess(bin, t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	return w
}

// WaitPolled waits until a worker polls the activity queue of phone
// serial, failing t when w exits first or none polls within 2 minutes.
func WaitPolled(t testing.TB, st *stack.Stack, serial string, w *stack.Process) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if w.Exited() {
			t.Fatalf("the worker for %s exited; see %s", serial, w.LogFile())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, err := st.Client.DescribeTaskQueue(ctx, workflows.DeviceTaskQueue(serial), enumspb.TASK_QUEUE_TYPE_ACTIVITY)
		cancel()
		if err == nil && len(resp.GetPollers()) > 0 {
			return
		}
	}
	t.Fatalf("no worker polls %s's task queue after 2 minutes; see %s", serial, w.LogFile())
}
