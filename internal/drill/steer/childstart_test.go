package steer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestSteeringAndCancelAroundTodoStarts runs goals that tell one message
// to two people (a todo per person, the executor misreading some todos)
// on the real server while plain signals rain on them every few tens of
// milliseconds (inject, pause then resume, an answer) and some are
// cancelled at a random moment, so signals and cancels land while a
// todo's start command is still unsent or unacknowledged. No workflow task
// of any goal may fail: a failed one is a goal stuck retrying it
// (docs/design.md §6, §16).
func TestSteeringAndCancelAroundTodoStarts(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the embedded server")
	}
	ctx := context.Background()
	phones, perPhone := childStartPhones, 2
	sctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	s := stacktest.Start(sctx, t, stack.Options{Config: drilltest.Config(t),
		ADB:    stack.AnyADB,
		Phones: phones,
		Model:  modelserver.Config{Seed: 1, RateMisread: 0.2},
		Logger: stacktest.Logger(t),
	})
	cancel()

	var mu sync.Mutex
	var goals []string
	var wg sync.WaitGroup
	for p := range phones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(p), 37))
			for n := range perPhone {
				id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Device: s.Serials[p],
					Goal: fmt.Sprintf(`Send "start %d-%d" to Alice Chen and to Bob Li`, p, n)})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				goals = append(goals, id)
				mu.Unlock()
				var cancelAt time.Duration
				if n%2 == 1 {
					cancelAt = time.Duration(1+rng.IntN(8)) * time.Second
				}
				rain(s, rng, id, cancelAt)
			}
		}()
	}
	wg.Wait()
	failed, benign, starved := 0, 0, 0
	for _, id := range goals {
		evs, err := drill.History(ctx, s.Client, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		starts := 0
		for _, ev := range evs {
			switch ev.GetEventType() {
			case enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED:
				a := ev.GetWorkflowTaskFailedEventAttributes()
				msg := a.GetFailure().GetMessage()
				switch {
				case a.GetCause() == enumspb.WORKFLOW_TASK_FAILED_CAUSE_UNHANDLED_COMMAND:
					// Signals came while the task ran: the server asks for
					// a new task that sees them, the SDK's normal path.
					benign++
				case strings.Contains(msg, "TMPRL1101"):
					// The deadlock detector (1 s) on a starved machine:
					// the task runs again; counted, not failed.
					starved++
					t.Logf("%s: workflow task over the deadlock bound: %s", id, msg)
				default:
					failed++
					t.Errorf("%s: workflow task failed (%s): %s", id, a.GetCause(), msg)
				}
			case enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
				starts++
			}
		}
		rctx, cancel := context.WithTimeout(ctx, time.Minute)
		res, err := s.Goals.Result(rctx, id)
		cancel()
		t.Logf("goal %s: %d todo starts, %d events, ended %s %v: %s%s", id, starts, len(evs), res.Status, err, res.Response, res.Reason)
	}
	t.Logf("%d goals: %d workflow tasks failed, %d asked again for new signals, %d over the deadlock bound", len(goals), failed, benign, starved)
}

// rain sends plain signals to the goal every 20–120 ms until it ends (and
// cancels it at cancelAt when that is not zero), then waits for its end.
func rain(s *stack.Stack, rng *rand.Rand, goal string, cancelAt time.Duration) {
	start := time.Now()
	cancelled := false
	for i := 0; ; i++ {
		if ended(s, goal) {
			return
		}
		if time.Since(start) > 8*time.Minute {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			_ = s.Goals.Cancel(ctx, goal)
			cancel()
			return
		}
		if cancelAt > 0 && !cancelled && time.Since(start) >= cancelAt {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			_ = s.Goals.Cancel(ctx, goal)
			cancel()
			cancelled = true
		}
		switch rng.IntN(4) {
		case 0:
			if i%10 == 0 { // under the executor's bound on notes
				send(s, goal, workflows.SignalInject, fmt.Sprintf("note %d", i), true)
			}
		case 1:
			send(s, goal, workflows.SignalPause, nil, true)
			send(s, goal, workflows.SignalResume, nil, true)
		case 2:
			send(s, goal, workflows.SignalClarify, "yes, go on", true)
		}
		time.Sleep(time.Duration(20+rng.IntN(100)) * time.Millisecond)
	}
}
