package viewer

import (
	"context"
	"slices"
	"strings"
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
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestHideReasoningKeepsItOutOfStepsAndEvents: with HideReasoning
// (viewer.show_reasoning false) no step and no event carries the
// executor's reasoning, while the action it decided still shows; without
// it the reasoning is there as before.
func TestHideReasoningKeepsItOutOfStepsAndEvents(t *testing.T) {
	dc := converter.GetDefaultDataConverter()
	pay := func(v any) *commonpb.Payloads {
		p, err := dc.ToPayloads(v)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	at := timestamppb.New(time.Now().Add(-time.Minute))
	goal := []*historypb.HistoryEvent{
		{EventId: 1, EventTime: at, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
				WorkflowType: &commonpb.WorkflowType{Name: "GoalWorkflow"}, Input: pay(workflows.GoalInput{Goal: "turn on wifi", Device: "emu-1"})}}},
		{EventId: 2, EventTime: at, EventType: enumspb.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED,
			Attributes: &historypb.HistoryEvent_StartChildWorkflowExecutionInitiatedEventAttributes{StartChildWorkflowExecutionInitiatedEventAttributes: &historypb.StartChildWorkflowExecutionInitiatedEventAttributes{
				WorkflowId: "goal-r/todo-1"}}},
	}
	res := activities.StepResult{Think: &activities.ThinkResult{Response: &autoglm.Response{Thinking: "the switch is off, so tap it",
		Action: autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 200}}}}}
	todo := []*historypb.HistoryEvent{
		{EventId: 1, EventTime: at, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
			Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
				WorkflowType: &commonpb.WorkflowType{Name: "TodoWorkflow"}, Input: pay(workflows.TodoInput{Index: 1, Task: "Turn on Wi-Fi"})}}},
		{EventId: 2, EventTime: at, EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
			Attributes: &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
				ActivityType: &commonpb.ActivityType{Name: activities.NameStep}, Input: pay(activities.StepInput{})}}},
		{EventId: 3, EventTime: at, EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
			Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{
				ScheduledEventId: 2, Result: pay(res)}}},
	}
	mc := &mocks.Client{}
	for id, evs := range map[string][]*historypb.HistoryEvent{"goal-r": goal, "goal-r/todo-1": todo} {
		mc.On("GetWorkflowHistory", mock.Anything, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).
			Return(func(context.Context, string, string, bool, enumspb.HistoryEventFilterType) client.HistoryEventIterator {
				return &events{evs: slices.Clone(evs)}
			})
	}
	for _, hide := range []bool{false, true} {
		g, err := (&Reader{Client: mc, HideReasoning: hide}).Load(context.Background(), "goal-r")
		if err != nil {
			t.Fatal(err)
		}
		var step *Event
		for _, e := range Events(g, "") {
			if e.Type == "step" {
				step = &e
			}
		}
		if step == nil {
			t.Fatalf("hide %v: no step event in %+v", hide, g)
		}
		if shown := strings.Contains(step.Thinking, "switch is off"); shown == hide {
			t.Errorf("hide %v: the step event's thinking is %q", hide, step.Thinking)
		}
		if !strings.Contains(step.Action, "Tap") {
			t.Errorf("hide %v: the decided action %q is missing", hide, step.Action)
		}
	}
}
