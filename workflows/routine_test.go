package workflows

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/routine"
)

func (f *fakeWorld) FindRoutine(_ context.Context, in activities.FindRoutineInput) (activities.FindRoutineResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := activities.FindRoutineResult{Task: routine.Parse(in.Task), Key: routine.Key{Template: routine.Parse(in.Task).Template, Width: 1080, Height: 2400}}
	if f.routine != nil {
		out = *f.routine
	}
	return out, nil
}

func (f *fakeWorld) RecordRoutine(_ context.Context, in activities.RecordRoutineInput) (activities.RecordRoutineResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recorded = append(f.recorded, in)
	return activities.RecordRoutineResult{ID: "r-0123456789ab", Steps: len(in.Trace), Created: f.routine == nil && in.Success,
		Updated: f.routine != nil && in.Success}, nil
}

// threeStepRoutine replays two taps and a finish.
func threeStepRoutine() *activities.FindRoutineResult {
	steps := []autoglm.Action{tap(100, 100), tap(200, 200), finish("Sent it")}
	r := &activities.FindRoutineResult{ID: "r-0123456789ab", Key: routine.Key{Template: "send it"}}
	for i, a := range steps {
		r.Steps = append(r.Steps, routine.ReplayStep{Routine: r.ID, Index: i + 1, Total: len(steps), Screen: "tree:x", Action: a})
	}
	return r
}

func runTodo(t *testing.T, f *fakeWorld, routines bool) (TodoResult, Status) {
	t.Helper()
	env := newEnv(t, f)
	env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "Send it", Device: "emu-1", StepBudget: 50, MaxSteps: 30,
		UITree: true, Routines: routines})
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	v, err := env.QueryWorkflow(QueryStatus)
	if err != nil {
		t.Fatal(err)
	}
	var st Status
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	return r, st
}

func TestTodoReplaysItsRoutine(t *testing.T) {
	f := &fakeWorld{routine: threeStepRoutine()}
	r, st := runTodo(t, f, true)
	if r.Status != TodoDone || r.Usage.ReplayedSteps != 3 || r.Usage.Executor.Calls != 0 {
		t.Fatalf("result %+v", r)
	}
	// Replayed decisions count as steps, like the thinks they stand in for.
	if r.Steps != 5 || !slices.Equal(f.acts(), []string{"Tap [100,100]", "Tap [200,200]"}) {
		t.Fatalf("steps %d, acts %v", r.Steps, f.acts())
	}
	if !strings.Contains(st.Routine, "replayed step 3/3 of routine r-0123456789ab") {
		t.Errorf("status routine = %q", st.Routine)
	}
	if len(f.recorded) != 1 || !f.recorded[0].Success || len(f.recorded[0].Trace) != 3 || f.recorded[0].Trace[2].Action.Name != autoglm.ActionFinish {
		t.Fatalf("recorded %+v", f.recorded)
	}
	for _, s := range f.steps {
		if s.In.Think && s.In.Replay == nil {
			t.Errorf("a think asked the model: %+v", s.In)
		}
	}
}

func TestTodoFallsBackToTheModelAtTheFirstMismatch(t *testing.T) {
	f := &fakeWorld{routine: threeStepRoutine(), replayMiss: 2,
		scripts: map[string][]autoglm.Action{"Send it": {tap(300, 300), finish("Sent it")}}}
	r, st := runTodo(t, f, true)
	if r.Status != TodoDone || r.Usage.ReplayedSteps != 1 || r.Usage.Executor.Calls != 2 {
		t.Fatalf("result %+v", r)
	}
	if !slices.Equal(f.acts(), []string{"Tap [100,100]", "Tap [300,300]"}) {
		t.Fatalf("acts %v", f.acts())
	}
	if !strings.Contains(st.Routine, "replayed 1/3 steps") || !strings.Contains(st.Routine, "then the model: the screen before step 2 differs") {
		t.Errorf("status routine = %q", st.Routine)
	}
	// After the miss no step asks for a replay again.
	asked := 0
	for _, s := range f.steps {
		if s.In.Replay != nil {
			asked++
		}
	}
	if asked != 2 {
		t.Errorf("%d steps asked for a replay, want 2 (step 1 replayed, step 2 missed)", asked)
	}
	if len(f.recorded) != 1 || !f.recorded[0].Success || len(f.recorded[0].Trace) != 3 || f.recorded[0].Trace[1].Action.Element[0] != 300 {
		t.Fatalf("the fallback's trace must update the routine: %+v", f.recorded)
	}
}

func TestTodoRoutineFailureAndRoutinesOff(t *testing.T) {
	f := &fakeWorld{routine: threeStepRoutine(), refute: map[string]string{"Sent it": "no message on the screen"}}
	r, _ := runTodo(t, f, true)
	if r.Status != TodoFailed || len(f.recorded) != 1 || f.recorded[0].Success || f.recorded[0].Replayed != 3 {
		t.Fatalf("a replay that did not verify must count against the routine: %+v %+v", r, f.recorded)
	}
	// Routines off: no lookup, no replay, nothing recorded.
	g := &fakeWorld{routine: threeStepRoutine(), scripts: map[string][]autoglm.Action{"Send it": {tap(1, 1), finish("Sent it")}}}
	r, st := runTodo(t, g, false)
	if r.Status != TodoDone || r.Usage.ReplayedSteps != 0 || len(g.recorded) != 0 || st.Routine != "" {
		t.Fatalf("routines off: %+v, recorded %d, %q", r, len(g.recorded), st.Routine)
	}
}
