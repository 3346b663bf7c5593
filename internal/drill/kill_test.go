package drill

import (
	"context"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/workflows"
)

// killSeed fixes where the worker is killed.
const killSeed = 6

// TestWorkerKill runs the worker as a child process, starts one message
// goal per phone, kills the worker with SIGKILL at seeded random points
// and starts it again each time. Every goal must complete and every phone
// must show its message exactly once, sent by one Send tap.
func TestWorkerKill(t *testing.T) {
	s := startStack(t, Options{Phones: killGoals})
	ctx := context.Background()
	dir := t.TempDir()
	began := time.Now()
	bin, err := BuildWorker(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built the worker in %s", time.Since(began).Round(time.Second))
	w, err := NewProcess(bin, dir, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })

	ids := make([]string, killGoals)
	texts := make([]string, killGoals)
	for i := range killGoals {
		var goal string
		goal, texts[i] = messageGoal(i + 1)
		ids[i] = startGoal(t, s, goal, s.Serials[i])
	}
	results := make([]workflows.GoalResult, killGoals)
	errs := make([]error, killGoals)
	var wg sync.WaitGroup
	rctx, cancel := context.WithTimeout(ctx, killRecovery)
	defer cancel()
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = s.Goals.Result(rctx, id)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()

	rng := rand.New(rand.NewSource(killSeed))
	started := time.Now()
	for k := range killCount {
		delay := time.Duration(3000+rng.Intn(7000)) * time.Millisecond
		select {
		case <-done:
			t.Logf("all goals ended before kill %d", k+1)
		case <-time.After(delay):
		}
		if w.Exited() {
			t.Fatalf("the worker exited on its own before kill %d; see %s", k+1, w.LogFile())
		}
		if err := w.Kill(); err != nil {
			t.Fatal(err)
		}
		t.Logf("kill -9 %d at %s after the worker started", k+1, time.Since(started).Round(time.Millisecond))
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		started = time.Now()
	}
	lastStart := started
	<-done
	t.Logf("goals ended %s after the last restart (%s after they started)", time.Since(lastStart).Round(time.Second), time.Since(began).Round(time.Second))

	for i, id := range ids {
		if errs[i] != nil {
			t.Errorf("goal %s has no result %s after the last restart: %v (a Step attempt lost with a killed worker is retried only after its heartbeat or start-to-close timeout runs out)\n%s",
				id, time.Since(lastStart).Round(time.Second), errs[i], pending(s, id))
			continue
		}
		checkDone(t, id, results[i])
		if !checkOneMessage(t, s.Phones[i], texts[i]) {
			t.Logf("steps of %s/todo-1:\n%s", id, stepTrail(s, id+"/todo-1"))
		}
	}
}
