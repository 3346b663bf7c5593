package goalctl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

var ctx = context.Background()

func value(t *testing.T, v any) converter.EncodedValue {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(v)
	if err != nil {
		t.Fatal(err)
	}
	return client.NewValue(p)
}

func payload(t *testing.T, v any) *commonpb.Payload {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayload(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestStartSendsGoalInputWithSearchAttributes(t *testing.T) {
	mc := mocks.NewClient(t)
	run := mocks.NewWorkflowRun(t)
	run.On("GetRunID").Return("run-1")
	var gotOpts client.StartWorkflowOptions
	var gotIn workflows.GoalInput
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, GoalWorkflowName, mock.Anything).
		Run(func(a mock.Arguments) {
			gotOpts = a.Get(1).(client.StartWorkflowOptions)
			gotIn = a.Get(3).(workflows.GoalInput)
		}).Return(run, nil)
	fleetOf(t, mc, fleet.Phone{Serial: "emu-9", Labels: []string{"tablet"}}, fleet.Phone{Serial: "emulator-5554", Labels: []string{"shop", "work"}})
	g := New(mc, Options{})
	id, runID, err := g.Start(ctx, StartRequest{ID: "goal-x", Goal: "turn on Wi-Fi", Device: "emulator-5554",
		Options: workflows.GoalOptions{MaxSteps: 7, AutoApprove: true}})
	if err != nil {
		t.Fatal(err)
	}
	if id != "goal-x" || runID != "run-1" {
		t.Fatalf("ids = %s %s", id, runID)
	}
	if gotOpts.ID != "goal-x" || gotOpts.TaskQueue != workflows.TaskQueue || gotOpts.StaticSummary != "turn on Wi-Fi" {
		t.Fatalf("options = %+v", gotOpts)
	}
	if !gotOpts.WorkflowExecutionErrorWhenAlreadyStarted {
		t.Error("a start under an ID a running goal has would be handed that goal's run, and the new goal dropped")
	}
	if gotOpts.Memo[MemoGoal] != "turn on Wi-Fi" {
		t.Errorf("memo = %v", gotOpts.Memo)
	}
	sa := gotOpts.TypedSearchAttributes
	if v, ok := sa.GetKeywordList(temporal.NewSearchAttributeKeyKeywordList(workflows.SearchAttrLabels)); !ok || strings.Join(v, " ") != "shop work" {
		t.Errorf("labels search attribute = %v %v, want the phone's labels from its record", v, ok)
	}
	if v, ok := sa.GetKeyword(temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrDevice)); !ok || v != "emulator-5554" {
		t.Errorf("device search attribute = %q %v", v, ok)
	}
	if v, ok := sa.GetKeyword(temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrStatus)); !ok || v != workflows.GoalPlanning {
		t.Errorf("status search attribute = %q %v", v, ok)
	}
	if gotIn.Goal != "turn on Wi-Fi" || gotIn.Device != "emulator-5554" || gotIn.Options.MaxSteps != 7 || !gotIn.Options.AutoApprove {
		t.Errorf("input = %+v", gotIn)
	}
}

func TestStartGeneratesIDAndRejectsBadRequests(t *testing.T) {
	if id := NewGoalID(); !strings.HasPrefix(id, "goal-") || len(id) != len("goal-")+8 {
		t.Fatalf("NewGoalID = %q", id)
	}
	if NewGoalID() == NewGoalID() {
		t.Fatal("two ids are equal")
	}
	bad := mocks.NewClient(t)
	fleetOf(t, bad)
	g := New(bad, Options{})
	for _, req := range []StartRequest{
		{Goal: " ", Device: "d"},
		{Goal: "x"},
		{Goal: "x", Device: "d", Options: workflows.GoalOptions{Mode: "loop"}},
	} {
		if _, _, err := g.Start(ctx, req); err == nil {
			t.Errorf("Start(%+v) succeeded", req)
		}
	}
	mc := mocks.NewClient(t)
	fleetOf(t, mc)
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, GoalWorkflowName, mock.Anything).
		Return(nil, serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", ""))
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-dup", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{Status: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING}}, nil)
	_, _, err := New(mc, Options{}).Start(ctx, StartRequest{ID: "goal-dup", Goal: "x", Device: "d"})
	if err == nil || !strings.Contains(err.Error(), "goal-dup is already running") {
		t.Fatalf("duplicate start error = %v", err)
	}
}

func TestSendUsesCompletedUpdateAndReportsRejection(t *testing.T) {
	mc := mocks.NewClient(t)
	h := mocks.NewWorkflowUpdateHandle(t)
	var opts client.UpdateWorkflowOptions
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).
		Run(func(a mock.Arguments) { opts = a.Get(1).(client.UpdateWorkflowOptions) }).Return(h, nil)
	h.On("Get", mock.Anything, nil).Return(temporal.NewApplicationError("resume: goal is not paused", "Rejected"))
	err := New(mc, Options{}).Send(ctx, "goal-1", workflows.SignalResume, nil, false)
	var rej *RejectedError
	if !errors.As(err, &rej) || err.Error() != "resume: goal is not paused" {
		t.Fatalf("err = %v", err)
	}
	if opts.WorkflowID != "goal-1" || opts.UpdateName != "resume" || opts.WaitForStage != client.WorkflowUpdateStageCompleted || len(opts.Args) != 0 {
		t.Fatalf("update options = %+v", opts)
	}
}

func TestApproveUpdateCarriesInput(t *testing.T) {
	mc := mocks.NewClient(t)
	h := mocks.NewWorkflowUpdateHandle(t)
	var opts client.UpdateWorkflowOptions
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).
		Run(func(a mock.Arguments) { opts = a.Get(1).(client.UpdateWorkflowOptions) }).Return(h, nil)
	h.On("Get", mock.Anything, nil).Return(nil)
	if err := New(mc, Options{}).Approve(ctx, "goal-1", false, "wrong amount", false); err != nil {
		t.Fatal(err)
	}
	if len(opts.Args) != 1 || opts.Args[0] != (workflows.ApproveInput{Approved: false, Note: "wrong amount"}) {
		t.Fatalf("args = %#v", opts.Args)
	}
}

func TestSendAsSignalAndNotFound(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("SignalWorkflow", mock.Anything, "goal-1", "", workflows.SignalInject, "tap the blue button").Return(nil).Once()
	mc.On("SignalWorkflow", mock.Anything, "goal-2", "", workflows.SignalInject, "x").
		Return(serviceerror.NewNotFound("workflow not found for ID: goal-2")).Once()
	mc.On("SignalWorkflow", mock.Anything, "goal-3", "", workflows.SignalInject, "x").
		Return(serviceerror.NewNotFound("workflow execution already completed")).Once()
	g := New(mc, Options{})
	if err := g.SendText(ctx, "goal-1", workflows.SignalInject, "tap the blue button", true); err != nil {
		t.Fatal(err)
	}
	err := g.SendText(ctx, "goal-2", workflows.SignalInject, "x", true)
	var nf *NotFoundError
	if !errors.As(err, &nf) || err.Error() != "no goal with id goal-2 (list goals with `starter list`)" {
		t.Fatalf("not found err = %v", err)
	}
	if err := g.SendText(ctx, "goal-3", workflows.SignalInject, "x", true); !errors.Is(err, ErrFinished) {
		t.Fatalf("finished err = %v", err)
	}
	if err := g.SendText(ctx, "goal-1", workflows.SignalInject, "  ", true); err == nil {
		t.Fatal("empty text accepted")
	}
	if err := g.SendText(ctx, "goal-1", workflows.SignalInject, strings.Repeat("a", workflows.MaxSignalText+1), true); err == nil || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("long text err = %v", err)
	}
}

func TestSnapshotFromQueries(t *testing.T) {
	mc := mocks.NewClient(t)
	st := workflows.Status{Phase: workflows.GoalWaitingUser, CurrentTodo: 2, Steps: 9, MaxSteps: 100,
		PendingApproval: &workflows.Approval{Action: `do(action="Tap", element=[500,900], message="Pay")`, Reason: "Pay"},
		Feedback:        []string{"todo 1 done after 2 steps: opened"}}
	// The first attempt of todo 2 took 4 steps, counted in the goal's 9.
	todos := []workflows.TodoState{{Index: 1, Text: "Open Bank", Status: workflows.TodoDone, Steps: 2}, {Index: 2, Text: "Pay", Status: workflows.TodoRunning, Attempts: 2, Steps: 4}}
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(value(t, st), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).Return(value(t, todos), nil)
	// The running todo is the first restart of todo 2.
	mc.On("QueryWorkflow", mock.Anything, "goal-1/todo-2-r1", "", workflows.QueryStatus).Return(value(t, workflows.Status{
		Phase: workflows.GoalRunning, Steps: 3, Feedback: []string{`do(action="Launch", app="Bank")`}}), nil)
	s, err := New(mc, Options{}).Snapshot(ctx, "goal-1")
	if err != nil {
		t.Fatal(err)
	}
	want := progress.Snapshot{GoalID: "goal-1", Phase: "waiting_user", Steps: 12, MaxSteps: 100, CurrentTodo: 2,
		Todos:    []progress.Todo{{Text: "Open Bank", Status: "done", Steps: 2}, {Text: "Pay", Status: "running", Steps: 7}},
		Action:   `do(action="Launch", app="Bank")`,
		Approval: `do(action="Tap", element=[500,900], message="Pay") — Pay`}
	if !sameSnapshot(s, want) {
		t.Fatalf("snapshot = %+v\nwant %+v", s, want)
	}
}

func TestSnapshotWithoutChild(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(value(t, workflows.Status{Phase: "planning", MaxSteps: 5}), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).Return(value(t, []workflows.TodoState(nil)), nil)
	s, err := New(mc, Options{}).Snapshot(ctx, "goal-1")
	if err != nil || s.Phase != "planning" || s.MaxSteps != 5 || len(s.Todos) != 0 {
		t.Fatalf("snapshot = %+v, %v", s, err)
	}
}

func TestStatusNotFound(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("QueryWorkflow", mock.Anything, "nope", "", workflows.QueryStatus).Return(nil, serviceerror.NewNotFound("not found"))
	_, err := New(mc, Options{}).Status(ctx, "nope")
	var nf *NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v", err)
	}
}

func TestWebURL(t *testing.T) {
	g := New(mocks.NewClient(t), Options{Namespace: "ns", UIAddress: "127.0.0.1:8233"})
	if got := g.WebURL("goal-1/todo-2"); got != "http://127.0.0.1:8233/namespaces/ns/workflows/goal-1%2Ftodo-2" {
		t.Fatalf("WebURL = %s", got)
	}
	if New(mocks.NewClient(t), Options{}).WebURL("x") != "" {
		t.Fatal("link without a UI address")
	}
}

// TestWatchFollowsAndAnswers plays a goal that asks a question: the typed
// line goes out as a clarify update, the view sees every change once, and
// Watch returns the workflow's result.
func TestWatchFollowsAndAnswers(t *testing.T) {
	mc := mocks.NewClient(t)
	var answered atomic.Bool
	statusFn := func() converter.EncodedValue {
		if answered.Load() {
			return value(t, workflows.Status{Phase: workflows.GoalRunning, Steps: 3, MaxSteps: 10, CurrentTodo: 1})
		}
		return value(t, workflows.Status{Phase: workflows.GoalWaitingUser, Steps: 2, MaxSteps: 10, PendingQuestion: "Which Alice?"})
	}
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).
		Return(func(context.Context, string, string, string, ...any) (converter.EncodedValue, error) {
			return statusFn(), nil
		})
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).
		Return(value(t, []workflows.TodoState{{Index: 1, Text: "Send it", Status: "running"}}), nil)
	// The todo workflow has not started yet: its query fails and the
	// view goes on with the goal's own counters.
	mc.On("QueryWorkflow", mock.Anything, "goal-1/todo-1", "", workflows.QueryStatus).Return(nil, serviceerror.NewNotFound("not started"))
	h := mocks.NewWorkflowUpdateHandle(t)
	h.On("Get", mock.Anything, nil).Return(nil)
	finish := make(chan struct{})
	mc.On("UpdateWorkflow", mock.Anything, mock.MatchedBy(func(o client.UpdateWorkflowOptions) bool {
		return o.UpdateName == workflows.SignalClarify && len(o.Args) == 1 && o.Args[0] == "Alice Chen"
	})).Run(func(mock.Arguments) { answered.Store(true) }).Return(h, nil)
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		<-finish
		*a.Get(1).(*workflows.GoalResult) = workflows.GoalResult{Status: workflows.GoalDone, Steps: 5, Response: "sent"}
	}).Return(nil)
	mc.On("GetWorkflow", mock.Anything, "goal-1", "").Return(run)

	lines := make(chan string, 1)
	var seen []progress.Snapshot
	var answers []string
	g := New(mc, Options{})
	res, err := g.Watch(ctx, "goal-1", WatchOptions{
		Interval: time.Millisecond,
		Goal:     "send the alarm to Alice",
		Lines:    lines,
		OnUpdate: func(s progress.Snapshot) {
			seen = append(seen, s)
			if s.Question != "" {
				lines <- "Alice Chen"
			}
		},
		OnAnswer: func(msg string, err error) {
			answers = append(answers, msg)
			if err != nil {
				t.Errorf("answer: %v", err)
			}
			close(finish)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.GoalDone || res.Response != "sent" {
		t.Fatalf("result = %+v", res)
	}
	if len(seen) != 2 || seen[0].Question != "Which Alice?" || seen[1].Phase != "running" || seen[1].Goal != "send the alarm to Alice" {
		t.Fatalf("snapshots = %+v", seen)
	}
	if len(answers) != 1 || answers[0] != "answer sent" {
		t.Fatalf("answers = %v", answers)
	}
}

func TestAnswerApprovalWords(t *testing.T) {
	mc := mocks.NewClient(t)
	h := mocks.NewWorkflowUpdateHandle(t)
	h.On("Get", mock.Anything, nil).Return(nil)
	var got []workflows.ApproveInput
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		got = append(got, a.Get(1).(client.UpdateWorkflowOptions).Args[0].(workflows.ApproveInput))
	}).Return(h, nil)
	g := New(mc, Options{})
	s := progress.Snapshot{GoalID: "g", Approval: "Tap Pay"}
	if msg, err := g.Answer(ctx, s, "y"); err != nil || msg != "approved" {
		t.Fatal(msg, err)
	}
	if msg, err := g.Answer(ctx, s, "no  wrong amount"); err != nil || msg != "denied" {
		t.Fatal(msg, err)
	}
	if _, err := g.Answer(ctx, s, "maybe"); err == nil {
		t.Fatal("maybe accepted")
	}
	if _, err := g.Answer(ctx, progress.Snapshot{GoalID: "g"}, "hello"); err == nil {
		t.Fatal("answer without a pending prompt accepted")
	}
	want := []workflows.ApproveInput{{Approved: true}, {Approved: false, Note: "wrong amount"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("approvals = %+v", got)
	}
}

func TestResultCancelled(t *testing.T) {
	mc := mocks.NewClient(t)
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Return(temporal.NewCanceledError())
	mc.On("GetWorkflow", mock.Anything, "goal-1", "").Return(run)
	r, err := New(mc, Options{}).Result(ctx, "goal-1")
	if err != nil || r.Status != workflows.GoalCancelled {
		t.Fatalf("result = %+v, %v", r, err)
	}
	// A goal closed as Canceled carries its partial result.
	partial := workflows.GoalResult{Status: workflows.GoalCancelled, Steps: 7, Todos: []workflows.TodoState{{Text: "open Messages", Status: workflows.TodoDone}}}
	run2 := mocks.NewWorkflowRun(t)
	run2.On("Get", mock.Anything, mock.Anything).Return(temporal.NewCanceledError(partial))
	mc.On("GetWorkflow", mock.Anything, "goal-2", "").Return(run2)
	r, err = New(mc, Options{}).Result(ctx, "goal-2")
	if err != nil || r.Status != workflows.GoalCancelled || r.Steps != 7 || len(r.Todos) != 1 {
		t.Fatalf("partial result = %+v, %v", r, err)
	}
}

// A goal that ended failed closes as Failed with its result as the
// failure's details: Result returns that result, not an error; a goal
// that failed without one (it broke) returns the error.
func TestResultOfFailedClose(t *testing.T) {
	mc := mocks.NewClient(t)
	failed := workflows.GoalResult{Status: workflows.GoalFailed, Steps: 4, Reason: "step limit reached", NextStep: "raise max_steps",
		Todos: []workflows.TodoState{{Text: "scroll", Status: workflows.TodoFailed}}}
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Return(fmt.Errorf("workflow execution error: %w",
		temporal.NewApplicationErrorWithOptions("goal failed: step limit reached", workflows.ErrTypeGoalFailed,
			temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{failed}})))
	mc.On("GetWorkflow", mock.Anything, "goal-1", "").Return(run)
	r, err := New(mc, Options{}).Result(ctx, "goal-1")
	if err != nil || r.Status != workflows.GoalFailed || r.Steps != 4 || r.NextStep != "raise max_steps" || len(r.Todos) != 1 {
		t.Fatalf("result = %+v, %v", r, err)
	}
	broke := mocks.NewWorkflowRun(t)
	broke.On("Get", mock.Anything, mock.Anything).Return(temporal.NewApplicationError("nil pointer", "PanicError"))
	mc.On("GetWorkflow", mock.Anything, "goal-2", "").Return(broke)
	if _, err := New(mc, Options{}).Result(ctx, "goal-2"); err == nil {
		t.Fatal("a goal that broke without a result returned none and no error")
	}
}

func TestListQueryAndDecoding(t *testing.T) {
	q, err := ListQuery(ListOptions{Status: "running", Device: "emu'1"})
	if err != nil {
		t.Fatal(err)
	}
	if q != "WorkflowType = 'GoalWorkflow' AND PhoneflowStatus = 'running' AND PhoneflowDevice = 'emu1'" {
		t.Fatalf("query = %s", q)
	}
	if _, err := ListQuery(ListOptions{Status: "sleeping"}); err == nil || !strings.Contains(err.Error(), "waiting_user") {
		t.Fatalf("bad status err = %v", err)
	}
	mc := mocks.NewClient(t)
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	exec := func(id, status string, st enumspb.WorkflowExecutionStatus) *workflowpb.WorkflowExecutionInfo {
		return &workflowpb.WorkflowExecutionInfo{
			Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: "r-" + id},
			Status:    st,
			StartTime: timestamppb.New(start),
			Memo:      &commonpb.Memo{Fields: map[string]*commonpb.Payload{MemoGoal: payload(t, "goal of "+id)}},
			SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{
				workflows.SearchAttrStatus: payload(t, status),
				workflows.SearchAttrDevice: payload(t, "emu1"),
			}},
		}
	}
	var req *workflowservice.ListWorkflowExecutionsRequest
	mc.On("ListWorkflow", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		req = a.Get(1).(*workflowservice.ListWorkflowExecutionsRequest)
	}).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{
		exec("goal-a", "running", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING),
		exec("goal-b", "running", enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED),
		exec("goal-c", "done", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED),
	}, NextPageToken: []byte("more")}, nil)
	got, err := New(mc, Options{Namespace: "ns"}).List(ctx, ListOptions{Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if req.Namespace != "ns" || req.PageSize != 3 {
		t.Fatalf("request = %+v", req)
	}
	if len(got) != 3 {
		t.Fatalf("got %d goals", len(got))
	}
	if got[0].ID != "goal-a" || got[0].Goal != "goal of goal-a" || got[0].Status != "running" || got[0].Device != "emu1" || !got[0].Start.Equal(start) {
		t.Errorf("goal-a = %+v", got[0])
	}
	if got[1].Status != "terminated" {
		t.Errorf("a terminated goal shows %q", got[1].Status)
	}
	if got[2].Status != "done" || got[2].State != "completed" {
		t.Errorf("goal-c = %+v", got[2])
	}
}

func TestListRunningAndTerminate(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return r.Query == "WorkflowType = 'GoalWorkflow' AND ExecutionStatus = 'Running'" && len(r.NextPageToken) == 0
	})).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{
		{Execution: &commonpb.WorkflowExecution{WorkflowId: "goal-a"}}}, NextPageToken: []byte("p2")}, nil)
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return string(r.NextPageToken) == "p2"
	})).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{
		{Execution: &commonpb.WorkflowExecution{WorkflowId: "goal-b"}}}}, nil)
	mc.On("TerminateWorkflow", mock.Anything, "goal-a", "", "phone gone").Return(nil)
	mc.On("TerminateWorkflow", mock.Anything, "goal-x", "", "phone gone").Return(serviceerror.NewNotFound("x"))
	g := New(mc, Options{})
	ids, err := g.ListRunning(ctx)
	if err != nil || strings.Join(ids, ",") != "goal-a,goal-b" {
		t.Fatalf("ListRunning = %v, %v", ids, err)
	}
	if err := g.Terminate(ctx, "goal-a", "phone gone"); err != nil {
		t.Fatal(err)
	}
	var nf *NotFoundError
	if err := g.Terminate(ctx, "goal-x", "phone gone"); !errors.As(err, &nf) {
		t.Fatalf("terminate missing: %v", err)
	}
}

func TestCheckDevice(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("DescribeTaskQueue", mock.Anything, workflows.DeviceTaskQueue("emu1"), enumspb.TASK_QUEUE_TYPE_WORKFLOW).
		Return(&workflowservice.DescribeTaskQueueResponse{Pollers: []*taskqueuepb.PollerInfo{{Identity: "w1"}}}, nil)
	mc.On("DescribeTaskQueue", mock.Anything, workflows.DeviceTaskQueue("bogus"), enumspb.TASK_QUEUE_TYPE_WORKFLOW).
		Return(&workflowservice.DescribeTaskQueueResponse{}, nil)
	g := New(mc, Options{})
	if err := g.CheckDevice(ctx, "emu1"); err != nil {
		t.Fatal(err)
	}
	err := g.CheckDevice(ctx, "bogus")
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "no worker serves device bogus (task queue phoneflow-device-bogus has no pollers)") {
		t.Fatalf("err = %v", err)
	}
}

func TestLiveTodosReadsTheRunningTodosSteps(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).Return(value(t, []workflows.TodoState{
		{Index: 1, Text: "a", Status: workflows.TodoDone, Steps: 3},
		{Index: 2, Text: "b", Status: workflows.TodoRunning, Attempts: 2, Steps: 4}}), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(value(t, workflows.Status{CurrentTodo: 2, Steps: 7}), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1/todo-2-r1", "", workflows.QueryStatus).Return(value(t, workflows.Status{Steps: 5}), nil)
	todos, err := New(mc, Options{}).LiveTodos(context.Background(), "goal-1")
	if err != nil || len(todos) != 2 || todos[0].Steps != 3 || todos[1].Steps != 9 {
		t.Fatalf("todos = %+v, err = %v; want the running todo's 5 live steps after its first attempt's 4", todos, err)
	}
}

// The goal's status answer carries its todos, so no second query can pair
// them with counters of another moment; the running todo's answer gives the
// action, its result and the thinking.
func TestSnapshotOneMomentWithTodoAction(t *testing.T) {
	mc := mocks.NewClient(t)
	st := workflows.Status{Phase: workflows.GoalRunning, CurrentTodo: 1, Steps: 0, MaxSteps: 100,
		Todos: []workflows.TodoState{{Index: 1, Text: "Turn on Wi-Fi", Status: workflows.TodoRunning, Attempts: 1}}}
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(value(t, st), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1/todo-1", "", workflows.QueryStatus).Return(value(t, workflows.Status{
		Phase: workflows.GoalRunning, Steps: 2, LastAction: `do(action="Launch", app="Settings")`, LastResult: "ok",
		Thinking: "Settings holds the Wi-Fi switch."}), nil)
	s, err := New(mc, Options{}).Snapshot(ctx, "goal-1")
	if err != nil {
		t.Fatal(err)
	}
	if s.Steps != 2 || s.Todos[0].Steps != 2 || s.Action != `do(action="Launch", app="Settings") → ok` ||
		s.Thinking != "Settings holds the Wi-Fi switch." {
		t.Fatalf("snapshot = %+v", s)
	}
	mc.AssertNotCalled(t, "QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos)
}

func TestCountersNeverGoBack(t *testing.T) {
	prev := progress.Snapshot{Steps: 14, Todos: []progress.Todo{{Text: "a", Steps: 3}, {Text: "b", Steps: 11}}}
	// Between the todo's end and the goal counting it, a poll sees less.
	s := progress.Snapshot{Steps: 4, Todos: []progress.Todo{{Text: "a", Steps: 3}, {Text: "b", Steps: 0}, {Text: "c"}}}
	keepCounters(prev, &s)
	if s.Steps != 14 || s.Todos[1].Steps != 11 || s.Todos[2].Steps != 0 {
		t.Fatalf("after keepCounters: %+v", s)
	}
	// A replanned list with other texts keeps its own counts.
	s = progress.Snapshot{Steps: 15, Todos: []progress.Todo{{Text: "a", Steps: 3}, {Text: "x", Steps: 0}}}
	keepCounters(prev, &s)
	if s.Steps != 15 || s.Todos[1].Steps != 0 {
		t.Fatalf("replanned: %+v", s)
	}
}

func TestSendRetriesAnUnreachableFrontendWithTheSameUpdateID(t *testing.T) {
	mc := mocks.NewClient(t)
	h := mocks.NewWorkflowUpdateHandle(t)
	var ids []string
	calls := 0
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).
		Run(func(a mock.Arguments) { ids = append(ids, a.Get(1).(client.UpdateWorkflowOptions).UpdateID) }).
		Return(func(context.Context, client.UpdateWorkflowOptions) (client.WorkflowUpdateHandle, error) {
			calls++
			if calls == 1 {
				return nil, serviceerror.NewUnavailable("connection refused")
			}
			return h, nil
		})
	h.On("Get", mock.Anything, nil).Return(nil)
	if err := New(mc, Options{}).SendText(ctx, "goal-1", workflows.SignalInject, "use the search box", false); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 2 || ids[0] == "" || ids[0] != ids[1] || !strings.HasPrefix(ids[0], "inject-") {
		t.Fatalf("update IDs = %q, want one ID sent twice", ids)
	}

	// A given ID (a script re-running the command) is the update's ID.
	ids = nil
	if err := New(mc, Options{}).Send(WithUpdateID(ctx, "retry-42"), "goal-1", workflows.SignalPause, nil, false); err != nil {
		t.Fatal(err)
	}
	if len(ids) != 1 || ids[0] != "retry-42" {
		t.Fatalf("update IDs = %q", ids)
	}
}

func TestSendSaysToSignalAGoalWhoseWorkflowTaskFails(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).
		Return(nil, serviceerror.NewWorkflowNotReady("Unable to perform workflow execution update due to Workflow Task in failed state."))
	err := New(mc, Options{}).Send(ctx, "goal-1", workflows.SignalResume, nil, false)
	var nr *serviceerror.WorkflowNotReady
	if err == nil || !errors.As(err, &nr) || !strings.Contains(err.Error(), "--signal") || !strings.Contains(err.Error(), "starter status goal-1") {
		t.Fatalf("Send = %v, want the server's refusal with the fix (--signal, starter status)", err)
	}
	mc.AssertNumberOfCalls(t, "UpdateWorkflow", 1)
}

// A start the server did not answer in time may have started the goal: it
// is sent again with the same ID, and the goal found running under that ID
// with the same text on the same phone is the one started, not a taken ID.
func TestStartSendsAgainAStartTheServerDidNotAnswer(t *testing.T) {
	describe := func(goal string) *workflowservice.DescribeWorkflowExecutionResponse {
		return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{
			Execution: &commonpb.WorkflowExecution{WorkflowId: "goal-x", RunId: "run-1"},
			Status:    enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
			StartTime: timestamppb.Now(),
			Memo:      &commonpb.Memo{Fields: map[string]*commonpb.Payload{MemoGoal: payload(t, goal)}},
			SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{
				workflows.SearchAttrDevice: payload(t, "emu-1")}},
		}}
	}
	for _, c := range []struct {
		name, running string
		wantErr       bool
	}{
		{"the first start took effect", "turn on Wi-Fi", false},
		{"another goal holds the id", "send Bob a message", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			mc := mocks.NewClient(t)
			fleetOf(t, mc)
			calls := 0
			mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, GoalWorkflowName, mock.Anything).
				Return(func(context.Context, client.StartWorkflowOptions, any, ...any) (client.WorkflowRun, error) {
					calls++
					if calls == 1 {
						return nil, serviceerror.NewDeadlineExceeded("context deadline exceeded")
					}
					return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", "")
				})
			mc.On("DescribeWorkflowExecution", mock.Anything, "goal-x", "").Return(describe(c.running), nil)
			id, runID, err := New(mc, Options{}).Start(ctx, StartRequest{ID: "goal-x", Goal: "turn on Wi-Fi", Device: "emu-1"})
			var taken *IDTakenError
			if c.wantErr {
				if !errors.As(err, &taken) || !taken.Running {
					t.Fatalf("Start = %s %s %v, want the taken id", id, runID, err)
				}
				return
			}
			if err != nil || id != "goal-x" || runID != "run-1" || calls != 2 {
				t.Fatalf("Start = %s %s %v after %d starts, want goal-x run-1 after 2", id, runID, err, calls)
			}
		})
	}
}

// A wait for the result that the server did not answer, or answered with
// the "namespace not found" of a server too busy to read its namespace
// store, is not the goal's end: Result waits on.
func TestResultWaitsThroughAServerThatDoesNotAnswer(t *testing.T) {
	mc := mocks.NewClient(t)
	busy := []error{serviceerror.NewDeadlineExceeded("context deadline exceeded"), serviceerror.NewNamespaceNotFound("default")}
	gets := 0
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Return(func(_ context.Context, v any) error {
		gets++
		if gets <= len(busy) {
			return busy[gets-1]
		}
		*v.(*workflows.GoalResult) = workflows.GoalResult{Status: workflows.GoalDone, Steps: 6}
		return nil
	})
	mc.On("GetWorkflow", mock.Anything, "goal-1", "").Return(run)
	r, err := New(mc, Options{}).Result(ctx, "goal-1")
	if err != nil || r.Status != workflows.GoalDone || r.Steps != 6 || gets != 3 {
		t.Fatalf("Result = %+v, %v after %d waits, want done after 3", r, err, gets)
	}
	// A goal that timed out is its end, not a busy server.
	timedOut := mocks.NewWorkflowRun(t)
	timedOut.On("Get", mock.Anything, mock.Anything).Return(temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_START_TO_CLOSE, nil))
	mc.On("GetWorkflow", mock.Anything, "goal-2", "").Return(timedOut)
	if _, err := New(mc, Options{}).Result(ctx, "goal-2"); err == nil {
		t.Fatal("a goal that timed out returned no error")
	}
	timedOut.AssertNumberOfCalls(t, "Get", 1)
}

func TestStartWaitsForSearchAttributesRegisteredMomentsAgo(t *testing.T) {
	mc := mocks.NewClient(t)
	fleetOf(t, mc)
	run := mocks.NewWorkflowRun(t)
	run.On("GetRunID").Return("run-1")
	refused := serviceerror.NewInvalidArgument("Namespace default has no mapping defined for search attribute PhoneflowStatus")
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, GoalWorkflowName, mock.Anything).Return(nil, refused).Twice()
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, GoalWorkflowName, mock.Anything).Return(run, nil).Once()
	id, runID, err := New(mc, Options{}).Start(ctx, StartRequest{ID: "goal-sa", Goal: "x", Device: "d"})
	if err != nil || id != "goal-sa" || runID != "run-1" {
		t.Fatalf("start = %s %s %v, want the goal started once the frontend serves the attributes", id, runID, err)
	}

	// Never registered: after the bound, the error says what to run.
	mc = mocks.NewClient(t)
	fleetOf(t, mc)
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, GoalWorkflowName, mock.Anything).Return(nil, refused)
	short, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, _, err = New(mc, Options{Namespace: "team-a"}).Start(short, StartRequest{ID: "goal-sa2", Goal: "x", Device: "d"})
	var un *UnmappedError
	if !errors.As(err, &un) || !strings.Contains(err.Error(), "temporal operator search-attribute create --namespace team-a") ||
		!strings.Contains(err.Error(), "no mapping defined") {
		t.Fatalf("start error = %v, want an UnmappedError naming the register command", err)
	}
}

// A goal started from the Temporal CLI has no memo: its text and phone are
// read from its start event; a terminated goal's result error says what
// happened, not the SDK's line.
func TestStartedGoalAndTerminated(t *testing.T) {
	in, err := converter.GetDefaultDataConverter().ToPayloads(workflows.GoalInput{Goal: "Turn on Wi-Fi", Device: "emu1"})
	if err != nil {
		t.Fatal(err)
	}
	it := &mocks.HistoryEventIterator{}
	it.On("HasNext").Return(true)
	it.On("Next").Return(&historypb.HistoryEvent{Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{
		WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{Input: in}}}, nil)
	mc := mocks.NewClient(t)
	mc.On("GetWorkflowHistory", mock.Anything, "goal-cli", "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).Return(it)
	if goal, device := New(mc, Options{}).StartedGoal(context.Background(), "goal-cli"); goal != "Turn on Wi-Fi" || device != "emu1" {
		t.Errorf("StartedGoal = %q, %q", goal, device)
	}

	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Return(fmt.Errorf("workflow execution error (workflowID: goal-t): %w", &temporal.TerminatedError{}))
	mc.On("GetWorkflow", mock.Anything, "goal-t", "").Return(run)
	_, err = New(mc, Options{}).Result(context.Background(), "goal-t")
	if err == nil || !strings.Contains(err.Error(), "goal goal-t was terminated from outside") || strings.Contains(err.Error(), "workflowID") {
		t.Errorf("Result of a terminated goal: %v", err)
	}
}

// fleetOf makes mc's fleet listing answer with phones (the phone records'
// memos), for the labels a goal on a named phone starts with.
func fleetOf(t *testing.T, mc *mocks.Client, phones ...fleet.Phone) {
	t.Helper()
	resp := &workflowservice.ListWorkflowExecutionsResponse{}
	for _, p := range phones {
		pl, err := converter.GetDefaultDataConverter().ToPayload(p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Executions = append(resp.Executions, &workflowpb.WorkflowExecutionInfo{
			Memo: &commonpb.Memo{Fields: map[string]*commonpb.Payload{fleet.MemoPhone: pl}}})
	}
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return strings.Contains(r.GetQuery(), fleet.RecordWorkflowType)
	})).Return(resp, nil).Maybe()
}
