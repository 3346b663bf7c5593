package drill_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// killSeed fixes where the worker is killed.
const killSeed = 6

// TestWorkerKill runs the worker as a child process, starts one message
// goal per phone, kills the worker (SIGKILL) at seeded random points,
// every other time with the fault hook right between an action reaching
// the phone and its journal record, and starts it again each time. Every
// goal must complete, every phone must show its message exactly once, sent
// by one Send tap, and its input log must hold each action the todos
// decided exactly once (docs/design.md §19).
func TestWorkerKill(t *testing.T) {
	s := drilltest.StartStack(t, drill.Options{Phones: killGoals}, variantDescription)
	ctx := context.Background()
	dir := t.TempDir()
	began := time.Now()
	bin, err := drill.BuildWorker(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("built the worker in %s", time.Since(began).Round(time.Second))
	rng := rand.New(rand.NewSource(killSeed))
	w, err := drill.NewProcess(bin, dir, s.Config)
	if err != nil {
		t.Fatal(err)
	}
	// Even-numbered kills are the fault hook's: the worker's Nth device
	// action (N random) reaches the phone and the process dies before the
	// journal records it. The last start runs without the hook.
	setFault := func(k int) {
		if k < killCount && k%2 == 0 {
			w.SetEnv(fmt.Sprintf("%s=%d", config.FaultExitAfterActionEnv, 1+rng.Intn(6)))
			return
		}
		w.SetEnv()
	}
	setFault(0)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })

	ids := make([]string, killGoals)
	texts := make([]string, killGoals)
	for i := range killGoals {
		var goal string
		goal, texts[i] = drilltest.MessageGoal(i + 1)
		ids[i] = drilltest.StartGoal(t, s, goal, s.Serials[i])
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

	started := time.Now()
	hookKills := 0
	for k := range killCount {
		if k%2 == 0 {
			// The worker kills itself with the fault hook, right after an
			// action reached a phone and before the journal recorded it.
			wait := time.NewTimer(killHookWait)
		poll:
			for !w.Exited() {
				select {
				case <-done:
					break poll
				case <-wait.C:
					break poll
				case <-time.After(100 * time.Millisecond):
				}
			}
			wait.Stop()
			if w.Exited() {
				hookKills++
				t.Logf("kill %d: the worker killed itself between an action and its journal record %s after it started", k+1, time.Since(started).Round(time.Millisecond))
			} else {
				t.Logf("kill %d: the fault hook did not fire within %s; kill -9 instead", k+1, killHookWait)
			}
		} else {
			delay := time.Duration(3000+rng.Intn(7000)) * time.Millisecond
			select {
			case <-done:
				t.Logf("all goals ended before kill %d", k+1)
			case <-time.After(delay):
			}
			if w.Exited() {
				t.Fatalf("the worker exited on its own before kill %d; see %s", k+1, w.LogFile())
			}
			t.Logf("kill -9 %d at %s after the worker started", k+1, time.Since(started).Round(time.Millisecond))
		}
		if err := w.Kill(); err != nil {
			t.Fatal(err)
		}
		setFault(k + 1)
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
				id, time.Since(lastStart).Round(time.Second), errs[i], drilltest.Pending(s, id))
			continue
		}
		drilltest.CheckDone(t, id, results[i])
		if !drilltest.CheckOneMessage(t, s.Phones[i], texts[i]) {
			t.Logf("steps of %s/todo-1:\n%s", id, drilltest.StepTrail(s, id+"/todo-1"))
		}
		checkEachActionOnce(t, s, id, results[i], s.Phones[i])
	}
	log, _ := os.ReadFile(w.LogFile())
	t.Logf("%s variant: %d goals, %d kills (%d between an action and its record); journal decisions after a crash: %d applied, %d not applied (sent again), %d unknown, %d asked",
		variantDescription, killGoals, killCount, hookKills,
		strings.Count(string(log), "verdict=applied"), strings.Count(string(log), `verdict="not applied"`), strings.Count(string(log), "verdict=unknown"), strings.Count(string(log), "verdict=ask"))
	if hookKills == 0 {
		t.Error("the fault hook never fired: no crash between an action and its record was drilled")
	}
}

// checkEachActionOnce compares the actions a goal's todos decided (once
// per action ID) with the phone's input log: every intended action
// applied once, none skipped, none repeated.
func checkEachActionOnce(t *testing.T, s *drill.Stack, id string, res workflows.GoalResult, p *phonesim.Phone) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	acts, err := drill.IntendedActions(ctx, s.Client, id, res)
	if err != nil {
		t.Errorf("%s: %v", id, err)
		return
	}
	st := p.State()
	want, got := drill.ActionCounts(acts), drill.InputCounts(st)
	if !maps.Equal(want, got) {
		var b strings.Builder
		for _, a := range acts {
			fmt.Fprintf(&b, "  %s %s\n", a.ActionID, autoglm.FormatAction(*a.Act))
		}
		t.Errorf("phone %s: input log counts %v, intended actions %v\nintended:\n%sinput log:\n%s", st.Serial, got, want, b.String(), drilltest.InputLog(st))
	}
}
