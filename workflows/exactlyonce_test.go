package workflows

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// TestUncertainActionAsksTheUser: a Step whose action the journal could
// not judge (docs/design.md §4) makes the todo ask the user whether it
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

	if !strings.Contains(asked.PendingQuestion, "Did the phone take") || asked.Phase != GoalWaitingUser || asked.QuestionKind != QuestionClarify {
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

// TestActionIDFormat pins the action ID (docs/design.md §4): the todo's
// workflow ID, the ID of the run that sends the action, and the step it
// counts as, so the journal tells every action of every run apart.
func TestActionIDFormat(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": {tap(1, 1), tap(2, 2), {Name: autoglm.ActionBack}, finish("ok")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "t", Device: "emu-1", Options: GoalOptions{Plan: []string{"t"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	var steps []int
	for _, s := range f.steps {
		if s.In.Act == nil || !s.In.Act.TouchesDevice() {
			continue
		}
		prefix := s.WorkflowID + "/" + s.RunID + "/"
		n, err := strconv.Atoi(strings.TrimPrefix(s.In.ActionID, prefix))
		if s.RunID == "" || !strings.HasPrefix(s.In.ActionID, prefix) || err != nil {
			t.Fatalf("action ID %q, want %s<step>", s.In.ActionID, prefix)
		}
		steps = append(steps, n)
	}
	if !slices.Equal(steps, []int{2, 4, 6}) {
		t.Fatalf("action IDs name steps %v, want the steps the actions count as (2, 4, 6)", steps)
	}
	// The whole shape, as journals on disk hold it: the todo's workflow ID
	// (the goal's ID, "/todo-", its index), the run's ID (no slash), the
	// step.
	shape := regexp.MustCompile(`^goal-t1/todo-1/[^/]+/[1-9][0-9]*$`)
	for _, s := range f.steps {
		if s.In.ActionID != "" && !shape.MatchString(s.In.ActionID) {
			t.Errorf("action ID %q does not have the pinned shape %s", s.In.ActionID, shape)
		}
	}
}
