package main

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/mocks"
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

func TestScheduleCreateAndManage(t *testing.T) {
	mc := mocks.NewClient(t)
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
		"schedule describe morning":             "runs:     2",
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
