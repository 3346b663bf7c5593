package workflows

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// The todo's status query says what it last did, what it thinks and what
// it will do next; once it ends, its phase and details say so instead of a
// next action.
func TestTodoStatusShowsLastActionAndThinking(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": {tap(1, 1), sensitiveTap(5, 5, "buy"), finish("bought")}}}
	env := newEnv(t, f)
	var mid Status
	env.RegisterDelayedCallback(func() {
		mid = status(t, env)
		env.SignalWorkflow(SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1", GoalID: "goal-x"})
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if mid.LastAction != actionKey(tap(1, 1)) || mid.LastResult != "ok" || mid.Thinking != "ok" ||
		mid.NextAction != actionKey(sensitiveTap(5, 5, "buy")) {
		t.Fatalf("status while waiting for approval = %+v", mid)
	}
	if len(mid.Feedback) != 1 || !strings.Contains(mid.Feedback[0], actionKey(tap(1, 1))+" → ok") {
		t.Fatalf("feedback = %q, want the last action and its result", mid.Feedback)
	}
	if mid.Steps != 3 || mid.TodoSteps != 3 {
		t.Fatalf("steps = %d/%d, want 3 (think, tap, think)", mid.Steps, mid.TodoSteps)
	}
}

func TestTodoDetailsEndWithOutcome(t *testing.T) {
	tr := &todoRun{in: TodoInput{Index: 2, MaxSteps: 30, StepBudget: 90}}
	tr.st.Steps = 1
	tr.st.NextText = `finish(message="done")`
	tr.thinking = "all set"
	res := TodoResult{Status: TodoDone, Result: "done"}
	tr.ended = &res
	s := tr.status()
	if s.Phase != TodoDone || s.NextAction != "" {
		t.Fatalf("ended status = %+v", s)
	}
}

// Step summaries number steps the way the budget counts them.
func TestStepSummaryNumbersBudgetSteps(t *testing.T) {
	tr := &todoRun{in: TodoInput{Index: 2}}
	tr.st.Screen = activities.Observation{Width: 1080, Height: 2400}
	if got := tr.stepSummary(nil, true); got != "todo 2 · step 1 Think" {
		t.Fatalf("first summary = %q", got)
	}
	tr.st.Steps = 5 // the tap was counted before the step runs
	a := tap(500, 500)
	if got := tr.stepSummary(&a, true); got != "todo 2 · step 5 Tap (540,1200) · step 6 Think" {
		t.Fatalf("act+think summary = %q", got)
	}
	if got := tr.stepSummary(&a, false); got != "todo 2 · step 5 Tap (540,1200)" {
		t.Fatalf("act-only summary = %q", got)
	}
}

func TestTodosQueryEmptyBeforePlanning(t *testing.T) {
	b, err := json.Marshal((&goalRun{}).todos())
	if err != nil || string(b) != "[]" {
		t.Fatalf("todos before planning = %s (%v), want []", b, err)
	}
}

func TestDurationsReadableInInputs(t *testing.T) {
	b, err := json.Marshal(GoalInput{Goal: "g", Options: GoalOptions{DeviceWaitDeadline: 2 * time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"device_wait_deadline":"2m0s"`) {
		t.Fatalf("goal input = %s", b)
	}
	b, _ = json.Marshal(TodoInput{DeviceWaitDeadline: 90 * time.Second})
	if !strings.Contains(string(b), `"device_wait_deadline":"1m30s"`) {
		t.Fatalf("todo input = %s", b)
	}
	if b, _ = json.Marshal(GoalOptions{}); strings.Contains(string(b), "device_wait") {
		t.Fatalf("zero deadline written: %s", b)
	}
	// Inputs recorded as nanoseconds still read.
	for _, in := range []string{`{"device_wait_deadline":120000000000}`, `{"device_wait_deadline":"2m"}`} {
		var o GoalOptions
		if err := json.Unmarshal([]byte(in), &o); err != nil || o.DeviceWaitDeadline != 2*time.Minute {
			t.Fatalf("%s → %v (%v)", in, o.DeviceWaitDeadline, err)
		}
		var ti TodoInput
		if err := json.Unmarshal([]byte(in), &ti); err != nil || ti.DeviceWaitDeadline != 2*time.Minute {
			t.Fatalf("todo %s → %v (%v)", in, ti.DeviceWaitDeadline, err)
		}
	}
	var o GoalOptions
	if err := json.Unmarshal([]byte(`{"device_wait_deadline":"soon"}`), &o); err == nil || !strings.Contains(err.Error(), "device_wait_deadline") {
		t.Fatalf("bad duration error = %v", err)
	}
	if err := json.Unmarshal([]byte(`{"max_steps":7,"plan":["a"]}`), &o); err != nil || o.MaxSteps != 7 || len(o.Plan) != 1 {
		t.Fatalf("other fields = %+v (%v)", o, err)
	}
}

func TestDeviceUnavailableNamesTheCause(t *testing.T) {
	notServed := temporal.NewNonRetryableApplicationError(`no worker serves device "emu-9": check the serial`, activities.ErrTypeDeviceNotServed, nil)
	r := deviceUnavailable("emu-9", errors.Join(errors.New("acquire device emu-9"), notServed))
	if !strings.HasPrefix(r.Reason, "no worker serves device") || strings.Contains(r.NextStep, "device_wait") ||
		!strings.Contains(r.NextStep, "worker") {
		t.Fatalf("not served → %+v", r)
	}
	r = deviceUnavailable("emu-1", &DeviceBusyError{Serial: "emu-1", Holder: "goal-a"})
	if !strings.Contains(r.NextStep, "goal-a") || !strings.Contains(r.NextStep, `device_wait="wait"`) {
		t.Fatalf("busy → %+v", r)
	}
}

func TestPlural(t *testing.T) {
	if plural(1, "step") != "1 step" || plural(0, "step") != "0 steps" || plural(11, "step") != "11 steps" {
		t.Fatal(plural(1, "step"), plural(0, "step"))
	}
}
