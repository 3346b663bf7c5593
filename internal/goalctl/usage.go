package goalctl

import (
	"context"
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/workflows"
)

// LiveUsage is a running goal's model calls: the goal's own (plans and
// finished todos) plus the running todo's, which the goal only adds when
// the todo ends. The goal's figure alone is returned when the todo does
// not answer.
func (g *Client) LiveUsage(ctx context.Context, id string, st workflows.Status, todos []workflows.TodoState) llm.RoleUsage {
	u := st.Usage
	if child := runningChild(id, st, todos); child != "" {
		if ts, err := g.Status(ctx, child); err == nil {
			u = u.Add(ts.Usage)
		}
	}
	return u
}

// Prices are the per-model prices of the planner and the executor.
type Prices struct {
	Planner, Executor llm.Price
}

// Estimate is the cost of u at p; ok is false when no price is set.
func (p Prices) Estimate(u llm.RoleUsage) (cost float64, ok bool) {
	if p.Planner.IsZero() && p.Executor.IsZero() {
		return 0, false
	}
	return p.Planner.Cost(u.Planner) + p.Executor.Cost(u.Executor), true
}

// UsageLines describes u for people, one line per role, and the estimate
// when prices are set; nothing when no model was called.
func UsageLines(u llm.RoleUsage, p Prices) []string {
	if u.IsZero() {
		return nil
	}
	var out []string
	if !u.Planner.IsZero() {
		out = append(out, "  planner:  "+u.Planner.String())
	}
	if !u.Executor.IsZero() {
		out = append(out, "  executor: "+u.Executor.String())
	}
	if u.ReplayedSteps > 0 {
		out = append(out, fmt.Sprintf("  replayed: %d steps without the model", u.ReplayedSteps))
	}
	if c, ok := p.Estimate(u); ok {
		out = append(out, "  estimated cost: "+FormatCost(c))
	}
	return append([]string{"model usage:"}, out...)
}

// FormatCost prints a cost with enough digits for small sums.
func FormatCost(c float64) string {
	s := fmt.Sprintf("%.4f", c)
	if c >= 1 {
		s = fmt.Sprintf("%.2f", c)
	}
	return strings.TrimSpace(s)
}
