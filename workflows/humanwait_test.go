package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// kinds lists the notifications the goal sent, in order.
func (f *fakeWorld) kinds() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var k []string
	for _, n := range f.notified {
		k = append(k, n.Kind)
	}
	return k
}

func TestUnansweredTodoQuestionFailsTheGoal(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"login": {takeOver("please log in"), finish("logged in")}}}
	env := newEnv(t, f)
	var waiting Status
	env.RegisterDelayedCallback(func() { waiting = status(t, env) }, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "log in", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"login"}, AnswerDeadline: 2 * time.Hour}})

	if r.Status != GoalFailed || !strings.Contains(r.Reason, "no answer within 2h0m0s to the question: please log in") {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(r.NextStep, "limits.answer_deadline") {
		t.Fatalf("next step = %q", r.NextStep)
	}
	if waiting.PendingQuestion != "please log in" || waiting.AnswerBy.IsZero() {
		t.Fatalf("status while waiting = %+v", waiting)
	}
	// No replan after an unanswered question: a person was needed.
	if len(f.replanInputs) != 0 {
		t.Fatalf("replanned %d times", len(f.replanInputs))
	}
	if got := strings.Join(f.kinds(), ","); got != "question,failed" {
		t.Fatalf("notifications = %s", got)
	}
	q := f.notified[0]
	if q.GoalID != testGoalID || q.Device != "emu-1" || q.Text != "please log in" || q.Todo != 1 || q.Deadline.IsZero() {
		t.Fatalf("question notification = %+v", q)
	}
	if fl := f.notified[1]; !strings.Contains(fl.Text, "please log in") {
		t.Fatalf("failure notification = %+v", fl)
	}
}

func TestDefaultAnswerTakesAnUnansweredQuestion(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"login": {takeOver("please log in"), finish("logged in")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "log in", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"login"}, AnswerDeadline: time.Hour, DefaultAnswer: "skip it"}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	last := f.steps[len(f.steps)-1].In
	if !strings.Contains(last.PreviousResult, "user answered: skip it (nobody answered within 1h0m0s") {
		t.Fatalf("default answer not fed back: %q", last.PreviousResult)
	}
}

func TestUnapprovedActionIsNeverRun(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay 20 yuan"), finish("paid")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"pay"}, AnswerDeadline: 30 * time.Minute, DefaultAnswer: "yes"}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "no answer within 30m0s to the approval") {
		t.Fatalf("result = %+v", r)
	}
	if acts := f.acts(); len(acts) != 0 {
		t.Fatalf("an unapproved action reached the phone: %v", acts)
	}
	if got := strings.Join(f.kinds(), ","); got != "approval,failed" {
		t.Fatalf("notifications = %s", got)
	}
}

func TestUnansweredPlannerQuestionFailsTheGoal(t *testing.T) {
	f := &fakeWorld{plans: []activities.PlanDecision{{Status: activities.PlanAskUser, Question: "Which contact?"}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "message them", Device: "emu-1"})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "no answer within 24h0m0s to the question: Which contact?") {
		t.Fatalf("result = %+v", r)
	}
	if got := strings.Join(f.kinds(), ","); got != "question,failed" {
		t.Fatalf("notifications = %s", got)
	}
}

func TestAnswerInTimeIsUnaffectedByTheDeadline(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"login": {takeOver("please log in"), finish("logged in")}}}
	env := newEnv(t, f)
	env.RegisterDelayedCallback(func() { mustUpdate(t, env, SignalClarify, "done") }, 59*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "log in", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"login"}, AnswerDeadline: time.Hour}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if got := strings.Join(f.kinds(), ","); got != "question" {
		t.Fatalf("notifications = %s", got)
	}
}
