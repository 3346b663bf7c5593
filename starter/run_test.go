package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

// execCLI runs a fresh root with the given subcommands, as main does, with
// Temporal replaced by mc (nil: dialing fails the test). It returns stdout
// and the exit code.
func execCLI(t *testing.T, mc *mocks.Client, stdin string, cmds []*cobra.Command, args ...string) (string, int) {
	t.Helper()
	t.Chdir(t.TempDir()) // no phoneflow.yaml
	t.Setenv("HOME", t.TempDir())
	old := dialTemporal
	dialTemporal = func(context.Context, config.Config) (client.Client, error) {
		if mc == nil {
			t.Fatal("the command dialed Temporal; it should have failed before")
		}
		return mc, nil
	}
	t.Cleanup(func() { dialTemporal = old })
	if mc != nil {
		mc.On("Close").Return().Maybe()
		emptyFleet(mc)
	}
	root := &cobra.Command{Use: "starter", SilenceUsage: true, SilenceErrors: true}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(cmds...)
	wireUsage(root)
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := usageOf(root.ExecuteContext(context.Background()))
	if err != nil {
		if _, ok := err.(exitError); !ok {
			out.WriteString("error: " + err.Error() + "\n")
		}
	}
	return out.String(), exitCode(err)
}

func value(t *testing.T, v any) converter.EncodedValue {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(v)
	if err != nil {
		t.Fatal(err)
	}
	return client.NewValue(p)
}

func TestRunArgumentErrors(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.txt")
	if err := os.WriteFile(plan, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run"},
		{"run", "  "},
		{"run", "--no-such-flag", "goal"},
		{"run", "--max-steps", "many", "goal"},
	} {
		out, code := execCLI(t, nil, "", []*cobra.Command{newRunCmd()}, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
	mc := mocks.NewClient(t)
	out, code := execCLI(t, mc, "", []*cobra.Command{newRunCmd()}, "run", "--plan", plan, "--single", "--device", "d", "goal")
	if code != exitUsage || !strings.Contains(out, "exclude each other") {
		t.Errorf("--plan with --single: exit %d\n%s", code, out)
	}
}

func TestRunDetachStartsGoal(t *testing.T) {
	mc := mocks.NewClient(t)
	run := mocks.NewWorkflowRun(t)
	run.On("GetID").Return("goal-t1").Maybe()
	run.On("GetRunID").Return("r1")
	var in workflows.GoalInput
	var opts client.StartWorkflowOptions
	served(mc, "emu1")
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, "GoalWorkflow", mock.Anything).Run(func(a mock.Arguments) {
		opts = a.Get(1).(client.StartWorkflowOptions)
		in = a.Get(3).(workflows.GoalInput)
	}).Return(run, nil)
	// The worker that runs the goal names its viewer, wherever it is.
	mc.On("QueryWorkflow", mock.Anything, "goal-t1", "", workflows.QueryStatus).Return(value(t, workflows.Status{Phase: "running", ViewerURL: "http://10.0.0.9:9500/goals/goal-t1"}), nil)
	out, code := execCLI(t, mc, "", []*cobra.Command{newRunCmd()}, "run", "--detach", "--id", "goal-t1", "--device", "emu1", "--max-steps", "12", "--auto-approve", "Turn", "on", "Wi-Fi")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{"started goal-t1 on emu1", "Web UI: http://127.0.0.1:8233/namespaces/default/workflows/goal-t1", "Step viewer: http://10.0.0.9:9500/goals/goal-t1\n", "starter status -f goal-t1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if opts.ID != "goal-t1" || in.Goal != "Turn on Wi-Fi" || in.Device != "emu1" || in.Options.MaxSteps != 12 || !in.Options.AutoApprove || in.Options.Mode != workflows.ModeLayered || !in.Options.Resolved {
		t.Errorf("started with %+v / %+v", opts, in)
	}
}

// TestRunFollowsPlain follows a goal that asks a question with stdin not a
// terminal: the view prints plain lines, the answer commands are shown, and
// a failed result is exit 1.
func TestRunFollowsPlain(t *testing.T) {
	mc := mocks.NewClient(t)
	run := mocks.NewWorkflowRun(t)
	run.On("GetID").Return("goal-t2").Maybe()
	run.On("GetRunID").Return("r1")
	served(mc, "emu1")
	mc.On("ExecuteWorkflow", mock.Anything, mock.Anything, "GoalWorkflow", mock.Anything).Return(run, nil)
	release := make(chan struct{})
	polls := 0
	mc.On("QueryWorkflow", mock.Anything, "goal-t2", "", workflows.QueryStatus).Return(
		func(context.Context, string, string, string, ...any) (converter.EncodedValue, error) {
			polls++
			if polls == 3 {
				close(release)
			}
			return value(t, workflows.Status{Phase: workflows.GoalWaitingUser, Steps: 4, MaxSteps: 100, PendingQuestion: "Which Alice?"}), nil
		})
	mc.On("QueryWorkflow", mock.Anything, "goal-t2", "", workflows.QueryTodos).Return(
		value(t, []workflows.TodoState{{Index: 1, Text: "Open Messages", Status: "done", Steps: 4}}), nil)
	res := mocks.NewWorkflowRun(t)
	res.On("Get", mock.Anything, mock.Anything).Run(func(a mock.Arguments) {
		<-release
		*a.Get(1).(*workflows.GoalResult) = workflows.GoalResult{Status: workflows.GoalFailed, Steps: 4,
			Todos:  []workflows.TodoState{{Index: 1, Text: "Open Messages", Status: "done", Steps: 4}},
			Reason: "no answer", NextStep: "run it again and answer the question"}
	}).Return(nil)
	mc.On("GetWorkflow", mock.Anything, "goal-t2", "").Return(res)
	out, code := execCLI(t, mc, "", []*cobra.Command{newRunCmd()}, "run", "--id", "goal-t2", "--device", "emu1", "--ui", "ui.example:80", "Send the alarm to Alice")
	if code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{
		"Web UI: http://ui.example:80/namespaces/default/workflows/goal-t2",
		"[goal-t2] phase waiting_user",
		"[goal-t2] question: Which Alice?",
		`starter clarify goal-t2 "<your answer>"`,
		`temporal workflow signal -w goal-t2 --name clarify --input '"<your answer>"'`,
		"goal-t2 failed after 4 steps",
		"reason: no answer",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "question: Which Alice?") != 1 {
		t.Errorf("the question was printed more than once:\n%s", out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Errorf("plain output has escape sequences")
	}
}

// served makes serial's task queue report a worker.
func served(mc *mocks.Client, serial string) {
	mc.On("DescribeTaskQueue", mock.Anything, workflows.DeviceTaskQueue(serial), enumspb.TASK_QUEUE_TYPE_WORKFLOW).
		Return(&workflowservice.DescribeTaskQueueResponse{Pollers: []*taskqueuepb.PollerInfo{{Identity: "worker"}}}, nil)
}

func TestRunRefusesUnservedDevice(t *testing.T) {
	mc := mocks.NewClient(t)
	mc.On("DescribeTaskQueue", mock.Anything, workflows.DeviceTaskQueue("bogus"), enumspb.TASK_QUEUE_TYPE_WORKFLOW).
		Return(&workflowservice.DescribeTaskQueueResponse{}, nil)
	out, code := execCLI(t, mc, "", []*cobra.Command{newRunCmd()}, "run", "--device", "bogus", "Turn on Wi-Fi")
	if code != exitNotFound || !strings.Contains(out, "no worker serves device bogus") || !strings.Contains(out, "starter devices") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestRunPicksTheOnlyDevice(t *testing.T) {
	old := listDevices
	t.Cleanup(func() { listDevices = old })
	devs := []adb.DeviceInfo{{Serial: "a", State: "device"}, {Serial: "b", State: "unauthorized"}}
	listDevices = func(context.Context, config.Config) ([]adb.DeviceInfo, error) { return devs, nil }
	cfg := config.Default()
	if s, err := pickDevice(context.Background(), cfg); err != nil || s != "a" {
		t.Fatalf("pickDevice = %q, %v", s, err)
	}
	devs = append(devs, adb.DeviceInfo{Serial: "c", State: "device"})
	if s, err := pickDevice(context.Background(), cfg); err != nil || s != "" {
		t.Fatalf("two phones: %q, %v; want none, for the planner to choose", s, err)
	}
	cfg.ADB.Allow = []string{"c"}
	if s, _ := pickDevice(context.Background(), cfg); s != "c" {
		t.Fatalf("allow list ignored: %q", s)
	}
	listDevices = func(context.Context, config.Config) ([]adb.DeviceInfo, error) { return nil, adb.ErrServerNotRunning }
	if _, err := pickDevice(context.Background(), cfg); !errors.Is(err, adb.ErrServerNotRunning) {
		t.Fatalf("adb down: %v", err)
	}
}

func TestGoalOptionsFromFlags(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.txt")
	if err := os.WriteFile(plan, []byte("1. Open Clock\n2. Read the first alarm\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Limits.UITree = false
	o, err := goalOptions(runFlags{plan: plan, taskType: "alarm"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(o.Plan, "|") != "Open Clock|Read the first alarm" || o.TaskType != "alarm" || o.MaxSteps != 100 || o.UseUITree() {
		t.Fatalf("options = %+v", o)
	}
	// Prompt memory learns from every todo by default, and can be turned off.
	if !o.OptimizePrompt {
		t.Fatal("prompt memory is off by default")
	}
	cfg.PromptMemory = false
	if o, _ := goalOptions(runFlags{}, cfg); o.OptimizePrompt {
		t.Fatal("prompt_memory: false left prompt memory on")
	}
	if o, _ := goalOptions(runFlags{single: true}, cfg); o.Mode != workflows.ModeSingle {
		t.Fatalf("--single mode = %q", o.Mode)
	}
	if _, err := goalOptions(runFlags{plan: plan + ".missing"}, cfg); err == nil {
		t.Fatal("missing plan file accepted")
	}
}

func TestUIAddress(t *testing.T) {
	cfg := config.Default()
	cfg.Temporal.Embedded.UIPort = 8233
	if got := uiAddress(cfg, ""); got != "127.0.0.1:8233" {
		t.Errorf("embedded UI = %s", got)
	}
	cfg.Temporal.Address = "temporal.lan:7233"
	if got := uiAddress(cfg, ""); got != "temporal.lan:8233" {
		t.Errorf("external UI = %s", got)
	}
	if got := uiAddress(cfg, "https://ui.example"); got != "https://ui.example" {
		t.Errorf("--ui = %s", got)
	}
	if got := temporalAddress(config.Default()); got != "127.0.0.1:7233" {
		t.Errorf("embedded address = %s", got)
	}
}

// A goal followed with --json still says, on stderr, what it waits for.
func TestPrintWaitingNamesTheAnswer(t *testing.T) {
	var b bytes.Buffer
	printWaiting(&b, progress.Snapshot{GoalID: "goal-j1", Question: "Which alarm?"}, progress.Conn{})
	printWaiting(&b, progress.Snapshot{GoalID: "goal-j1", Approval: "Send to Bob Li"}, progress.Conn{})
	for _, want := range []string{
		"? Which alarm?",
		`starter clarify goal-j1 "<your answer>"`,
		"? approve Send to Bob Li",
		"starter approve goal-j1",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}

// emptyFleet makes mc's fleet, which a goal on a named phone reads its
// labels from, hold no phone.
func emptyFleet(mc *mocks.Client) {
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return strings.Contains(r.GetQuery(), fleet.RecordWorkflowType)
	})).Return(&workflowservice.ListWorkflowExecutionsResponse{}, nil).Maybe()
}
