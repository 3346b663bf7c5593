package fleet

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
)

// Lister is the part of a Temporal client that lists workflows.
type Lister interface {
	ListWorkflow(ctx context.Context, request *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error)
}

// List returns every phone a worker has published (one running record
// each) in namespace, sorted by serial, decoding memos with dc.
func List(ctx context.Context, c Lister, namespace string, dc converter.DataConverter) ([]Phone, error) {
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", RecordWorkflowType)
	req := &workflowservice.ListWorkflowExecutionsRequest{Namespace: namespace, PageSize: 200, Query: q}
	var out []Phone
	for {
		resp, err := c.ListWorkflow(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("list the fleet's phones: %w", err)
		}
		for _, e := range resp.GetExecutions() {
			pl := e.GetMemo().GetFields()[MemoPhone]
			if pl == nil {
				continue // started, its memo not written yet
			}
			var p Phone
			if err := dc.FromPayload(pl, &p); err != nil || p.Serial == "" {
				continue
			}
			out = append(out, p)
		}
		if len(resp.GetNextPageToken()) == 0 {
			break
		}
		req.NextPageToken = resp.GetNextPageToken()
	}
	slices.SortFunc(out, func(a, b Phone) int { return strings.Compare(a.Serial, b.Serial) })
	return slices.CompactFunc(out, func(a, b Phone) bool { return a.Serial == b.Serial }), nil
}
