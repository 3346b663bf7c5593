package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// notDone lists the todos that keep a goal from being done
// (docs/design.md §9): a failed, skipped or cancelled todo counts unless a
// later todo with the same text was done, or the planner dropped it with a
// reason (recorded on the todo so the result shows it).
func (g *goalRun) notDone(dropped []activities.Dropped) []string {
	reasons := map[string]string{}
	for _, d := range dropped {
		if r := strings.TrimSpace(d.Reason); r != "" {
			reasons[strings.TrimSpace(d.Todo)] = r
		}
	}
	var out []string
	for i := range g.st.Todos {
		t := &g.st.Todos[i]
		if t.Status == TodoDone || t.Look {
			// A look todo that did not see its state fails the goal on
			// that state (notSeenAgain), not as a todo left undone.
			continue
		}
		later := false
		for _, u := range g.st.Todos[i+1:] {
			if u.Text == t.Text && u.Status == TodoDone {
				later = true
				break
			}
		}
		if later {
			continue
		}
		if r, ok := reasons[strings.TrimSpace(t.Text)]; ok {
			t.Dropped = r
			continue
		}
		why := t.Status
		if t.Repeated != "" {
			why += " twice the same way (not run again)"
		}
		switch {
		case t.Evidence != "":
			why += ": " + t.Evidence
		case t.Result != "":
			why += ": " + t.Result
		case t.Status == TodoSkipped:
			why += " without a reason"
		}
		out = append(out, fmt.Sprintf("todo %d %q %s", t.Index, t.Text, truncate(why, 300)))
	}
	return out
}

// noneDone reports whether todos ran and none of them succeeded.
func (g *goalRun) noneDone() bool {
	ran := false
	for _, t := range g.st.Todos {
		switch t.Status {
		case TodoDone:
			return false
		case TodoFailed:
			ran = true
		}
	}
	return ran
}

// finish stamps the final result with the todo list and step count.
func (g *goalRun) finish(ctx workflow.Context, r GoalResult) GoalResult {
	r.Todos = append([]TodoState(nil), g.st.Todos...)
	r.Steps = g.st.Steps
	r.Usage = g.st.Usage
	r.Picked = g.in.Picked
	r.Unused = append([]string(nil), g.st.Notes...)
	g.question, g.approval = nil, nil
	g.setPhase(ctx, r.Status)
	return r
}

// cancelled marks unfinished todos cancelled. ctx is a disconnected context:
// the goal's own context is already cancelled.
func (g *goalRun) cancelled(ctx workflow.Context) GoalResult {
	for i := range g.st.Todos {
		if s := g.st.Todos[i].Status; s == TodoPending || s == TodoRunning {
			g.st.Todos[i].Status = TodoCancelled
		}
	}
	return g.finish(ctx, GoalResult{Status: GoalCancelled, Reason: "cancelled by the user",
		NextStep: "start the goal again to continue from the remaining todos"})
}
