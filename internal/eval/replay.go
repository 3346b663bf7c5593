package eval

import (
	"context"
	"fmt"
	"strings"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/workflows"
)

// maxReplayRuns bounds the runs of one goal replayed (its own
// continue-as-new chain and every child's).
const maxReplayRuns = 200

// replayGoal replays every run of a finished goal and of each workflow it
// started against this build's workflow code, as a worker does after it
// lost its cache (docs/design.md §16): code whose command sequence depends
// on anything but its history fails here on every task, not only on the
// rare run whose cache was lost. It returns how many runs replayed and the
// first failure, "" when all replayed.
func replayGoal(ctx context.Context, c client.Client, id string) (int, string) {
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{Interceptors: workflows.Interceptors()})
	if err != nil {
		return 0, err.Error()
	}
	r.RegisterWorkflow(workflows.GoalWorkflow)
	r.RegisterWorkflow(workflows.TodoWorkflow)
	r.RegisterWorkflow(workflows.DeviceLeaseWorkflow)
	queue, seen, n := []string{id}, map[string]bool{}, 0
	for len(queue) > 0 && n < maxReplayRuns {
		wid := queue[0]
		queue = queue[1:]
		if seen[wid] {
			continue
		}
		seen[wid] = true
		for runID := ""; n < maxReplayRuns; {
			h, err := readRun(ctx, c, wid, runID)
			if err != nil {
				return n, err.Error()
			}
			opts := worker.ReplayWorkflowHistoryOptions{OriginalExecution: workflow.Execution{ID: wid, RunID: "replay"}}
			if err := r.ReplayWorkflowHistoryWithOptions(nil, h, opts); err != nil {
				return n, fmt.Sprintf("%s (run %s): %v", wid, firstNonEmpty(runID, "latest"), err)
			}
			n++
			var prev string
			for _, ev := range h.Events {
				if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil && !strings.HasPrefix(a.GetWorkflowId(), workflows.LeaseWorkflowIDPrefix) {
					queue = append(queue, a.GetWorkflowId())
				}
				if a := ev.GetWorkflowExecutionStartedEventAttributes(); a != nil {
					prev = a.GetContinuedExecutionRunId()
				}
			}
			if prev == "" {
				break
			}
			runID = prev
		}
	}
	return n, ""
}

// readRun reads one run's history; runID "" is the latest run.
func readRun(ctx context.Context, c client.Client, id, runID string) (*historypb.History, error) {
	it := c.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	h := &historypb.History{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("read the history of %s: %w", id, err)
		}
		h.Events = append(h.Events, ev)
	}
	if len(h.Events) == 0 {
		return nil, fmt.Errorf("the history of %s (run %q) has no events", id, runID)
	}
	return h, nil
}
