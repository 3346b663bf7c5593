package e2etest

import (
	"context"
	"encoding/json"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/workflows"
)

// simStack is the real device stack: the simulated phone served in-process,
// Debian's adb server on a free loopback port connected to it, and the
// project's device pool over our ADB client.
func simStack(t *testing.T) (*phonesim.Phone, *device.Pool, string) {
	t.Helper()
	adbPath, err := exec.LookPath("adb")
	if err != nil {
		msg := "adb is not installed (apt-get install adb); skipping the goal run against the simulator"
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			t.Fatal(msg + ", but PHONEFLOW_REQUIRE_ADB=1 requires it")
		}
		t.Skip(msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := ln.Addr().String()
	phone := phonesim.New(phonesim.Config{Serial: serial})
	served := make(chan struct{})
	go func() { defer close(served); _ = phone.Serve(ctx, ln) }()
	t.Cleanup(func() { cancel(); <-served })

	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(pl.Addr().(*net.TCPAddr).Port)
	pl.Close()
	home := t.TempDir() // adb keeps its key under $HOME/.android
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command(adbPath, append([]string{"-P", port}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "ANDROID_SDK_HOME="+home)
		return cmd.CombinedOutput()
	}
	if out, err := run("start-server"); err != nil {
		t.Fatalf("adb -P %s start-server: %v\n%s", port, err, out)
	}
	t.Cleanup(func() { _, _ = run("kill-server") })
	c := adb.New(adb.Config{Addr: "127.0.0.1:" + port})
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()
	if ok, err := device.ConnectAll(cctx, c, []string{serial}); err != nil || len(ok) != 1 {
		t.Fatalf("connecting the simulator at %s: %v", serial, err)
	}
	return phone, device.NewPool(c, device.PoolOptions{}), serial
}

// simEnv builds a workflow test environment whose activities are the real
// ones, wired to the simulator, the offline model server, and on-disk blob
// store and prompt memory.
func simEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *phonesim.Phone, string, *promptmem.Memory) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts an adb server and the simulator")
	}
	phone, pool, serial := simStack(t)
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	t.Cleanup(srv.Close)
	blobs, err := blob.NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mem, err := promptmem.Open(t.TempDir() + "/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	acts := &activities.Activities{
		Devices:  pool,
		Planner:  llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: modelserver.PlannerModel}),
		Executor: llm.New(llm.ExecutorDefaults(srv.URL+"/v1", "", modelserver.ExecutorModel)),
		Blobs:    blobs,
		Prompts:  mem,
	}
	acts.Exec.IncludeElements = true

	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	// A starved CPU stretches a workflow task past the SDK's 1 s deadlock
	// threshold with no deadlock: allow what a real one still exceeds.
	env.SetWorkerOptions(worker.Options{Interceptors: workflows.Interceptors(), DeadlockDetectionTimeout: 30 * time.Second})
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: "goal-sim"})
	env.SetTestTimeout(3 * time.Minute)
	env.RegisterWorkflow(workflows.GoalWorkflow)
	env.RegisterWorkflow(workflows.TodoWorkflow)
	env.RegisterActivity(acts)
	env.RegisterActivityWithOptions(acts.Notifier.Notify, activity.RegisterOptions{Name: activities.NameNotify})
	saved := workflows.DeviceLease
	workflows.DeviceLease = nil // no lease workflow in the test environment
	t.Cleanup(func() { workflows.DeviceLease = saved })
	return env, phone, serial, mem
}

// TestGoalOnSimulator runs a two-part goal through GoalWorkflow and
// TodoWorkflow with the real activities: the offline planner and executor
// over HTTP, the simulator behind a real adb server, the blob store and
// prompt memory on disk. It checks the phone's state, that the workflow
// payloads stayed small (no images), and reports the payload per step.
func TestGoalOnSimulator(t *testing.T) {
	env, phone, serial, mem := simEnv(t)
	// Payload bytes of every activity input and result, as history would
	// store them, and the number of executor steps (thinks).
	var mu sync.Mutex
	var payload, thinks, verifyCalls, activitiesRun, localRun int
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, args converter.EncodedValues) {
		var raw json.RawMessage
		mu.Lock()
		defer mu.Unlock()
		if info.IsLocalActivity {
			localRun++ // recorded as a marker; its payload counts too
		} else {
			activitiesRun++
		}
		if args.HasValues() && args.Get(&raw) == nil {
			payload += len(raw)
		}
	})
	env.SetOnActivityCompletedListener(func(info *activity.Info, result converter.EncodedValue, err error) {
		var raw json.RawMessage
		if result != nil && result.HasValue() && result.Get(&raw) == nil {
			mu.Lock()
			payload += len(raw)
			if info.ActivityType.Name == activities.NameStep && strings.Contains(string(raw), `"think":{`) {
				thinks++
				var sr activities.StepResult
				if json.Unmarshal(raw, &sr) == nil && sr.Verdict != nil {
					verifyCalls += sr.Verdict.Usage.Calls // verified in the Step
				}
			}
			if info.ActivityType.Name == activities.NameVerify {
				var vr activities.VerifyResult
				_ = json.Unmarshal(raw, &vr)
				verifyCalls += vr.Usage.Calls
			}
			if os.Getenv("E2E_TRACE") != "" {
				var sr activities.StepResult
				_ = json.Unmarshal(raw, &sr)
				if sr.Think != nil {
					t.Logf("%s: act=%+v app=%s hash=%s -> %s %s", info.WorkflowExecution.ID, sr.Act, sr.Screen.App, sr.Screen.Hash, sr.Think.Action, sr.Think.ParseError)
				}
			}
			mu.Unlock()
		}
	})

	env.ExecuteWorkflow(workflows.GoalWorkflow, workflows.GoalInput{
		Goal: "Turn on Bluetooth, create an alarm at 07:30 labelled Gym, and then send Alice a message saying hi", Device: serial,
		Options: workflows.GoalOptions{AutoApprove: true, OptimizePrompt: true},
	})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("goal failed: %v", err)
	}
	var r workflows.GoalResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	st := phone.State()
	stJSON, _ := json.Marshal(st.Toggles)
	if r.Status != workflows.GoalDone || !st.Toggles.Bluetooth || len(st.MessagesSent) != 1 ||
		st.MessagesSent[0].To != "Alice Chen" || st.MessagesSent[0].Text != "hi" ||
		!slices.Contains(st.Alarms, phonesim.Alarm{Time: "07:30", Label: "Gym", Enabled: true}) {
		t.Fatalf("result = %+v\ntoggles = %s sent = %+v alarms = %+v", r, stJSON, st.MessagesSent, st.Alarms)
	}
	// Prompt memory learned of every todo run.
	all, err := mem.All()
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, e := range all {
		runs += e.Runs
	}
	if runs != len(r.Todos) {
		t.Fatalf("prompt memory = %+v, want %d runs", all, len(r.Todos))
	}
	for _, td := range r.Todos {
		t.Logf("todo %d %s (%d steps): %s", td.Index, td.Status, td.Steps, td.Result)
	}
	t.Logf("goal done in %d steps: %s", r.Steps, r.Response)
	// Usage, summed by the workflows from what the model server reported
	// over HTTP: one executor call per think and per verifier call, and
	// the planner's calls.
	// A look todo (docs/design.md §9, A todo that only looks) is followed
	// by no replan: the goal ends on the done given before it.
	planned := 0
	for _, td := range r.Todos {
		if !td.Look {
			planned++
		}
	}
	if r.Usage.Executor.Calls != thinks+verifyCalls || r.Usage.Executor.InputTokens == 0 || r.Usage.Executor.OutputTokens == 0 ||
		r.Usage.Planner.Calls < 1+planned || r.Usage.Planner.InputTokens == 0 {
		t.Fatalf("usage = %+v, want %d executor calls (%d thinks, %d verifier calls) with tokens and a planner call per plan and replan", r.Usage, thinks+verifyCalls, thinks, verifyCalls)
	}
	t.Logf("usage: planner %s; executor %s", r.Usage.Planner, r.Usage.Executor)
	children := 0
	for _, td := range r.Todos {
		children += td.Attempts
	}
	// Events on a real server, estimated from what ran (see
	// workflows.estimateEvents): 6 per activity, 1 per local activity, 14
	// per child, 8 for the goal itself.
	// The test environment does not report local activities to the
	// listener: count one OptimizePrompt marker per todo run.
	localRun = max(localRun, children)
	events := activitiesRun*6 + localRun + children*14 + 8
	perStep := float64(payload) / float64(max(thinks, 1))
	t.Logf("%d activities + %d local, %d executor steps, ~%d events (%.1f per executor step), %d payload bytes in total, %.0f per executor step",
		activitiesRun, localRun, thinks, events, float64(events)/float64(max(thinks, 1)), payload, perStep)
	if perStep >= 4096 {
		t.Fatalf("%.0f payload bytes per executor step: over the 4 KB budget", perStep)
	}
}

func status(t *testing.T, env *testsuite.TestWorkflowEnvironment) workflows.Status {
	t.Helper()
	v, err := env.QueryWorkflow(workflows.QueryStatus)
	if err != nil {
		t.Fatalf("status query: %v", err)
	}
	var st workflows.Status
	if err := v.Get(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

func result(t *testing.T, env *testsuite.TestWorkflowEnvironment) workflows.GoalResult {
	t.Helper()
	var r workflows.GoalResult
	if err := env.GetWorkflowError(); err != nil {
		if workflows.FailedResult(err, &r) {
			return r
		}
		t.Fatalf("goal failed: %v", err)
	}
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTakeOverAndApprovalOnSimulator drives the executor into the two
// human gates: Take_over (the question surfaces on the goal, the clarify
// answer goes back to the todo) and a sensitive tap (nothing is tapped until
// the approve update).
func TestTakeOverAndApprovalOnSimulator(t *testing.T) {
	t.Run("take over", func(t *testing.T) {
		env, _, serial, _ := simEnv(t)
		var asked workflows.Status
		env.RegisterDelayedCallback(func() {
			asked = status(t, env)
			env.SignalWorkflow(workflows.SignalClarify, "I signed in myself")
		}, time.Hour)
		env.ExecuteWorkflow(workflows.GoalWorkflow, workflows.GoalInput{
			Goal: "Open the bank app", Device: serial, Options: workflows.GoalOptions{Mode: workflows.ModeSingle}})
		r := result(t, env)
		if asked.Phase != workflows.GoalWaitingUser || asked.PendingQuestion != "Please sign in to the bank app yourself" {
			t.Fatalf("status while taken over = %+v", asked)
		}
		if r.Status != workflows.GoalDone || r.Response != "The user took over the bank app" {
			t.Fatalf("result = %+v", r)
		}
	})
	t.Run("approval", func(t *testing.T) {
		// Nothing is tapped while the approval waits; approved, the Sign
		// in tap opens the bank's password form and the todo is verified
		// done on it.
		env, phone, serial, _ := simEnv(t)
		var asked workflows.Status
		var before int
		env.RegisterDelayedCallback(func() {
			asked = status(t, env)
			before = len(phone.State().InputLog)
			env.SignalWorkflow(workflows.SignalApprove, workflows.ApproveInput{Approved: true})
		}, time.Hour)
		env.ExecuteWorkflow(workflows.GoalWorkflow, workflows.GoalInput{
			Goal: "Tap Sign in in the bank app", Device: serial, Options: workflows.GoalOptions{Mode: workflows.ModeSingle}})
		r := result(t, env)
		if asked.PendingApproval == nil || !strings.Contains(asked.PendingApproval.Reason, "approval") ||
			!strings.Contains(asked.PendingApproval.Action, "Tap") {
			t.Fatalf("status while waiting = %+v", asked)
		}
		var taps []phonesim.InputEvent
		for _, ev := range phone.State().InputLog[before:] {
			if ev.Kind == "tap" {
				taps = append(taps, ev)
			}
		}
		if len(taps) != 1 || taps[0].Page != "sign_in" {
			t.Fatalf("after the approval the phone got taps %+v, want the one on Sign in", taps)
		}
		if st := phone.State(); st.Screen.App != "Bank" || st.Screen.Page != "password" {
			t.Fatalf("screen after the approved tap = %+v, want the Bank's password form", st.Screen)
		}
		if r.Status != workflows.GoalDone || len(r.Todos) != 1 || !r.Todos[0].Verified {
			t.Fatalf("result = %+v", r)
		}
	})
}
