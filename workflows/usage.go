package workflows

import (
	"fmt"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// usageMarkdown is the Web UI line of a goal's or todo's model calls
// (docs/design.md §9); empty before the first call.
func usageMarkdown(u llm.RoleUsage) string {
	if u.IsZero() {
		return ""
	}
	s := "Model calls: "
	if !u.Planner.IsZero() {
		s += "planner " + u.Planner.String()
	}
	if !u.Executor.IsZero() {
		if !u.Planner.IsZero() {
			s += " · "
		}
		s += "executor " + u.Executor.String()
	}
	if u.ReplayedSteps > 0 {
		s += fmt.Sprintf(" · %s replayed without the model", plural(u.ReplayedSteps, "step"))
	}
	if u.RefusedCommits > 0 {
		s += fmt.Sprintf(" · %s refused (wrong target or already done)", plural(u.RefusedCommits, "commit action"))
	}
	return s + "\n"
}
