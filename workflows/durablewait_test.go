package workflows

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// waitHarness starts the phone's lease, goal A at once and goal B after
// bAfter, both on leaseTestSerial, and returns A's and B's results.
func waitHarness(ctx workflow.Context, a, b GoalInput, bAfter time.Duration, answerAt time.Duration, answer string) ([]GoalResult, error) {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial)})
	if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow,
		// Kept open while idle: the test's AcquireDevice only signals (the
		// real one starts a closed lease again).
		LeaseState{Serial: leaseTestSerial, IdleTimeout: 24 * time.Hour}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return nil, err
	}
	fa := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-a"}), GoalWorkflow, a)
	if err := workflow.Sleep(ctx, bAfter); err != nil {
		return nil, err
	}
	fb := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-b"}), GoalWorkflow, b)
	if answer != "" {
		if err := workflow.Sleep(ctx, answerAt-bAfter); err != nil {
			return nil, err
		}
		if err := workflow.SignalExternalWorkflow(ctx, "goal-a", "", SignalClarify, answer).Get(ctx, nil); err != nil {
			return nil, err
		}
	}
	var ra, rb GoalResult
	if err := fa.Get(ctx, &ra); err != nil {
		return nil, err
	}
	if err := fb.Get(ctx, &rb); err != nil {
		return nil, err
	}
	return []GoalResult{ra, rb}, nil
}

// activityLog records, at workflow time, which workflow started which
// activity.
type activityLog struct {
	mu     sync.Mutex
	starts []activityStart
}

type activityStart struct {
	Workflow, Type string
	At             time.Duration // since the test began
}

func (l *activityLog) listen(env *testsuite.TestWorkflowEnvironment) {
	begin := env.Now()
	env.SetOnActivityStartedListener(func(info *activity.Info, _ context.Context, _ converter.EncodedValues) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.starts = append(l.starts, activityStart{info.WorkflowExecution.ID, info.ActivityType.Name, env.Now().Sub(begin)})
	})
}

// of returns the activity starts of goal (and its todos) in [from, to).
func (l *activityLog) of(goal string, from, to time.Duration) []activityStart {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []activityStart
	for _, s := range l.starts {
		if (s.Workflow == goal || strings.HasPrefix(s.Workflow, goal+"/")) && s.At >= from && s.At < to {
			out = append(out, s)
		}
	}
	return out
}

// snapshot is what a test reads from the lease and goal A at one moment.
type snapshot struct {
	holder string
	queue  int
	status Status
}

func snapshotAt(t *testing.T, env *testsuite.TestWorkflowEnvironment, at time.Duration, into *snapshot) {
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflowByID(LeaseWorkflowID(leaseTestSerial), QueryLease)
		if err != nil {
			t.Errorf("query lease at %s: %v", at, err)
			return
		}
		var st LeaseState
		if err := v.Get(&st); err != nil {
			t.Error(err)
		}
		into.holder, into.queue = st.Holder, len(st.Queue)
		if v, err = env.QueryWorkflowByID("goal-a", QueryStatus); err != nil {
			t.Errorf("query goal-a at %s: %v", at, err)
			return
		}
		if err := v.Get(&into.status); err != nil {
			t.Error(err)
		}
	}, at)
}

func newWaitEnv(t *testing.T, f *fakeWorld) (*testsuite.TestWorkflowEnvironment, *activityLog) {
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })
	env, _ := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflow(waitHarness)
	l := &activityLog{}
	l.listen(env)
	return env, l
}

func runWaitHarness(t *testing.T, env *testsuite.TestWorkflowEnvironment, a, b GoalInput, bAfter, answerAt time.Duration, answer string) []GoalResult {
	t.Helper()
	env.ExecuteWorkflow(waitHarness, a, b, bAfter, answerAt, answer)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var rs []GoalResult
	if err := env.GetWorkflowResult(&rs); err != nil {
		t.Fatal(err)
	}
	return rs
}

// firstStep is when goal's first Step activity started.
func (l *activityLog) firstStep(goal string) (time.Duration, bool) {
	for _, s := range l.of(goal, 0, 1<<62) {
		if s.Type == activities.NameStep {
			return s.At, true
		}
	}
	return 0, false
}

// A goal whose plan starts "Wait 20 minutes" waits with a timer: no child,
// no activity, the phone free for another goal meanwhile, and goes on after.
func TestWaitTodoHoldsNoPhoneAndNoActivity(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"Open the Clock app": {launch("Clock"), finish("Clock is open")},
		"b1":                 {tap(4, 4), finish("b1")},
	}}
	env, log := newWaitEnv(t, f)
	var mid snapshot
	snapshotAt(t, env, 10*time.Minute, &mid)
	rs := runWaitHarness(t, env,
		GoalInput{Goal: "in 20 minutes open the Clock app", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"Wait 20 minutes", "Open the Clock app"}}},
		GoalInput{Goal: "b", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"b1"}}},
		time.Minute, 0, "")

	if rs[0].Status != GoalDone || rs[1].Status != GoalDone {
		t.Fatalf("goals ended %s (%s) and %s (%s)", rs[0].Status, rs[0].Reason, rs[1].Status, rs[1].Reason)
	}
	if w := rs[0].Todos[0]; w.Status != TodoDone || !strings.HasPrefix(w.Result, "waited until ") || w.Steps != 0 {
		t.Errorf("wait todo = %+v", w)
	}
	// No activity of goal A between its lease and the end of the wait.
	if got := log.of("goal-a", 5*time.Second, 20*time.Minute); len(got) != 0 {
		t.Errorf("goal A ran activities while waiting: %+v", got)
	}
	if got := log.of("goal-a/todo-1", 0, 1<<62); len(got) != 0 {
		t.Errorf("the wait todo ran activities: %+v", got)
	}
	// B drove the phone during A's wait; A's own steps came after it.
	bAt, ok := log.firstStep("goal-b")
	if !ok || bAt >= 20*time.Minute {
		t.Errorf("goal B's first step at %s, want during A's 20-minute wait", bAt)
	}
	if aAt, ok := log.firstStep("goal-a"); !ok || aAt < 20*time.Minute {
		t.Errorf("goal A's first step at %s, want after its wait", aAt)
	}
	// Mid-wait: the lease is not A's, and A says until when it waits.
	if mid.holder == "goal-a" {
		t.Errorf("goal A held the phone 10 minutes into its wait")
	}
	st := mid.status
	if st.Phase != GoalWaitingUntil || !st.PhoneReleased || st.WaitUntil.IsZero() ||
		!strings.Contains(st.WaitingFor, "waiting until ") || !strings.Contains(st.WaitingFor, "20 min from") {
		t.Errorf("goal A's status mid-wait = phase %s, released %v, until %s, waiting %q", st.Phase, st.PhoneReleased, st.WaitUntil, st.WaitingFor)
	}
	if line := WaitLine(st, st.WaitUntil.Add(-12*time.Minute)); !strings.Contains(line, "(in 12 min); the phone is free meanwhile") {
		t.Errorf("WaitLine = %q", line)
	}
}

// The executor's own long Wait is a timer in the todo: the Step activity
// never sleeps it, the phone is free meanwhile, and the executor is told
// the wait happened.
func TestLongWaitActionIsATimer(t *testing.T) {
	wait := autoglm.Action{Name: autoglm.ActionWait, Duration: "20 minutes"}
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"a1": {launch("Clock"), wait, tap(1, 1), finish("a1")},
		"b1": {tap(4, 4), finish("b1")},
	}}
	env, log := newWaitEnv(t, f)
	var mid snapshot
	snapshotAt(t, env, 10*time.Minute, &mid)
	rs := runWaitHarness(t, env,
		GoalInput{Goal: "a", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"a1"}}},
		GoalInput{Goal: "b", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"b1"}}},
		time.Minute, 0, "")
	if rs[0].Status != GoalDone || rs[1].Status != GoalDone {
		t.Fatalf("goals ended %s (%s) and %s (%s)", rs[0].Status, rs[0].Reason, rs[1].Status, rs[1].Reason)
	}
	for _, s := range f.steps {
		if s.In.Act != nil && s.In.Act.Name == autoglm.ActionWait {
			t.Errorf("a Step activity ran the long Wait: %+v", s.In)
		}
	}
	var after *activities.StepInput
	for i, s := range f.steps {
		if s.WorkflowID == "goal-a/todo-1" && strings.Contains(s.In.PreviousAction, "Wait") {
			after = &f.steps[i].In
			break
		}
	}
	if after == nil || after.PreviousResult != "waited 20m0s" {
		t.Errorf("the step after the wait was told %+v", after)
	}
	if got := log.of("goal-a", 2*time.Minute, 20*time.Minute); len(got) != 0 {
		t.Errorf("goal A ran activities while its todo waited: %+v", got)
	}
	if bAt, ok := log.firstStep("goal-b"); !ok || bAt >= 20*time.Minute {
		t.Errorf("goal B's first step at %s, want during A's wait", bAt)
	}
	if mid.holder == "goal-a" || mid.status.Phase != GoalWaitingUntil {
		t.Errorf("10 minutes into A's Wait: lease holder %q, A's phase %s", mid.holder, mid.status.Phase)
	}
}

// A question that waits longer than ReleasePhoneAfter gives the phone back
// (a queued goal takes it); the answer leases it again and the todo goes on.
func TestQuestionGivesThePhoneBackAfterAWhile(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"a1": {takeOver("Please sign in"), tap(1, 1), finish("a1")},
		"b1": {tap(4, 4), finish("b1")},
	}}
	env, log := newWaitEnv(t, f)
	var early, mid snapshot
	snapshotAt(t, env, 3*time.Minute, &early)
	snapshotAt(t, env, 10*time.Minute, &mid)
	rs := runWaitHarness(t, env,
		GoalInput{Goal: "a", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"a1"}, ReleasePhoneAfter: 5 * time.Minute}},
		GoalInput{Goal: "b", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"b1"}}},
		time.Minute, 20*time.Minute, "signed in")
	if rs[0].Status != GoalDone || rs[1].Status != GoalDone {
		t.Fatalf("goals ended %s (%s) and %s (%s)", rs[0].Status, rs[0].Reason, rs[1].Status, rs[1].Reason)
	}
	if early.holder != "goal-a" || early.queue != 1 {
		t.Errorf("3 minutes into the question: holder %q, %d queued; want goal-a holding, goal-b queued", early.holder, early.queue)
	}
	if mid.holder == "goal-a" || !mid.status.PhoneReleased || mid.status.PendingQuestion == "" {
		t.Errorf("10 minutes into the question: holder %q, released %v, question %q", mid.holder, mid.status.PhoneReleased, mid.status.PendingQuestion)
	}
	bAt, ok := log.firstStep("goal-b")
	if !ok || bAt < 5*time.Minute || bAt >= 20*time.Minute {
		t.Errorf("goal B's first step at %s, want once A gave the phone back (5 min) and before the answer (20 min)", bAt)
	}
	var last time.Duration
	for _, s := range log.of("goal-a", 0, 1<<62) {
		if s.Type == activities.NameStep {
			last = s.At
		}
	}
	if last < 20*time.Minute {
		t.Errorf("goal A's last step at %s, want after the answer", last)
	}
}

// Bad waits fail the wait todo with the fix, and the goal goes on to the
// replanner; nothing else is lost.
func TestBadWaitTodosFailWithTheFix(t *testing.T) {
	for _, c := range []struct{ todo, want string }{
		{"Wait until 2020-01-01 10:00", "the time has already passed; give a time still ahead"},
		{"Wait until 99:99", "write it like"},
	} {
		f := &fakeWorld{scripts: map[string][]autoglm.Action{"Open the Clock app": {finish("ok")}}}
		env := newEnv(t, f)
		r := runGoal(t, env, GoalInput{Goal: "g", Device: "phone-1", Options: GoalOptions{Plan: []string{c.todo, "Open the Clock app"}}})
		w := r.Todos[0]
		if w.Status != TodoFailed || !strings.Contains(w.Result, c.want) {
			t.Errorf("%q: todo = %s %q, want failed with %q", c.todo, w.Status, w.Result, c.want)
		}
		if r.Todos[1].Status != TodoDone {
			t.Errorf("%q: the next todo = %+v", c.todo, r.Todos[1])
		}
	}
}

// A wait todo until a time of day is read in the goal's time zone.
func TestWaitTodoUsesTheTimeZone(t *testing.T) {
	env := newEnv(t, &fakeWorld{})
	start := time.Date(2026, 11, 23, 12, 40, 0, 0, time.UTC) // 20:40 in Shanghai
	env.SetStartTime(start)
	var st Status
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryStatus)
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Error(err)
		}
	}, 5*time.Minute)
	env.ExecuteWorkflow(GoalWorkflow, GoalInput{Goal: "g", Device: "phone-1",
		Options: GoalOptions{Plan: []string{"等到晚上9点"}, TimeZone: "Asia/Shanghai"}})
	var r GoalResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if !st.WaitUntil.Equal(time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC)) || st.WaitLabel != "21:00 CST" {
		t.Errorf("wait until %s (%q), want 13:00 UTC shown as 21:00 CST", st.WaitUntil, st.WaitLabel)
	}
	if r.Todos[0].Status != TodoDone || !strings.Contains(r.Todos[0].Result, "21:00 CST") {
		t.Errorf("todo = %+v", r.Todos[0])
	}
}
