package workflows

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// steerBurst sends n random pause, resume and inject commands at once, each
// as a signal or an update, and returns the inject texts sent. Updates a
// validator rejects (pause while paused) are fine: the goal decides.
func steerBurst(env *testsuite.TestWorkflowEnvironment, rng *rand.Rand, tag string, n, maxInjects int, signalsOnly bool) []string {
	var injects []string
	for j := range n {
		kind := []string{SignalPause, SignalResume, SignalInject}[rng.IntN(3)]
		if kind == SignalInject && len(injects) >= maxInjects {
			kind = SignalPause
		}
		var arg any
		if kind == SignalInject {
			s := fmt.Sprintf("note %s-%d", tag, j)
			injects = append(injects, s)
			arg = s
		}
		if signalsOnly || rng.IntN(2) == 0 {
			env.SignalWorkflow(kind, arg)
		} else if arg != nil {
			update(env, kind, arg)
		} else {
			update(env, kind)
		}
	}
	return injects
}

// childStatus queries a todo of the goal under test.
func childStatus(t *testing.T, env *testsuite.TestWorkflowEnvironment, todo int) (Status, bool) {
	t.Helper()
	v, err := env.QueryWorkflowByID(fmt.Sprintf("%s/todo-%d", testGoalID, todo), QueryStatus)
	if err != nil {
		return Status{}, false
	}
	var s Status
	if err := v.Get(&s); err != nil {
		t.Fatal(err)
	}
	return s, true
}

// TestSteeringBurst sends 100 random sequences of pause, resume and inject,
// through signals and updates at once: one burst while the todo waits for
// an approval, one racing the todo's end. After the first, the goal's and
// the todo's paused state and last steering number agree; at the end every
// injected text reached an executor request or the replanner.
func TestSteeringBurst(t *testing.T) {
	for seq := range 100 {
		t.Run(fmt.Sprint(seq), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seq), 9))
			f := &fakeWorld{scripts: map[string][]autoglm.Action{
				"pay": {sensitiveTap(500, 900, "pay"), sensitiveTap(500, 950, "confirm"), finish("paid")},
			}}
			env := newEnv(t, f)
			var sent []string
			var checked bool
			env.RegisterDelayedCallback(func() {
				// The todo waits for the first approval: approve within a burst.
				sent = append(sent, steerBurst(env, rng, fmt.Sprintf("%d-a", seq), 1+rng.IntN(4), 2, false)...)
				update(env, SignalApprove, ApproveInput{Approved: true})
				sent = append(sent, steerBurst(env, rng, fmt.Sprintf("%d-b", seq), rng.IntN(4), 2, false)...)
			}, time.Minute)
			env.RegisterDelayedCallback(func() {
				// Whatever the burst ended in, the todo now waits (for the
				// second approval, or for resume).
				g := status(t, env)
				c, ok := childStatus(t, env, 1)
				if !ok {
					t.Fatal("todo 1 is not running")
				}
				if g.Paused != c.Paused || g.SteerSeq != c.SteerSeq {
					t.Fatalf("goal paused=%v seq=%d, todo paused=%v seq=%d", g.Paused, g.SteerSeq, c.Paused, c.SteerSeq)
				}
				checked = true
				if g.Paused {
					update(env, SignalResume)
				}
			}, 2*time.Minute)
			env.RegisterDelayedCallback(func() {
				if status(t, env).PendingApproval != nil {
					update(env, SignalApprove, ApproveInput{Approved: true})
				}
			}, 3*time.Minute)
			ended := false
			f.whileThinking = func(in activities.StepInput) {
				// The think that finishes the todo: a burst races its end.
				if in.Act == nil || in.Act.Element == nil || in.Act.Element[1] != 950 || ended {
					return
				}
				ended = true
				sent = append(sent, steerBurst(env, rng, fmt.Sprintf("%d-c", seq), 1+rng.IntN(4), 3, true)...)
			}
			env.RegisterDelayedCallback(func() {
				// Paused between todos, if the race ended in pause.
				if status(t, env).Paused {
					update(env, SignalResume)
				}
			}, 4*time.Minute)
			r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
			if !checked {
				t.Fatal("the agreement check never ran")
			}
			if r.Status != GoalDone {
				t.Fatalf("result = %+v", r)
			}
			for _, s := range sent {
				if !reachedExecutorOrPlanner(f, s) {
					t.Errorf("inject %q reached neither an executor request nor the replanner", s)
				}
			}
		})
	}
}

func reachedExecutorOrPlanner(f *fakeWorld, s string) bool {
	for _, st := range f.steps {
		if slices.Contains(st.In.Notes, s) {
			return true
		}
	}
	for _, in := range f.replanInputs {
		for _, m := range in.UserMessages {
			if strings.HasSuffix(m, s) {
				return true
			}
		}
	}
	return false
}

// A reset ends the running todo before its next device action and runs it
// again under a new child ID with a fresh executor context; nothing the
// first run decided but did not send reaches the phone.
func TestResetRestartsTheRunningTodo(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay"), tap(100, 100), finish("done")}}}
	env := newEnv(t, f)
	var early *updateResult
	env.RegisterDelayedCallback(func() {
		early = update(env, UpdateReset) // the todo waits for its approval
		mustUpdate(t, env, SignalPause)
		mustUpdate(t, env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	env.RegisterDelayedCallback(func() { mustUpdate(t, env, UpdateReset) }, 2*time.Minute)
	env.RegisterDelayedCallback(func() { mustUpdate(t, env, SignalResume) }, 3*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
	if r.Status != GoalDone || len(r.Todos) != 1 || r.Todos[0].Attempts != 2 || r.Todos[0].Status != TodoDone {
		t.Fatalf("result %+v", r)
	}
	if early.Err() == nil || !strings.Contains(early.Err().Error(), "answer it first") {
		t.Errorf("reset while an approval waits: %v", early.Err())
	}
	if got := f.acts(); !slices.Equal(got, []string{"Tap [100,100]"}) {
		t.Errorf("acts %v: the approved tap of the reset run must not be sent", got)
	}
	var firstOfRestart *stepCall
	for i := range f.steps {
		if f.steps[i].WorkflowID == testGoalID+"/todo-1-r1" {
			firstOfRestart = &f.steps[i]
			break
		}
	}
	if firstOfRestart == nil || firstOfRestart.In.HistoryRef != "" {
		t.Fatalf("the restarted todo's first step %+v: want todo-1-r1 with a fresh executor context", firstOfRestart)
	}
	g := &goalRun{steer: steering{ordered: true}}
	if err := g.validReset(); err == nil || !strings.Contains(err.Error(), "no todo is running") {
		t.Errorf("reset with no todo running: %v", err)
	}
}
