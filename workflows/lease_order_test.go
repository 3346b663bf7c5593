package workflows

import (
	"slices"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/phoneflow/phoneflow/activities"
)

// A holder's release and its next acquire that arrive in one batch are
// taken in that order: the phone goes to the goal that waited, and the
// holder queues behind it. Taken acquire first, the holder was granted
// its new request and the release then granted the waiter: two holders
// (docs/design.md §5, ChangeLeaseRequestOrder).
func TestLeaseTakesAReleaseAndTheNextAcquireInTheirOrder(t *testing.T) {
	env, sig := newLeaseUnitEnv(t)
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-b", true, "b1")
	// While the lease checks its holder, goal-a releases and asks again:
	// both reach the lease together when the check returns.
	sig.duringCheck = func() {
		env.SignalWorkflow(SignalLeaseRelease, activities.LeaseRelease{GoalID: "goal-a"})
		env.SignalWorkflow(SignalLeaseAcquire, activities.LeaseRequest{Serial: leaseTestSerial, GoalID: "goal-a", Wait: true, RequestID: "a2"})
	}
	// The first request delivered again (a retried signal-with-start):
	// goal-a gave it up, so it is neither granted nor queued.
	acquireAt(env, 4*time.Second, "goal-a", true, "a1")
	var st LeaseState
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryLease)
		if err == nil {
			err = v.Get(&st)
		}
		if err != nil {
			t.Error(err)
		}
	}, 5*time.Second)
	releaseAt(env, 6*time.Second, "goal-b")
	releaseAt(env, 7*time.Second, "goal-a")
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute, CheckInterval: 3 * time.Second})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"lease_granted goal-a a1",
		"lease_busy goal-b holder=goal-a queued=true pos=1",
		"lease_granted goal-b b1",
		"lease_busy goal-a holder=goal-b queued=true pos=1",
		"lease_granted goal-a a2",
	}
	if got := sig.list(); !slices.Equal(got, want) {
		t.Fatalf("signals:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if st.Holder != "goal-b" || len(st.Queue) != 1 || st.Queue[0].RequestID != "a2" {
		t.Fatalf("state after the batch = %+v, want goal-b holding and goal-a's a2 queued", st)
	}
}

// A lease run from before ChangeLeaseRequestOrder (here: on a worker
// without the signal-order interceptor, which keeps the default version)
// takes the same batch as it did: acquire first, two holders (kept as it
// ran, for histories recorded before).
func TestLeaseBeforeRequestOrderTakesAcquiresFirst(t *testing.T) {
	env, sig := leaseUnitEnv(t, worker.Options{})
	acquireAt(env, time.Second, "goal-a", true, "a1")
	acquireAt(env, 2*time.Second, "goal-b", true, "b1")
	sig.duringCheck = func() {
		env.SignalWorkflow(SignalLeaseRelease, activities.LeaseRelease{GoalID: "goal-a"})
		env.SignalWorkflow(SignalLeaseAcquire, activities.LeaseRequest{Serial: leaseTestSerial, GoalID: "goal-a", Wait: true, RequestID: "a2"})
	}
	releaseAt(env, 6*time.Second, "goal-b")
	releaseAt(env, 7*time.Second, "goal-a")
	env.ExecuteWorkflow(DeviceLeaseWorkflow, LeaseState{Serial: leaseTestSerial, IdleTimeout: time.Minute, CheckInterval: 3 * time.Second})
	if err := env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	got := sig.list()
	if !slices.Contains(got, "lease_granted goal-a a2") || !slices.Contains(got, "lease_granted goal-b b1") ||
		slices.Index(got, "lease_granted goal-a a2") > slices.Index(got, "lease_granted goal-b b1") {
		t.Fatalf("signals %v: the old order granted goal-a's a2 and then goal-b", got)
	}
}
