package stack_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// host is one phone host of the fleet: its ADB server and phones, and its
// worker process.
type host struct {
	name string
	*stack.Host
	worker *stack.Process
	pids   []int // every worker process that ran for this host
}

// TestFleet runs one embedded server, two phone hosts (each a worker
// process with its own built-in ADB server and two simulated phones) and a
// worker host with no phones. Eight goals, two per phone, start at once;
// host a's worker is killed with SIGKILL right after. Host b's goals must
// finish while a is down, a's must wait (not fail) and finish after a's
// worker starts again, and every step of every goal must have run on the
// worker of the goal's phone's host.
func TestFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the worker and runs goals on three worker processes")
	}
	ctx := context.Background()
	st, err := stack.Start(ctx, stack.Options{Phones: -1, ADB: stack.BuiltinADB,
		Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	dir := t.TempDir()
	bin, err := stack.BuildWorker(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}

	var hosts []*host
	for _, h := range []struct {
		name   string
		phones int
	}{{"a", 2}, {"b", 2}, {"c", 0}} {
		hh, err := st.AddHost(ctx, h.phones)
		if err != nil {
			t.Fatal(err)
		}
		hdir := t.TempDir()
		w, err := stack.NewProcess(bin, hdir, hh.Config)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Stop() })
		hosts = append(hosts, &host{name: h.name, Host: hh, worker: w, pids: []int{w.Pid()}})
	}
	a, b := hosts[0], hosts[1]
	for _, h := range hosts[:2] {
		for _, serial := range h.Serials {
			stacktest.WaitPolled(t, st, serial, h.worker)
		}
	}

	// Two goals per phone; the second waits for the first's lease.
	type goal struct {
		id, text string
		h        *host
		phone    int
	}
	var goals []goal
	for round := range 2 {
		for _, h := range hosts[:2] {
			for i, serial := range h.Serials {
				text := fmt.Sprintf("fleet %s%d-%d", h.name, i, round)
				id, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: serial})
				if err != nil {
					t.Fatal(err)
				}
				goals = append(goals, goal{id: id, text: text, h: h, phone: i})
			}
		}
	}
	results := make([]workflows.GoalResult, len(goals))
	errs := make([]error, len(goals))
	ended := make([]chan struct{}, len(goals))
	rctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i, g := range goals {
		ended[i] = make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(ended[i])
			results[i], errs[i] = st.Goals.Result(rctx, g.id)
		}()
	}

	// Host a dies while its goals run: once the first goal on each of its
	// phones has taken a step (the second waits for that one's lease).
	for _, g := range goals[:len(a.Serials)] {
		stacktest.WaitStatus(t, st.Goals, g.id+"/todo-1", 2*time.Minute, func(s workflows.Status) bool { return s.Steps >= 1 })
	}
	if err := a.worker.Kill(); err != nil {
		t.Fatal(err)
	}
	t.Log("killed host a's worker")

	// Host b's goals finish without a.
	for i, g := range goals {
		if g.h == b {
			<-ended[i]
			if errs[i] != nil || results[i].Status != workflows.GoalDone {
				t.Fatalf("host b's goal %s while a is down: %v %s %s", g.id, errs[i], results[i].Status, results[i].Reason)
			}
		}
	}
	// Host a's goals wait: none has ended, none has failed.
	waiting := 0
	for i, g := range goals {
		if g.h != a {
			continue
		}
		select {
		case <-ended[i]:
			t.Logf("goal %s on host a ended before its host was back: %v %s", g.id, errs[i], results[i].Status)
			if errs[i] != nil || results[i].Status != workflows.GoalDone {
				t.Errorf("goal %s on the dead host ended %s (%v) instead of waiting", g.id, results[i].Status, errs[i])
			}
		default:
			waiting++
		}
	}
	if waiting == 0 {
		t.Errorf("every goal of host a ended while its worker was dead: the kill came too late to test waiting")
	}
	t.Logf("%d of host a's goals wait for it; restarting it", waiting)
	if err := a.worker.Start(); err != nil {
		t.Fatal(err)
	}
	a.pids = append(a.pids, a.worker.Pid())
	wg.Wait()

	for i, g := range goals {
		if errs[i] != nil {
			t.Errorf("goal %s (host %s): %v", g.id, g.h.name, errs[i])
			continue
		}
		if results[i].Status != workflows.GoalDone {
			t.Errorf("goal %s (host %s) ended %s: %s", g.id, g.h.name, results[i].Status, results[i].Reason)
		}
		checkRanOn(t, st, g.id, results[i], g.h)
	}
	// Each phone sent its own two messages and nothing else.
	for _, h := range hosts[:2] {
		for i, p := range h.Phones {
			var got, want []string
			for _, m := range p.State().MessagesSent {
				got = append(got, m.Text)
			}
			for _, g := range goals {
				if g.h == h && g.phone == i {
					want = append(want, g.text)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("phone %s of host %s sent %q, want %q", h.Serials[i], h.name, got, want)
			}
		}
	}
}

// checkRanOn fails unless every activity task of the goal's todos (each
// sent to the phone's task queue; the todos themselves run on the shared
// queue, docs/design.md §5) was taken by a worker process of host h.
func checkRanOn(t *testing.T, st *stack.Stack, goalID string, res workflows.GoalResult, h *host) {
	t.Helper()
	ids := drill.GoalWorkflowIDs(goalID, res)[1:]
	seen := 0
	for _, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		hist, err := drill.HistoryOf(ctx, st.Client, id)
		cancel()
		if err != nil {
			continue // a restart suffix that was never used
		}
		for _, who := range identities(hist) {
			seen++
			if !slices.ContainsFunc(h.pids, func(pid int) bool { return strings.HasPrefix(who, strconv.Itoa(pid)+"@") }) {
				t.Errorf("%s: a task was taken by %q, not by host %s's worker (pids %v)", id, who, h.name, h.pids)
			}
		}
	}
	if seen == 0 {
		t.Errorf("goal %s: no todo task recorded a worker identity", goalID)
	}
}

// identities are the workers that took the activity tasks of a history.
func identities(h *historypb.History) []string {
	var out []string
	for _, ev := range h.GetEvents() {
		if a := ev.GetActivityTaskStartedEventAttributes(); a != nil {
			out = append(out, a.GetIdentity())
		}
	}
	return out
}
