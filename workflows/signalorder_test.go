package workflows

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// sendInOneTask sends plain signals so that they all land in one workflow
// task, in the given order: every one but the last without running the
// workflow, the last with a workflow task. An "inject" entry carries text.
func sendInOneTask(env interface {
	SignalWorkflowSkippingWorkflowTask(string, any)
	SignalWorkflow(string, any)
}, names []string, text func(i int) string) {
	for i, n := range names {
		var arg any
		if n == SignalInject {
			arg = text(i)
		}
		if i < len(names)-1 {
			env.SignalWorkflowSkippingWorkflowTask(n, arg)
		} else {
			env.SignalWorkflow(n, arg)
		}
	}
}

// signalOrderCases are bursts of plain signals of different names that
// land in one workflow task while a todo runs, with the paused state the
// last of them leaves. The name order the goal used to read channels in
// (pause before resume before inject) gets all but the fourth wrong.
var signalOrderCases = []struct {
	names  []string
	paused bool
}{
	{[]string{SignalPause, SignalResume, SignalPause}, true},
	{[]string{SignalInject, SignalPause, SignalResume, SignalPause}, true},
	{[]string{SignalPause, SignalResume, SignalInject, SignalPause}, true},
	{[]string{SignalPause, SignalInject, SignalResume}, false},
	{[]string{SignalResume, SignalPause, SignalInject, SignalResume, SignalPause}, true},
}

// TestGoalTakesSignalsInArrivalOrder sends each burst to a goal whose todo
// waits for an approval: the goal and the todo end in the state the last
// signal asked for, agree on it, and every injected text reaches the
// executor.
func TestGoalTakesSignalsInArrivalOrder(t *testing.T) {
	for i, c := range signalOrderCases {
		t.Run(strings.Join(c.names, ","), func(t *testing.T) {
			f := &fakeWorld{scripts: map[string][]autoglm.Action{
				"pay": {sensitiveTap(500, 900, "pay"), finish("paid")},
			}}
			env := newEnv(t, f)
			note := func(j int) string { return fmt.Sprintf("note %d-%d", i, j) }
			var injects []string
			for j, n := range c.names {
				if n == SignalInject {
					injects = append(injects, note(j))
				}
			}
			env.RegisterDelayedCallback(func() { sendInOneTask(env, c.names, note) }, time.Minute)
			var checked bool
			env.RegisterDelayedCallback(func() {
				g := status(t, env)
				td, ok := childStatus(t, env, 1)
				if !ok {
					t.Fatal("todo 1 is not running")
				}
				if g.Paused != c.paused || td.Paused != c.paused || g.SteerSeq != td.SteerSeq {
					t.Errorf("after %v: goal paused=%v seq=%d, todo paused=%v seq=%d; want paused=%v",
						c.names, g.Paused, g.SteerSeq, td.Paused, td.SteerSeq, c.paused)
				}
				checked = true
				if g.Paused {
					update(env, SignalResume)
				}
				update(env, SignalApprove, ApproveInput{Approved: true})
			}, 2*time.Minute)
			r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
			if !checked {
				t.Fatal("the state check never ran")
			}
			if r.Status != GoalDone {
				t.Fatalf("result = %+v", r)
			}
			for _, s := range injects {
				if !reachedExecutorOrPlanner(f, s) {
					t.Errorf("inject %q reached neither an executor request nor the replanner", s)
				}
			}
		})
	}
}

// TestTodoTakesSignalsInArrivalOrder does the same to a todo signalled
// directly, as a person may with `temporal workflow signal`.
func TestTodoTakesSignalsInArrivalOrder(t *testing.T) {
	for i, c := range signalOrderCases {
		t.Run(strings.Join(c.names, ","), func(t *testing.T) {
			f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": {sensitiveTap(5, 5, "buy"), finish("bought")}}}
			env := newEnv(t, f)
			note := func(j int) string { return fmt.Sprintf("note %d-%d", i, j) }
			env.RegisterDelayedCallback(func() { sendInOneTask(env, c.names, note) }, time.Minute)
			var checked bool
			env.RegisterDelayedCallback(func() {
				if s := status(t, env); s.Paused != c.paused {
					t.Errorf("after %v: todo paused=%v, want %v", c.names, s.Paused, c.paused)
				}
				checked = true
				env.SignalWorkflow(SignalResume, nil)
				env.SignalWorkflow(SignalApprove, ApproveInput{Approved: true})
			}, 2*time.Minute)
			env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1", GoalID: "goal-x"})
			var r TodoResult
			if err := env.GetWorkflowResult(&r); err != nil {
				t.Fatal(err)
			}
			if !checked || r.Status != TodoDone {
				t.Fatalf("checked=%v result=%+v", checked, r)
			}
			for j, n := range c.names {
				if n == SignalInject && !reachedExecutorOrPlanner(f, note(j)) {
					t.Errorf("inject %q never reached the executor", note(j))
				}
			}
		})
	}
}

// TestGoalWithoutSignalOrderKeepsNameOrder runs a goal on a worker without
// the interceptor: the goal still runs to the end, taking the signals of
// one workflow task in the fixed name order of runs from before the change
// (the pause taken first and the second one dropped, so it ends running).
func TestGoalWithoutSignalOrderKeepsNameOrder(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"pay": {sensitiveTap(500, 900, "pay"), finish("paid")},
	}}
	env := newEnv(t, f)
	env.SetWorkerOptions(onLoadedMachine(worker.Options{}))
	env.RegisterDelayedCallback(func() {
		sendInOneTask(env, []string{SignalPause, SignalResume, SignalPause}, nil)
	}, time.Minute)
	var paused, checked bool
	env.RegisterDelayedCallback(func() {
		paused, checked = status(t, env).Paused, true
		if paused {
			update(env, SignalResume)
		}
		update(env, SignalApprove, ApproveInput{Approved: true})
	}, 2*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
	if !checked || paused || r.Status != GoalDone {
		t.Fatalf("checked=%v paused=%v result=%+v; want name order (running) and done", checked, paused, r)
	}
}
