package goalctl

import (
	"context"
	"fmt"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/phoneflow/phoneflow/workflows"
)

// GoalInfo is one goal as visibility sees it.
type GoalInfo struct {
	ID     string `json:"workflow_id"`
	RunID  string `json:"run_id"`
	Goal   string `json:"goal,omitempty"`
	Status string `json:"status"` // PhoneflowStatus, or the execution status when unset
	Device string `json:"device,omitempty"`
	// Labels are the labels of the goal's phone (PhoneflowLabels).
	Labels []string  `json:"labels,omitempty"`
	State  string    `json:"execution"` // Temporal's execution status: running, completed, ...
	Start  time.Time `json:"start"`
	Close  time.Time `json:"close,omitzero"`
}

// ListOptions filter List.
type ListOptions struct {
	Status string // a goal status (running, done, ...); empty = all
	Device string // a device serial; empty = all
	Label  string // a phone label (adb.labels); empty = all
	Limit  int    // 0 = 20
}

// goalStatuses are the values PhoneflowStatus takes.
var goalStatuses = []string{
	workflows.GoalPlanning, workflows.GoalRunning, workflows.GoalPaused, workflows.GoalWaitingUser, workflows.GoalWaitingModel, workflows.GoalWaitingUntil,
	workflows.GoalWaitingPhone, workflows.GoalWaitingDevice,
	workflows.GoalDone, workflows.GoalFailed, workflows.GoalCancelled,
}

// ListQuery returns the visibility query for opts.
func ListQuery(opts ListOptions) (string, error) {
	q := fmt.Sprintf("WorkflowType = '%s'", GoalWorkflowName)
	if opts.Status != "" {
		ok := false
		for _, s := range goalStatuses {
			ok = ok || s == opts.Status
		}
		if !ok {
			return "", fmt.Errorf("status %q is not a goal status: use one of %s", opts.Status, strings.Join(goalStatuses, ", "))
		}
		q += fmt.Sprintf(" AND %s = '%s'", workflows.SearchAttrStatus, opts.Status)
	}
	if opts.Device != "" {
		q += fmt.Sprintf(" AND %s = '%s'", workflows.SearchAttrDevice, strings.ReplaceAll(opts.Device, "'", ""))
	}
	if opts.Label != "" {
		// A keyword list equals a value when it holds it.
		q += fmt.Sprintf(" AND %s = '%s'", workflows.SearchAttrLabels, strings.ReplaceAll(opts.Label, "'", ""))
	}
	return q, nil
}

// List returns goals, newest first.
func (g *Client) List(ctx context.Context, opts ListOptions) ([]GoalInfo, error) {
	q, err := ListQuery(opts)
	if err != nil {
		return nil, err
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = 20
	}
	var out []GoalInfo
	var token []byte
	for len(out) < limit {
		resp, err := g.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace:     g.opts.Namespace,
			PageSize:      int32(min(limit-len(out), 1000)),
			NextPageToken: token,
			Query:         q,
		})
		if err != nil {
			return nil, fmt.Errorf("list goals (%s): %w", q, err)
		}
		for _, e := range resp.GetExecutions() {
			if len(out) < limit {
				out = append(out, g.info(e))
			}
		}
		token = resp.GetNextPageToken()
		if len(token) == 0 {
			break
		}
	}
	return out, nil
}

// Describe returns what visibility knows about one goal.
func (g *Client) Describe(ctx context.Context, id string) (GoalInfo, error) {
	resp, err := g.c.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return GoalInfo{}, wrap(id, "describe", err)
	}
	return g.info(resp.GetWorkflowExecutionInfo()), nil
}

func (g *Client) info(e *workflowpb.WorkflowExecutionInfo) GoalInfo {
	gi := GoalInfo{
		ID:    e.GetExecution().GetWorkflowId(),
		RunID: e.GetExecution().GetRunId(),
		State: ExecutionState(e.GetStatus()),
	}
	if t := e.GetStartTime(); t != nil {
		gi.Start = t.AsTime()
	}
	if t := e.GetCloseTime(); t != nil {
		gi.Close = t.AsTime()
	}
	gi.Goal = g.decodeString(e.GetMemo().GetFields()[MemoGoal])
	sa := e.GetSearchAttributes().GetIndexedFields()
	gi.Status = g.decodeString(sa[workflows.SearchAttrStatus])
	gi.Device = g.decodeString(sa[workflows.SearchAttrDevice])
	if p := sa[workflows.SearchAttrLabels]; p != nil {
		_ = g.opts.DataConverter.FromPayload(p, &gi.Labels) // a goal without labels shows none
	}
	// A goal that ended without writing its final status (terminated, timed
	// out, failed as a workflow) shows Temporal's state instead.
	if gi.Status == "" || (gi.State != "running" && !isFinal(gi.Status)) {
		gi.Status = gi.State
	}
	return gi
}

func isFinal(s string) bool {
	return s == workflows.GoalDone || s == workflows.GoalFailed || s == workflows.GoalCancelled
}

func (g *Client) decodeString(p *commonpb.Payload) string {
	if p == nil {
		return ""
	}
	var s string
	if err := g.opts.DataConverter.FromPayload(p, &s); err != nil {
		var list []string
		if err2 := g.opts.DataConverter.FromPayload(p, &list); err2 == nil {
			return strings.Join(list, ",")
		}
		return ""
	}
	return s
}

// ExecutionState names a Temporal execution status in lower case
// ("running", "completed", "failed", "canceled", "terminated", ...).
func ExecutionState(s enumspb.WorkflowExecutionStatus) string {
	name := strings.TrimPrefix(s.String(), "WORKFLOW_EXECUTION_STATUS_")
	return strings.ToLower(strings.ReplaceAll(name, "_", "-"))
}

// ListRunning returns the IDs of every goal Temporal still runs, whatever
// their PhoneflowStatus says.
func (g *Client) ListRunning(ctx context.Context) ([]string, error) {
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", GoalWorkflowName)
	var ids []string
	var token []byte
	for {
		resp, err := g.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace: g.opts.Namespace, PageSize: 100, NextPageToken: token, Query: q,
		})
		if err != nil {
			return nil, fmt.Errorf("list running goals: %w", err)
		}
		for _, e := range resp.GetExecutions() {
			ids = append(ids, e.GetExecution().GetWorkflowId())
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return ids, nil
		}
	}
}

// Terminate ends a goal at once, without letting it clean up (its todo
// workflows are terminated with it). Prefer Cancel; Terminate is for goals
// that cannot run any more, such as those bound to a phone that is gone.
func (g *Client) Terminate(ctx context.Context, id, reason string) error {
	return wrap(id, "terminate", g.c.TerminateWorkflow(ctx, id, "", reason))
}

// StartedGoal reads a goal's text and phone from its start event, for a goal
// started without phoneflow's memo (from the Temporal CLI, say). It returns
// empty strings when the history cannot be read or holds no GoalInput.
func (g *Client) StartedGoal(ctx context.Context, id string) (goal, device string) {
	it := g.c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !it.HasNext() {
		return "", ""
	}
	ev, err := it.Next()
	if err != nil {
		return "", ""
	}
	ps := ev.GetWorkflowExecutionStartedEventAttributes().GetInput().GetPayloads()
	if len(ps) == 0 {
		return "", ""
	}
	var in workflows.GoalInput
	if err := g.opts.DataConverter.FromPayload(ps[0], &in); err != nil {
		return "", ""
	}
	return in.Goal, in.Device
}
