package outage

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestModelFaults runs goals against a model server that answers 10% 429,
// 10% 500 and 10% malformed outputs. Every goal must complete with its one
// message, and every injected fault must show in the histories: a 429 or
// 500 as a failed activity attempt (retried, or the last one failed), a
// malformed answer as a completed activity whose answer was rejected and
// counted as a step.
func TestModelFaults(t *testing.T) {
	s := drilltest.StartStack(t, drill.Options{Phones: modelFaultGoals, Model: modelserver.Config{
		Seed: 3, RateLimit429: 0.1, Rate500: 0.1, RateMalformed: 0.1, RetryAfter: 500 * time.Millisecond,
	}}, variantDescription)
	stop, err := s.StartWorker(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	began := time.Now()
	ids := make([]string, modelFaultGoals)
	texts := make([]string, modelFaultGoals)
	for i := range ids {
		var goal string
		goal, texts[i] = drilltest.MessageGoal(i + 1)
		ids[i] = drilltest.StartGoal(t, s, goal, s.Serials[i])
	}
	results := make([]workflows.GoalResult, len(ids))
	errs := make([]error, len(ids))
	rctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = s.Goals.Result(rctx, id)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("goal %s has no result: %v\n%s", ids[i], err, drilltest.Pending(s, ids[i]))
		}
	}
	if t.Failed() {
		return
	}
	t.Logf("%d goals ended in %s", len(ids), time.Since(began).Round(time.Second))

	var f drill.Failures
	steps := 0
	for i, id := range ids {
		drilltest.CheckDone(t, id, results[i])
		if !drilltest.CheckOneMessage(t, s.Phones[i], texts[i]) {
			t.Logf("steps of %s/todo-1:\n%s", id, drilltest.StepTrail(s, id+"/todo-1"))
		}
		steps += results[i].Steps
		for _, wid := range drill.GoalWorkflowIDs(id, results[i]) {
			evs, err := drill.History(context.Background(), s.Client, wid)
			if err != nil {
				t.Errorf("history of %s: %v", wid, err)
				continue
			}
			f.Add(drill.CountFailures(evs))
		}
	}
	st := s.Models.Stats()
	t.Logf("model server: %d requests, %d 429, %d 500, %d malformed; histories: %d retried attempts, %d failed activities, %d counted rejections; %d steps",
		st.Requests, st.Faults429, st.Faults500, st.Malformed, f.RetriedAttempts, f.FailedActivities, f.CountedRejections, steps)
	if st.Faults429+st.Faults500 == 0 || st.Malformed == 0 {
		t.Errorf("the model server injected no faults of some kind (%+v): the drill proves nothing; raise the rates or change the seed", st)
	}
	// Every injected answer is a visible failed attempt; an attempt that
	// timed out on a starved machine is one too, with nothing injected.
	if got, want := int64(f.RetriedAttempts+f.FailedActivities), st.Faults429+st.Faults500; got < want || got > want+int64(f.TimedOut) {
		t.Errorf("histories show %d failed activity attempts (%d of them timed out), the model server injected %d 429/500 answers: every one must be a visible failed attempt", got, f.TimedOut, want)
	}
	if got, want := int64(f.CountedRejections), st.Malformed; got != want {
		t.Errorf("histories show %d rejected model answers, the model server injected %d malformed ones: every one must be a counted, fed-back step", got, want)
	}
}
