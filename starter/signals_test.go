package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/workflows"
)

func TestSignalArgumentErrors(t *testing.T) {
	for _, args := range [][]string{
		{"clarify"},
		{"clarify", "goal-1"},
		{"clarify", "goal-1", " "},
		{"inject", "goal-1"},
		{"say"},
		{"pause", "goal-1", "extra"},
		{"approve"},
		{"deny", "--bogus", "goal-1"},
		{"clarify", "goal-1", strings.Repeat("x", workflows.MaxSignalText+1)},
	} {
		out, code := execCLI(t, nil, "", newSignalCmds(), args...)
		if code != exitUsage {
			t.Errorf("%.40q: exit %d, want 2\n%s", args, code, out)
		}
	}
}

func TestSignalCommandsSendUpdates(t *testing.T) {
	cases := []struct {
		args []string
		name string
		arg  any
		out  string
	}{
		{[]string{"clarify", "goal-1", "Alice", "Chen"}, workflows.SignalClarify, "Alice Chen", "clarify: answer delivered (goal-1)"},
		{[]string{"approve", "goal-1", "--note", "ok"}, workflows.SignalApprove, workflows.ApproveInput{Approved: true, Note: "ok"}, "approve: approved"},
		{[]string{"deny", "goal-1"}, workflows.SignalApprove, workflows.ApproveInput{Approved: false}, "deny: denied"},
		{[]string{"pause", "goal-1"}, workflows.SignalPause, nil, "pause: paused"},
		{[]string{"resume", "goal-1"}, workflows.SignalResume, nil, "resume: resumed"},
		{[]string{"inject", "goal-1", "scroll down first"}, workflows.SignalInject, "scroll down first", "inject: instruction delivered"},
		{[]string{"say", "goal-1", "also tell Bob"}, workflows.SignalUserInput, "also tell Bob", "say: message queued"},
		{[]string{"reset", "goal-1"}, workflows.UpdateReset, nil, "reset: the running todo starts again"},
	}
	for _, c := range cases {
		mc := mocks.NewClient(t)
		h := mocks.NewWorkflowUpdateHandle(t)
		h.On("Get", mock.Anything, nil).Return(nil)
		var got client.UpdateWorkflowOptions
		mc.On("UpdateWorkflow", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
			got = a.Get(1).(client.UpdateWorkflowOptions)
		}).Return(h, nil)
		out, code := execCLI(t, mc, "", newSignalCmds(), c.args...)
		if code != 0 || !strings.Contains(out, c.out) {
			t.Errorf("%q: exit %d\n%s", c.args, code, out)
			continue
		}
		if got.WorkflowID != "goal-1" || got.UpdateName != c.name || got.WaitForStage != client.WorkflowUpdateStageCompleted {
			t.Errorf("%q: update %+v", c.args, got)
		}
		if c.arg == nil && len(got.Args) != 0 || c.arg != nil && (len(got.Args) != 1 || got.Args[0] != c.arg) {
			t.Errorf("%q: args %#v, want %#v", c.args, got.Args, c.arg)
		}
	}
}

func TestSignalRejectedNotFoundAndPlainSignal(t *testing.T) {
	mc := mocks.NewClient(t)
	h := mocks.NewWorkflowUpdateHandle(t)
	h.On("Get", mock.Anything, nil).Return(temporal.NewApplicationError("resume: goal is not paused", "Rejected"))
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).Return(h, nil)
	out, code := execCLI(t, mc, "", newSignalCmds(), "resume", "goal-1")
	if code != exitFailure || !strings.Contains(out, "error: resume: goal is not paused") {
		t.Errorf("rejected update: exit %d\n%s", code, out)
	}

	mc = mocks.NewClient(t)
	mc.On("UpdateWorkflow", mock.Anything, mock.Anything).Return(nil, serviceerror.NewNotFound("workflow not found"))
	out, code = execCLI(t, mc, "", newSignalCmds(), "pause", "goal-x")
	if code != exitNotFound || !strings.Contains(out, "no goal with id goal-x (list goals with `starter list`)") {
		t.Errorf("missing goal: exit %d\n%s", code, out)
	}

	mc = mocks.NewClient(t)
	mc.On("SignalWorkflow", mock.Anything, "goal-1", "", workflows.SignalClarify, "yes").Return(nil)
	out, code = execCLI(t, mc, "", newSignalCmds(), "clarify", "--signal", "goal-1", "yes")
	if code != 0 || !strings.Contains(out, "clarify: signal sent to goal-1") {
		t.Errorf("--signal: exit %d\n%s", code, out)
	}
}

func TestEveryCommandHasExample(t *testing.T) {
	var check func(c *cobra.Command)
	check = func(c *cobra.Command) {
		if c.Runnable() && c.Example == "" {
			t.Errorf("%s has no Example", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			check(sub)
		}
	}
	cmds := append(newSignalCmds(), newRunCmd(), newStatusCmd(), newTodosCmd(), newListCmd(), newCancelCmd(), newDevicesCmd(), newScheduleCmd())
	for _, c := range cmds {
		check(c)
	}
}

func TestResetIsAnUpdateOnly(t *testing.T) {
	out, code := execCLI(t, nil, "", newSignalCmds(), "reset", "goal-1", "--signal")
	if code != exitUsage || !strings.Contains(out, "reset is an update only") {
		t.Errorf("reset --signal: exit %d\n%s", code, out)
	}
}
