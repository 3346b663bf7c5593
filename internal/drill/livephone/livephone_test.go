package livephone

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// cutSeed fixes what the phones of the cut drill do by themselves.
const cutSeed = 11

// TestInputCutWhileScreenChanges cuts a phone's connection when an input
// command arrives, before the phone runs it, cutsPerPhone times per
// phone, while the phones change their screens by themselves (messages
// every few seconds, banners, dialogs, the keyguard). Nothing may be
// reported applied that the phone's input log lacks, nothing may reach
// the phone twice, and every message goes out once (docs/design.md §4).
func TestInputCutWhileScreenChanges(t *testing.T) {
	life := phonesim.Life{Seed: cutSeed, Messages: 6 * time.Second, Dialogs: 45 * time.Second, ScreenTimeout: 20 * time.Second}
	s := drilltest.StartStack(t, drill.Options{Phones: cutGoals, Life: life}, variantDescription)
	stop, err := s.StartWorker(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	ids := make([]string, cutGoals)
	texts := make([]string, cutGoals)
	for i := range cutGoals {
		var goal string
		goal, texts[i] = drilltest.MessageGoal(i + 1)
		ids[i] = drilltest.StartGoal(t, s, goal, s.Serials[i])
	}
	// The phones' owner answers what the goals ask by looking at the
	// phone (docs/design.md §4).
	person := drilltest.AnswerQuestions(t, s, ids, s.Phones[:cutGoals], texts)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for _, p := range s.Phones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// One cut at a time, each armed once the last one fired and
			// the phone took three more inputs, so the cuts spread over the
			// goal's launch, taps, typing and Send.
			next := 0
			for armed := 0; armed < cutsPerPhone; {
				if taken := len(p.State().InputLog); p.Dropped() == armed && taken >= next {
					if err := p.SetFault(phonesim.Fault{Kind: phonesim.FaultDropInput, Count: 1}); err != nil {
						t.Error(err)
						return
					}
					armed++
					next = taken + 3
				}
				select {
				case <-ctx.Done():
					return
				case <-time.After(200 * time.Millisecond):
				}
			}
		}()
	}
	results := make([]workflows.GoalResult, cutGoals)
	for i, id := range ids {
		results[i] = drilltest.WaitResult(t, s, id, 6*time.Minute)
	}
	cancel()
	wg.Wait()
	answers := person.Stop()
	cuts := 0
	for i, id := range ids {
		cuts += s.Phones[i].Dropped()
		drilltest.CheckDone(t, id, results[i])
		if ok := drilltest.CheckOneMessage(t, s.Phones[i], texts[i]); !ok || results[i].Status != workflows.GoalDone {
			t.Logf("steps of %s/todo-1:\n%s", id, drilltest.StepTrail(s, id+"/todo-1"))
		}
		drilltest.CheckClaims(t, s, id, results[i], s.Phones[i])
	}
	t.Logf("%s variant: %d goals, %d inputs cut off before they ran; the phones did %v by themselves; outcomes: %v; %d questions answered by the person",
		variantDescription, cutGoals, cuts, drilltest.LifeSummary(s.Phones), outcomes(t, s, ids, results), len(answers))
	if cuts == 0 {
		t.Error("no input was cut off: the drill drilled nothing")
	}
}

// outcomes counts the results the goals' Steps reported for their
// actions: sent, recovered after a cut or a crash, unknown, asked.
func outcomes(t *testing.T, s *drill.Stack, ids []string, results []workflows.GoalResult) map[string]int {
	n := map[string]int{}
	for i, id := range ids {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		acts, err := drill.ReportedActions(ctx, s.Client, id, results[i])
		cancel()
		if err != nil {
			t.Logf("%s: %v", id, err)
			continue
		}
		for _, a := range acts {
			switch r := a.Result; {
			case r == nil:
				n["no result"]++
			case r.Recovered != "":
				n["recovered"]++
			case r.Uncertain != "":
				n["asked"]++
			case strings.HasPrefix(r.Result, "the last action's outcome is unknown"):
				n["unknown"]++
			case a.Applied():
				n["applied"]++
			default:
				n["other"]++
			}
		}
	}
	return n
}

// lifeSeed fixes what the verifier drill's phone does by itself.
const lifeSeed = 7

// TestVerifierOutage takes the verifier's endpoint down while a todo
// verifies, for verifierOutageFor, on a phone that lives its own life.
// The todo must wait it out (not fail, which would make the replanner send
// the message again): the goal ends done and the message went out once.
func TestVerifierOutage(t *testing.T) {
	s := drilltest.StartStack(t, drill.Options{Life: drilltest.Life(lifeSeed)}, variantDescription)
	v := startVerifier(t)
	c := s.Config
	c.Verifier = config.Verifier{Use: config.VerifyByEndpoint, BaseURL: v.url(), Model: "verifier"}
	stop, err := s.StartWorkerWith(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	// One todo for the whole goal: no planner writes postconditions for
	// it, so its finish is the verifier model's to judge.
	goal, text := drilltest.MessageGoal(1)
	id, _, err := s.Goals.Start(context.Background(), goalctl.StartRequest{Goal: goal, Device: s.Serials[0],
		Options: workflows.GoalOptions{Mode: workflows.ModeSingle}})
	if err != nil {
		t.Fatal(err)
	}
	v.stop()
	// The outage counts from when a todo is seen waiting for the verifier.
	st, ok := drilltest.WaitStatus(s, id, 4*time.Minute, func(st workflows.Status) bool {
		return strings.Contains(st.WaitingFor, v.addr)
	})
	if !ok {
		v.start(t)
		t.Fatalf("goal %s never waited for the verifier at %s while it was down; last status %+v\n%s", id, v.addr, st, drilltest.Pending(s, id))
	}
	t.Logf("waiting for the verifier: phase %s, %q", st.Phase, st.WaitingFor)
	time.Sleep(verifierOutageFor)
	if sst, err := s.Goals.Status(context.Background(), id); err == nil && sst.Phase == workflows.GoalDone {
		t.Fatalf("goal ended %s while its verifier was down", sst.Phase)
	}
	v.start(t)
	back := time.Now()
	res := drilltest.WaitResult(t, s, id, 5*time.Minute)
	t.Logf("%s variant: verifier down %s while the todo verified; goal ended %s %s after it came back; verifier answered %d times; the phone did %v by itself",
		variantDescription, verifierOutageFor, res.Status, time.Since(back).Round(time.Second), v.srv.Stats().Verifier, drilltest.LifeSummary(s.Phones))
	drilltest.CheckDone(t, id, res)
	drilltest.CheckOneMessage(t, s.Phones[0], text)
	drilltest.CheckClaims(t, s, id, res, s.Phones[0])
	if v.srv.Stats().Verifier == 0 {
		t.Error("the verifier model never answered: the todo was not verified by it, so the outage was not drilled")
	}
}

// verifier is an offline model server on an address of its own that a
// drill takes down and brings back.
type verifier struct {
	srv    *modelserver.Server
	addr   string
	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan struct{}
}

func startVerifier(t *testing.T) *verifier {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	v := &verifier{srv: modelserver.New(modelserver.Config{}), addr: ln.Addr().String()}
	v.serve(ln)
	t.Cleanup(v.stop)
	return v
}

func (v *verifier) url() string { return "http://" + v.addr + "/v1" }

func (v *verifier) serve(ln net.Listener) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = v.srv.Serve(ctx, ln) }()
	v.mu.Lock()
	v.cancel, v.done = cancel, done
	v.mu.Unlock()
}

// stop takes the endpoint down: its port refuses connections.
func (v *verifier) stop() {
	v.mu.Lock()
	cancel, done := v.cancel, v.done
	v.cancel = nil
	v.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}

// start serves the endpoint again on its address.
func (v *verifier) start(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ln, err := net.Listen("tcp", v.addr)
		if err == nil {
			v.serve(ln)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("listen for the verifier on %s again: %v", v.addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
