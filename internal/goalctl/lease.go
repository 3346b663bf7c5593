package goalctl

import (
	"context"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/workflows"
)

// PhoneLease is the state of the phone's lease (docs/design.md §5); ok is
// false when the lease is not running or does not answer.
func (g *Client) PhoneLease(ctx context.Context, serial string) (st workflows.LeaseState, ok bool) {
	resp, err := g.c.QueryWorkflowWithOptions(ctx, &client.QueryWorkflowWithOptionsRequest{
		WorkflowID: workflows.LeaseWorkflowID(serial), QueryType: workflows.QueryLease,
		QueryRejectCondition: enumspb.QUERY_REJECT_CONDITION_NOT_OPEN,
	})
	if err != nil || resp.QueryRejected != nil || resp.QueryResult == nil {
		return st, false
	}
	if resp.QueryResult.Get(&st) != nil {
		return st, false
	}
	return st, true
}

// LeaseNote says why the phone's lease took the phone from goals that have
// not held it again since ("phone taken from goal X: its workflow task
// has failed since 09:12 (…)"), "" when it took it from none.
func (g *Client) LeaseNote(ctx context.Context, serial string) string {
	st, ok := g.PhoneLease(ctx, serial)
	if !ok {
		return ""
	}
	var why []string
	for _, r := range st.Revoked {
		why = append(why, r.Reason)
	}
	return strings.Join(why, "; ")
}

// RevokedFrom is the lease's reason when it took the phone serial from
// goal id and has not given it back, "" otherwise.
func (g *Client) RevokedFrom(ctx context.Context, serial, id string) string {
	st, ok := g.PhoneLease(ctx, serial)
	if !ok {
		return ""
	}
	for _, r := range st.Revoked {
		if r.GoalID == id {
			return r.Reason
		}
	}
	return ""
}
