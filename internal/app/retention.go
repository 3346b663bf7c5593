package app

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/retention"
)

// visibilityGoals finds the goals inside retention through Temporal's
// visibility store.
type visibilityGoals struct {
	c         client.Client
	namespace string
}

var _ retention.Goals = visibilityGoals{}

// VisibilityGoals returns the retention.Goals of namespace on c.
func VisibilityGoals(c client.Client, namespace string) retention.Goals {
	return visibilityGoals{c: c, namespace: namespace}
}

// GoalsQuery is the visibility query of the goals running or closed after
// closedAfter.
func GoalsQuery(closedAfter time.Time) string {
	return fmt.Sprintf("WorkflowType = '%s' AND (ExecutionStatus = 'Running' OR CloseTime > '%s')",
		goalctl.GoalWorkflowName, closedAfter.UTC().Format(time.RFC3339Nano))
}

// OldestStart pages through every matching goal: visibility on SQL stores
// cannot order by start time.
func (v visibilityGoals) OldestStart(ctx context.Context, closedAfter time.Time) (time.Time, bool, error) {
	q := GoalsQuery(closedAfter)
	var oldest time.Time
	found := false
	var token []byte
	for {
		resp, err := v.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: v.namespace, PageSize: 1000, NextPageToken: token, Query: q,
		})
		if err != nil {
			return time.Time{}, false, fmt.Errorf("list goals (%s): %w", q, err)
		}
		for _, e := range resp.GetExecutions() {
			if t := e.GetStartTime(); t != nil && (!found || t.AsTime().Before(oldest)) {
				oldest, found = t.AsTime(), true
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return oldest, found, nil
		}
	}
}

func (v visibilityGoals) Retention(ctx context.Context) (time.Duration, error) {
	resp, err := v.c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: v.namespace})
	if err != nil {
		return 0, fmt.Errorf("describe namespace %s: %w", v.namespace, err)
	}
	return resp.GetConfig().GetWorkflowExecutionRetentionTtl().AsDuration(), nil
}
