package steer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	historypb "go.temporal.io/api/history/v1"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestSteeringBurstDrill sends random bursts of pause, resume and inject
// (at most 3 injects a burst, under the executor's 5-note bound), each
// command as a signal or an update from its own goroutine, to a goal whose
// todo is running. After each burst it waits for the steering numbers of
// the goal and its running todo to settle and requires them, and the
// paused state, to agree; then it resumes the goal and lets the todo take a
// step. Goals are started again as they end. At the end every injected
// text must be in an executor request (a Step's notes), a todo's start
// input or a replan's input.
func TestSteeringBurstDrill(t *testing.T) {
	ctx := context.Background()
	sctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	s := stacktest.Start(sctx, t, stack.Options{Config: drilltest.Config(t),
		ADB:    stack.AnyADB,
		Logger: stacktest.Logger(t),
	})
	cancel()

	rng := rand.New(rand.NewPCG(21, 3))
	var goals []string
	var injects []string
	goal := ""
	n, compared := 0, 0
	for seq := 0; seq < sequences; seq++ {
		if goal == "" || ended(s, goal) {
			n++
			id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Device: s.Serials[0],
				Goal: fmt.Sprintf(`Turn on Wi-Fi and then send Alice Chen a message saying "burst %d"`, n)})
			if err != nil {
				t.Fatal(err)
			}
			goal = id
			goals = append(goals, id)
			if !waitFor(s, goal, func(g, c workflows.Status, ok bool) bool { return ok && c.Steps >= 1 }) {
				t.Fatalf("goal %s: no todo took a step", goal)
			}
		}
		injects = append(injects, burst(t, s, rng, goal, seq)...)
		var g, c workflows.Status
		settled := waitFor(s, goal, func(g1, c1 workflows.Status, ok bool) bool {
			g, c = g1, c1
			return !ok || g1.SteerSeq == c1.SteerSeq
		})
		if !settled {
			t.Fatalf("sequence %d, goal %s: steering never settled: goal seq %d paused %v, todo seq %d paused %v", seq, goal, g.SteerSeq, g.Paused, c.SteerSeq, c.Paused)
		}
		if g.Phase != workflows.GoalDone && g.Phase != workflows.GoalFailed && c.SteerSeq == g.SteerSeq && c.Phase != "" {
			compared++
			if g.Paused != c.Paused {
				t.Fatalf("sequence %d, goal %s: goal paused=%v, todo paused=%v at steering number %d", seq, goal, g.Paused, c.Paused, g.SteerSeq)
			}
		}
		// Let the todo take a step, so the notes reach the executor before
		// the next burst adds more.
		if g.Paused {
			send(s, goal, workflows.SignalResume, nil, false)
		}
		before := c.Steps
		waitFor(s, goal, func(_, c1 workflows.Status, ok bool) bool { return !ok || c1.Steps > before })
	}
	// Finish: resume whatever is paused and wait for every goal.
	for _, id := range goals {
		st, err := s.Goals.Status(ctx, id)
		if err == nil && st.Paused {
			send(s, id, workflows.SignalResume, nil, false)
		}
	}
	var inputs, unused []string
	var runs, byArrival int
	for _, id := range goals {
		rctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
		res, err := s.Goals.Result(rctx, id)
		cancel()
		if err != nil {
			t.Fatalf("goal %s: %v", id, err)
		}
		t.Logf("goal %s ended %s after %d steps: %s%s", id, res.Status, res.Steps, res.Response, res.Reason)
		unused = append(unused, res.Unused...)
		for _, td := range res.Todos {
			for a := range td.Attempts {
				wid := fmt.Sprintf("%s/todo-%d", id, td.Index)
				if a > 0 {
					wid += fmt.Sprintf("-r%d", a)
				}
				in, n, ordered := scheduledInputs(t, s, wid)
				inputs, runs, byArrival = append(inputs, in...), runs+n, byArrival+ordered
			}
		}
		in, n, ordered := scheduledInputs(t, s, id)
		inputs, runs, byArrival = append(inputs, in...), runs+n, byArrival+ordered
	}
	// The stack's worker is built as every worker is: each run it started
	// takes plain signals in arrival order (docs/design.md §6).
	if byArrival != runs {
		t.Errorf("%d of %d goal and todo runs recorded %s version 1: a worker was built without workflows.Interceptors()",
			byArrival, runs, workflows.ChangeSignalArrivalOrder)
	}
	lost, reported := 0, 0
	for _, text := range injects {
		found := false
		for _, in := range inputs {
			if strings.Contains(in, text) {
				found = true
				break
			}
		}
		switch {
		case found:
		case slices.Contains(unused, text):
			// Still waiting for a todo when the goal ended (its budget ran
			// out): the result shows it.
			reported++
		default:
			lost++
			t.Errorf("inject %q reached no executor request, todo start or replan, and the goal's result does not show it unused", text)
		}
	}
	t.Logf("%d sequences over %d goals: %d ended with a running todo to compare; %d injects, %d reported unused at a goal's end, %d lost",
		sequences, len(goals), compared, len(injects), reported, lost)
	if compared < sequences/2 {
		t.Errorf("only %d of %d sequences ended with a running todo to compare: the goals ran out too fast", compared, sequences)
	}
}

// burst sends 1–6 random commands at once, each from its own goroutine, as
// a signal or an update, and returns the inject texts. Rejections (resume
// while not paused) are the goal's to decide and are not failures.
func burst(t *testing.T, s *stack.Stack, rng *rand.Rand, goal string, seq int) []string {
	t.Helper()
	var texts []string
	var wg sync.WaitGroup
	for j := range 1 + rng.IntN(6) {
		name := []string{workflows.SignalPause, workflows.SignalResume, workflows.SignalInject}[rng.IntN(3)]
		if name == workflows.SignalInject && len(texts) == 3 {
			name = workflows.SignalPause
		}
		var arg any
		if name == workflows.SignalInject {
			text := fmt.Sprintf("steer note %d-%d", seq, j)
			texts = append(texts, text)
			arg = text
		}
		asSignal := rng.IntN(2) == 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			send(s, goal, name, arg, asSignal)
		}()
	}
	wg.Wait()
	return texts
}

func send(s *stack.Stack, goal, name string, arg any, asSignal bool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = s.Goals.Send(ctx, goal, name, arg, asSignal)
}

// ended reports whether the goal has closed.
func ended(s *stack.Stack, goal string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := s.Client.DescribeWorkflowExecution(ctx, goal, "")
	return err == nil && d.GetWorkflowExecutionInfo().GetCloseTime() != nil
}

// waitFor polls the goal and its running todo (ok false when no todo
// answers) until cond holds on two polls in a row with the same numbers,
// for up to two minutes.
func waitFor(s *stack.Stack, goal string, cond func(g, c workflows.Status, ok bool) bool) bool {
	deadline := time.Now().Add(2 * time.Minute)
	prev := ""
	for time.Now().Before(deadline) {
		g, c, ok := statuses(s, goal)
		if g.Phase != "" && cond(g, c, ok) {
			key := fmt.Sprint(g.SteerSeq, g.Paused, c.SteerSeq, c.Paused, ok)
			if key == prev {
				return true
			}
			prev = key
		} else {
			prev = ""
		}
		if ended(s, goal) {
			return cond(g, c, false)
		}
		time.Sleep(300 * time.Millisecond)
	}
	return false
}

// statuses reads the goal's status, then its running todo's.
func statuses(s *stack.Stack, goal string) (g, c workflows.Status, ok bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	g, err := s.Goals.Status(ctx, goal)
	if err != nil || g.CurrentTodo == 0 {
		return g, c, false
	}
	todo := fmt.Sprintf("%s/todo-%d", goal, g.CurrentTodo)
	for _, t := range g.Todos {
		if t.Index == g.CurrentTodo && t.Attempts > 1 {
			todo += fmt.Sprintf("-r%d", t.Attempts-1)
		}
		if t.Index == g.CurrentTodo && t.Status != workflows.TodoRunning {
			return g, c, false
		}
	}
	c, err = s.Goals.Status(ctx, todo)
	return g, c, err == nil
}

// scheduledInputs returns the raw inputs of every activity a workflow
// scheduled and of its start: Step requests carry the executor's notes,
// Replan the planner's messages, a todo's start its notes. It also counts
// the workflow's runs, and those that take signals in arrival order.
func scheduledInputs(t *testing.T, s *stack.Stack, id string) (out []string, runs, byArrival int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	hs, err := drill.Runs(ctx, s.Client, id)
	if err != nil {
		t.Errorf("history of %s: %v", id, err)
		return nil, 0, 0
	}
	for _, h := range hs {
		out = append(out, inputsOf(h)...)
		if v, ok := drill.ChangeVersion(h, workflows.ChangeSignalArrivalOrder); ok && v == 1 {
			byArrival++
		}
	}
	return out, len(hs), byArrival
}

func inputsOf(h *historypb.History) []string {
	var out []string
	for _, e := range h.GetEvents() {
		if a := e.GetActivityTaskScheduledEventAttributes(); a != nil {
			for _, p := range a.GetInput().GetPayloads() {
				out = append(out, string(p.GetData()))
			}
		}
		if a := e.GetWorkflowExecutionStartedEventAttributes(); a != nil {
			for _, p := range a.GetInput().GetPayloads() {
				out = append(out, string(p.GetData()))
			}
		}
	}
	return out
}
