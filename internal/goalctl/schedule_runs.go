package goalctl

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/api/workflowservice/v1"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/workflows"
)

// RunOutcome is how one recent run of a schedule went and what it cost.
type RunOutcome struct {
	WorkflowID string    `json:"workflow_id"`
	Scheduled  time.Time `json:"scheduled"`
	Started    time.Time `json:"started"`
	// Buffered is set when the run started well after its scheduled time:
	// it waited for the previous run to end (overlap buffer-one).
	Buffered bool `json:"buffered,omitempty"`
	// State is Temporal's execution state (running, completed, failed,
	// timed-out, …); Status the goal's own (done, failed, cancelled).
	State  string        `json:"state"`
	Status string        `json:"status,omitempty"`
	Reason string        `json:"reason,omitempty"`
	Usage  llm.RoleUsage `json:"usage"`
}

// RunCounts are a schedule's runs that did not simply start and succeed.
type RunCounts struct {
	// Skipped runs: due while another ran (overlap skip) or later than the
	// catch-up window after an outage.
	SkippedOverlap int `json:"skipped_overlap"`
	MissedCatchup  int `json:"missed_catchup"`
	// Buffered recent runs started late because they waited their turn.
	Buffered int `json:"buffered"`
	// Failed runs: goals that ended failed, or executions that failed,
	// timed out or were terminated.
	Failed int `json:"failed"`
}

// bufferedAfter is how late past its scheduled time (and jitter) a run
// starts before it counts as buffered.
const bufferedAfter = 30 * time.Second

// FailedRunsQuery is the visibility query of schedule name's failed runs.
// Temporal sets TemporalScheduledById on every workflow a schedule starts.
func FailedRunsQuery(name string) string {
	return fmt.Sprintf("TemporalScheduledById = '%s' AND (%s = '%s' OR ExecutionStatus = 'Failed' OR ExecutionStatus = 'TimedOut' OR ExecutionStatus = 'Terminated')",
		name, workflows.SearchAttrStatus, workflows.GoalFailed)
}

// CountFailedRuns counts schedule name's runs that failed.
func (g *Client) CountFailedRuns(ctx context.Context, name string) (int, error) {
	q := FailedRunsQuery(name)
	resp, err := g.c.CountWorkflow(ctx, &workflowservice.CountWorkflowExecutionsRequest{Namespace: g.opts.Namespace, Query: q})
	if err != nil {
		return 0, fmt.Errorf("count failed runs (%s): %w", q, err)
	}
	return int(resp.GetCount()), nil
}

// outcome looks up how the run id ended and its usage. A run whose history
// is gone (past retention) keeps only its times.
func (g *Client) outcome(ctx context.Context, r RunOutcome) RunOutcome {
	info, err := g.Describe(ctx, r.WorkflowID)
	if err != nil {
		r.State = "unknown"
		return r
	}
	r.State, r.Status = info.State, info.Status
	if info.State == "running" {
		if st, err := g.Status(ctx, r.WorkflowID); err == nil {
			r.Usage = st.Usage
		}
		return r
	}
	if res, err := g.Result(ctx, r.WorkflowID); err == nil {
		r.Status, r.Usage = res.Status, res.Usage
		r.Reason = res.Reason
	}
	return r
}

// RecentOutcomes returns the outcomes of si's recent runs, newest first,
// and their summed usage.
func (g *Client) RecentOutcomes(ctx context.Context, si ScheduleInfo, jitter time.Duration) ([]RunOutcome, llm.RoleUsage) {
	var out []RunOutcome
	var sum llm.RoleUsage
	for i := len(si.Recent) - 1; i >= 0; i-- {
		run := si.Recent[i]
		if run.WorkflowID == "" {
			continue
		}
		o := g.outcome(ctx, RunOutcome{WorkflowID: run.WorkflowID, Scheduled: run.Scheduled, Started: run.At,
			Buffered: !run.Scheduled.IsZero() && run.At.Sub(run.Scheduled) > jitter+bufferedAfter})
		sum = sum.Add(o.Usage)
		out = append(out, o)
	}
	return out, sum
}
