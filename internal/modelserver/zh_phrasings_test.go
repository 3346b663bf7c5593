package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// zhPlan is the planner's answer to a goal as one line: the todos with
// their checks, or "ASK" and the question.
func zhPlan(t *testing.T, goal string) string {
	t.Helper()
	a := planGoal(planContext{Goal: goal})
	if a.Status != "planned" {
		return "ASK " + a.Question
	}
	var got []string
	for _, p := range a.Plan {
		var cs []string
		for _, x := range p.Expect {
			cs = append(cs, x.String())
		}
		if probs := postcond.Valid(p.Expect); len(probs) > 0 {
			t.Errorf("%q: invalid checks %v", goal, probs)
		}
		got = append(got, p.Todo+" ⟨"+strings.Join(cs, ", ")+"⟩")
	}
	return strings.Join(got, " | ")
}

// Chinese times whose minutes come as a number without 分 ("六点四十五")
// were read as the bare hour, and the alarm at the wrong time was created
// and checked as done.
func TestZhMinutesWithoutFen(t *testing.T) {
	for goal, want := range map[string]string{
		"帮我定一个早上六点四十五的闹钟": `Create an alarm at 06:45 ⟨"06:45" is shown⟩`,
		"设个晚上九点二十的闹钟":     `Create an alarm at 21:20 ⟨"21:20" is shown⟩`,
		"请设一个十点零五的闹钟":     `Create an alarm at 10:05 ⟨"10:05" is shown⟩`,
		"设一个七点一刻的闹钟":      `Create an alarm at 07:15 ⟨"07:15" is shown⟩`,
	} {
		if got := zhPlan(t, goal); got != want {
			t.Errorf("%s\n got %s\nwant %s", goal, got, want)
		}
	}
}
