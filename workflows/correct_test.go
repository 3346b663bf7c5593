package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// runStuckTodo runs a todo whose taps never change the screen, with one
// correction before it ends stuck.
func runStuckTodo(t *testing.T, f *fakeWorld) TodoResult {
	t.Helper()
	f.stuck = true
	f.scripts = map[string][]autoglm.Action{"t": {tap(500, 500), tap(500, 500), tap(500, 500), tap(500, 500), tap(500, 500), tap(500, 500), tap(500, 500)}}
	env := newEnv(t, f)
	env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1", StepBudget: 50, MaxSteps: 30,
		FailureThreshold: 3, StuckThreshold: 3, MaxStuckRetries: 1})
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if r.Status != TodoStuck {
		t.Fatalf("todo = %+v, want stuck", r)
	}
	return r
}

// notesAfterCorrection returns the notes of the first think sent after the
// correction.
func notesAfterCorrection(f *fakeWorld) []string {
	for _, s := range f.steps {
		for _, n := range s.In.Notes {
			if strings.HasPrefix(n, "You seem stuck") {
				return s.In.Notes
			}
		}
	}
	return nil
}

func TestStuckCorrectionIsWrittenByThePlanner(t *testing.T) {
	f := &fakeWorld{}
	r := runStuckTodo(t, f)
	if len(f.corrects) != 1 {
		t.Fatalf("corrections asked = %d, want 1", len(f.corrects))
	}
	in := f.corrects[0]
	if in.Task != "t" || !strings.Contains(in.Why, "the same action was decided 3 times in a row: Tap [500,500]") || in.Screen.App != "Settings" {
		t.Fatalf("correction input = %+v", in)
	}
	if len(in.Recent) != 2 || in.Recent[1] != "Tap [500,500] → ok" {
		t.Fatalf("recent actions = %q", in.Recent)
	}
	if !IsCorrection(CorrectionNote) || !IsCorrection(correctionPrefix+fakeCorrection) {
		t.Fatal("IsCorrection misses a correction note; the step viewer flags steps by it")
	}
	notes := notesAfterCorrection(f)
	if !slices.Contains(notes, correctionPrefix+fakeCorrection) || slices.Contains(notes, CorrectionNote) {
		t.Fatalf("notes after the correction = %q", notes)
	}
	if r.Usage.Planner.Calls != 1 {
		t.Fatalf("planner usage = %+v, want the correction's call", r.Usage.Planner)
	}
	if !slices.ContainsFunc(r.Lessons, func(l string) bool { return strings.Contains(l, "go Back") }) {
		t.Fatalf("lessons = %q, want the correction among them", r.Lessons)
	}
}

func TestStuckCorrectionFallsBackToTheFixedNote(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    *fakeWorld
	}{
		{"planner unreachable", &fakeWorld{correctFail: true}},
		{"planner answer invalid", &fakeWorld{correctInvalid: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runStuckTodo(t, tc.f)
			if len(tc.f.corrects) == 0 {
				t.Fatal("the planner was not asked")
			}
			if notes := notesAfterCorrection(tc.f); !slices.Contains(notes, CorrectionNote) {
				t.Fatalf("notes after the correction = %q, want the fixed note", notes)
			}
		})
	}
}
