package kill

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/workflows"
)

// killSeed fixes where the worker is killed.
const killSeed = 6

// TestWorkerKill runs the worker as a child process, starts one message
// goal per phone, kills the worker (SIGKILL) at seeded random points: one
// kill in three with the fault hook right between an action's intent and
// its input, one in three between the input reaching the phone and its
// journal record, the rest at random; and starts it again each time. The
// phones live their own lives meanwhile (messages, banners, dialogs, the
// keyguard). Every goal must complete, every phone must show its message
// exactly once, no action may be reported applied that the phone's input
// log lacks, and none may reach the phone more often than it was decided,
// counting as decided again an action the journal judged not applied and
// sent once more (docs/design.md §4). The
// phones' owner answers the goals' questions by looking at the phone.
func TestWorkerKill(t *testing.T) {
	s := drilltest.StartStack(t, drill.Options{Phones: killGoals, Life: drilltest.Life(killSeed)}, variantDescription)
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
	// Kills 0, 3, ... are the fault hook's after the input: the worker's
	// Nth device action (N random) reaches the phone and the process dies
	// before the journal records it. Kills 1, 4, ... are its hook before
	// the input: the intent is journalled and the process dies before the
	// input is sent. The last start runs without a hook.
	setFault := func(k int) {
		switch {
		case k >= killCount:
			w.SetEnv()
		case k%3 == 0:
			w.SetEnv(fmt.Sprintf("%s=%d", config.FaultExitAfterActionEnv, 1+rng.Intn(6)))
		case k%3 == 1:
			w.SetEnv(fmt.Sprintf("%s=%d", config.FaultExitBeforeSendEnv, 1+rng.Intn(6)))
		default:
			w.SetEnv()
		}
	}
	setFault(0)
	up := time.Now()
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Stop() })
	// The goals start once the worker serves their phones, as goals do
	// after a deploy: a goal started before any worker polled its phone's
	// queue waits only the lease's short grace for one (it fails for a
	// phone nobody serves), and a slow first start is not what this drill
	// drills.
	for _, serial := range s.Serials {
		waitServed(t, s, w, serial)
	}
	t.Logf("the worker served every phone %s after it started", time.Since(up).Round(time.Second))

	ids := make([]string, killGoals)
	texts := make([]string, killGoals)
	for i := range killGoals {
		var goal string
		goal, texts[i] = drilltest.MessageGoal(i + 1)
		ids[i] = drilltest.StartGoal(t, s, goal, s.Serials[i])
	}
	// The phones' owner answers what the goals ask (the journal asks
	// whether a commit went out when nothing on the screen tells) by
	// looking at the phone, as a person would.
	person := drilltest.AnswerQuestions(t, s, ids, s.Phones[:killGoals], texts)
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
	hookKills := map[string]int{}
	for k := range killCount {
		if k%3 != 2 {
			// The worker kills itself with the fault hook, at its point
			// of an action's way to the phone.
			where := [...]string{"between an action and its journal record", "between an action's intent and its input"}[k%3]
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
				hookKills[where]++
				t.Logf("kill %d: the worker killed itself %s %s after it started", k+1, where, time.Since(started).Round(time.Millisecond))
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
	answers := person.Stop()
	t.Logf("goals ended %s after the last restart (%s after they started)", time.Since(lastStart).Round(time.Second), time.Since(began).Round(time.Second))

	log, _ := os.ReadFile(w.LogFile())
	resent := drilltest.Resends(string(log))
	for i, id := range ids {
		if errs[i] != nil {
			t.Errorf("goal %s has no result %s after the last restart: %v (a Step attempt lost with a killed worker is retried only after its heartbeat or start-to-close timeout runs out)\n%s",
				id, time.Since(lastStart).Round(time.Second), errs[i], drilltest.Pending(s, id))
			continue
		}
		drilltest.CheckDone(t, id, results[i])
		if ok := drilltest.CheckOneMessage(t, s.Phones[i], texts[i]); !ok || results[i].Status != workflows.GoalDone {
			t.Logf("steps of %s/todo-1:\n%s", id, drilltest.StepTrail(s, id+"/todo-1"))
		}
		drilltest.CheckClaimsResent(t, s, id, results[i], s.Phones[i], resent)
	}
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "action journal:") {
			t.Logf("worker: %s", line) // each decision on an action a crash left without its record, and why
		}
	}
	t.Logf("%s variant: %d goals, %d kills (by the fault hook: %v); journal decisions after a crash: %d applied, %d not applied (sent again), %d unknown, %d asked, %d covered by the phone's own window and judged before the next commit; %d questions answered by the person; the phones did %v by themselves",
		variantDescription, killGoals, killCount, hookKills,
		strings.Count(string(log), "verdict=applied"), strings.Count(string(log), `verdict="not applied"`), strings.Count(string(log), "verdict=unknown"), strings.Count(string(log), "verdict=ask"), strings.Count(string(log), "verdict=deferred"), len(answers),
		drilltest.LifeSummary(s.Phones))
	for _, where := range []string{"between an action and its journal record", "between an action's intent and its input"} {
		if hookKills[where] == 0 {
			t.Errorf("the fault hook never fired %s: that crash was not drilled", where)
		}
	}
}

// waitServed waits until a worker serves serial (the check `starter
// devices` prints), for up to five minutes.
func waitServed(t *testing.T, s *drill.Stack, w *drill.Process, serial string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		ds, err := s.Goals.DeviceService(ctx, serial, time.Now())
		cancel()
		if err == nil && ds.Served {
			return
		}
		if w.Exited() {
			t.Fatalf("the worker exited before it served %s; see %s", serial, w.LogFile())
		}
		if time.Now().After(deadline) {
			t.Fatalf("no worker served %s 5 minutes after the worker started: %+v, %v", serial, ds, err)
		}
		time.Sleep(250 * time.Millisecond)
	}
}
