package eval

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/workflows"
)

// RenderFailedSteps writes what the goals that ended failed cost: their
// steps (total, mean, median, most) and how many used the whole step
// budget, per seed and mode. A hopeless todo that is tried again and again
// shows here (docs/design.md §2).
func RenderFailedSteps(w io.Writer, sums ...Summary) error {
	var b strings.Builder
	b.WriteString("\nSteps of the goals that ended failed:\n\n")
	b.WriteString("| mode | seed | goals failed | steps | mean | median | most | at the step budget |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		var steps []int
		total, spent := 0, 0
		for _, o := range s.Outcomes {
			if o.Status != workflows.GoalFailed {
				continue
			}
			steps = append(steps, o.Steps)
			total += o.Steps
			if o.Steps >= workflows.DefaultMaxSteps {
				spent++
			}
		}
		slices.Sort(steps)
		med, most := 0, 0
		if n := len(steps); n > 0 {
			med, most = steps[n/2], steps[n-1]
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f | %d | %d | %d |\n", s.Mode, s.Seed, len(steps), total, ratio(total, len(steps)), med, most, spent)
	}
	b.WriteString("\nSteps of the todos that ended failed (a review that stops a todo going wrong shortens these):\n\n")
	b.WriteString("| mode | seed | todos failed | steps | per failed todo | achieved | model calls |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, s := range sums {
		todos, steps := 0, 0
		for _, o := range s.Outcomes {
			todos += o.TodosFailed
			steps += o.FailedTodoSteps
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f | %d/%d | %d |\n", s.Mode, s.Seed, todos, steps, ratio(steps, todos), s.Achieved, s.Goals, s.ModelCalls)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
