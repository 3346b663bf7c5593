package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/mocks"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/workflows"
)

// Without --device or --on, several ready phones start the goal as --on
// planner; --on planner names the same, and with --device or --each it
// is a usage error. `starter status` says which phone the planner chose
// and why.
func TestRunLetsThePlannerPick(t *testing.T) {
	old := listDevices
	t.Cleanup(func() { listDevices = old })
	listDevices = func(context.Context, config.Config) ([]adb.DeviceInfo, error) {
		return []adb.DeviceInfo{{Serial: "emu1", State: "device"}, {Serial: "emu2", State: "device"}}, nil
	}
	for _, args := range [][]string{
		{"run", "--detach", "--id", "goal-t1", "Read the Android version on the phone labelled till"},
		{"run", "--detach", "--id", "goal-t1", "--on", "planner", "Read the Android version on the phone labelled till"},
	} {
		mc := mocks.NewClient(t)
		run := mocks.NewWorkflowRun(t)
		run.On("GetID").Return("goal-t1").Maybe()
		run.On("GetRunID").Return("r1")
		var in workflows.GoalInput
		mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, "GoalWorkflow", mock.Anything).Run(func(a mock.Arguments) {
			in = a.Get(3).(workflows.GoalInput)
		}).Return(run, nil)
		mc.On("QueryWorkflow", mock.Anything, "goal-t1", "", workflows.QueryStatus).Return(value(t, workflows.Status{Phase: "planning", ViewerURL: "http://10.0.0.9:9500/goals/goal-t1"}), nil).Maybe()
		out, code := execCLI(t, mc, "", []*cobra.Command{newRunCmd()}, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, code, out)
		}
		if in.Device != "" || in.On == nil || !in.On.Planner {
			t.Errorf("%q: started with device %q, on %+v; want the planner to pick", args, in.Device, in.On)
		}
		if !strings.Contains(out, "started goal-t1 on a phone the planner chooses") {
			t.Errorf("%q: output lacks what the goal runs on:\n%s", args, out)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--on", "planner", "--device", "emu1", "g"}, "both --device and --on"},
		{[]string{"run", "--on", "planner", "--each", "g"}, "--each with --on planner"},
		{[]string{"run", "--on", "the-planner", "g"}, "`planner`"},
	} {
		out, code := execCLI(t, mocks.NewClient(t), "", []*cobra.Command{newRunCmd()}, tc.args...)
		if code != exitUsage || !strings.Contains(out, tc.want) {
			t.Errorf("%q: exit %d, want 2 naming %q\n%s", tc.args, code, tc.want, out)
		}
	}
	line := "on phone emu2, chosen by the planner: the goal names the label till, which phone emu2 has"
	for _, rep := range []statusReport{
		{ID: "goal-t1", Device: "emu2", Status: &workflows.Status{Phase: workflows.GoalRunning, Device: "emu2", Picked: line}},
		{ID: "goal-t1", Device: "emu2", Result: &workflows.GoalResult{Status: workflows.GoalDone, Picked: line}},
	} {
		var b bytes.Buffer
		printStatus(&b, rep)
		if !strings.Contains(b.String(), "device: emu2\nphone: "+line+"\n") {
			t.Errorf("status lacks the planner's choice under the device:\n%s", b.String())
		}
	}
}
