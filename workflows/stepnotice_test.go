package workflows

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/testsuite"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// webDetails is what the Web UI shows under Current Details: the
// workflow's answer to the metadata query.
func webDetails(t *testing.T, env *testsuite.TestWorkflowEnvironment) string {
	t.Helper()
	v, err := env.QueryWorkflow("__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var md sdkpb.WorkflowMetadata
	if err := v.Get(&md); err != nil {
		t.Fatal(err)
	}
	return md.GetCurrentDetails()
}

var detailsSteps = regexp.MustCompile(`· steps (\d+)/\d+`)

// stepsIn reads the goal's counter and todo n's step count from its
// details.
func stepsIn(t *testing.T, details string, n int) (goal, todo int) {
	t.Helper()
	m := detailsSteps.FindStringSubmatch(details)
	if m == nil {
		t.Fatalf("no step counter in the details:\n%s", details)
	}
	goal, _ = strconv.Atoi(m[1])
	if m := regexp.MustCompile(fmt.Sprintf(`(?m)^- \[.\] %d\. .*?, (\d+) steps?`, n)).FindStringSubmatch(details); m != nil {
		todo, _ = strconv.Atoi(m[1])
	}
	return goal, todo
}

// While a todo runs, the goal's details count its steps as the CLI does:
// the goal's own count plus the running todo's (docs/design.md §2), both
// while the todo waits for an approval and while it is paused; once the
// goal ends they show its result's count, nothing counted twice.
func TestGoalDetailsCountTheRunningTodo(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"pay": {tap(100, 200), tap(300, 400), sensitiveTap(500, 900, "pay 20 yuan"), finish("paid")}}}
	env := newEnv(t, f)
	type seen struct {
		st         Status
		goal, todo int
	}
	var approving, paused seen
	env.RegisterDelayedCallback(func() {
		approving.st = status(t, env)
		approving.goal, approving.todo = stepsIn(t, webDetails(t, env), 1)
		mustUpdate(t, env, SignalPause)
		mustUpdate(t, env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		paused.st = status(t, env)
		paused.goal, paused.todo = stepsIn(t, webDetails(t, env), 1)
		mustUpdate(t, env, SignalResume)
	}, 2*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	// Think, tap, think, tap, think: the approval waits at 5.
	if approving.st.PendingApproval == nil || approving.st.Steps != 0 || approving.st.TodoSteps != 5 {
		t.Fatalf("status while approving = %+v, want the approval pending with the todo at 5 steps", approving.st)
	}
	if want := approving.st.Steps + approving.st.TodoSteps; approving.goal != want || approving.todo != want {
		t.Fatalf("while approving the details show steps %d and the todo at %d, want %d as the CLI counts", approving.goal, approving.todo, want)
	}
	// The approved tap counts before the pause holds it back.
	if !paused.st.Paused || paused.st.TodoSteps != 6 {
		t.Fatalf("status while paused = %+v, want paused with the todo at 6 steps", paused.st)
	}
	if want := paused.st.Steps + paused.st.TodoSteps; paused.goal != want || paused.todo != want {
		t.Fatalf("while paused the details show steps %d and the todo at %d, want %d", paused.goal, paused.todo, want)
	}
	if goal, todo := stepsIn(t, webDetails(t, env), 1); goal != r.Steps || todo != r.Todos[0].Steps {
		t.Fatalf("at the end the details show steps %d and the todo at %d, want the result's %d and %d", goal, todo, r.Steps, r.Todos[0].Steps)
	}
}

// A todo restarted after it got stuck counts on from the goal's count,
// which already holds the first attempt's steps: the details add the new
// attempt's count once, as the CLI does.
func TestGoalDetailsCountARestartedTodoOnce(t *testing.T) {
	var taps []autoglm.Action
	for range 40 {
		taps = append(taps, tap(500, 500))
	}
	f := &fakeWorld{stuck: true, scripts: map[string][]autoglm.Action{"pay": taps}}
	fresh := 0
	f.whileThinking = func(in activities.StepInput) {
		if in.HistoryRef != "" {
			return
		}
		// A fresh executor context: the first think of an attempt.
		if fresh++; fresh == 2 {
			f.mu.Lock()
			f.stuck = false
			f.scripts["pay"] = []autoglm.Action{tap(100, 200), sensitiveTap(500, 900, "pay 20 yuan"), finish("paid")}
			f.mu.Unlock()
		}
	}
	env := newEnv(t, f)
	var st Status
	var goal, todo int
	env.RegisterDelayedCallback(func() {
		st = status(t, env)
		goal, todo = stepsIn(t, webDetails(t, env), 1)
		mustUpdate(t, env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
	if r.Status != GoalDone || r.Todos[0].Attempts != 2 {
		t.Fatalf("result = %+v, want done on the second attempt", r)
	}
	// Think, tap, think: the second attempt waits at 3, after the first
	// attempt's steps.
	if st.PendingApproval == nil || st.Steps == 0 || st.TodoSteps != 3 {
		t.Fatalf("status while approving = %+v, want the first attempt's steps and the second at 3", st)
	}
	if want := st.Steps + st.TodoSteps; goal != want || todo != want {
		t.Fatalf("the details show steps %d and the todo at %d, want %d (%d before the restart + 3)", goal, todo, want, st.Steps)
	}
	if g, td := stepsIn(t, webDetails(t, env), 1); g != r.Steps || td != r.Todos[0].Steps {
		t.Fatalf("at the end the details show steps %d and the todo at %d, want %d and %d", g, td, r.Steps, r.Todos[0].Steps)
	}
}

// The goal takes a count only from the attempt it runs now and only
// upwards: notices may arrive out of order, and an earlier attempt's late.
func TestLiveStepsTakesOnlyTheRunningAttemptUpwards(t *testing.T) {
	var l liveSteps
	if l.heard("g/todo-1", 3) {
		t.Fatal("took a count with no todo running")
	}
	l.start("g/todo-1-r1")
	for _, n := range []struct {
		from  string
		steps int
		took  bool
	}{{"g/todo-1", 9, false}, {"g/todo-1-r1", 2, true}, {"g/todo-1-r1", 4, true}, {"g/todo-1-r1", 3, false}, {"", 7, false}} {
		if got := l.heard(n.from, n.steps); got != n.took {
			t.Fatalf("heard(%q, %d) = %v, want %v", n.from, n.steps, got, n.took)
		}
	}
	if n := l.end(); n != 4 || l.steps != 0 || l.child != "" {
		t.Fatalf("end = %d, left %+v; want 4 and nothing running", n, l)
	}
}

// A todo tells its goal a new count at once when it is held, and while it
// keeps stepping at most every stepNoticeEvery (docs/design.md §2).
func TestStepNoticesDueWhenHeldOrEveryInterval(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	n := stepNotices{from: "g/todo-1", at: t0}
	if n.due(0, t0) {
		t.Fatal("due with nothing new to tell")
	}
	if !n.due(2, t0.Add(time.Second)) {
		t.Fatal("a held todo with new steps does not tell them")
	}
	n.busy = true
	if n.due(2, t0.Add(stepNoticeEvery-time.Second)) {
		t.Fatal("a stepping todo tells before the interval")
	}
	if !n.due(2, t0.Add(stepNoticeEvery)) {
		t.Fatal("a stepping todo does not tell after the interval")
	}
	n.sent(2, t0.Add(stepNoticeEvery))
	if n.due(4, t0.Add(stepNoticeEvery+time.Second)) || n.due(2, t0.Add(3*stepNoticeEvery)) {
		t.Fatal("due again right after a notice, or with the count told")
	}
	if (&stepNotices{at: t0}).due(3, t0.Add(time.Hour)) {
		t.Fatal("a todo that tells nothing (no goal, or from before the change) is due")
	}
}
