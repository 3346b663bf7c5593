package losthost

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestIdlePhoneWorkerKilled runs one embedded server and a phone host
// whose worker is a child process, with no goal at all. Once `starter
// devices`' check says a worker serves the phone, and the worker's
// heartbeats have shown their interval, the worker is killed with
// SIGKILL. The check must say that no worker serves the phone (within
// idleToldWithin; the time is logged), naming a time no later than the
// kill, and say it is served again once the worker has started again
// (docs/design.md §5).
func TestIdlePhoneWorkerKilled(t *testing.T) {
	st, host, bin := hostStack(t)
	serial := host.Serials[0]
	worker := stacktest.StartProcess(t, bin, host.Config)

	if s, ok := waitDevice(st, serial, 2*time.Minute, func(s goalctl.DeviceService) bool { return s.Served }); !ok {
		t.Fatalf("the check never said a worker serves %s: %+v; see %s", serial, s, worker.LogFile())
	} else if s.Basis != "heartbeat" || s.Note != "" {
		t.Fatalf("the embedded server's check is not made from worker heartbeats: %+v", s)
	}
	waitHeartbeatInterval(t, st, serial)
	if err := worker.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	t.Logf("killed the idle phone's worker (%s variant)", variant)

	s, ok := waitDevice(st, serial, idleToldWithin, func(s goalctl.DeviceService) bool { return !s.Served })
	told := time.Since(killed)
	if !ok {
		t.Fatalf("%s after the kill `starter devices` still says %q", told.Round(time.Second), s.Text)
	}
	t.Logf("`starter devices` said %q %.1f s after the kill", s.Text, told.Seconds())
	if !strings.HasPrefix(s.Text, "no worker serves phone "+serial+" since ") || s.LastHeartbeat.After(killed) {
		t.Errorf("devices' check after the kill = %+v; want \"no worker serves phone %s since\" a time before the kill", s, serial)
	}

	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	restarted := time.Now()
	s, ok = waitDevice(st, serial, 2*time.Minute, func(s goalctl.DeviceService) bool { return s.Served })
	if !ok {
		t.Fatalf("after the restart the check still says %q; see %s", s.Text, worker.LogFile())
	}
	if !strings.HasPrefix(s.Text, "served by ") {
		t.Errorf("devices' check after the restart = %q, want \"served by …\"", s.Text)
	}
	t.Logf("`starter devices` said %q %.1f s after the restart", s.Text, time.Since(restarted).Seconds())
}

// waitDevice polls the devices check of serial until ok or d passes, and
// returns the last answer.
func waitDevice(st *stack.Stack, serial string, d time.Duration, ok func(goalctl.DeviceService) bool) (goalctl.DeviceService, bool) {
	var last goalctl.DeviceService
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		s, err := st.Goals.DeviceService(ctx, serial, time.Now())
		cancel()
		if err == nil {
			last = s
			if ok(s) {
				return s, true
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	return last, false
}

// waitHeartbeatInterval waits until the worker of serial's queue has sent
// a second heartbeat, so its interval is known: a worker killed before
// that is judged by the SDK's longest interval (goalctl.UnknownHeartbeatInterval).
func waitHeartbeatInterval(t *testing.T, st *stack.Stack, serial string) {
	t.Helper()
	ns, q := st.Config.Temporal.Namespace, workflows.DeviceTaskQueue(serial)
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		resp, _ := st.Client.WorkflowService().ListWorkers(ctx, &workflowservice.ListWorkersRequest{Namespace: ns, Query: "TaskQueue = '" + q + "'"})
		for _, w := range resp.GetWorkers() {
			d, derr := st.Client.WorkflowService().DescribeWorker(ctx, &workflowservice.DescribeWorkerRequest{Namespace: ns, WorkerInstanceKey: w.GetWorkerInstanceKey()})
			if derr == nil && d.GetWorkerInfo().GetWorkerHeartbeat().GetElapsedSinceLastHeartbeat() != nil {
				cancel()
				return
			}
		}
		cancel()
		time.Sleep(250 * time.Millisecond)
	}
	t.Fatalf("the worker of %s sent no second heartbeat in a minute", serial)
}
