package viewer

import (
	"context"
	"fmt"
	"time"

	"github.com/phoneflow/phoneflow/workflows"
)

// Live is what a running goal says of itself now: its status query
// (answered by a worker of the goal's task queue).
func (r *Reader) Live(ctx context.Context, id string) (workflows.Status, error) {
	var st workflows.Status
	v, err := r.Client.QueryWorkflow(ctx, id, "", workflows.QueryStatus)
	if err != nil {
		return st, fmt.Errorf("status of %s: %w", id, err)
	}
	if err := v.Get(&st); err != nil {
		return st, fmt.Errorf("status of %s: decode the answer: %w", id, err)
	}
	return st, nil
}

// withLive takes what the running goal says of itself into g: its phase
// (paused, waiting for a person, a model, a time or the phone) and what it
// waits for, and until when.
func (g *Goal) withLive(st workflows.Status, now time.Time) {
	if !g.Running || st.Phase == "" {
		return
	}
	g.Status = st.Phase
	switch {
	case st.Paused:
		g.Waiting = "paused: nothing runs on the phone until the goal is resumed"
	case workflows.WaitLine(st, now) != "":
		g.Waiting = workflows.WaitLine(st, now)
	case st.PendingApproval != nil:
		g.Waiting = "waiting for your approval of " + st.PendingApproval.Action
	case st.PendingQuestion != "":
		g.Waiting = "waiting for your answer to: " + st.PendingQuestion
	case st.WaitingFor != "":
		g.Waiting = "waiting for " + st.WaitingFor
	}
	if !st.AnswerBy.IsZero() && (st.PendingApproval != nil || st.PendingQuestion != "") {
		g.Waiting += " (until " + st.AnswerBy.UTC().Format("2006-01-02 15:04 UTC") + ")"
	}
}
