package activities

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	failurepb "go.temporal.io/api/failure/v1"
	historypb "go.temporal.io/api/history/v1"
	querypb "go.temporal.io/api/query/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/internal/autoglm"
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

// fakeLeaseQuerier answers the lease query with a state, a rejection (the
// lease is closed) or an error.
type fakeLeaseQuerier struct {
	state    *leaseView
	rejected bool
	err      error
	queries  int
}

func (q *fakeLeaseQuerier) QueryWorkflowWithOptions(_ context.Context, r *client.QueryWorkflowWithOptionsRequest) (*client.QueryWorkflowWithOptionsResponse, error) {
	q.queries++
	if r.QueryType != LeaseQueryState || r.WorkflowID != "device-lease-fake-1" || r.QueryRejectCondition != enumspb.QUERY_REJECT_CONDITION_NOT_OPEN {
		return nil, errors.New("unexpected query")
	}
	if q.err != nil {
		return nil, q.err
	}
	if q.rejected {
		return &client.QueryWorkflowWithOptionsResponse{QueryRejected: &querypb.QueryRejected{Status: enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED}}, nil
	}
	p, err := converter.GetDefaultDataConverter().ToPayloads(q.state)
	if err != nil {
		return nil, err
	}
	return &client.QueryWorkflowWithOptionsResponse{QueryResult: encoded{p}}, nil
}

// encoded is a query result as the client hands it back.
type encoded struct{ p *commonpb.Payloads }

func (e encoded) HasValue() bool { return e.p != nil }
func (e encoded) Get(v any) error {
	return converter.GetDefaultDataConverter().FromPayloads(e.p, v)
}

// A Step that acts for a goal checks the phone's lease first: another
// holder, or a revoke of this goal, refuses the action with PhoneLeaseLost
// before the phone is touched; the goal holding it, a lease holding nobody
// that did not revoke the goal, a closed or unknown lease, and a lease
// that does not answer let it through.
func TestStepFencedByTheLease(t *testing.T) {
	revoked := leaseView{Revoked: []revokedView{{GoalID: "goal-a", At: time.Date(2026, 11, 23, 9, 20, 0, 0, time.UTC), Reason: "phone taken from goal goal-a: its workflow task has failed since 09:12"}}}
	for _, c := range []struct {
		name    string
		q       *fakeLeaseQuerier
		refused string
	}{
		{"holder", &fakeLeaseQuerier{state: &leaseView{Holder: "goal-a"}}, ""},
		{"free", &fakeLeaseQuerier{state: &leaseView{}}, ""},
		{"another holder", &fakeLeaseQuerier{state: &leaseView{Holder: "goal-b"}}, "phone fake-1 is held by goal goal-b, not by goal goal-a"},
		{"revoked", &fakeLeaseQuerier{state: &revoked}, "phone fake-1 was taken from goal goal-a at 09:20:00 and not given back (phone taken from goal goal-a: its workflow task has failed since 09:12)"},
		{"revoked, another holder", &fakeLeaseQuerier{state: &leaseView{Holder: "goal-b", Revoked: revoked.Revoked}}, "goal goal-b holds it now"},
		{"closed lease", &fakeLeaseQuerier{rejected: true}, ""},
		{"no lease", &fakeLeaseQuerier{err: serviceerror.NewNotFound("workflow not found")}, ""},
		{"lease does not answer", &fakeLeaseQuerier{err: serviceerror.NewDeadlineExceeded("timeout")}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, p, _ := newActivities(t, `<answer>do(action="Back")</answer>`)
			a.Leases = c.q
			act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
			_, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Act: &act, Think: false,
				Lease: &LeaseFence{LeaseWorkflowID: "device-lease-fake-1", GoalID: "goal-a"}})
			if c.q.queries != 1 {
				t.Errorf("%d lease queries, want 1", c.q.queries)
			}
			if c.refused == "" {
				if err != nil || len(p.inputs) != 1 {
					t.Fatalf("err = %v, inputs %v; want the tap applied", err, p.inputs)
				}
				return
			}
			var app *temporal.ApplicationError
			if !errors.As(err, &app) || app.Type() != ErrTypePhoneLeaseLost || !app.NonRetryable() || !strings.Contains(app.Message(), c.refused) {
				t.Fatalf("err = %v, want a non-retryable PhoneLeaseLost saying %q", err, c.refused)
			}
			if len(p.inputs) != 0 {
				t.Fatalf("the phone got %v after the lease refused", p.inputs)
			}
		})
	}
	// No fence asked for (runs from before the change, a todo without a
	// goal) or a step that only observes: no query.
	a, _, _ := newActivities(t, `<answer>do(action="Back")</answer>`)
	q := &fakeLeaseQuerier{state: &leaseView{Holder: "goal-b"}}
	a.Leases = q
	act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	if _, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Act: &act}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Lease: &LeaseFence{LeaseWorkflowID: "device-lease-fake-1", GoalID: "goal-a"}}); err != nil {
		t.Fatal(err)
	}
	if q.queries != 0 {
		t.Errorf("%d lease queries without a fenced action", q.queries)
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
