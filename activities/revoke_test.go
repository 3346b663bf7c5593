package activities

import (
	"context"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// describeClient answers describes from a table of responses and reads
// history newest first from a table of events.
type describeClient struct {
	fakeLeaseClient
	resp    map[string]*workflowservice.DescribeWorkflowExecutionResponse
	history map[string][]*historypb.HistoryEvent
}

// historyService is the workflow service of describeClient.
type historyService struct {
	workflowservice.WorkflowServiceClient // only GetWorkflowExecutionHistoryReverse is used
	c                                     *describeClient
}

func (c *describeClient) DescribeWorkflowExecution(_ context.Context, id, _ string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	r, ok := c.resp[id]
	if !ok {
		return nil, serviceerror.NewNotFound("workflow not found for ID: " + id)
	}
	return r, nil
}

func (c *describeClient) WorkflowService() workflowservice.WorkflowServiceClient {
	return historyService{c: c}
}

func (h historyService) GetWorkflowExecutionHistoryReverse(_ context.Context, in *workflowservice.GetWorkflowExecutionHistoryReverseRequest, _ ...grpc.CallOption) (*workflowservice.GetWorkflowExecutionHistoryReverseResponse, error) {
	return &workflowservice.GetWorkflowExecutionHistoryReverseResponse{History: &historypb.History{Events: h.c.history[in.GetExecution().GetWorkflowId()]}}, nil
}

func running(wt *workflowpb.PendingWorkflowTaskInfo, children []*workflowpb.PendingChildExecutionInfo, acts ...string) *workflowservice.DescribeWorkflowExecutionResponse {
	r := &workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{Status: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
			Execution: &commonpb.WorkflowExecution{WorkflowId: "x", RunId: "r"}},
		PendingWorkflowTask: wt, PendingChildren: children,
	}
	for _, a := range acts {
		r.PendingActivities = append(r.PendingActivities, &workflowpb.PendingActivityInfo{ActivityType: &commonpb.ActivityType{Name: a}})
	}
	return r
}

// A running goal whose workflow task is on its second attempt or later is
// blocked since its last recorded task failure, with that failure's words;
// a running todo child with an activity pending, or with a healthy workflow
// task (between steps), makes it busy; a blocked todo does not.
func TestDescribeLeaseHolderSeesABlockedGoal(t *testing.T) {
	failedAt := time.Date(2026, 11, 23, 9, 12, 0, 0, time.UTC)
	failing := &workflowpb.PendingWorkflowTaskInfo{Attempt: 7, OriginalScheduledTime: timestamppb.New(failedAt.Add(time.Hour))}
	healthy := &workflowpb.PendingWorkflowTaskInfo{Attempt: 1}
	todo := []*workflowpb.PendingChildExecutionInfo{{WorkflowId: "goal/todo-1", RunId: "t1"}}
	failure := []*historypb.HistoryEvent{
		{EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED},
		{EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, EventTime: timestamppb.New(failedAt),
			Attributes: &historypb.HistoryEvent_WorkflowTaskFailedEventAttributes{WorkflowTaskFailedEventAttributes: &historypb.WorkflowTaskFailedEventAttributes{
				Cause:   enumspb.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR,
				Failure: &failurepb.Failure{Message: "[TMPRL1100] nondeterministic workflow\nstack trace…"}}}},
	}
	for _, c := range []struct {
		name     string
		goal     *workflowservice.DescribeWorkflowExecutionResponse
		todo     *workflowservice.DescribeWorkflowExecutionResponse
		blocked  bool
		busyWith string
	}{
		{"healthy goal", running(healthy, todo), running(nil, nil, "Step"), false, ""},
		{"idle goal", running(nil, nil), nil, false, ""},
		{"blocked, no todo", running(failing, nil), nil, true, ""},
		{"blocked, todo runs a step", running(failing, todo), running(nil, nil, "Step"), true, "todo goal/todo-1 runs Step"},
		{"blocked, todo between steps", running(failing, todo), running(healthy, nil), true, "todo goal/todo-1 is between two steps"},
		{"blocked, todo waits for a person", running(failing, todo), running(nil, nil), true, ""},
		{"blocked, todo blocked too", running(failing, todo), running(&workflowpb.PendingWorkflowTaskInfo{Attempt: 3}, nil), true, ""},
		{"blocked, todo gone", running(failing, todo), nil, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dc := &describeClient{resp: map[string]*workflowservice.DescribeWorkflowExecutionResponse{"goal": c.goal}, history: map[string][]*historypb.HistoryEvent{"goal": failure}}
			if c.todo != nil {
				dc.resp["goal/todo-1"] = c.todo
			}
			env := leaseActivityEnv(dc)
			v, err := env.ExecuteActivity(NameDescribeLeaseHolder, "goal")
			if err != nil {
				t.Fatal(err)
			}
			var hs HolderStatus
			if err := v.Get(&hs); err != nil {
				t.Fatal(err)
			}
			if !hs.Running || hs.Blocked != c.blocked || hs.Busy != c.busyWith {
				t.Fatalf("%+v, want blocked=%v busy=%q", hs, c.blocked, c.busyWith)
			}
			if c.blocked && (!hs.BlockedSince.Equal(failedAt) || hs.BlockedError != "[TMPRL1100] nondeterministic workflow") {
				t.Errorf("blocked since %s with %q, want %s and the failure's first line", hs.BlockedSince, hs.BlockedError, failedAt)
			}
		})
	}
}

// TestDescribeLeaseHolderIgnoresAResolvedStreak: the newest failure in
// history belongs to a streak a completed workflow task ended; the streak
// now retrying began when its first attempt was scheduled, so the goal is
// blocked since then, not since the old failure, and not with its words.
func TestDescribeLeaseHolderIgnoresAResolvedStreak(t *testing.T) {
	oldAt := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	streakAt := oldAt.Add(3 * time.Hour)
	history := []*historypb.HistoryEvent{ // newest first
		{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED},
		{EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EventTime: timestamppb.New(oldAt.Add(time.Minute))},
		{EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_STARTED},
		{EventType: enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED, EventTime: timestamppb.New(oldAt),
			Attributes: &historypb.HistoryEvent_WorkflowTaskFailedEventAttributes{WorkflowTaskFailedEventAttributes: &historypb.WorkflowTaskFailedEventAttributes{
				Failure: &failurepb.Failure{Message: "panic: an old bug, fixed since"}}}},
	}
	goal := running(&workflowpb.PendingWorkflowTaskInfo{Attempt: 2, OriginalScheduledTime: timestamppb.New(streakAt)}, nil)
	dc := &describeClient{resp: map[string]*workflowservice.DescribeWorkflowExecutionResponse{"goal": goal}, history: map[string][]*historypb.HistoryEvent{"goal": history}}
	v, err := leaseActivityEnv(dc).ExecuteActivity(NameDescribeLeaseHolder, "goal")
	if err != nil {
		t.Fatal(err)
	}
	var hs HolderStatus
	if err := v.Get(&hs); err != nil {
		t.Fatal(err)
	}
	if !hs.Blocked || !hs.BlockedSince.Equal(streakAt) || strings.Contains(hs.BlockedError, "old bug") {
		t.Fatalf("blocked=%v since %s with %q; want blocked since %s, without the resolved streak's error", hs.Blocked, hs.BlockedSince, hs.BlockedError, streakAt)
	}
}
