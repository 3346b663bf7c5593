package routines

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestGoalsStartedWithoutPhoneflow starts goals the way the Temporal CLI
// (`temporal workflow start --type GoalWorkflow --input '{…}'`, a JSON
// payload with only the goal and the phone) and a Temporal Schedule made
// by hand do: the worker fills every option the input leaves out from its
// config, so the goals learn and replay routines and feed prompt memory
// as `starter run`'s do, and a duration written "30m" is read
// (docs/design.md §2).
func TestGoalsStartedWithoutPhoneflow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	s := startStack(ctx, t, t.TempDir(), 0)
	if !s.Config.Routines || !s.Config.PromptMemory {
		t.Fatal("the stack's worker config must have routines and prompt memory on for this test")
	}
	input := func(goal string) json.RawMessage {
		return json.RawMessage(goalInput(goal, s.Serials[0]))
	}
	startRaw := func(id, goal string) {
		t.Helper()
		s.Phones[0].Reset()
		if _, err := s.Client.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: id, TaskQueue: workflows.TaskQueue},
			goalctl.GoalWorkflowName, input(goal)); err != nil {
			t.Fatal(err)
		}
	}

	startRaw("cli-first", `Send Alice a message saying "see you at 7"`)
	first := goalResult(ctx, t, s, "cli-first")
	checkOne(t, s, first, "cli-first", "Alice Chen", "see you at 7")
	checkHistory(ctx, t, s, "cli-first")

	startRaw("cli-second", `Send Bob a message saying "running late"`)
	second := goalResult(ctx, t, s, "cli-second")
	checkOne(t, s, second, "cli-second", "Bob Li", "running late")
	if second.Usage.ReplayedSteps == 0 {
		t.Errorf("the second CLI goal replayed no routine step (executor calls %d, first %d)", second.Usage.Executor.Calls, first.Usage.Executor.Calls)
	}

	// A schedule made with the Temporal API alone, not `starter schedule`.
	s.Phones[0].Reset()
	h, err := s.Client.ScheduleClient().Create(ctx, client.ScheduleOptions{
		ID:                 "hand-made",
		Spec:               client.ScheduleSpec{Intervals: []client.ScheduleIntervalSpec{{Every: time.Hour}}},
		TriggerImmediately: true,
		Action: &client.ScheduleWorkflowAction{ID: "hand-made-goal", Workflow: goalctl.GoalWorkflowName,
			TaskQueue: workflows.TaskQueue, Args: []any{input(`Send Mom a message saying "landed"`)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = h.Delete(context.Background()) }()
	runID := scheduledGoal(ctx, t, h)
	third := goalResult(ctx, t, s, runID)
	checkOne(t, s, third, runID, "Mom", "landed")
	if third.Usage.ReplayedSteps == 0 {
		t.Errorf("the scheduled goal replayed no routine step")
	}
	checkHistory(ctx, t, s, runID)
}

// goalInput is a goal's JSON input as a person writes it for the Temporal
// CLI or a hand-made schedule: the goal, the phone and a duration as text.
func goalInput(goal, serial string) string {
	b, _ := json.Marshal(goal)
	return fmt.Sprintf(`{"goal":%s,"device":%q,"options":{"answer_deadline":"30m"}}`, b, serial)
}

// goalResult waits for goal id to end and returns its result.
func goalResult(ctx context.Context, t *testing.T, s *localstack.Stack, id string) workflows.GoalResult {
	t.Helper()
	for {
		res, err := s.Goals.Result(ctx, id)
		if err == nil {
			return res
		}
		if ctx.Err() != nil {
			t.Fatalf("goal %s did not end: %v", id, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// scheduledGoal waits for the schedule's first action and returns the
// workflow ID of the goal it started.
func scheduledGoal(ctx context.Context, t *testing.T, h client.ScheduleHandle) string {
	t.Helper()
	for {
		d, err := h.Describe(ctx)
		if err == nil && len(d.Info.RecentActions) > 0 {
			return d.Info.RecentActions[0].StartWorkflowResult.WorkflowID
		}
		if ctx.Err() != nil {
			t.Fatalf("the schedule started no goal: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// checkOne checks a goal ended done with one message sent.
func checkOne(t *testing.T, s *localstack.Stack, r workflows.GoalResult, id, to, text string) {
	t.Helper()
	sent := s.Phones[0].State().MessagesSent
	if r.Status != workflows.GoalDone {
		t.Fatalf("%s ended %s: %s %s", id, r.Status, r.Reason, r.Response)
	}
	if len(sent) != 1 || sent[0].To != to || sent[0].Text != text {
		t.Fatalf("%s sent %+v, want exactly one %q to %s", id, sent, text, to)
	}
}

// checkHistory reads the goal's history and its todo's: the worker's
// defaults are recorded once in the goal's, with routines and prompt memory
// on, and the todo fed prompt memory.
func checkHistory(ctx context.Context, t *testing.T, s *localstack.Stack, id string) {
	t.Helper()
	var defaults []string
	optimized := 0
	for _, wid := range []string{id, id + "/todo-1"} {
		it := s.Client.GetWorkflowHistory(ctx, wid, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatal(err)
			}
			if m := ev.GetMarkerRecordedEventAttributes(); m != nil {
				for _, p := range m.GetDetails()["data"].GetPayloads() {
					if m.GetMarkerName() == "SideEffect" && strings.Contains(string(p.GetData()), `"todo_max_steps"`) {
						defaults = append(defaults, string(p.GetData()))
					}
				}
				// A local activity's marker names its activity type.
				for _, p := range m.GetDetails()["data"].GetPayloads() {
					if m.GetMarkerName() == "LocalActivity" && strings.Contains(string(p.GetData()), activities.NameOptimizePrompt) {
						optimized++
					}
				}
			}
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameOptimizePrompt {
				optimized++
			}
			if st := ev.GetWorkflowExecutionStartedEventAttributes(); st != nil && wid == id {
				if in := string(st.GetInput().GetPayloads()[0].GetData()); strings.Contains(in, "resolved") {
					t.Errorf("%s: the start's input already says resolved: %s", id, in)
				}
			}
		}
	}
	if len(defaults) != 1 || !strings.Contains(defaults[0], `"routines":true`) || !strings.Contains(defaults[0], `"optimize_prompt":true`) {
		t.Errorf("%s: worker defaults recorded %q, want one side effect with routines and prompt memory on", id, defaults)
	}
	if optimized == 0 {
		t.Errorf("%s: its todo never ran %s", id, activities.NameOptimizePrompt)
	}
}
