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

// TestLostHost runs one embedded server, a phone host (its own built-in
// ADB server, one simulated phone, a worker process) and a worker process
// without phones. A message goal starts on the phone; once its todo has
// taken two steps the phone's worker is killed with SIGKILL. The goal's
// status must say that no worker serves the phone (within toldWithin; the
// time is logged), `starter devices`' check must agree, and after at least
// downFor the worker starts again: the goal must end done, the message
// sent exactly once.
func TestLostHost(t *testing.T) {
	ctx := context.Background()
	st, phoneHost, bin := hostStack(t)
	sharedHost, err := st.AddHost(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	serial := phoneHost.Serials[0]
	worker := stacktest.StartProcess(t, bin, phoneHost.Config)
	stacktest.StartProcess(t, bin, sharedHost.Config)
	stacktest.WaitPolled(t, st, serial, worker)

	text := "lost host drill"
	id, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: serial})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := waitStatus(st, id+"/todo-1", 3*time.Minute, func(s workflows.Status) bool { return s.Steps >= 2 }); !ok {
		t.Fatalf("the todo never took two steps; see %s", worker.LogFile())
	}
	if err := worker.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	t.Logf("killed the phone's worker (%s variant)", variant)

	s, ok := waitStatus(st, id, toldWithin, func(s workflows.Status) bool {
		return strings.HasPrefix(s.WaitingFor, "no worker serves phone "+serial+" since ")
	})
	told := time.Since(killed)
	if !ok {
		t.Fatalf("%s after the kill the goal's status still does not say no worker serves the phone: %+v", told.Round(time.Second), s)
	}
	t.Logf("status said %q %.1f s after the kill", s.WaitingFor, told.Seconds())
	if s.Phase == workflows.GoalFailed || s.PendingQuestion != "" {
		t.Errorf("status while the host is down = %+v, want running and waiting", s)
	}
	dctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	ds, err := st.Goals.DeviceService(dctx, serial, time.Now())
	cancel()
	if err != nil || ds.Served || !strings.Contains(ds.Text, "no worker serves phone "+serial) {
		t.Errorf("devices' check while the host is down = %+v, %v; want not served", ds, err)
	}

	time.Sleep(time.Until(killed.Add(downFor)))
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	t.Logf("restarted the phone's worker %.1f s after the kill", time.Since(killed).Seconds())
	rctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	res, err := st.Goals.Result(rctx, id)
	if err != nil {
		t.Fatalf("goal %s: %v; see %s", id, err, worker.LogFile())
	}
	if res.Status != workflows.GoalDone {
		t.Errorf("goal %s ended %s: %s (next step: %s)", id, res.Status, res.Reason, res.NextStep)
	}
	var sent []string
	for _, m := range phoneHost.Phones[0].State().MessagesSent {
		sent = append(sent, m.To+": "+m.Text)
	}
	if len(sent) != 1 || sent[0] != "Alice Chen: "+text {
		t.Errorf("messages sent = %q, want exactly one %q to Alice Chen", sent, text)
	}
	if after, err := st.Goals.Status(ctx, id); err == nil && after.WaitingFor != "" {
		t.Errorf("waiting_for after the goal ended = %q", after.WaitingFor)
	}
}

// waitStatus polls a workflow's status query until ok or d passes, and
// returns the last status read.
func waitStatus(st *stack.Stack, id string, d time.Duration, ok func(workflows.Status) bool) (workflows.Status, bool) {
	return stacktest.PollStatus(st.Goals, id, d, ok)
}
