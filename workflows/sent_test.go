package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// The finish of a todo is verified against every commit the todo made,
// the Send an executor outage handed back with its result (t.applied)
// included: last_sent holds only for a message one of them sent
// (VerifyInput.SentChecked, docs/design.md §9).
func TestAFinishIsVerifiedAgainstTheCommitsTheTodoMade(t *testing.T) {
	send := tap(916, 875)
	key := "com.example.messages|Send|on my way"
	for _, inStep := range []bool{false, true} {
		f := &fakeWorld{verifyInStep: inStep, executorDownOnAct: 1,
			scripts:    map[string][]autoglm.Action{"send Mom 'on my way'": {send, finish("sent")}},
			commitKeys: map[string]string{actionKey(send): key}}
		r := runGoal(t, newEnv(t, f), GoalInput{Goal: "send Mom 'on my way'", Device: "emu-1", Options: GoalOptions{Plan: []string{"send Mom 'on my way'"}}})
		if r.Status != GoalDone || f.sent[key] != 1 {
			t.Fatalf("in step %v: goal %s, sent %d; log:\n%s", inStep, r.Status, f.sent[key], strings.Join(f.log, "\n"))
		}
		var got activities.VerifyInput
		switch {
		case inStep && len(f.ahead) > 0:
			last := f.steps[len(f.steps)-1].In
			got = activities.VerifyInput{Commits: last.Commits, SentChecked: last.SentChecked}
		case len(f.verifies) > 0:
			got = f.verifies[len(f.verifies)-1]
		default:
			t.Fatalf("in step %v: no verification", inStep)
		}
		if !got.SentChecked || !slices.Contains(got.Commits, key) {
			t.Fatalf("in step %v: the finish was verified with commits %q (sent checked %v), want the Send's %q", inStep, got.Commits, got.SentChecked, key)
		}
	}
}

// A todo run again after a failed verification is verified against the
// commits of its earlier run too (TodoInput.Prior): the message its first
// run sent is not yesterday's.
func TestARerunTodoIsVerifiedAgainstItsEarlierRunsCommits(t *testing.T) {
	send := tap(916, 875)
	key := "com.example.messages|Send|on my way"
	todo := "send Mom 'on my way'"
	f := &fakeWorld{
		plans:      []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{todo}, TaskType: "message"}},
		replans:    []activities.PlanDecision{{Status: activities.PlanReplanned, Plan: []string{todo}}, {Status: activities.PlanDone, Response: "sent"}},
		scripts:    map[string][]autoglm.Action{todo: {send, finish("sent, I think"), finish("sent")}},
		commitKeys: map[string]string{actionKey(send): key},
		refute:     map[string]string{"sent, I think": "the screen shows the conversation list"},
	}
	runGoal(t, newEnv(t, f), GoalInput{Goal: todo, Device: "emu-1"})
	if f.sent[key] != 1 || len(f.verifies) < 2 {
		t.Fatalf("sent %d, verified %d times; log:\n%s", f.sent[key], len(f.verifies), strings.Join(f.log, "\n"))
	}
	if v := f.verifies[1]; !v.SentChecked || !slices.Contains(v.Commits, key) {
		t.Fatalf("the rerun was verified with commits %q, want its earlier run's %q", v.Commits, key)
	}
}
