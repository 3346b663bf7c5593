package bench

import (
	"slices"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/activities"
)

// history builds a todo's events at the given offsets (ms) from a start.
type history struct {
	t0     time.Time
	events []*historypb.HistoryEvent
}

func (h *history) add(ms float64, typ enumspb.EventType, set func(*historypb.HistoryEvent)) int64 {
	ev := &historypb.HistoryEvent{
		EventId:   int64(len(h.events) + 1),
		EventType: typ,
		EventTime: timestamppb.New(h.t0.Add(time.Duration(ms * float64(time.Millisecond)))),
	}
	if set != nil {
		set(ev)
	}
	h.events = append(h.events, ev)
	return ev.EventId
}

func (h *history) workflowTask(scheduled, started, completed float64) {
	h.add(scheduled, enumspb.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, nil)
	h.add(started, enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED, nil)
	h.add(completed, enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, nil)
}

func (h *history) activity(name string, scheduled, started, completed float64) {
	id := h.add(scheduled, enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{
			ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{ActivityType: &commonpb.ActivityType{Name: name}}}
	})
	h.add(started, enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskStartedEventAttributes{
			ActivityTaskStartedEventAttributes: &historypb.ActivityTaskStartedEventAttributes{ScheduledEventId: id}}
	})
	h.add(completed, enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, func(ev *historypb.HistoryEvent) {
		ev.Attributes = &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{
			ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: id}}
	})
}

func TestStepTimelineSplitsEachStepCycle(t *testing.T) {
	h := &history{t0: time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)}
	h.add(0, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, nil)
	h.workflowTask(0, 4, 10)
	h.activity(activities.NameStep, 10, 13, 300) // dispatch 3, run 287
	h.workflowTask(300, 302, 307)                // back 2, decide 5
	h.activity(activities.NameStep, 307, 311, 600)
	h.workflowTask(600, 603, 609)
	// The verification of the finish: not a Step, so no cycle of its own,
	// but the todo's end counts from its completion.
	h.activity(activities.NameVerify, 609, 612, 650)
	h.workflowTask(650, 653, 658)
	h.add(658, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, nil)

	tl := stepTimeline(h.events)
	for _, c := range []struct {
		name      string
		got, want Sample
	}{
		{"dispatch", tl.Dispatch, Sample{3, 4}},
		{"run", tl.Run, Sample{287, 289}},
		{"back", tl.Back, Sample{2, 3}},
		{"decide", tl.Decide, Sample{5, 6}},
		{"start", tl.Start, Sample{10}},
		{"end", tl.End, Sample{8}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestStepTimelineOfATodoThatNeverStepped(t *testing.T) {
	h := &history{t0: time.Now()}
	h.add(0, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED, nil)
	h.workflowTask(0, 3, 8)
	h.add(8, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, nil)
	tl := stepTimeline(h.events)
	if len(tl.Run)+len(tl.Start)+len(tl.End)+len(tl.Back)+len(tl.Decide) != 0 {
		t.Errorf("a todo with no activity has legs: %+v", tl)
	}
}
