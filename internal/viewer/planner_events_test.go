package viewer

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestEventStreamHasPlannerEventsAndTheUnchangedReplan: every planner
// answer is a planner event with its decision; a replan that answers the
// todos not yet started as they were is a replanned event marked
// unchanged (and the planner event says unchanged), one that changes them
// a plain replanned event.
func TestEventStreamHasPlannerEventsAndTheUnchangedReplan(t *testing.T) {
	dc := converter.GetDefaultDataConverter()
	pay := func(v any) *commonpb.Payloads {
		p, err := dc.ToPayloads(v)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	base := time.Now().Add(-time.Hour)
	id := int64(0)
	var evs []*historypb.HistoryEvent
	add := func(ev *historypb.HistoryEvent) {
		id++
		ev.EventId, ev.EventTime = id, timestamppb.New(base.Add(time.Duration(id)*time.Second))
		evs = append(evs, ev)
	}
	add(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: &commonpb.WorkflowType{Name: "GoalWorkflow"}, Input: pay(workflows.GoalInput{Goal: "a, b and c", Device: "emu-1"})}}})
	planner := func(name string, d activities.PlanDecision) {
		add(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
			Attributes: &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
				ActivityType: &commonpb.ActivityType{Name: name}}}})
		add(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
			Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
				ScheduledEventId: id, Result: pay(d)}}})
	}
	child := func(wf string) {
		add(&historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
			Attributes: &historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{StartChildWorkflowExecutionInitiatedEventAttributes: &historypb.StartChildWorkflowExecutionInitiatedEventAttributes{
				WorkflowId: wf}}})
	}
	planner(activities.NamePlanOnce, activities.PlanDecision{Status: activities.PlanPlanned, Plan: []string{"a", "b", "c"}})
	child("goal-u/todo-1")
	planner(activities.NameReplan, activities.PlanDecision{Status: activities.PlanReplanned, Plan: []string{"b", "c"}})
	child("goal-u/todo-2")
	child("goal-u/todo-2-r1") // a restart is not the plan's next todo
	planner(activities.NameReplan, activities.PlanDecision{Status: activities.PlanReplanned, Plan: []string{"c2"}})
	planner(activities.NameReplan, activities.PlanDecision{Status: activities.PlanDone, Response: "all done"})

	mc := &mocks.Client{}
	mc.On("GetWorkflowHistory", mock.Anything, "goal-u", "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).
		Return(func(context.Context, string, string, bool, enumspb.HistoryEventFilterType) client.HistoryEventIterator {
			return &events{evs: slices.Clone(evs)}
		})
	mc.On("GetWorkflowHistory", mock.Anything, mock.Anything, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).
		Return(func(context.Context, string, string, bool, enumspb.HistoryEventFilterType) client.HistoryEventIterator {
			return &events{}
		})
	g, err := (&Reader{Client: mc}).Load(context.Background(), "goal-u")
	if err != nil {
		t.Fatal(err)
	}
	var kinds, decisions []string
	for _, e := range Events(g, "") {
		switch e.Type {
		case "plan", "replanned":
			if e.Unchanged {
				e.Type += " unchanged"
			}
			kinds = append(kinds, e.Type)
		case "planner":
			decisions = append(decisions, e.Decision)
		}
	}
	if want := []string{"plan", "replanned unchanged", "replanned"}; !slices.Equal(kinds, want) {
		t.Errorf("plan events %q, want %q", kinds, want)
	}
	if want := []string{PlannerPlan, PlannerUnchanged, PlannerReplanned, PlannerDone}; !slices.Equal(decisions, want) {
		t.Errorf("planner decisions %q, want %q", decisions, want)
	}
}
