package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// TestUncertainActionAsksTheUser: a Step whose action the journal could
// not judge (docs/design.md §19) makes the todo ask the user whether it
// happened, through the goal's question; the executor is told the answer
// and the action is not sent again.
func TestUncertainActionAsksTheUser(t *testing.T) {
	pay := tap(500, 900)
	f := &fakeWorld{
		scripts:   map[string][]autoglm.Action{"pay": {pay, finish("paid")}},
		uncertain: actionKey(pay),
	}
	env := newEnv(t, f)
	var asked Status
	env.RegisterDelayedCallback(func() {
		asked = status(t, env)
		mustUpdate(t, env, SignalClarify, "yes, it went through")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})

	if !strings.Contains(asked.PendingQuestion, "Did the phone take") || asked.Phase != GoalWaitingUser {
		t.Fatalf("status while asking = %+v", asked)
	}
	if acts := f.acts(); len(acts) != 0 {
		t.Fatalf("the uncertain action was sent again: %v", acts)
	}
	last := f.steps[len(f.steps)-1].In
	if last.Act != nil || !strings.Contains(last.PreviousResult, "the user was asked and answered: yes, it went through") {
		t.Fatalf("the executor was not told the answer: %+v", last)
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
}
