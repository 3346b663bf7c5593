package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// TestPhoneWaitChecksOnABackoffThenGoesOn: a todo that waits for a message
// runs in the goal as CheckPhone activities on the phone's queue, on a
// growing backoff, with no Step (no model) until the message comes; the
// message's text is the todo's result, and the reply runs after it.
func TestPhoneWaitChecksOnABackoffThenGoesOn(t *testing.T) {
	send := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	f := &fakeWorld{phoneMetAt: 6, phoneValue: "Are you up?",
		scripts: map[string][]autoglm.Action{`Send "got it" to Alice Chen`: {send, finish("sent")}}}
	env := newEnv(t, f)
	var waiting Status
	stepsWhileWaiting := -1
	env.RegisterDelayedCallback(func() {
		waiting = status(t, env)
		f.mu.Lock()
		stepsWhileWaiting = len(f.steps)
		f.mu.Unlock()
	}, 2*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "When Alice Chen sends a message, reply 'got it'", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"Wait for a message from Alice Chen", `Send "got it" to Alice Chen`}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if waiting.Phase != GoalWaitingPhone || !strings.HasPrefix(waiting.WaitingFor, "waiting for a message from Alice Chen since ") {
		t.Fatalf("status while waiting: phase %s, waiting for %q", waiting.Phase, waiting.WaitingFor)
	}
	if stepsWhileWaiting != 0 {
		t.Fatalf("%d Steps ran while the goal waited for the phone, want none", stepsWhileWaiting)
	}
	if len(f.phoneChecks) != 6 || !f.phoneChecks[0].First || f.phoneChecks[1].After.IsZero() {
		t.Fatalf("checks %+v: want 6, the first the baseline, the next after it", f.phoneChecks)
	}
	for _, q := range f.queues[:6] {
		if q != DeviceTaskQueue("emu-1") {
			t.Fatalf("a check ran on %s, not the phone's queue", q)
		}
	}
	td := r.Todos[0]
	if td.Result != "Are you up?" || !td.Verified || !td.RanAsTimer() || td.Steps != 0 {
		t.Fatalf("wait todo %+v", td)
	}
	if r.Todos[1].Status != TodoDone {
		t.Fatalf("reply todo %+v", r.Todos[1])
	}
}

// TestPhoneWaitEndsAtTheDeadline: nothing arrives; past the answer
// deadline the goal ends failed, saying what did not come.
func TestPhoneWaitEndsAtTheDeadline(t *testing.T) {
	f := &fakeWorld{}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "wait for the SMS code", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"Wait for the SMS code"}, AnswerDeadline: time.Hour}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "a one-time code did not come within 1h0m0s") {
		t.Fatalf("result = %+v", r)
	}
	if n := len(f.phoneChecks); n < 10 || n > 20 {
		t.Fatalf("%d checks in an hour, want a backoff's 10 to 20", n)
	}
	if len(f.steps) != 0 {
		t.Fatalf("%d Steps ran", len(f.steps))
	}
}
