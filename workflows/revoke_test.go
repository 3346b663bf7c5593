package workflows

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// blockedStart is when the lease unit tests begin, and their blocked
// holder's first failure.
var blockedStart = time.Date(2026, 11, 23, 9, 12, 0, 0, time.UTC)

const blockedError = "[TMPRL1100] nondeterministic workflow: history event is ActivityTaskScheduled: Step, replay command is ScheduleActivityTask: Observe"

// revokeUnitEnv runs the lease alone with DescribeLeaseHolder answered by
// describe (at workflow time, since the test began); every signal the
// lease sends is recorded with its time.
func revokeUnitEnv(t *testing.T, describe func(goal string, at time.Duration) activities.HolderStatus) (*testsuite.TestWorkflowEnvironment, *leaseSignals, *[]time.Duration) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, worker.Options{Interceptors: Interceptors()})
	env.RegisterWorkflow(DeviceLeaseWorkflow)
	env.SetStartTime(blockedStart)
	begin := env.Now()
	sig := &leaseSignals{}
	var revokedAt []time.Duration
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", mock.Anything, mock.Anything).Return(
		func(_ string, goal, _ string, name string, arg any) error {
			switch a := arg.(type) {
			case activities.LeaseGrant:
				sig.add(fmt.Sprintf("%s %s %s", name, goal, a.RequestID))
			case activities.LeaseBusy:
				sig.add(fmt.Sprintf("%s %s holder=%s queued=%v pos=%d", name, goal, a.Holder, a.Queued, a.Position))
			case activities.LeaseRevoked:
				sig.add(fmt.Sprintf("%s %s %s", name, goal, a.RequestID))
				revokedAt = append(revokedAt, env.Now().Sub(begin))
				if !strings.Contains(a.Reason, "phone taken from goal "+goal+": its workflow task has failed since") || !strings.Contains(a.Reason, "nondeterministic workflow") {
					t.Errorf("revoke reason %q", a.Reason)
				}
			default:
				sig.add(fmt.Sprintf("%s %s %v", name, goal, arg))
			}
			return nil
		})
	env.RegisterActivityWithOptions(func(_ context.Context, goal string) (activities.HolderStatus, error) {
		return describe(goal, env.Now().Sub(begin)), nil
	}, activity.RegisterOptions{Name: activities.NameDescribeLeaseHolder})
	env.RegisterActivityWithOptions(func(context.Context, activities.FindLeaseClaimsInput) (activities.LeaseClaims, error) {
		return activities.LeaseClaims{}, nil
	}, activity.RegisterOptions{Name: activities.NameFindLeaseClaims})
	return env, sig, &revokedAt
}

func revocableAt(env *testsuite.TestWorkflowEnvironment, at time.Duration, goal, req string, revocable bool) {
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalLeaseAcquire, activities.LeaseRequest{Serial: leaseTestSerial, GoalID: goal, Wait: true, RequestID: req, Revocable: revocable})
	}, at)
}

func queryLeaseAt(t *testing.T, env *testsuite.TestWorkflowEnvironment, at time.Duration, into *LeaseState) {
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryLease)
		if err == nil {
			err = v.Get(into)
		}
		if err != nil {
			t.Errorf("query lease at %s: %v", at, err)
		}
	}, at)
}

// blockedUntil plays goal-a's workflow task failing from the start until
// `until`; busy names what of it is still on the phone.
func blockedUntil(until time.Duration, busy string) func(string, time.Duration) activities.HolderStatus {
	start := blockedStart
	return func(goal string, at time.Duration) activities.HolderStatus {
		if goal != "goal-a" || at >= until {
			return activities.HolderStatus{Running: true, Status: "Running"}
		}
		return activities.HolderStatus{Running: true, Status: "Running", Blocked: true, BlockedSince: start, BlockedError: blockedError, Busy: busy}
	}
}

// A holder whose workflow task has failed for the bound, with nothing of it
// on the phone, loses the phone to the next goal: it is told, remembered as
// revoked (the fence's answer) and fenced until it holds the phone again.
func TestLeaseRevokesBlockedHolder(t *testing.T) {
	env, sig, revokedAt := revokeUnitEnv(t, blockedUntil(11*time.Minute, ""))
	revocableAt(env, time.Second, "goal-a", "a1", true)
	revocableAt(env, 2*time.Second, "goal-b", "b1", true)
	var mid, back LeaseState
	queryLeaseAt(t, env, 10*time.Minute, &mid)
	revocableAt(env, 12*time.Minute, "goal-a", "a2", true) // recovered: asks again, queues behind goal-b
	releaseAt(env, 13*time.Minute, "goal-b")
	queryLeaseAt(t, env, 14*time.Minute, &back)
	releaseAt(env, 15*time.Minute, "goal-a")
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute, CheckInterval: time.Minute, BlockedAfter: 5 * time.Minute})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lease_granted goal-a a1",
		"lease_busy goal-b holder=goal-a queued=true pos=1",
		"lease_revoked goal-a a1",
		"lease_granted goal-b b1",
		"lease_busy goal-a holder=goal-b queued=true pos=1",
		"lease_granted goal-a a2",
	}
	if got := sig.list(); !slices.Equal(got, want) {
		t.Fatalf("signals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(*revokedAt) != 1 || (*revokedAt)[0] < 5*time.Minute || (*revokedAt)[0] > 7*time.Minute {
		t.Errorf("revoked at %v, want once, at the first check past the 5-minute bound", *revokedAt)
	}
	if mid.Holder != "goal-b" || len(mid.Revoked) != 1 || mid.Revoked[0].GoalID != "goal-a" ||
		!strings.HasPrefix(mid.Revoked[0].Reason, "phone taken from goal goal-a: its workflow task has failed since 09:12 (") {
		t.Errorf("lease after the revoke: %+v", mid)
	}
	if back.Holder != "goal-a" || len(back.Revoked) != 0 {
		t.Errorf("lease once goal-a holds the phone again: %+v (want it no longer fenced)", back)
	}
}

// A blocked holder whose todo still runs a step (or is between two) keeps
// the phone; so does a holder that did not ask as revocable (a goal from
// before the change would not obey the fence).
func TestLeaseKeepsBlockedHolderOnThePhone(t *testing.T) {
	for _, c := range []struct {
		name      string
		busy      string
		revocable bool
	}{
		{"busy todo", "todo goal-a/todo-1 runs Step", true},
		{"todo between steps", "todo goal-a/todo-1 is between two steps", true},
		{"not revocable", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			env, sig, _ := revokeUnitEnv(t, blockedUntil(time.Hour, c.busy))
			revocableAt(env, time.Second, "goal-a", "a1", c.revocable)
			revocableAt(env, 2*time.Second, "goal-b", "b1", true)
			var mid LeaseState
			queryLeaseAt(t, env, 20*time.Minute, &mid)
			releaseAt(env, 30*time.Minute, "goal-a")
			releaseAt(env, 31*time.Minute, "goal-b")
			env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute, CheckInterval: time.Minute, BlockedAfter: 5 * time.Minute})
			if err := env.GetWorkflowError(); err != nil {
				t.Fatal(err)
			}
			want := []string{
				"lease_granted goal-a a1",
				"lease_busy goal-b holder=goal-a queued=true pos=1",
				"lease_granted goal-b b1",
			}
			if got := sig.list(); !slices.Equal(got, want) {
				t.Fatalf("signals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if mid.Holder != "goal-a" || len(mid.Revoked) != 0 {
				t.Errorf("lease 20 minutes into the block: %+v", mid)
			}
		})
	}
}

// revokeHarness starts the phone's lease, goal A, then goal B queued behind
// it, and answers the goals' questions at the given times.
func revokeHarness(ctx workflow.Context, a, b GoalInput, answers []revokeAnswer) ([]GoalResult, error) {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial)})
	if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow,
		LeaseState{Serial: leaseTestSerial, IdleTimeout: 24 * time.Hour, CheckInterval: time.Minute, BlockedAfter: 5 * time.Minute}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return nil, err
	}
	fa := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-a"}), GoalWorkflow, a)
	if err := workflow.Sleep(ctx, time.Minute); err != nil {
		return nil, err
	}
	fb := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-b"}), GoalWorkflow, b)
	begin := time.Minute
	for _, an := range answers {
		if err := workflow.Sleep(ctx, an.At-begin); err != nil {
			return nil, err
		}
		begin = an.At
		if err := workflow.SignalExternalWorkflow(ctx, an.Goal, "", SignalClarify, an.Text).Get(ctx, nil); err != nil {
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

type revokeAnswer struct {
	Goal, Text string
	At         time.Duration
}

// Goal A holds the phone and waits for an answer while its workflow task
// keeps failing (played by DescribeLeaseHolder): past the bound the lease
// gives the phone to goal B. When A runs again and is answered, its todo's
// next device action carries its old grant's token, which the phone's
// journal refuses once B acted under a newer one; A asks for the phone again,
// queues behind B (its status says so), gets it when B is done, and runs
// the same step again under the same action ID: both goals end done, and no
// action of A reaches the phone between the revoke and its new grant.
func TestRevokedGoalAsksAgainAndGoesOn(t *testing.T) {
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"a1": {takeOver("Please sign in"), tap(1, 1), finish("a1")},
		"b1": {tap(4, 4), takeOver("Confirm on the phone"), tap(5, 5), finish("b1")},
	}}
	env, lw := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflow(revokeHarness)
	log := &activityLog{}
	log.listen(env)
	begin := env.Now()

	var mu sync.Mutex
	revokedAt := time.Duration(-1)
	var aAsked []time.Duration // when goal A asked the lease for the phone
	lw.onAcquire = func(r activities.LeaseRequest) {
		mu.Lock()
		defer mu.Unlock()
		if r.GoalID == "goal-a" {
			aAsked = append(aAsked, env.Now().Sub(begin))
		}
	}
	// A's workflow task fails for its first 15 minutes; the lease's first
	// check past the 5-minute bound takes the phone.
	lw.describe = goalABlocked(env, begin, &mu, &revokedAt)
	// The fence plays the phone's journal: an action under a token lower
	// than the highest one acted under is refused.
	tokens := &tokenFence{}
	f.fence = tokens.check
	var mid, queued snapshot
	snapshotAt(t, env, 10*time.Minute, &mid)
	snapshotAt(t, env, 25*time.Minute, &queued)
	var claim activities.LeaseClaim
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflowByID("goal-a", QueryLeaseClaim)
		if err == nil {
			err = v.Get(&claim)
		}
		if err != nil {
			t.Errorf("goal-a's claim: %v", err)
		}
	}, 10*time.Minute)
	env.ExecuteWorkflow(revokeHarness,
		GoalInput{Goal: "a", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"a1"}, ReleasePhoneAfter: 24 * time.Hour}},
		GoalInput{Goal: "b", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"b1"}, ReleasePhoneAfter: 24 * time.Hour}},
		[]revokeAnswer{{Goal: "goal-a", Text: "signed in", At: 20 * time.Minute}, {Goal: "goal-b", Text: "confirmed", At: 30 * time.Minute}})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var rs []GoalResult
	if err := env.GetWorkflowResult(&rs); err != nil {
		t.Fatal(err)
	}
	if rs[0].Status != GoalDone || rs[1].Status != GoalDone {
		t.Fatalf("goals ended %s (%s) and %s (%s)", rs[0].Status, rs[0].Reason, rs[1].Status, rs[1].Reason)
	}
	if revokedAt < 5*time.Minute || revokedAt > 7*time.Minute {
		t.Fatalf("revoked at %s, want at the first check past 5 minutes", revokedAt)
	}
	if mid.holder != "goal-b" {
		t.Errorf("10 minutes in (A blocked): holder %q, want goal-b", mid.holder)
	}
	if claim.Held || !claim.Revocable || claim.GoalID != "goal-a" {
		t.Errorf("A's lease claim after the revoke: %+v, want it no longer holding (a lease started again must not take it as holder)", claim)
	}
	if w := queued.status.WaitingFor; !strings.Contains(w, "phone taken from goal goal-a: its workflow task has failed since") || !strings.Contains(w, "device busy: held by goal-b") {
		t.Errorf("A's status while it queues for the phone again: %q", w)
	}
	bFirst, ok := log.firstStep("goal-b")
	if !ok || bFirst < revokedAt || bFirst >= 20*time.Minute {
		t.Errorf("goal B's first step at %s, want after the revoke (%s) and before A's answer", bFirst, revokedAt)
	}
	var bLast time.Duration
	for _, s := range log.of("goal-b", 0, 1<<62) {
		if s.Type == activities.NameStep {
			bLast = s.At
		}
	}
	// A's fenced tap ran again under the same action ID, once B was done.
	var ids []string
	for _, s := range f.steps {
		if strings.HasPrefix(s.WorkflowID, "goal-a/") && s.In.Act != nil && actionKey(*s.In.Act) == actionKey(tap(1, 1)) {
			ids = append(ids, s.In.ActionID)
		}
	}
	if len(ids) != 2 || ids[0] != ids[1] || ids[0] == "" {
		t.Errorf("A's tap was sent as %v, want refused once and run again under the same action ID", ids)
	}
	if !slices.Contains(f.log, "fenced "+actionKey(tap(1, 1))) || strings.Count(strings.Join(f.log, "\n"), "act "+actionKey(tap(1, 1))) != 1 {
		t.Errorf("want A's tap refused once and applied once; log %v", f.log)
	}
	var aSteps []time.Duration
	for _, s := range log.of("goal-a", revokedAt, 1<<62) {
		if s.Type == activities.NameStep {
			aSteps = append(aSteps, s.At)
		}
	}
	if len(aSteps) < 2 || aSteps[0] < 20*time.Minute || aSteps[len(aSteps)-1] < bLast {
		t.Errorf("A's steps after the revoke at %v; want none before its answer at 20m, and its tap run again after B's last step at %s", aSteps, bLast)
	}
}

// A goal revoked between todos (its replanner's question waits for an
// answer while it holds the phone) asks for the phone again before its next
// todo and queues behind the goal that took it: its next todo's steps all
// come after that goal's, and no step of it is refused.
func TestRevokedGoalAsksAgainBeforeItsNextTodo(t *testing.T) {
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{
			"a1": {tap(1, 1), finish("a1")},
			"a2": {tap(2, 2), finish("a2")},
			"b1": {tap(4, 4), takeOver("Confirm on the phone"), tap(5, 5), finish("b1")},
		},
		replans: []activities.PlanDecision{
			{Status: activities.PlanAskUser, Question: "Which Alice?"},
			{Status: activities.PlanReplanned, Plan: []string{"a2"}},
		},
	}
	env, lw := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflow(revokeHarness)
	log := &activityLog{}
	log.listen(env)
	begin := env.Now()
	var mu sync.Mutex
	revokedAt := time.Duration(-1)
	lw.describe = goalABlocked(env, begin, &mu, &revokedAt)
	tokens := &tokenFence{}
	f.fence = tokens.check
	var queued snapshot
	snapshotAt(t, env, 25*time.Minute, &queued)
	env.ExecuteWorkflow(revokeHarness,
		GoalInput{Goal: "a", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"a1"}, ReleasePhoneAfter: 24 * time.Hour}},
		GoalInput{Goal: "b", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"b1"}, ReleasePhoneAfter: 24 * time.Hour}},
		[]revokeAnswer{{Goal: "goal-a", Text: "Alice Chen", At: 20 * time.Minute}, {Goal: "goal-b", Text: "confirmed", At: 30 * time.Minute}})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var rs []GoalResult
	if err := env.GetWorkflowResult(&rs); err != nil {
		t.Fatal(err)
	}
	if rs[0].Status != GoalDone || rs[1].Status != GoalDone {
		t.Fatalf("goals ended %s (%s) and %s (%s)", rs[0].Status, rs[0].Reason, rs[1].Status, rs[1].Reason)
	}
	if revokedAt < 5*time.Minute || revokedAt > 7*time.Minute {
		t.Fatalf("revoked at %s, want at the first check past 5 minutes", revokedAt)
	}
	if w := queued.status.WaitingFor; !strings.Contains(w, "phone taken from goal goal-a") || !strings.Contains(w, "device busy: held by goal-b") {
		t.Errorf("A's status while it queues for the phone again: %q", w)
	}
	var bLast time.Duration
	for _, s := range log.of("goal-b", 0, 1<<62) {
		if s.Type == activities.NameStep {
			bLast = s.At
		}
	}
	a2 := log.of("goal-a/todo-2", 0, 1<<62)
	if len(a2) == 0 || a2[0].At < bLast {
		t.Errorf("A's second todo started its activities at %v, want after B's last step at %s", a2, bLast)
	}
	if slices.ContainsFunc(f.log, func(l string) bool { return strings.HasPrefix(l, "fenced ") }) {
		t.Errorf("a step was refused: %v", f.log)
	}
	// Every grant's token is larger than the one before: A's first, B's,
	// A's again.
	if got := tokens.sequence(); len(got) != 3 || !(got[0].goal == "goal-a" && got[1].goal == "goal-b" && got[2].goal == "goal-a") ||
		!(got[0].token < got[1].token && got[1].token < got[2].token) {
		t.Errorf("tokens acted under %+v, want goal-a, goal-b, goal-a, each larger", got)
	}
}

// tokenFence plays the phone journal's fence (docs/design.md §5) in the
// fake world: an action under a token lower than the highest acted under
// is refused as PhoneLeaseLost, and each new token is remembered with the
// goal that first acted under it.
type tokenFence struct {
	high  int64
	acted []goalToken
}

type goalToken struct {
	goal  string
	token int64
}

func (f *tokenFence) check(workflowID string, in activities.StepInput) error {
	if in.LeaseToken < f.high {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("phone %s: token %d below %d", in.Serial, in.LeaseToken, f.high), ErrTypePhoneLeaseLost, nil)
	}
	if in.LeaseToken > f.high {
		f.acted = append(f.acted, goalToken{in.GoalID, in.LeaseToken})
	}
	f.high = in.LeaseToken
	return nil
}

func (f *tokenFence) sequence() []goalToken { return slices.Clone(f.acted) }

// goalABlocked describes goal-a as blocked (its workflow task failing
// since begin) for its first 15 minutes, and sets *revokedAt to the first
// time it was described so past the 5-minute bound.
func goalABlocked(env *testsuite.TestWorkflowEnvironment, begin time.Time, mu *sync.Mutex, revokedAt *time.Duration) func(string) (activities.HolderStatus, bool) {
	return func(goal string) (activities.HolderStatus, bool) {
		mu.Lock()
		defer mu.Unlock()
		now := env.Now().Sub(begin)
		if goal != "goal-a" || now >= 15*time.Minute {
			return activities.HolderStatus{}, false
		}
		if now >= 5*time.Minute && *revokedAt < 0 {
			*revokedAt = now
		}
		return activities.HolderStatus{Running: true, Status: "Running", Blocked: true, BlockedSince: begin, BlockedError: blockedError}, true
	}
}
