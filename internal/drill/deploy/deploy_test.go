package deploy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// waiting is a goal the previous release's worker leaves waiting, and
// what finishes it after the restart.
type waiting struct {
	kind   string
	id     string
	finish func(t *testing.T) // nil: it needs nothing (it gets its phone)
}

// TestDeployRollingRestart starts goals on the previous release's worker
// (built from PreviousRelease) and leaves them waiting for a
// clarification, paused mid-todo, and waiting for the phone the paused
// goal holds. Then a rolling restart: the current worker starts, the old
// one stops. The current worker answers, resumes and finishes them: every
// goal must end done.
func TestDeployRollingRestart(t *testing.T) {
	ctx := context.Background()
	root, err := RepoRoot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	began := time.Now()
	bctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	bin, err := BuildRelease(bctx, root, PreviousRelease)
	cancel()
	if errors.Is(err, ErrNoHistory) {
		if os.Getenv("PHONEFLOW_REQUIRE_HISTORY") == "1" {
			t.Fatalf("%v, but PHONEFLOW_REQUIRE_HISTORY=1 requires it", err)
		}
		t.Skipf("skipping the deploy drill: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the previous release's worker (%s) is %s, ready in %s", PreviousRelease[:12], bin, time.Since(began).Round(time.Second))

	// Phones: one per clarify goal, one per paused goal, which the
	// goal waiting for a phone queues behind.
	sctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	s, err := stack.Start(sctx, stack.Options{Config: drilltest.Config(t),
		Phones: 2 * perKind,
		ADB:    stack.AnyADB,
		Logger: stacktest.Logger(t),
	})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)

	old, err := stack.NewProcess(bin, dir, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = old.Stop() })
	oldWorker := fmt.Sprintf("%d@", old.Pid()) // how its worker identities begin

	start := func(goal, device string) string {
		t.Helper()
		id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: device})
		if err != nil {
			t.Fatalf("start %q: %v", goal, err)
		}
		return id
	}
	until := func(id, what string, ok func(workflows.Status) bool) {
		t.Helper()
		deadline := time.Now().Add(4 * time.Minute)
		var last workflows.Status
		for time.Now().Before(deadline) {
			if old.Exited() {
				t.Fatalf("the previous release's worker exited; see %s", old.LogFile())
			}
			qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			st, err := s.Goals.Status(qctx, id)
			cancel()
			if err == nil {
				if ok(st) {
					return
				}
				last = st
			}
			time.Sleep(200 * time.Millisecond)
		}
		t.Fatalf("%s never %s under the previous release; last status %+v (worker log %s)", id, what, last, old.LogFile())
	}
	send := func(t *testing.T, id, name string, arg any) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		if err := s.Goals.Send(sctx, id, name, arg, false); err != nil {
			t.Fatalf("%s %s: %v", name, id, err)
		}
	}

	// The previous release takes every goal to its wait.
	var goals []waiting
	for k := range perKind {
		clarify := start("Send a message", s.Serials[2*k])
		paused := start(fmt.Sprintf("Send %q to Alice Chen in Messages", fmt.Sprintf("deploy %d", k)), s.Serials[2*k+1])
		until(clarify, "asked its question", func(st workflows.Status) bool { return st.PendingQuestion != "" })
		until(paused+"/todo-1", "reached its second step", func(st workflows.Status) bool { return st.Steps >= 2 })
		send(t, paused, workflows.SignalPause, nil)
		until(paused+"/todo-1", "paused mid-todo", func(st workflows.Status) bool { return st.Paused })
		phone := start("Turn on Airplane mode", s.Serials[2*k+1])
		until(phone, "waited for its phone", func(st workflows.Status) bool { return st.WaitingFor != "" })
		goals = append(goals,
			waiting{"clarify", clarify, func(t *testing.T) { send(t, clarify, workflows.SignalClarify, "Alice Chen: see you at 8") }},
			waiting{"paused", paused, func(t *testing.T) { send(t, paused, workflows.SignalResume, nil) }},
			waiting{"phone", phone, nil})
	}

	// Rolling restart: the current worker joins, then the previous one
	// leaves (SIGTERM, as a deploy stops it).
	restarted := time.Now()
	wctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	stop, err := s.StartWorker(wctx)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	if err := old.Stop(); err != nil {
		t.Fatal(err)
	}
	t.Logf("rolling restart: the current worker serves every phone, the previous one stopped, %s", time.Since(restarted).Round(time.Millisecond))

	for _, g := range goals {
		if g.finish != nil {
			g.finish(t)
		}
	}
	var wg sync.WaitGroup
	for _, g := range goals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rctx, cancel := context.WithTimeout(ctx, 8*time.Minute)
			defer cancel()
			res, err := s.Goals.Result(rctx, g.id)
			if err != nil {
				t.Errorf("%s goal %s: no result after the restart: %v", g.kind, g.id, err)
				return
			}
			if res.Status != workflows.GoalDone {
				t.Errorf("%s goal %s ended %s after the restart: %s (next step: %s)", g.kind, g.id, res.Status, res.Reason, res.NextStep)
				return
			}
			t.Logf("%s goal %s: done after the restart in %s, %d steps", g.kind, g.id, time.Since(restarted).Round(time.Second), res.Steps)
			// The goal started under the previous release: its first
			// workflow task was the old worker's, and it kept the
			// branches that worker chose (its version markers).
			first, ids := firstTask(t, s, g.id)
			if !strings.HasPrefix(first, oldWorker) {
				t.Errorf("%s goal %s: its first workflow task was completed by %q, not by the previous release's worker (%s…): it did not start under that release", g.kind, g.id, first, oldWorker)
			}
			t.Logf("%s goal %s: first workflow task by %s; recorded the changes %v", g.kind, g.id, first, ids)
		}()
	}
	wg.Wait()
}

// firstTask reads a workflow's history: the identity of the worker that
// completed its first workflow task, and the GetVersion change IDs it
// recorded.
func firstTask(t *testing.T, s *stack.Stack, id string) (first string, ids []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	events, err := drill.History(ctx, s.Client, id)
	if err != nil {
		t.Errorf("history of %s: %v", id, err)
		return "", nil
	}
	for _, e := range events {
		if c := e.GetWorkflowTaskCompletedEventAttributes(); c != nil && first == "" {
			first = c.GetIdentity()
		}
		m := e.GetMarkerRecordedEventAttributes()
		if m == nil || m.GetMarkerName() != "Version" {
			continue
		}
		var cid string
		if p := m.GetDetails()["change-id"]; p != nil && converter.GetDefaultDataConverter().FromPayloads(p, &cid) == nil {
			ids = append(ids, cid)
		}
	}
	return first, ids
}
