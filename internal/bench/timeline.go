package bench

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
)

// StepTimeline splits a todo's wall time, as the server recorded it in the
// todo's history, into the legs of each Step cycle: the Step waiting for
// the phone's worker (scheduled → started), the Step itself (started →
// completed), the workflow task that follows waiting for the workflow's
// worker (Step completed → workflow task started) and the worker deciding
// (that workflow task started → completed, which schedules the next
// activity); and the todo's own start (workflow started → first Step
// scheduled) and end (last activity completed → workflow closed).
// Cycle legs hold one value per Step, Start and End one per todo.
type StepTimeline struct {
	Dispatch, Run, Back, Decide Sample // ms
	Start, End                  Sample // ms
}

// ReadStepTimeline reads workflow id's history (latest run) into a
// StepTimeline.
func ReadStepTimeline(ctx context.Context, c client.Client, id string) (StepTimeline, error) {
	var events []*historypb.HistoryEvent
	it := c.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			return StepTimeline{}, fmt.Errorf("bench: read the history of %s: %w", id, err)
		}
		events = append(events, ev)
	}
	return stepTimeline(events), nil
}

// stepTimeline folds one history's events, in order, into a StepTimeline.
func stepTimeline(events []*historypb.HistoryEvent) StepTimeline {
	var tl StepTimeline
	steps := map[int64]time.Time{} // Step scheduled event ID → scheduled time
	var began, started, completed, wtStarted, lastDone time.Time
	firstStep := true
	for _, ev := range events {
		at := ev.GetEventTime().AsTime()
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			began = at
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			if ev.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() != activities.NameStep {
				break
			}
			steps[ev.GetEventId()] = at
			if firstStep && !began.IsZero() {
				tl.Start = append(tl.Start, Ms(at.Sub(began)))
			}
			firstStep = false
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			if s, ok := steps[ev.GetActivityTaskStartedEventAttributes().GetScheduledEventId()]; ok {
				started = at
				tl.Dispatch = append(tl.Dispatch, Ms(at.Sub(s)))
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			lastDone = at
			if _, ok := steps[ev.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()]; ok {
				tl.Run = append(tl.Run, Ms(at.Sub(started)))
				completed = at
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED:
			wtStarted = at
			if !completed.IsZero() {
				tl.Back = append(tl.Back, Ms(at.Sub(completed)))
			}
		case enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED:
			if !completed.IsZero() {
				tl.Decide = append(tl.Decide, Ms(at.Sub(wtStarted)))
				completed = time.Time{}
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED:
			if !lastDone.IsZero() {
				tl.End = append(tl.End, Ms(at.Sub(lastDone)))
			}
		}
	}
	return tl
}

func (tl *StepTimeline) add(o StepTimeline) {
	tl.Dispatch = append(tl.Dispatch, o.Dispatch...)
	tl.Run = append(tl.Run, o.Run...)
	tl.Back = append(tl.Back, o.Back...)
	tl.Decide = append(tl.Decide, o.Decide...)
	tl.Start = append(tl.Start, o.Start...)
	tl.End = append(tl.End, o.End...)
}
