package progress

import (
	"strings"
	"testing"
)

// The summary's step count adds up: the planner's steps, which no todo
// line shows, are named beside the todos' own.
func TestSummaryNamesThePlanningSteps(t *testing.T) {
	r := Result{GoalID: "g", Status: "done", Steps: 18, Todos: []Todo{{Text: "a", Status: "done", Steps: 5}, {Text: "b", Status: "done", Steps: 11}}}
	if got := Summary(r)[0]; got != "g done after 18 steps (16 in its todos, 2 planning)" {
		t.Errorf("head = %q", got)
	}
	r.Steps = 16
	if got := Summary(r)[0]; strings.Contains(got, "(") {
		t.Errorf("head = %q, want no split when the todos hold every step", got)
	}
}
