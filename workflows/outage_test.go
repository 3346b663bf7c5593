package workflows

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestGoalWaitsOutPlannerOutage(t *testing.T) {
	f := &fakeWorld{plannerDown: 6, scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	var during Status
	// Failed tries at 0s, 5s, 15s, 35s, 1m15s, 2m15s; the planner answers at 3m15s.
	env.RegisterDelayedCallback(func() { during = status(t, env) }, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if during.Phase != GoalWaitingModel || !strings.Contains(during.WaitingFor, "waiting for the planner model at http://127.0.0.1:9/v1/chat/completions since ") ||
		!strings.Contains(during.WaitingFor, "last error: connection refused") {
		t.Fatalf("status during the outage = %+v", during)
	}
	if after := status(t, env); after.WaitingFor != "" {
		t.Fatalf("waiting_for after the outage = %q", after.WaitingFor)
	}
	// The outage costs one replan step, not one per try.
	if r.Steps != 4 {
		t.Fatalf("steps = %d, want 4 (think, act, think, replan)", r.Steps)
	}
}

// A planner that keeps failing while the goal is first planned shows in
// status as an outage (waiting_model, which model and since when), not as
// a goal quietly planning, and the goal goes on once it answers.
func TestGoalWaitsOutPlannerOutageWhilePlanning(t *testing.T) {
	f := &fakeWorld{planDown: 6, plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"wifi"}}},
		scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	var during Status
	env.RegisterDelayedCallback(func() { during = status(t, env) }, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1"})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if during.Phase != GoalWaitingModel || !strings.Contains(during.WaitingFor, "waiting for the planner model at ") {
		t.Fatalf("status while the planner is down during planning = %+v", during)
	}
}

func TestTodoWaitsOutExecutorOutageWithoutActingTwice(t *testing.T) {
	// The think after the tap fails: the tap reached the phone.
	f := &fakeWorld{executorDownOnAct: 4, scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	var during Status
	env.RegisterDelayedCallback(func() { during = status(t, env) }, 30*time.Second)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone || r.Todos[0].Result != "wifi on" {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(during.WaitingFor, "waiting for the executor model at ") || during.Phase != GoalWaitingModel {
		t.Fatalf("status during the outage = %+v", during)
	}
	if acts := f.acts(); len(acts) != 1 {
		t.Fatalf("the phone received %q, want the tap once", acts)
	}
	// The think after the outage was told about the tap.
	f.mu.Lock()
	defer f.mu.Unlock()
	last := f.steps[len(f.steps)-1].In
	if last.Act != nil || !strings.Contains(last.PreviousAction, "Tap") || last.PreviousResult != "ok" {
		t.Fatalf("last step input = %+v, want a think told of the applied tap", last)
	}
}

func TestGoalFailsAfterModelOutageWait(t *testing.T) {
	f := &fakeWorld{plannerDown: 1 << 30, scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"wifi"}, ModelOutageWait: 10 * time.Minute}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "the planner model at http://127.0.0.1:9/v1/chat/completions did not answer for") ||
		!strings.Contains(r.Reason, "limits.model_outage_wait") {
		t.Fatalf("result = %+v", r)
	}
}

func TestInjectTheFinishingTodoDidNotUseGoesToTheNextTodo(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"wifi": {tap(500, 212), finish("wifi on")},
		"bt":   {finish("bt on")},
	}, replans: []activities.PlanDecision{{Status: activities.PlanReplanned, Plan: []string{"bt"}}}}
	env := newEnv(t, f)
	sent := false
	// The inject arrives while the think that finishes the first todo runs.
	f.whileThinking = func(in activities.StepInput) {
		if in.Task == "wifi" && in.Act != nil && !sent {
			sent = true
			env.SignalWorkflow(SignalInject, "keep the screen on")
			time.Sleep(200 * time.Millisecond)
		}
	}
	r := runGoal(t, env, GoalInput{Goal: "wifi then bt", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi", "bt"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.steps {
		if s.In.Task == "bt" && s.In.Think {
			if !slices.Contains(s.In.Notes, "keep the screen on") {
				t.Fatalf("the second todo's think had notes %q, want the inject the first todo never used", s.In.Notes)
			}
			return
		}
	}
	t.Fatal("the second todo never thought")
}

// TestTodoWaitsOutVerifierOutage: the verifier does not answer for minutes
// after the todo's message went out. The todo waits for it as a step waits
// for the executor, saying so, and ends done: a verification that could
// not run is not a failed todo that makes the replanner send the message
// again.
func TestTodoWaitsOutVerifierOutage(t *testing.T) {
	f := &fakeWorld{verifierDown: 8, scripts: map[string][]autoglm.Action{"send": {tap(500, 212), finish("message sent")}}}
	env := newEnv(t, f)
	var during Status
	env.RegisterDelayedCallback(func() { during = status(t, env) }, 90*time.Second)
	r := runGoal(t, env, GoalInput{Goal: "send", Device: "emu-1", Options: GoalOptions{Plan: []string{"send"}}})
	if r.Status != GoalDone || r.Todos[0].Status != TodoDone {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(during.WaitingFor, "waiting for the verifier model at ") || during.Phase != GoalWaitingModel {
		t.Fatalf("status during the outage = %+v", during)
	}
	if acts := f.acts(); len(acts) != 1 {
		t.Fatalf("the phone received %q, want the tap once", acts)
	}
}

// TestUnverifiableFinishIsAskedNotFailed: past the outage wait, a finish
// the verifier never judged is asked about; the person's yes makes the
// todo done, and nothing is sent again.
func TestUnverifiableFinishIsAskedNotFailed(t *testing.T) {
	f := &fakeWorld{verifierDown: 1 << 30, scripts: map[string][]autoglm.Action{"send": {tap(500, 212), finish("message sent")}}}
	env := newEnv(t, f)
	var asked Status
	env.RegisterDelayedCallback(func() {
		asked = status(t, env)
		mustUpdate(t, env, SignalClarify, "yes, it went out")
	}, 20*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "send", Device: "emu-1", Options: GoalOptions{Plan: []string{"send"}, ModelOutageWait: 10 * time.Minute}})
	if !strings.Contains(asked.PendingQuestion, "could not verify") || asked.Phase != GoalWaitingUser || asked.QuestionKind != QuestionClarify {
		t.Fatalf("status while asking = %+v", asked)
	}
	if r.Status != GoalDone || r.Todos[0].Status != TodoDone || !strings.Contains(r.Todos[0].Evidence, "the person answered: yes") {
		t.Fatalf("result = %+v", r)
	}
	if acts := f.acts(); len(acts) != 1 {
		t.Fatalf("the phone received %q, want the tap once", acts)
	}
}
