package eval

import (
	"bytes"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/workflows"
)

func TestRenderFailedStepsCountsOnlyFailedGoals(t *testing.T) {
	s := Summary{Mode: workflows.ModeLayered, Seed: 3}
	for _, o := range []Outcome{
		{Status: workflows.GoalDone, Steps: 12},
		{Status: workflows.GoalFailed, Steps: 100},
		{Status: workflows.GoalFailed, Steps: 40},
		{Status: workflows.GoalFailed, Steps: 61},
		{Status: workflows.GoalCancelled, Steps: 9},
	} {
		s.add(o)
	}
	var b bytes.Buffer
	if err := RenderFailedSteps(&b, s); err != nil {
		t.Fatal(err)
	}
	want := "| layered | 3 | 3 | 201 | 67.0 | 61 | 100 | 1 |"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("table lacks %q:\n%s", want, b.String())
	}
}

func TestRenderFailedStepsCountsStepsPerFailedTodo(t *testing.T) {
	s := Summary{Mode: workflows.ModeLayered, Seed: 1, ModelCalls: 77}
	for _, o := range []Outcome{
		{Status: workflows.GoalDone, Verdict: Achieved, Steps: 20, TodosFailed: 1, FailedTodoSteps: 8},
		{Status: workflows.GoalFailed, Verdict: HonestFailure, Steps: 30, TodosFailed: 2, FailedTodoSteps: 22},
		{Status: workflows.GoalDone, Verdict: Achieved, Steps: 5},
	} {
		s.add(o)
	}
	var b bytes.Buffer
	if err := RenderFailedSteps(&b, s); err != nil {
		t.Fatal(err)
	}
	want := "| layered | 1 | 3 | 30 | 10.0 | 2/3 | 77 |"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("table lacks %q:\n%s", want, b.String())
	}
}
