package workflows

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

const leaseTestSerial = "phone-1"

// leaseEvent is one thing a test goal did, at workflow time.
type leaseEvent struct {
	Goal   string
	Kind   string // acquired | released | waiting | busy | cancelled | done
	At     time.Time
	Detail string
}

// leaseWorld plays the Temporal service for the lease activities inside
// the test environment and records what the test goals did.
type leaseWorld struct {
	env *testsuite.TestWorkflowEnvironment

	mu       sync.Mutex
	events   []leaseEvent
	acquires []activities.LeaseRequest
	// duplicate makes AcquireDevice deliver each request twice, as a
	// retried signal-with-start would.
	duplicate bool
	// derived counts the leases that asked the goals who holds the phone.
	derived int
	// describe, when set, answers DescribeLeaseHolder for a goal it knows
	// (ok true): a test plays a blocked holder with it.
	describe func(goalID string) (activities.HolderStatus, bool)
	// onAcquire, when set, hears each request AcquireDevice passes on.
	onAcquire func(activities.LeaseRequest)
}

func (w *leaseWorld) AcquireDevice(_ context.Context, in activities.AcquireDeviceInput) error {
	w.mu.Lock()
	w.acquires = append(w.acquires, in.Request)
	dup := w.duplicate
	hook := w.onAcquire
	w.mu.Unlock()
	if hook != nil {
		hook(in.Request)
	}
	if in.LeaseWorkflowID != LeaseWorkflowID(in.Request.Serial) || in.TaskQueue != TaskQueue {
		return fmt.Errorf("bad acquire input %+v", in)
	}
	for range map[bool]int{false: 1, true: 2}[dup] {
		if err := w.env.SignalWorkflowByID(in.LeaseWorkflowID, SignalLeaseAcquire, in.Request); err != nil {
			return err
		}
	}
	return nil
}

func (w *leaseWorld) DescribeLeaseHolder(_ context.Context, goalID string) (activities.HolderStatus, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.describe != nil {
		if hs, ok := w.describe(goalID); ok {
			return hs, nil
		}
	}
	for _, e := range w.events {
		if e.Goal == goalID && (e.Kind == "done" || e.Kind == "cancelled") {
			return activities.HolderStatus{Running: false, Status: "Completed"}, nil
		}
	}
	return activities.HolderStatus{Running: true, Status: "Running"}, nil
}

func (w *leaseWorld) Record(_ context.Context, e leaseEvent) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, e)
	return nil
}

func (w *leaseWorld) log() []leaseEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := slices.Clone(w.events)
	slices.SortStableFunc(out, func(a, b leaseEvent) int { return a.At.Compare(b.At) })
	return out
}

func (w *leaseWorld) kinds(goal string) []string {
	var out []string
	for _, e := range w.log() {
		if e.Goal == goal {
			out = append(out, e.Kind)
		}
	}
	return out
}

func (w *leaseWorld) first(goal, kind string) (leaseEvent, bool) {
	for _, e := range w.log() {
		if e.Goal == goal && e.Kind == kind {
			return e, true
		}
	}
	return leaseEvent{}, false
}

// assertExclusive checks that no two goals ever held the phone at once.
func (w *leaseWorld) assertExclusive(t *testing.T) {
	t.Helper()
	holder := ""
	for _, e := range w.log() {
		switch e.Kind {
		case "acquired":
			if holder != "" {
				t.Fatalf("%s acquired at %v while %s held the phone; log %v", e.Goal, e.At, holder, w.log())
			}
			holder = e.Goal
		case "released", "cancelled", "done":
			if holder == e.Goal {
				holder = ""
			}
		}
	}
}

func newLeaseEnv(t *testing.T) (*testsuite.TestWorkflowEnvironment, *leaseWorld) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, worker.Options{Interceptors: Interceptors()})
	w := &leaseWorld{env: env}
	env.RegisterWorkflow(DeviceLeaseWorkflow)
	env.RegisterWorkflow(leaseHarness)
	env.RegisterWorkflow(leaseTestGoal)
	env.RegisterActivityWithOptions(w.AcquireDevice, activity.RegisterOptions{Name: activities.NameAcquireDevice})
	env.RegisterActivityWithOptions(w.DescribeLeaseHolder, activity.RegisterOptions{Name: activities.NameDescribeLeaseHolder})
	env.RegisterActivityWithOptions(w.Record, activity.RegisterOptions{Name: "leaseRecord"})
	env.RegisterActivityWithOptions(w.FindLeaseClaims, activity.RegisterOptions{Name: activities.NameFindLeaseClaims})
	env.RegisterWorkflow(leaseRestartHarness)
	return env, w
}

// FindLeaseClaims answers what the goals would: a goal whose last event is
// "acquired" holds the phone; one that asked and has not acquired, been
// told busy or ended waits, on its last request.
func (w *leaseWorld) FindLeaseClaims(_ context.Context, in activities.FindLeaseClaimsInput) (activities.LeaseClaims, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.derived++
	last := map[string]string{}
	for _, e := range w.events {
		last[e.Goal] = e.Kind
	}
	var out activities.LeaseClaims
	seen := map[string]bool{}
	for i := len(w.acquires) - 1; i >= 0; i-- {
		r := w.acquires[i]
		if seen[r.GoalID] || r.Serial != in.Serial {
			continue
		}
		seen[r.GoalID] = true
		c := activities.LeaseClaim{Serial: r.Serial, GoalID: r.GoalID, RequestID: r.RequestID}
		switch last[r.GoalID] {
		case "acquired":
			c.Held = true
		case "", "waiting":
			c.Waiting = true
		default:
			continue
		}
		out.Claims = append([]activities.LeaseClaim{c}, out.Claims...)
	}
	return out, nil
}

// leaseGoalSpec scripts one test goal.
type leaseGoalSpec struct {
	ID          string
	Wait        bool
	StartAfter  time.Duration // after the previous goal started
	HoldFor     time.Duration
	NoRelease   bool          // end without calling release (the lease must notice)
	CancelAfter time.Duration // the harness cancels the goal this long after starting it
	Cycles      int           // acquire/hold/release rounds (default 1)
}

func leaseRecord(ctx workflow.Context, goal, kind, detail string) {
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{StartToCloseTimeout: time.Minute})
	_ = workflow.ExecuteActivity(ctx, "leaseRecord", leaseEvent{Goal: goal, Kind: kind, At: workflow.Now(ctx), Detail: detail}).Get(ctx, nil)
}

// leaseTestGoal stands in for GoalWorkflow: it holds the phone the way a
// goal does, releasing from a disconnected context when cancelled.
func leaseTestGoal(ctx workflow.Context, spec leaseGoalSpec) error {
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	for range max(1, spec.Cycles) {
		release, err := AcquireDevice(ctx, leaseTestSerial, spec.Wait, func(holder string) {
			leaseRecord(ctx, id, "waiting", holder)
		})
		if err != nil {
			dctx, cancel := workflow.NewDisconnectedContext(ctx)
			defer cancel()
			var busy *DeviceBusyError
			if errors.As(err, &busy) {
				leaseRecord(dctx, id, "busy", err.Error())
			} else {
				leaseRecord(dctx, id, "cancelled", err.Error())
			}
			return err
		}
		leaseRecord(ctx, id, "acquired", "")
		if err := workflow.Sleep(ctx, spec.HoldFor); err != nil {
			dctx, cancel := workflow.NewDisconnectedContext(ctx)
			defer cancel()
			leaseRecord(dctx, id, "cancelled", "") // before release: the log stays in order
			release(dctx)
			return err
		}
		if !spec.NoRelease {
			leaseRecord(ctx, id, "released", "")
			release(ctx)
		}
	}
	leaseRecord(ctx, id, "done", "")
	return nil
}

// leaseHarness runs the lease of leaseTestSerial and the scripted goals as
// its children, so their signals reach each other inside one test
// environment.
func leaseHarness(ctx workflow.Context, check time.Duration, specs []leaseGoalSpec) error {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial), TaskQueue: TaskQueue})
	lf := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, CheckInterval: check})
	if err := lf.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return err
	}
	var fs []workflow.Future
	for _, spec := range specs {
		if spec.StartAfter > 0 {
			_ = workflow.Sleep(ctx, spec.StartAfter)
		}
		gctx, cancel := workflow.WithCancel(ctx)
		gctx = workflow.WithChildOptions(gctx, workflow.ChildWorkflowOptions{WorkflowID: spec.ID, WaitForCancellation: true})
		f := workflow.ExecuteChildWorkflow(gctx, leaseTestGoal, spec)
		if spec.CancelAfter > 0 {
			workflow.Go(ctx, func(c workflow.Context) {
				_ = workflow.Sleep(c, spec.CancelAfter)
				cancel()
			})
		}
		fs = append(fs, f)
	}
	for _, f := range fs {
		_ = f.Get(ctx, nil)
	}
	return nil
}

func runHarness(t *testing.T, env *testsuite.TestWorkflowEnvironment, check time.Duration, specs ...leaseGoalSpec) {
	t.Helper()
	env.ExecuteWorkflow(leaseHarness, check, specs)
	if !env.IsWorkflowCompleted() {
		t.Fatal("harness did not complete")
	}
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("harness: %v", err)
	}
}

func TestLeaseSecondGoalWaitsThenProceeds(t *testing.T) {
	env, w := newLeaseEnv(t)
	runHarness(t, env, time.Hour,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 10 * time.Minute},
		leaseGoalSpec{ID: "goal-b", Wait: true, StartAfter: time.Minute, HoldFor: 5 * time.Minute},
	)
	w.assertExclusive(t)
	if got := w.kinds("goal-a"); !slices.Equal(got, []string{"acquired", "released", "done"}) {
		t.Fatalf("goal-a did %v", got)
	}
	if got := w.kinds("goal-b"); !slices.Equal(got, []string{"waiting", "acquired", "released", "done"}) {
		t.Fatalf("goal-b did %v", got)
	}
	waiting, _ := w.first("goal-b", "waiting")
	if waiting.Detail != "goal-a" {
		t.Fatalf("goal-b was told the holder is %q, want goal-a", waiting.Detail)
	}
	relA, _ := w.first("goal-a", "released")
	accB, _ := w.first("goal-b", "acquired")
	if accB.At.Before(relA.At) {
		t.Fatalf("goal-b acquired at %v before goal-a released at %v", accB.At, relA.At)
	}
}

func TestLeaseThreeGoalsFIFO(t *testing.T) {
	env, w := newLeaseEnv(t)
	runHarness(t, env, time.Hour,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 10 * time.Minute},
		leaseGoalSpec{ID: "goal-b", Wait: true, StartAfter: time.Minute, HoldFor: 10 * time.Minute},
		leaseGoalSpec{ID: "goal-c", Wait: true, StartAfter: time.Minute, HoldFor: 10 * time.Minute},
	)
	w.assertExclusive(t)
	var order []string
	for _, e := range w.log() {
		if e.Kind == "acquired" {
			order = append(order, e.Goal)
		}
	}
	if !slices.Equal(order, []string{"goal-a", "goal-b", "goal-c"}) {
		t.Fatalf("grant order %v, want first come first served", order)
	}
}

func TestLeaseFailFastNamesHolder(t *testing.T) {
	env, w := newLeaseEnv(t)
	runHarness(t, env, time.Hour,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 10 * time.Minute},
		leaseGoalSpec{ID: "goal-b", Wait: false, StartAfter: time.Minute, HoldFor: time.Minute},
	)
	w.assertExclusive(t)
	if got := w.kinds("goal-b"); !slices.Equal(got, []string{"busy"}) {
		t.Fatalf("goal-b did %v, want only busy", got)
	}
	busy, _ := w.first("goal-b", "busy")
	if !strings.Contains(busy.Detail, "goal-a") || !strings.Contains(busy.Detail, leaseTestSerial) {
		t.Fatalf("busy error %q should name the holder and the phone", busy.Detail)
	}
	// goal-a was not disturbed.
	if got := w.kinds("goal-a"); !slices.Equal(got, []string{"acquired", "released", "done"}) {
		t.Fatalf("goal-a did %v", got)
	}
}

func TestLeaseCancelledHolderReleases(t *testing.T) {
	env, w := newLeaseEnv(t)
	// goal-a would hold for a day but is cancelled after 5 minutes; the
	// liveness check is far away, so only its own release can free the phone.
	runHarness(t, env, 24*time.Hour,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 24 * time.Hour, CancelAfter: 5 * time.Minute},
		leaseGoalSpec{ID: "goal-b", Wait: true, StartAfter: time.Minute, HoldFor: time.Minute},
	)
	w.assertExclusive(t)
	if got := w.kinds("goal-a"); !slices.Equal(got, []string{"acquired", "cancelled"}) {
		t.Fatalf("goal-a did %v", got)
	}
	canA, _ := w.first("goal-a", "cancelled")
	accB, ok := w.first("goal-b", "acquired")
	if !ok {
		t.Fatalf("goal-b never got the phone: %v", w.log())
	}
	if d := accB.At.Sub(canA.At); d < 0 || d > time.Minute {
		t.Fatalf("goal-b acquired %v after goal-a was cancelled, want promptly", d)
	}
}

func TestLeaseHolderClosedWithoutReleaseIsDropped(t *testing.T) {
	env, w := newLeaseEnv(t)
	runHarness(t, env, 2*time.Minute,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 3 * time.Minute, NoRelease: true},
		leaseGoalSpec{ID: "goal-b", Wait: true, StartAfter: time.Minute, HoldFor: time.Minute},
	)
	w.assertExclusive(t)
	doneA, _ := w.first("goal-a", "done")
	accB, ok := w.first("goal-b", "acquired")
	if !ok {
		t.Fatalf("goal-b never got the phone: %v", w.log())
	}
	if accB.At.Before(doneA.At) || accB.At.Sub(doneA.At) > 2*time.Minute+time.Second {
		t.Fatalf("goal-b acquired at %v, goal-a closed at %v: want within one check interval after", accB.At, doneA.At)
	}
}

func TestLeaseCancelledWhileQueuedLeavesQueue(t *testing.T) {
	env, w := newLeaseEnv(t)
	var queueAfterCancel []LeaseWaiter
	var queryErr error
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflowByID(LeaseWorkflowID(leaseTestSerial), QueryLease)
		if err != nil {
			queryErr = err
			return
		}
		var st LeaseState
		queryErr = v.Get(&st)
		queueAfterCancel = st.Queue
		if st.Holder != "goal-a" {
			queryErr = fmt.Errorf("holder %q, want goal-a", st.Holder)
		}
	}, 8*time.Minute)
	runHarness(t, env, time.Hour,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 20 * time.Minute},
		leaseGoalSpec{ID: "goal-b", Wait: true, StartAfter: time.Minute, HoldFor: time.Minute, CancelAfter: 5 * time.Minute},
		leaseGoalSpec{ID: "goal-c", Wait: true, StartAfter: time.Minute, HoldFor: time.Minute},
	)
	w.assertExclusive(t)
	if queryErr != nil {
		t.Fatal(queryErr)
	}
	if len(queueAfterCancel) != 1 || queueAfterCancel[0].GoalID != "goal-c" {
		t.Fatalf("queue after goal-b was cancelled = %v, want only goal-c", queueAfterCancel)
	}
	if got := w.kinds("goal-b"); !slices.Equal(got, []string{"waiting", "cancelled"}) {
		t.Fatalf("goal-b did %v", got)
	}
	if _, ok := w.first("goal-c", "acquired"); !ok {
		t.Fatal("goal-c never got the phone")
	}
}

// A retried acquire delivers the request twice; the duplicate grant left
// in the goal's signal channel must not let its next acquisition through
// while another goal holds the phone.
func TestLeaseDuplicateGrantNotReused(t *testing.T) {
	env, w := newLeaseEnv(t)
	w.duplicate = true
	runHarness(t, env, time.Hour,
		leaseGoalSpec{ID: "goal-a", Wait: true, HoldFor: 2 * time.Minute, Cycles: 2},
		leaseGoalSpec{ID: "goal-b", Wait: true, StartAfter: time.Minute, HoldFor: 10 * time.Minute},
	)
	w.assertExclusive(t)
	if got := w.kinds("goal-a"); !slices.Equal(got, []string{"acquired", "released", "waiting", "acquired", "released", "done"}) {
		t.Fatalf("goal-a did %v", got)
	}
}

// --- the lease workflow on its own ---

type leaseSignals struct {
	mu     sync.Mutex
	calls  []string // "<signal> <goal> <detail>"
	grants []activities.LeaseGrant
	// claims is what FindLeaseClaims answers when the lease starts empty.
	claims activities.LeaseClaims
	// duringCheck, when set, runs inside the next DescribeLeaseHolder
	// (once): signals it sends reach the lease together, in one batch,
	// when the check returns.
	duringCheck func()
	// running, when set, answers whether a goal's workflow still runs.
	running func(goal string) bool
	// deliver, when set, hears every signal the lease sends a goal and
	// answers for the goal (an error: the goal has closed).
	deliver func(goal, name string, arg any) error
}

func (s *leaseSignals) add(line string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, line)
}

func (s *leaseSignals) list() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

// newLeaseUnitEnv runs the lease alone; signals named in failing
// ("<signal> <goal>") fail as if that goal had closed.
func newLeaseUnitEnv(t *testing.T, failing ...string) (*testsuite.TestWorkflowEnvironment, *leaseSignals) {
	t.Helper()
	return leaseUnitEnv(t, worker.Options{Interceptors: Interceptors()}, failing...)
}

// leaseUnitEnv is newLeaseUnitEnv on a worker with the options given.
func leaseUnitEnv(t *testing.T, opts worker.Options, failing ...string) (*testsuite.TestWorkflowEnvironment, *leaseSignals) {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, opts)
	env.RegisterWorkflow(DeviceLeaseWorkflow)
	sig := &leaseSignals{}
	env.OnSignalExternalWorkflow(mock.Anything, mock.Anything, "", mock.Anything, mock.Anything).Return(
		func(_ string, goal, _ string, name string, arg any) error {
			switch a := arg.(type) {
			case activities.LeaseGrant:
				sig.add(fmt.Sprintf("%s %s %s", name, goal, a.RequestID))
				sig.mu.Lock()
				sig.grants = append(sig.grants, a)
				sig.mu.Unlock()
			case activities.LeaseBusy:
				sig.add(fmt.Sprintf("%s %s holder=%s queued=%v pos=%d", name, goal, a.Holder, a.Queued, a.Position))
			default:
				sig.add(fmt.Sprintf("%s %s %v", name, goal, arg))
			}
			if slices.Contains(failing, name+" "+goal) {
				return errors.New("workflow not found")
			}
			if sig.deliver != nil {
				return sig.deliver(goal, name, arg)
			}
			return nil
		})
	env.RegisterActivityWithOptions(func(_ context.Context, goal string) (activities.HolderStatus, error) {
		sig.mu.Lock()
		during, running := sig.duringCheck, sig.running
		sig.duringCheck = nil
		sig.mu.Unlock()
		if during != nil {
			during()
		}
		if running != nil && !running(goal) {
			return activities.HolderStatus{Running: false, Status: "TimedOut"}, nil
		}
		return activities.HolderStatus{Running: true}, nil
	}, activity.RegisterOptions{Name: activities.NameDescribeLeaseHolder})
	// No goal claims the phone when the lease starts, unless the test
	// says so.
	env.RegisterActivityWithOptions(func(context.Context, activities.FindLeaseClaimsInput) (activities.LeaseClaims, error) {
		sig.mu.Lock()
		defer sig.mu.Unlock()
		return sig.claims, nil
	}, activity.RegisterOptions{Name: activities.NameFindLeaseClaims})
	return env, sig
}

func acquireAt(env *testsuite.TestWorkflowEnvironment, at time.Duration, goal string, wait bool, req string) {
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalLeaseAcquire, activities.LeaseRequest{Serial: leaseTestSerial, GoalID: goal, Wait: wait, RequestID: req})
	}, at)
}

func releaseAt(env *testsuite.TestWorkflowEnvironment, at time.Duration, goal string) {
	env.RegisterDelayedCallback(func() {
		env.SignalWorkflow(SignalLeaseRelease, activities.LeaseRelease{GoalID: goal})
	}, at)
}

func TestLeaseWorkflowProtocol(t *testing.T) {
	env, sig := newLeaseUnitEnv(t)
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-a", true, "a2") // repeated: re-granted
	acquireAt(env, 3*time.Second, "goal-b", true, "b1")
	acquireAt(env, 4*time.Second, "goal-b", true, "b2") // repeated: keeps its place
	acquireAt(env, 5*time.Second, "goal-c", false, "c1")
	acquireAt(env, 6*time.Second, "goal-d", true, "d1")
	releaseAt(env, 7*time.Second, "goal-a")
	releaseAt(env, 8*time.Second, "goal-x") // unknown: ignored
	releaseAt(env, 9*time.Second, "goal-b")
	releaseAt(env, 10*time.Second, "goal-d")
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute, CheckInterval: 30 * time.Second})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatalf("lease: %v", err)
	}
	want := []string{
		"lease_granted goal-a a1",
		"lease_granted goal-a a2",
		"lease_busy goal-b holder=goal-a queued=true pos=1",
		"lease_busy goal-b holder=goal-a queued=true pos=1",
		"lease_busy goal-c holder=goal-a queued=false pos=0",
		"lease_busy goal-d holder=goal-a queued=true pos=2",
		"lease_granted goal-b b2",
		"lease_granted goal-d d1",
	}
	if got := sig.list(); !slices.Equal(got, want) {
		t.Fatalf("signals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLeaseSkipsWaitersThatClosed(t *testing.T) {
	// goal-b queues fine but has closed by its turn: its grant cannot be
	// delivered, so the phone goes to goal-c.
	env, sig := newLeaseUnitEnv(t, "lease_granted goal-b")
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-b", true, "b1")
	acquireAt(env, 3*time.Second, "goal-c", true, "c1")
	releaseAt(env, 4*time.Second, "goal-a")
	releaseAt(env, 5*time.Second, "goal-c")
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lease_granted goal-a a1",
		"lease_busy goal-b holder=goal-a queued=true pos=1",
		"lease_busy goal-c holder=goal-a queued=true pos=2",
		"lease_granted goal-b b1",
		"lease_granted goal-c c1",
	}
	if got := sig.list(); !slices.Equal(got, want) {
		t.Fatalf("signals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLeaseBusyUndeliverableLeavesQueue(t *testing.T) {
	env, sig := newLeaseUnitEnv(t, "lease_busy goal-b")
	var st LeaseState
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-b", true, "b1")
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryLease)
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Error(err)
		}
	}, 3*time.Second)
	releaseAt(env, 4*time.Second, "goal-a")
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if st.Holder != "goal-a" || len(st.Queue) != 0 {
		t.Fatalf("state = %+v, want goal-a holding and nobody queued", st)
	}
	if slices.Contains(sig.list(), "lease_granted goal-b b1") {
		t.Fatalf("goal-b granted: %v", sig.list())
	}
}

func TestLeaseContinueAsNewCarriesHolderAndQueue(t *testing.T) {
	env, _ := newLeaseUnitEnv(t)
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-b", true, "b1")
	env.RegisterDelayedCallback(func() {
		env.SetContinueAsNewSuggested(true)
		// Arrives together with the suggestion: must be drained into the
		// carried state, not lost with the run.
		env.SignalWorkflow(SignalLeaseAcquire, activities.LeaseRequest{Serial: leaseTestSerial, GoalID: "goal-c", Wait: true, RequestID: "c1"})
	}, 3*time.Second)
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, CheckInterval: time.Hour})
	err := env.GetWorkflowError()
	var can *workflow.ContinueAsNewError
	if !errors.As(err, &can) {
		t.Fatalf("err = %v, want continue-as-new", err)
	}
	var st LeaseState
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &st); err != nil {
		t.Fatal(err)
	}
	if st.Serial != leaseTestSerial || st.Holder != "goal-a" || st.HolderRequest != "a1" || st.HeldSince.IsZero() {
		t.Fatalf("carried state %+v lost the holder", st)
	}
	if want := []LeaseWaiter{{GoalID: "goal-b", RequestID: "b1"}, {GoalID: "goal-c", RequestID: "c1"}}; !slices.Equal(st.Queue, want) {
		t.Fatalf("carried queue %v, want %v", st.Queue, want)
	}
	if st.CheckInterval != time.Hour {
		t.Fatalf("options not carried: %+v", st)
	}
}

// Every grant carries a fencing token larger than every token before it
// (docs/design.md §5): a new request of the holder gets a new one, the
// same request asked again keeps its own, and the tokens keep rising
// across continue-as-new and in a lease started again empty, which starts
// above the tokens its goals claim.
func TestLeaseTokensRiseAcrossGrantsContinueAsNewAndRestart(t *testing.T) {
	env, sig := newLeaseUnitEnv(t)
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-a", true, "a1") // the same request again
	acquireAt(env, 3*time.Second, "goal-a", true, "a2") // a new request
	acquireAt(env, 4*time.Second, "goal-b", true, "b1")
	releaseAt(env, 5*time.Second, "goal-a")
	env.RegisterDelayedCallback(func() { env.SetContinueAsNewSuggested(true) }, 6*time.Second)
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, CheckInterval: time.Hour})
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("err = %v, want continue-as-new", err)
	}
	var st LeaseState
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &st); err != nil {
		t.Fatal(err)
	}
	g := sig.grants
	if len(g) != 4 || g[0].Token <= 0 || g[1].Token != g[0].Token || g[2].Token <= g[1].Token || g[3].Token <= g[2].Token || g[3].GoalID != "goal-b" {
		t.Fatalf("grants %+v: want a1 twice under one token, then a2 and b1 each larger", g)
	}
	if st.Token != g[3].Token || st.Holder != "goal-b" {
		t.Fatalf("carried state %+v, want goal-b holding under token %d", st, g[3].Token)
	}

	// The next run of the lease (continue-as-new).
	env2, sig2 := newLeaseUnitEnv(t)
	releaseAt(env2, time.Second, "goal-b")
	acquireAt(env2, 2*time.Second, "goal-c", true, "c1")
	releaseAt(env2, 3*time.Second, "goal-c")
	env2.ExecuteWorkflow(DeviceLeaseWorkflow, st)
	if err := env2.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(sig2.grants) != 1 || sig2.grants[0].Token <= st.Token {
		t.Fatalf("grants after continue-as-new %+v, want one above %d", sig2.grants, st.Token)
	}

	// A lease started again empty (terminated, reset) whose holder claims a
	// token far above the clock: the next grant is above it.
	env3, sig3 := newLeaseUnitEnv(t)
	claimed := sig2.grants[0].Token + int64(24*time.Hour)
	sig3.claims = activities.LeaseClaims{Claims: []activities.LeaseClaim{{Serial: leaseTestSerial, GoalID: "goal-c", RequestID: "c2", Held: true, Token: claimed}}}
	acquireAt(env3, time.Second, "goal-d", true, "d1")
	releaseAt(env3, 2*time.Second, "goal-c")
	releaseAt(env3, 3*time.Second, "goal-d")
	env3.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute})
	if err := env3.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if len(sig3.grants) != 1 || sig3.grants[0].GoalID != "goal-d" || sig3.grants[0].Token <= claimed {
		t.Fatalf("grants of the lease started again %+v, want goal-d above the claimed %d", sig3.grants, claimed)
	}
}

func TestLeaseEmptySerialRejected(t *testing.T) {
	env, _ := newLeaseUnitEnv(t)
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{})
	var appErr *temporal.ApplicationError
	if err := env.GetWorkflowError(); !errors.As(err, &appErr) || !strings.Contains(err.Error(), "empty serial") {
		t.Fatalf("err = %v", err)
	}
}

// The activity starts the lease by type name; it must be the name the
// worker registers DeviceLeaseWorkflow under (its function name).
func TestLeaseWorkflowTypeName(t *testing.T) {
	full := runtime.FuncForPC(reflect.ValueOf(DeviceLeaseWorkflow).Pointer()).Name()
	if name := full[strings.LastIndex(full, ".")+1:]; name != LeaseWorkflowType {
		t.Fatalf("function %s registers as %q, lease activity starts %q", full, name, LeaseWorkflowType)
	}
	// The start input the activity sends decodes into the state.
	p, err := converter.GetDefaultDataConverter().ToPayload(activities.LeaseStart{Serial: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	var st LeaseState
	if err := converter.GetDefaultDataConverter().FromPayload(p, &st); err != nil || st.Serial != "s1" {
		t.Fatalf("LeaseStart → LeaseState = %+v, %v", st, err)
	}
}

func TestLeaseDeviceHookReportsWaiting(t *testing.T) {
	env, w := newLeaseEnv(t)
	env.RegisterWorkflow(leaseHookGoal)
	w.duplicate = false
	env.ExecuteWorkflow(leaseHookHarness)
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range w.log() {
		if e.Goal == "goal-hook" {
			got = append(got, e.Kind+":"+e.Detail)
		}
	}
	want := []string{"waiting:device busy: held by goal-a", "waiting:", "acquired:"}
	if !slices.Equal(got, want) {
		t.Fatalf("hook reported %q, want %q", got, want)
	}
}

func leaseHookGoal(ctx workflow.Context) error {
	id := workflow.GetInfo(ctx).WorkflowExecution.ID
	release, err := LeaseDevice(ctx, leaseTestSerial, id, true, func(s string) { leaseRecord(ctx, id, "waiting", s) })
	if err != nil {
		return err
	}
	leaseRecord(ctx, id, "acquired", "")
	release(ctx)
	return nil
}

func leaseHookHarness(ctx workflow.Context) error {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial)})
	if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return err
	}
	a := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-a"}),
		leaseTestGoal, leaseGoalSpec{Wait: true, HoldFor: 5 * time.Minute})
	_ = workflow.Sleep(ctx, time.Minute)
	h := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-hook"}), leaseHookGoal)
	_ = a.Get(ctx, nil)
	return h.Get(ctx, nil)
}

// --- real goals on one phone ---

func leaseGoalsHarness(ctx workflow.Context, ids []string, goals []GoalInput) error {
	lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial)})
	if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return err
	}
	var fs []workflow.Future
	for i, in := range goals {
		gctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: ids[i]})
		fs = append(fs, workflow.ExecuteChildWorkflow(gctx, GoalWorkflow, in))
	}
	for _, f := range fs {
		var r GoalResult
		if err := f.Get(ctx, &r); err != nil {
			return err
		}
		if r.Status != GoalDone {
			return fmt.Errorf("goal ended %s: %s", r.Status, r.Reason)
		}
	}
	return nil
}

// Two real GoalWorkflows started together on one phone: every device step
// of one comes before every step of the other.
func TestLeaseGoalsNeverShareAPhone(t *testing.T) {
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })

	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"a1": {tap(1, 1), tap(2, 2), finish("a1")},
		"a2": {tap(3, 3), finish("a2")},
		"b1": {tap(4, 4), tap(5, 5), finish("b1")},
	}}
	env, _ := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflow(leaseGoalsHarness)
	env.ExecuteWorkflow(leaseGoalsHarness, []string{"goal-a", "goal-b"}, []GoalInput{
		{Goal: "a", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"a1", "a2"}, DeviceWait: DeviceWaitWait}},
		{Goal: "b", Device: leaseTestSerial, Options: GoalOptions{Plan: []string{"b1"}, DeviceWait: DeviceWaitWait}},
	})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	var owners []string
	for _, s := range f.steps {
		goal, _, _ := strings.Cut(s.WorkflowID, "/")
		if len(owners) == 0 || owners[len(owners)-1] != goal {
			owners = append(owners, goal)
		}
	}
	if len(owners) != 2 {
		t.Fatalf("device steps by goal, in order: %v (want one unbroken run per goal)", owners)
	}
}

// leaseRestartHarness is leaseHarness whose lease is cancelled after
// restartAfter and started again empty under the same ID, as a lease that
// was terminated and started again by the next request would be.
func leaseRestartHarness(ctx workflow.Context, restartAfter time.Duration, specs []leaseGoalSpec) error {
	startLease := func(c workflow.Context) workflow.ChildWorkflowFuture {
		lctx := workflow.WithChildOptions(c, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(leaseTestSerial), TaskQueue: TaskQueue, WaitForCancellation: true})
		return workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, CheckInterval: time.Minute})
	}
	firstCtx, stopFirst := workflow.WithCancel(ctx)
	first := startLease(firstCtx)
	if err := first.GetChildWorkflowExecution().Get(ctx, nil); err != nil {
		return err
	}
	restarted := false
	workflow.Go(ctx, func(c workflow.Context) {
		_ = workflow.Sleep(c, restartAfter)
		stopFirst()
		_ = first.Get(c, nil)
		_ = startLease(c).GetChildWorkflowExecution().Get(c, nil)
		restarted = true
	})
	var fs []workflow.Future
	for _, spec := range specs {
		if spec.StartAfter > 0 {
			_ = workflow.Sleep(ctx, spec.StartAfter)
		}
		gctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: spec.ID, WaitForCancellation: true})
		fs = append(fs, workflow.ExecuteChildWorkflow(gctx, leaseTestGoal, spec))
	}
	for _, f := range fs {
		if err := f.Get(ctx, nil); err != nil {
			return err
		}
	}
	if !restarted {
		return errors.New("the lease was not restarted while the goals ran")
	}
	return nil
}

// TestLeaseStartedAgainKeepsItsHolder: a lease that lost its state while
// goal a held the phone (terminated, reset, here cancelled) is started
// again empty; it asks the goals, finds a holding the phone, and queues b
// behind it instead of granting b the phone a drives.
func TestLeaseStartedAgainKeepsItsHolder(t *testing.T) {
	env, w := newLeaseEnv(t)
	var claimA, claimB activities.LeaseClaim
	env.RegisterDelayedCallback(func() {
		for id, c := range map[string]*activities.LeaseClaim{"goal-a": &claimA, "goal-b": &claimB} {
			v, err := env.QueryWorkflowByID(id, QueryLeaseClaim)
			if err != nil || v.Get(c) != nil {
				t.Errorf("%s's lease_claim query: %v", id, err)
			}
		}
	}, 5*time.Minute)
	env.ExecuteWorkflow(leaseRestartHarness, 2*time.Minute, []leaseGoalSpec{
		{ID: "goal-a", Wait: true, HoldFor: 10 * time.Minute},
		{ID: "goal-b", Wait: true, StartAfter: 4 * time.Minute, HoldFor: time.Minute},
	})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("harness: completed %v, error %v", env.IsWorkflowCompleted(), env.GetWorkflowError())
	}
	w.assertExclusive(t)
	aReleased, _ := w.first("goal-a", "released")
	bAcquired, ok := w.first("goal-b", "acquired")
	if !ok || bAcquired.At.Before(aReleased.At) {
		t.Fatalf("b acquired at %v (ok %v), a released at %v; log %v", bAcquired.At, ok, aReleased.At, w.log())
	}
	if w.derived < 2 {
		t.Errorf("%d leases asked the goals who holds the phone, want both", w.derived)
	}
	if !claimA.Held || claimA.Waiting || claimB.Held || !claimB.Waiting || claimB.RequestID == "" {
		t.Errorf("claims while a held the phone: a %+v, b %+v", claimA, claimB)
	}
}
