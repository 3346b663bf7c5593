package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/workflows"
)

func statusCmds() []*cobra.Command {
	return []*cobra.Command{newStatusCmd(), newTodosCmd(), newListCmd(), newCancelCmd()}
}

func execInfo(t *testing.T, id string, st enumspb.WorkflowExecutionStatus, status string) *workflowpb.WorkflowExecutionInfo {
	t.Helper()
	dc := converter.GetDefaultDataConverter()
	p := func(v string) *commonpb.Payload {
		pl, err := dc.ToPayload(v)
		if err != nil {
			t.Fatal(err)
		}
		return pl
	}
	return &workflowpb.WorkflowExecutionInfo{
		Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: "r"},
		Status:    st,
		StartTime: timestamppb.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
		Memo:      &commonpb.Memo{Fields: map[string]*commonpb.Payload{"goal": p("Turn on Wi-Fi")}},
		SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{
			workflows.SearchAttrStatus: p(status), workflows.SearchAttrDevice: p("emu1"),
		}},
	}
}

func TestStatusArgumentErrors(t *testing.T) {
	for _, args := range [][]string{{"status"}, {"todos", "a", "b"}, {"cancel"}, {"list", "extra"}, {"list", "--status", "sleeping"}, {"list", "--limit", "x"}, {"status", "--events", "goal-1"}} {
		out, code := execCLI(t, nil, "", statusCmds(), args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
}

func TestStatusRunningGoal(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-1", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-1", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, "waiting_user")}, nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(value(t, workflows.Status{
		Phase: "waiting_user", Steps: 3, MaxSteps: 100, PendingApproval: &workflows.Approval{Action: "Tap Pay", Reason: "pays 10 USD"}}), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).Return(value(t, []workflows.TodoState{
		{Index: 1, Text: "Open Bank", Status: "running", Steps: 3}}), nil)
	out, code := execCLI(t, mc, "", statusCmds(), "status", "goal-1")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{"goal: Turn on Wi-Fi", "device: emu1", "goal-1  waiting_user  step 3/100", "[>] 1. Open Bank  (3 steps)",
		"needs approval: Tap Pay — pays 10 USD", "starter approve goal-1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, code = execCLI(t, mc, "", statusCmds(), "status", "--json", "goal-1")
	var rep statusReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Status == nil || rep.Status.PendingApproval == nil || len(rep.Todos) != 1 {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
}

func TestStatusFinishedAndMissingGoal(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-2", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-2", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, "done")}, nil)
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		*a.Get(1).(*workflows.GoalResult) = workflows.GoalResult{Status: "done", Steps: 5, Response: "Wi-Fi is on"}
	}).Return(nil)
	mc.On("GetWorkflow", mock.Anything, "goal-2", "").Return(run)
	// An ended goal's query is answered by a worker replaying it: the
	// viewer is that worker's, not one guessed on this host.
	mc.On("QueryWorkflow", mock.Anything, "goal-2", "", workflows.QueryStatus).Return(value(t, workflows.Status{Phase: "done", ViewerURL: "http://10.0.0.9:9500/goals/goal-2"}), nil)
	mc.On("DescribeWorkflowExecution", mock.Anything, "nope", "").Return(nil, serviceerror.NewNotFound("not found"))
	out, code := execCLI(t, mc, "", statusCmds(), "status", "goal-2")
	if code != 0 || !strings.Contains(out, "goal-2 done after 5 steps") || !strings.Contains(out, "result: Wi-Fi is on") || !strings.Contains(out, "Step viewer: http://10.0.0.9:9500/goals/goal-2\n") {
		t.Errorf("finished goal: exit %d\n%s", code, out)
	}
	out, code = execCLI(t, mc, "", statusCmds(), "status", "nope")
	if code != exitNotFound || !strings.Contains(out, "no goal with id nope") {
		t.Errorf("missing goal: exit %d\n%s", code, out)
	}
}

func TestTodosListCancel(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).Return(value(t, []workflows.TodoState{
		{Index: 1, Text: "Turn on Wi-Fi", Status: "done", Steps: 2, Result: "on"}, {Index: 2, Text: "Open Clock", Status: "pending"}}), nil)
	out, code := execCLI(t, mc, "", statusCmds(), "todos", "goal-1")
	if code != 0 || !strings.Contains(out, "[x] 1. Turn on Wi-Fi  (done, 2 steps) → on") || !strings.Contains(out, "[ ] 2. Open Clock  (pending, 0 steps)") {
		t.Errorf("todos: exit %d\n%s", code, out)
	}

	var q string
	mc.On("ListWorkflow", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		q = a.Get(1).(*workflowservice.ListWorkflowExecutionsRequest).Query
	}).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{
		execInfo(t, "goal-1", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, "running")}}, nil)
	out, code = execCLI(t, mc, "", statusCmds(), "list", "--status", "running")
	if code != 0 || !strings.Contains(out, "goal-1") || !strings.Contains(out, "Turn on Wi-Fi") || !strings.Contains(q, "PhoneflowStatus = 'running'") {
		t.Errorf("list: exit %d, query %q\n%s", code, q, out)
	}

	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-1", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-1", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, "running")}, nil)
	mc.On("CancelWorkflow", mock.Anything, "goal-1", "").Return(nil)
	mc.On("DescribeWorkflowExecution", mock.Anything, "gone", "").Return(nil, serviceerror.NewNotFound("not found"))
	out, code = execCLI(t, mc, "", statusCmds(), "cancel", "goal-1")
	if code != 0 || !strings.Contains(out, "cancel requested for goal-1") {
		t.Errorf("cancel: exit %d\n%s", code, out)
	}
	if _, code = execCLI(t, mc, "", statusCmds(), "cancel", "gone"); code != exitNotFound {
		t.Errorf("cancel missing goal: exit %d", code)
	}
}

func TestStatusFollowAndLiveSteps(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-1", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-1", enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, "running")}, nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(value(t, workflows.Status{
		Phase: "running", CurrentTodo: 1, Steps: 0, MaxSteps: 100}), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryTodos).Return(value(t, []workflows.TodoState{
		{Index: 1, Text: "Turn on Wi-Fi", Status: "running"}}), nil)
	mc.On("QueryWorkflow", mock.Anything, "goal-1/todo-1", "", workflows.QueryStatus).Return(value(t, workflows.Status{
		Phase: "running", Steps: 4}), nil)
	out, code := execCLI(t, mc, "", statusCmds(), "status", "goal-1")
	if code != 0 || !strings.Contains(out, "goal-1  running  step 4/100") || !strings.Contains(out, "[>] 1. Turn on Wi-Fi  (4 steps)") {
		t.Fatalf("live steps: exit %d\n%s", code, out)
	}
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		*a.Get(1).(*workflows.GoalResult) = workflows.GoalResult{Status: "done", Steps: 5,
			Todos: []workflows.TodoState{{Index: 1, Text: "Turn on Wi-Fi", Status: "done", Steps: 5}}}
	}).Return(nil)
	mc.On("GetWorkflow", mock.Anything, "goal-1", "").Return(run)
	out, code = execCLI(t, mc, "", statusCmds(), "status", "--follow", "goal-1")
	if code != 0 || !strings.Contains(out, "[goal-1] phase running") || !strings.Contains(out, "goal-1 done after 5 steps") {
		t.Fatalf("--follow: exit %d\n%s", code, out)
	}
}

// TestStatusUsageAndCost: a finished goal's model calls show in text and
// JSON, with a cost estimate from the configured prices.
func TestStatusUsageAndCost(t *testing.T) {
	t.Setenv("PHONEFLOW_PLANNER_PRICE_INPUT", "1")
	t.Setenv("PHONEFLOW_PLANNER_PRICE_OUTPUT", "2")
	t.Setenv("PHONEFLOW_EXECUTOR_PRICE_INPUT", "3")
	t.Setenv("PHONEFLOW_EXECUTOR_PRICE_CACHED", "1")
	t.Setenv("PHONEFLOW_EXECUTOR_PRICE_OUTPUT", "10")
	usage := llm.RoleUsage{
		Planner:  llm.Usage{Calls: 2, InputTokens: 1000, OutputTokens: 100, LatencyMS: 800},
		Executor: llm.Usage{Calls: 4, InputTokens: 20000, CachedTokens: 10000, OutputTokens: 400, LatencyMS: 6000},
	}
	mc := mocks.NewClient(t)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-3", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-3", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, "done")}, nil)
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		*a.Get(1).(*workflows.GoalResult) = workflows.GoalResult{Status: "done", Steps: 7, Response: "ok", Usage: usage}
	}).Return(nil)
	mc.On("GetWorkflow", mock.Anything, "goal-3", "").Return(run)
	mc.On("QueryWorkflow", mock.Anything, "goal-3", "", workflows.QueryStatus).Return(value(t, workflows.Status{Phase: "done"}), nil)
	// planner 1000×1 + 100×2; executor 10000×3 + 10000×1 + 400×10; per million.
	const cost = (1000 + 200 + 30000 + 10000 + 4000) / 1e6
	out, code := execCLI(t, mc, "", statusCmds(), "status", "goal-3")
	for _, want := range []string{"model usage:", "planner:  2 calls, 1000 in / 100 out tokens, 800ms",
		"executor: 4 calls, 20000 in (10000 cached) / 400 out tokens, 6s", "estimated cost: 0.0452"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; output lacks %q:\n%s", code, want, out)
		}
	}
	out, code = execCLI(t, mc, "", statusCmds(), "status", "--json", "goal-3")
	var rep statusReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	if rep.Usage != usage || rep.EstimatedCost == nil || math.Abs(*rep.EstimatedCost-cost) > 1e-9 {
		t.Errorf("--json usage = %+v, cost = %v; want %+v, %v\n%s", rep.Usage, rep.EstimatedCost, usage, cost, out)
	}
}
