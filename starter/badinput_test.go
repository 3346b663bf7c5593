package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/mocks"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/workflows"
)

// Each bad input is refused before anything is sent, with a message that
// names the fix, and exit status 2.
func TestBadInputRefusedAtTheDoor(t *testing.T) {
	sched := []string{"schedule", "create", "morning", "--goal", "g", "--device", "d"}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{append(sched[:len(sched):len(sched)], "--cron", "0 0 8 * * *"), []string{"6 fields", "year", `"0 8 * * *" if the first field was seconds`}},
		{append(sched[:len(sched):len(sched)], "--cron", "30 7 * * 1-5 2027"), []string{"6 fields", "write five fields"}},
		{append(sched[:len(sched):len(sched)], "--every", "0s"), []string{"--every 0s never repeats", "--every 30m"}},
		{append(sched[:len(sched):len(sched)], "--every", "-5m"), []string{"--every -5m0s is negative", "--every 30m"}},
		{[]string{"run", "--id", "my goal", "--device", "d", "Turn on Wi-Fi"}, []string{`--id: goal id "my goal"`, "holds a space", "goal-morning"}},
		{[]string{"run", "--id", "goals/1", "--device", "d", "Turn on Wi-Fi"}, []string{"'/' separates", "goal-morning"}},
		{[]string{"run", "--id", "-x", "--device", "d", "Turn on Wi-Fi"}, []string{"starting with a letter or digit"}},
		{[]string{"list", "--limit", "0"}, []string{"--limit 0", "at least 1"}},
		{[]string{"list", "--limit", "-1"}, []string{"--limit -1", "at least 1"}},
	} {
		out, code := execCLI(t, nil, "", append(append(scheduleCmds(), statusCmds()...), newRunCmd()), c.args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", c.args, code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
}

// A finished goal cannot be cancelled: the command says so and fails
// instead of reporting a cancel the server ignores.
func TestCancelFinishedGoal(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-2", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-2", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, "done")}, nil)
	out, code := execCLI(t, mc, "", statusCmds(), "cancel", "goal-2")
	if code != exitFailure || !strings.Contains(out, "goal has already finished (done): nothing to cancel") ||
		!strings.Contains(out, "starter status goal-2") || strings.Contains(out, "cancel requested") {
		t.Errorf("cancel of a finished goal: exit %d\n%s", code, out)
	}
	mc.AssertNotCalled(t, "CancelWorkflow", mock.Anything, mock.Anything, mock.Anything)
}

// deny and say send approve and user_input; their errors name the command
// typed.
func TestSignalErrorsNameTheCommandTyped(t *testing.T) {
	for _, c := range []struct {
		args     []string
		rejected string
		want     string
	}{
		{[]string{"deny", "goal-1"}, "approve: no action is waiting for approval", "error: deny: no action is waiting for approval"},
		{[]string{"say", "goal-1", "hi"}, "user_input: text is empty: send a non-empty message", "error: say: text is empty"},
	} {
		mc := mocks.NewClient(t)
		h := mocks.NewWorkflowUpdateHandle(t)
		h.On("Get", mock.Anything, nil).Return(temporal.NewApplicationError(c.rejected, "Rejected"))
		mc.On("UpdateWorkflow", mock.Anything, mock.Anything).Return(h, nil)
		out, code := execCLI(t, mc, "", newSignalCmds(), c.args...)
		if code != exitFailure || !strings.Contains(out, c.want) {
			t.Errorf("%q: exit %d, want 1 and %q\n%s", c.args, code, c.want, out)
		}
	}
	// A finished goal's refusal too, keeping its exit status.
	mc := mocks.NewClient(t)
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).Return(nil, serviceerror.NewNotFound("workflow execution already completed"))
	out, code := execCLI(t, mc, "", newSignalCmds(), "say", "goal-1", "hi")
	if code != exitFailure || !strings.Contains(out, "error: say goal-1: goal has already finished") || strings.Contains(out, workflows.SignalUserInput) {
		t.Errorf("say to a finished goal: exit %d\n%s", code, out)
	}
}

// run --id of a goal that already ran is refused: IDs are never reused.
func TestRunRefusesAFinishedGoalsID(t *testing.T) {
	mc := mocks.NewClient(t)
	servedPhones(mc)
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, mock.Anything, mock.Anything).
		Return(nil, serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", ""))
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-old", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: execInfo(t, "goal-old", enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED, "failed")}, nil)
	out, code := execCLI(t, mc, "", []*cobra.Command{newRunCmd()}, "run", "--detach", "--id", "goal-old", "--device", "d", "Turn on Wi-Fi")
	if code != exitUsage || !strings.Contains(out, "goal-old already ran (failed) and goal IDs are not reused") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

// A goal text over limits.max_goal_text is refused by run and schedule
// create with the limit and how to raise it, before anything starts.
func TestGoalTextLimit(t *testing.T) {
	t.Setenv("PHONEFLOW_LIMITS_MAX_GOAL_TEXT", "40")
	goal := strings.Repeat("turn on Wi-Fi ", 5)
	for _, args := range [][]string{
		{"run", "--device", "d", goal},
		{"schedule", "create", "wifi", "--goal", goal, "--device", "d", "--every", "1h"},
	} {
		mc := mocks.NewClient(t)
		out, code := execCLI(t, mc, "", append(scheduleCmds(), newRunCmd()), args...)
		if code != exitUsage || !strings.Contains(out, "the goal is 70 bytes, over the limit of 40 (limits.max_goal_text)") ||
			!strings.Contains(out, "PHONEFLOW_LIMITS_MAX_GOAL_TEXT=70") {
			t.Errorf("%s: exit %d\n%s", args[0], code, out)
		}
		mc.AssertNotCalled(t, "ExecuteWorkflow", mock.Anything, mock.Anything, mock.Anything, mock.Anything)
	}
}

// A command that is not one exits 2 as every usage error does: at the top,
// and under a group (cobra printed the group's help and exited 0).
func TestUnknownCommandsAreUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"schedule", "creat", "x"}, []string{`unknown command "creat" for "starter schedule"`, `did you mean "create"`}},
		{[]string{"nosuch"}, []string{`unknown command "nosuch"`}},
		{[]string{"status", "a", "b", "c"}, nil},
	} {
		out, code := execCLI(t, nil, "", append(scheduleCmds(), statusCmds()...), c.args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", c.args, code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: output lacks %q:\n%s", c.args, w, out)
			}
		}
	}
	// The group alone still prints its help.
	if out, code := execCLI(t, nil, "", scheduleCmds(), "schedule"); code != exitOK || !strings.Contains(out, "create") {
		t.Errorf("starter schedule: exit %d\n%s", code, out)
	}
}
