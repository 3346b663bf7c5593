package main

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/workflows"
)

func scheduleCmds() []*cobra.Command { return []*cobra.Command{newScheduleCmd()} }

func TestScheduleArgumentErrors(t *testing.T) {
	base := []string{"schedule", "create", "morning", "--goal", "g", "--device", "d"}
	for _, args := range [][]string{
		{"schedule", "create"},
		{"schedule", "create", "a", "b"},
		{"schedule", "create", "morning", "--device", "d", "--every", "1h"},
		append([]string{}, base...),
		append(append([]string{}, base...), "--cron", "0 8 * * *", "--every", "1h"),
		append(append([]string{}, base...), "--cron", "0 8"),
		append(append([]string{}, base...), "--every", "1h", "--tz", "Nowhere/City"),
		append(append([]string{}, base...), "--every", "1h", "--overlap", "maybe"),
		append(append([]string{}, base...), "--every", "soon"),
		append(append([]string{}, base...), "--every", "1h", "--catchup", "0s5ms"),
		append(append([]string{}, base...), "--every", "1h", "--catchup", "-1m"),
		append(append([]string{}, base...), "--every", "1h", "--jitter", "-1s"),
		append(append([]string{}, base...), "--every", "1h", "--jitter", "1h"),
		append(append([]string{}, base...), "--every", "1h", "--run-timeout", "-5m"),
		append(append([]string{}, base...), "--every", "1h", "--answer-deadline", "-5m"),
		append(append([]string{}, base...), "--every", "1h", "--answer-deadline", "0"),
		{"schedule", "describe"},
		{"schedule", "pause", "a", "b"},
		{"schedule", "delete"},
	} {
		out, code := execCLI(t, nil, "", scheduleCmds(), args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
}

// servedPhones makes the mock's phones emu1 and d served by a worker, and
// no other.
func servedPhones(mc *mocks.Client) {
	for _, s := range []string{"emu1", "d"} {
		mc.On("DescribeTaskQueue", mock.Anything, workflows.DeviceTaskQueue(s), enumspb.TASK_QUEUE_TYPE_WORKFLOW).
			Return(&workflowservice.DescribeTaskQueueResponse{Pollers: []*taskqueuepb.PollerInfo{{Identity: "w1"}}}, nil).Maybe()
	}
	mc.On("DescribeTaskQueue", mock.Anything, mock.Anything, enumspb.TASK_QUEUE_TYPE_WORKFLOW).
		Return(&workflowservice.DescribeTaskQueueResponse{}, nil).Maybe()
}

func TestScheduleCreateAndManage(t *testing.T) {
	mc := mocks.NewClient(t)
	servedPhones(mc)
	mc.On("CountWorkflow", mock.Anything, mock.Anything).Return(&workflowservice.CountWorkflowExecutionsResponse{Count: 1}, nil)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc)
	var got client.ScheduleOptions
	sc.On("Create", mock.Anything, mock.Anything).Run(func(a mock.Arguments) { got = a.Get(1).(client.ScheduleOptions) }).Return(nil, nil)
	out, code := execCLI(t, mc, "", scheduleCmds(), "schedule", "create", "morning", "--goal", "Read the first alarm", "--device", "emu1",
		"--cron", "0 8 * * *", "--tz", "Asia/Shanghai", "--paused")
	if code != 0 || !strings.Contains(out, `schedule morning created (paused): cron 0 8 * * * (Asia/Shanghai), goal "Read the first alarm" on emu1`) {
		t.Fatalf("create: exit %d\n%s", code, out)
	}
	if got.ID != "morning" || !got.Paused || got.Spec.TimeZoneName != "Asia/Shanghai" {
		t.Fatalf("schedule options = %+v", got)
	}
	// Defaults that fit phones: a due run waits for the phone, runs missed
	// in an outage start only within 10 minutes.
	if got.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE || got.CatchupWindow != 10*time.Minute || got.PauseOnFailure {
		t.Fatalf("default policies = overlap %v, catchup %v, pause on failure %v", got.Overlap, got.CatchupWindow, got.PauseOnFailure)
	}
	if a := got.Action.(*client.ScheduleWorkflowAction); a.Workflow != "GoalWorkflow" {
		t.Fatalf("action = %+v", a)
	}

	h := &mocks.ScheduleHandle{}
	h.Test(t)
	sc.On("GetHandle", mock.Anything, "morning").Return(h)
	sc.On("GetHandle", mock.Anything, "gone").Return(h)
	h.On("Pause", mock.Anything, client.SchedulePauseOptions{Note: "holiday"}).Return(nil)
	h.On("Unpause", mock.Anything, mock.Anything).Return(nil)
	h.On("Trigger", mock.Anything, mock.Anything).Return(nil)
	h.On("Delete", mock.Anything).Return(nil).Once()
	h.On("Delete", mock.Anything).Return(serviceerror.NewNotFound("gone"))
	h.On("Describe", mock.Anything).Return(&client.ScheduleDescription{
		Schedule: client.Schedule{State: &client.ScheduleState{Paused: true}},
		Info:     client.ScheduleInfo{NumActions: 2, NextActionTimes: []time.Time{time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)}},
	}, nil)
	for args, want := range map[string]string{
		"schedule pause morning --note holiday": "schedule morning paused",
		"schedule unpause morning":              "schedule morning unpaused",
		"schedule trigger morning":              "schedule morning triggered",
		"schedule delete morning":               "schedule morning deleted",
		"schedule describe morning":             "failed:   1",
	} {
		out, code := execCLI(t, mc, "", scheduleCmds(), strings.Fields(args)...)
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d\n%s", args, code, out)
		}
	}
	out, code = execCLI(t, mc, "", scheduleCmds(), "schedule", "delete", "gone")
	if code != exitNotFound || !strings.Contains(out, "no schedule named gone") {
		t.Errorf("delete missing: exit %d\n%s", code, out)
	}
}

// A timing the local check lets through but the server refuses is bad
// input too: exit status 2, with the server's reason.
func TestScheduleCreateServerRefusalIsUsage(t *testing.T) {
	mc := mocks.NewClient(t)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc)
	servedPhones(mc)
	sc.On("Create", mock.Anything, mock.Anything).Return(nil, serviceerror.NewInvalidArgument("invalid cron: bad year"))
	out, code := execCLI(t, mc, "", scheduleCmds(), "schedule", "create", "y", "--goal", "g", "--device", "d", "--cron", "0 0 8 * * * 1900")
	if code != exitUsage || !strings.Contains(out, "bad year") {
		t.Fatalf("exit %d, want 2\n%s", code, out)
	}
	for _, cron := range []string{"0 25 * * *", "x y z w v"} {
		out, code := execCLI(t, nil, "", scheduleCmds(), "schedule", "create", "y", "--goal", "g", "--device", "d", "--cron", cron)
		if code != exitUsage || !strings.Contains(out, "field") {
			t.Errorf("--cron %q: exit %d, want 2 naming the field\n%s", cron, code, out)
		}
	}
}

// TestScheduleCreatePolicies: the policy flags reach the schedule.
func TestScheduleCreatePolicies(t *testing.T) {
	mc := mocks.NewClient(t)
	servedPhones(mc)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc)
	var got client.ScheduleOptions
	sc.On("Create", mock.Anything, mock.Anything).Run(func(a mock.Arguments) { got = a.Get(1).(client.ScheduleOptions) }).Return(nil, nil)
	out, code := execCLI(t, mc, "", scheduleCmds(), "schedule", "create", "wifi", "--goal", "Turn on Wi-Fi", "--device", "emu1",
		"--every", "10m", "--overlap", "skip", "--catchup", "1h", "--jitter", "30s", "--run-timeout", "20m", "--pause-on-failure")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	a := got.Action.(*client.ScheduleWorkflowAction)
	if got.Overlap != enumspb.SCHEDULE_OVERLAP_POLICY_SKIP || got.CatchupWindow != time.Hour || got.Spec.Jitter != 30*time.Second ||
		a.WorkflowExecutionTimeout != 20*time.Minute || !got.PauseOnFailure {
		t.Fatalf("options = %+v, action timeout %v", got, a.WorkflowExecutionTimeout)
	}
}

// TestScheduleRefusesUnservedPhone: a schedule for a phone no worker serves
// is refused with the fix, and created with a warning under
// --no-device-check.
func TestScheduleRefusesUnservedPhone(t *testing.T) {
	mc := mocks.NewClient(t)
	servedPhones(mc)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc).Maybe()
	created := 0
	sc.On("Create", mock.Anything, mock.Anything).Run(func(mock.Arguments) { created++ }).Return(nil, nil).Maybe()
	args := []string{"schedule", "create", "nightly", "--goal", "g", "--device", "ghost", "--every", "1h"}
	out, code := execCLI(t, mc, "", scheduleCmds(), args...)
	if code != exitNotFound || created != 0 || !strings.Contains(out, "no worker serves device ghost") || !strings.Contains(out, "--no-device-check") {
		t.Fatalf("unserved phone: exit %d, %d created\n%s", code, created, out)
	}
	out, code = execCLI(t, mc, "", scheduleCmds(), append(args, "--no-device-check")...)
	if code != 0 || created != 1 || !strings.Contains(out, "warning: not checked that a worker serves ghost") {
		t.Fatalf("--no-device-check: exit %d, %d created\n%s", code, created, out)
	}
}

// TestScheduleDescribeRunsAndCost: describe shows skipped, buffered and
// failed counts and each recent run's outcome and model calls.
func TestScheduleDescribeRunsAndCost(t *testing.T) {
	t.Setenv("PHONEFLOW_EXECUTOR_PRICE_INPUT", "1")
	mc := mocks.NewClient(t)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc)
	h := &mocks.ScheduleHandle{}
	h.Test(t)
	sc.On("GetHandle", mock.Anything, "wifi").Return(h)
	t0 := time.Date(2026, 1, 3, 8, 0, 0, 0, time.UTC)
	h.On("Describe", mock.Anything).Return(&client.ScheduleDescription{
		Schedule: client.Schedule{
			Policy: &client.SchedulePolicies{Overlap: enumspb.SCHEDULE_OVERLAP_POLICY_BUFFER_ONE, CatchupWindow: 10 * time.Minute},
			State:  &client.ScheduleState{},
		},
		Info: client.ScheduleInfo{NumActions: 2, NumActionsSkippedOverlap: 3, NumActionsMissedCatchupWindow: 1,
			RecentActions: []client.ScheduleActionResult{
				{ScheduleTime: t0, ActualTime: t0, StartWorkflowResult: &client.ScheduleWorkflowExecution{WorkflowID: "run-1"}},
				{ScheduleTime: t0.Add(time.Minute), ActualTime: t0.Add(4 * time.Minute), StartWorkflowResult: &client.ScheduleWorkflowExecution{WorkflowID: "run-2"}},
			}},
	}, nil)
	mc.On("CountWorkflow", mock.Anything, &workflowservice.CountWorkflowExecutionsRequest{Namespace: "default", Query: goalctl.FailedRunsQuery("wifi")}).
		Return(&workflowservice.CountWorkflowExecutionsResponse{Count: 1}, nil)
	mc.On("DescribeWorkflowExecution", mock.Anything, "run-1", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "run-1", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, "done")}, nil)
	mc.On("DescribeWorkflowExecution", mock.Anything, "run-2", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "run-2", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, "failed")}, nil)
	for id, r := range map[string]workflows.GoalResult{
		"run-1": {Status: "done", Usage: llm.RoleUsage{Executor: llm.Usage{Calls: 5, InputTokens: 10000, OutputTokens: 300}}},
		"run-2": {Status: "failed", Reason: "no answer before the deadline",
			Usage: llm.RoleUsage{Executor: llm.Usage{Calls: 2, InputTokens: 4000, OutputTokens: 100}}},
	} {
		run := mocks.NewWorkflowRun(t)
		run.On("Get", mock.Anything, mock.Anything).Run(func(a mock.Arguments) { *a.Get(1).(*workflows.GoalResult) = r }).Return(nil)
		mc.On("GetWorkflow", mock.Anything, id, "").Return(run)
	}
	out, code := execCLI(t, mc, "", scheduleCmds(), "schedule", "describe", "wifi")
	for _, want := range []string{"skipped:  3 (overlap), 1 (later than the catch-up window)", "buffered: 1 of the recent runs",
		"failed:   1", "failed (waited 3m0s)", "run-2", "executor: 7 calls, 14000 in / 400 out tokens", "estimated cost: 0.0140"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d; describe lacks %q:\n%s", code, want, out)
		}
	}
	if i, j := strings.Index(out, "run-2"), strings.Index(out, "run-1"); i < 0 || j < i {
		t.Errorf("runs not newest first:\n%s", out)
	}
}

// schedule trigger names the goal the trigger started.
func TestScheduleTriggerPrintsTheGoal(t *testing.T) {
	mc := mocks.NewClient(t)
	sc := &mocks.ScheduleClient{}
	sc.Test(t)
	mc.On("ScheduleClient").Return(sc)
	h := &mocks.ScheduleHandle{}
	h.Test(t)
	sc.On("GetHandle", mock.Anything, "morning").Return(h)
	old := client.ScheduleActionResult{StartWorkflowResult: &client.ScheduleWorkflowExecution{WorkflowID: "goal-sched-morning-old"}}
	h.On("Describe", mock.Anything).Return(&client.ScheduleDescription{Info: client.ScheduleInfo{RecentActions: []client.ScheduleActionResult{old}}}, nil).Twice()
	h.On("Describe", mock.Anything).Return(&client.ScheduleDescription{Info: client.ScheduleInfo{
		RecentActions:    []client.ScheduleActionResult{old},
		RunningWorkflows: []client.ScheduleWorkflowExecution{{WorkflowID: "goal-sched-morning-new"}}}}, nil)
	h.On("Trigger", mock.Anything, mock.Anything).Return(nil)
	out, code := execCLI(t, mc, "", scheduleCmds(), "schedule", "trigger", "morning")
	if code != 0 || !strings.Contains(out, "started goal goal-sched-morning-new: follow it with `starter status -f goal-sched-morning-new`") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// Next runs print to the second (runs 20 s apart look distinct), and a
// paused schedule has no next run.
func TestScheduleNextRuns(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local)
	next := []time.Time{at, at.Add(20 * time.Second)}
	var b strings.Builder
	printSchedules(&b, []goalctl.ScheduleInfo{{Name: "on", NextTimes: next}, {Name: "off", Paused: true, NextTimes: next}})
	lines := strings.Split(b.String(), "\n")
	if !strings.Contains(lines[1], "05:06:07") || !strings.Contains(lines[2], "paused") || strings.Contains(lines[2], "05:06") {
		t.Errorf("list:\n%s", b.String())
	}
	b.Reset()
	goalctl.WriteSchedule(&b, goalctl.ScheduleInfo{Name: "on", NextTimes: next})
	if !strings.Contains(b.String(), "05:06:07") || !strings.Contains(b.String(), "05:06:27") {
		t.Errorf("describe:\n%s", b.String())
	}
	b.Reset()
	goalctl.WriteSchedule(&b, goalctl.ScheduleInfo{Name: "off", Paused: true, NextTimes: next})
	if !strings.Contains(b.String(), "next:     none while paused") {
		t.Errorf("describe of a paused schedule:\n%s", b.String())
	}
}
