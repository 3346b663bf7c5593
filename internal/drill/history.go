package drill

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// History reads the events of the latest run of one workflow.
func History(ctx context.Context, c client.Client, id string) ([]*historypb.HistoryEvent, error) {
	return runHistory(ctx, c, id, "")
}

func runHistory(ctx context.Context, c client.Client, id, runID string) ([]*historypb.HistoryEvent, error) {
	it := c.GetWorkflowHistory(ctx, id, runID, false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var evs []*historypb.HistoryEvent
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return nil, fmt.Errorf("history of %s: %w", id, err)
		}
		evs = append(evs, ev)
	}
	return evs, nil
}

// HistoryOf is History as one History message (the shape replay files and
// size counts use). A workflow with no events is an error.
func HistoryOf(ctx context.Context, c client.Client, id string) (*historypb.History, error) {
	evs, err := History(ctx, c, id)
	if err == nil && len(evs) == 0 {
		err = fmt.Errorf("history of %s: no events", id)
	}
	return &historypb.History{Events: evs}, err
}

// Runs reads every run of one workflow ID, oldest first: the latest run,
// then each run it continued from (a continue-as-new chain, read through
// the started event's continued_execution_run_id).
func Runs(ctx context.Context, c client.Client, id string) ([]*historypb.History, error) {
	var runs []*historypb.History
	for runID := ""; ; {
		evs, err := runHistory(ctx, c, id, runID)
		if err == nil && len(evs) == 0 {
			err = fmt.Errorf("history of %s (run %q): no events", id, runID)
		}
		if err != nil {
			return nil, err
		}
		runs = append([]*historypb.History{{Events: evs}}, runs...)
		runID = evs[0].GetWorkflowExecutionStartedEventAttributes().GetContinuedExecutionRunId()
		if runID == "" {
			return runs, nil
		}
	}
}

// ChangeVersion returns the version a run recorded for a GetVersion change
// ID, and whether it recorded one. A todo run that recorded
// workflows.ChangeTodoMarkersOnce took the changes that marker stands for
// without a marker each (docs/design.md §16): their versions are the ones
// it implies.
func ChangeVersion(h *historypb.History, changeID string) (int, bool) {
	if v, ok := recordedVersion(h, changeID); ok {
		return v, true
	}
	if v, ok := recordedVersion(h, workflows.ChangeTodoMarkersOnce); ok && v >= 1 {
		if implied, ok := workflows.TodoMarkersOnceImplies(workflow.Version(v), changeID); ok {
			return int(implied), true
		}
	}
	return 0, false
}

// recordedVersion returns the version of a run's marker for changeID.
func recordedVersion(h *historypb.History, changeID string) (int, bool) {
	dc := converter.GetDefaultDataConverter()
	for _, e := range h.GetEvents() {
		m := e.GetMarkerRecordedEventAttributes()
		if m == nil || m.GetMarkerName() != "Version" {
			continue
		}
		var id string
		var v int
		if dc.FromPayloads(m.GetDetails()["change-id"], &id) != nil || id != changeID {
			continue
		}
		if dc.FromPayloads(m.GetDetails()["version"], &v) == nil {
			return v, true
		}
	}
	return 0, false
}

// GoalWorkflowIDs are the workflow IDs a finished goal ran: the goal and
// every todo child run its result lists (Attempts runs; restarts get
// "-r<k>").
func GoalWorkflowIDs(goalID string, res workflows.GoalResult) []string {
	ids := []string{goalID}
	for _, td := range res.Todos {
		if td.RanAsTimer() {
			continue // a wait the goal ran itself: no todo workflow
		}
		for a := 0; a < max(td.Attempts, 1); a++ {
			id := fmt.Sprintf("%s/todo-%d", goalID, td.Index)
			if a > 0 {
				id = fmt.Sprintf("%s-r%d", id, a)
			}
			ids = append(ids, id)
		}
	}
	return ids
}

// StartedTodoIDs are the todo workflow IDs a goal started so far, read
// from every run of its history: what GoalWorkflowIDs gives for a goal
// that has not ended (each child once, in the order started).
func StartedTodoIDs(ctx context.Context, c client.Client, goalID string) ([]string, error) {
	runs, err := Runs(ctx, c, goalID)
	if err != nil {
		return nil, err
	}
	var ids []string
	seen := map[string]bool{}
	for _, h := range runs {
		for _, ev := range h.GetEvents() {
			if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil && !seen[a.GetWorkflowId()] {
				seen[a.GetWorkflowId()] = true
				ids = append(ids, a.GetWorkflowId())
			}
		}
	}
	return ids, nil
}

// Failures counts what a history shows of failed model or device calls.
type Failures struct {
	// RetriedAttempts is the sum of (attempt - 1) over started activities:
	// each is one failed attempt Temporal retried.
	RetriedAttempts int
	// FailedActivities are activities whose last attempt failed or timed
	// out (ActivityTaskFailed / ActivityTaskTimedOut).
	FailedActivities int
	// CountedRejections are completed activities that returned a model
	// answer the protocol rejected (executor parse_error or planner
	// invalid): the workflow counts each as a step and feeds it back.
	CountedRejections int
	// TimedOut are the attempts seen to have timed out rather than failed
	// (a final ActivityTaskTimedOut, or a retried attempt whose last
	// failure was a timeout): on a starved machine an attempt can outlive
	// its bound with no fault injected.
	TimedOut int
}

// Add adds o to f.
func (f *Failures) Add(o Failures) {
	f.RetriedAttempts += o.RetriedAttempts
	f.FailedActivities += o.FailedActivities
	f.CountedRejections += o.CountedRejections
	f.TimedOut += o.TimedOut
}

// CountFailures reads f from one workflow's events. Payloads must be plain
// JSON (no payload encryption).
func CountFailures(evs []*historypb.HistoryEvent) Failures {
	var f Failures
	for _, ev := range evs {
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			at := ev.GetActivityTaskStartedEventAttributes()
			if a := at.GetAttempt(); a > 1 {
				f.RetriedAttempts += int(a - 1)
				if at.GetLastFailure().GetTimeoutFailureInfo() != nil {
					f.TimedOut++
				}
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			f.FailedActivities++
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
			f.FailedActivities++
			f.TimedOut++
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			for _, p := range ev.GetActivityTaskCompletedEventAttributes().GetResult().GetPayloads() {
				f.CountedRejections += rejected(p.GetData())
			}
		}
	}
	return f
}

// rejectedCount matches the count of rejected answers a Verify or Correct
// result carries.
var rejectedCount = regexp.MustCompile(`"rejected":(\d+)`)

// rejected counts the model answers one activity result says were
// rejected: a Verify or Correct result's rejected count, or a Step's verdict's (its second call
// may have made up for the first), else one for a StepResult with a think
// parse_error or a PlanDecision with invalid set (both are omitted when
// empty).
func rejected(data []byte) int {
	if m := rejectedCount.FindSubmatch(data); m != nil {
		n, _ := strconv.Atoi(string(m[1]))
		return n
	}
	if bytes.Contains(data, []byte(`"parse_error":"`)) || bytes.Contains(data, []byte(`"invalid":"`)) {
		return 1
	}
	return 0
}

// SendTaps returns the taps a phone took after its last text entry on the
// page and at the point of the tap that sent msg (0 when no logged tap sent
// it). More than one means a Send was applied twice to the same text.
func SendTaps(st phonesim.State, msg phonesim.SentMessage) int {
	var send *phonesim.InputEvent
	lastText := 0
	for i, e := range st.InputLog {
		if e.Seq == msg.Seq {
			send = &st.InputLog[i]
		}
		if e.Kind == "text" || e.Kind == "ime_text" {
			lastText = e.Seq
		}
	}
	if send == nil {
		return 0
	}
	n := 0
	for _, e := range st.InputLog {
		if e.Seq > lastText && e.Kind == "tap" && e.App == send.App && e.Page == send.Page && fmt.Sprint(e.Args) == fmt.Sprint(send.Args) {
			n++
		}
	}
	return n
}
