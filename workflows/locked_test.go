package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// TestLockedPhoneAsksThenRunsTheSameStep: a Step that cannot pass the
// lock screen sends nothing; the todo asks the person to unlock the
// phone, then runs the same step again, and the tap lands once.
func TestLockedPhoneAsksThenRunsTheSameStep(t *testing.T) {
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"turn on wifi": {tap, finish("wifi on")}}}
	const q = "The phone is locked and phoneflow cannot unlock it: phone emu-1 is locked with a pattern. Answer when it is unlocked."
	env := newEnv(t, f)
	var asked Status
	var answer *updateResult
	thinks := 0
	f.whileThinking = func(activities.StepInput) {
		f.mu.Lock()
		defer f.mu.Unlock()
		if thinks++; thinks == 2 {
			f.locked = q // the screen timed out after the tap was decided
		}
	}
	env.RegisterDelayedCallback(func() {
		asked = status(t, env)
		f.mu.Lock()
		f.locked = ""
		f.mu.Unlock()
		answer = update(env, SignalClarify, "unlocked it")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "turn on wifi", Device: "emu-1", Options: GoalOptions{Plan: []string{"turn on wifi"}}})
	if asked.PendingQuestion != q || asked.QuestionKind != QuestionTakeOver {
		t.Fatalf("pending question %q, want the lock's", asked.PendingQuestion)
	}
	if answer.Err() != nil {
		t.Fatalf("clarify: %v", answer.Err())
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	acts := 0
	for _, l := range f.log {
		if strings.HasPrefix(l, "act Tap") {
			acts++
		}
	}
	if acts != 1 {
		t.Fatalf("the tap reached the phone %d times, want once: %v", acts, f.log)
	}
}

// A lock question nobody answers ends the todo unanswered and the goal
// with it, without a replan: the goal says what went unanswered, so a
// fan-out counts its phone as asked (ChangeFanOutAsked).
func TestUnansweredLockQuestionEndsTheGoalAsked(t *testing.T) {
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"turn on wifi": {tap, finish("wifi on")}}}
	const q = "The phone is locked and phoneflow cannot unlock it: phone emu-1 is locked with a PIN or password and no unlock PIN is configured. Answer when it is unlocked."
	f.locked = q
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "turn on wifi", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"turn on wifi"}, AnswerDeadline: 20 * time.Second}})
	if r.Status != GoalFailed || r.Unanswered != q || !strings.Contains(r.Reason, "no answer within 20s to the question: The phone is locked") {
		t.Fatalf("result = %+v", r)
	}
	if !Unanswered(r) {
		t.Fatalf("Unanswered(%+v) = false", r)
	}
	if len(f.replanInputs) != 0 {
		t.Fatalf("replanned %d times after the unanswered question", len(f.replanInputs))
	}
	if o := phoneOutcome(PhoneOutcome{Serial: "emu-1"}, nil, r); o.Status != PhoneAsked {
		t.Fatalf("phone outcome = %+v, want asked", o)
	}
}
