package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func TestGoalWaitsForPhoneThatComesBack(t *testing.T) {
	f := &fakeWorld{deviceDown: 3, scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	var during Status
	// Failures at 0s, 2s, 6s (backoff 2s, 4s); the phone answers at 14s.
	env.RegisterDelayedCallback(func() { during = status(t, env) }, 5*time.Second)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone || r.Todos[0].Status != TodoDone {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(during.WaitingFor, "device emu-1: not answering") || during.PendingQuestion != "" {
		t.Fatalf("status while the phone was away = %+v, want waiting_for naming the phone", during)
	}
	if after := status(t, env); after.WaitingFor != "" {
		t.Fatalf("waiting_for after the phone came back = %q", after.WaitingFor)
	}
	// The failed tries do not count as steps: think, act, think, replan.
	if r.Steps != 4 {
		t.Fatalf("steps = %d, want 4", r.Steps)
	}
}

func TestGoalAsksUserAfterDeviceWaitDeadline(t *testing.T) {
	asked := askedPastDeviceWaitDeadline(t, func(f *fakeWorld, down int) { f.deviceDown = down }, "reconnected")
	if !strings.Contains(asked.PendingQuestion, "The phone emu-1 has not answered for") || asked.Phase != GoalWaitingUser {
		t.Fatalf("status past the deadline = %+v, want a question asking to reconnect the phone", asked)
	}
}

// askedPastDeviceWaitDeadline runs a goal whose phone is away (set turns
// the fault on with -1, off with 0) past a 1-minute device wait deadline,
// answers the question at 3 minutes with the fault gone, and returns the
// status as it was then; the goal must end done.
func askedPastDeviceWaitDeadline(t *testing.T, set func(f *fakeWorld, down int), reply string) Status {
	t.Helper()
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	set(f, -1)
	env := newEnv(t, f)
	var asked Status
	var answer *updateResult
	env.RegisterDelayedCallback(func() {
		asked = status(t, env)
		f.mu.Lock()
		set(f, 0)
		f.mu.Unlock()
		answer = update(env, SignalClarify, reply)
	}, 3*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "wifi", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"wifi"}, DeviceWaitDeadline: time.Minute}})
	if answer.Err() != nil {
		t.Fatalf("clarify: %v", answer.Err())
	}
	if r.Status != GoalDone || r.Todos[0].Result != "wifi on" {
		t.Fatalf("result = %+v", r)
	}
	return asked
}

func TestTodoAsksUserWhenOnlyAPersonCanFixIt(t *testing.T) {
	typeHi := autoglm.Action{Name: autoglm.ActionType, Text: "hi"}
	f := &fakeWorld{noIME: true, scripts: map[string][]autoglm.Action{"say hi": {typeHi, typeHi, finish("typed")}}}
	env := newEnv(t, f)
	var asked Status
	var answer *updateResult
	env.RegisterDelayedCallback(func() {
		asked = status(t, env)
		f.mu.Lock()
		f.noIME = false
		f.mu.Unlock()
		answer = update(env, SignalClarify, "installed it")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "say hi", Device: "emu-1", Options: GoalOptions{Plan: []string{"say hi"}}})
	if !strings.Contains(asked.PendingQuestion, "ADB Keyboard is not installed") {
		t.Fatalf("status = %+v, want the IME problem as a question", asked)
	}
	if answer.Err() != nil {
		t.Fatalf("clarify: %v", answer.Err())
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	var fed bool
	for _, s := range f.steps {
		if strings.Contains(s.In.PreviousResult, "answered: installed it") {
			fed = true
		}
	}
	if !fed {
		t.Fatal("the user's answer was not fed back to the executor")
	}
}
