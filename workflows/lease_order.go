package workflows

import (
	"slices"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ChangeLeaseRequestOrder: the lease takes acquires and releases in the
// order they arrived (as the worker's SignalOrder interceptor numbered
// them), and ignores a request its goal gave up (released, or replaced
// by a newer request) when it arrives again (docs/design.md §5). Before
// it, a holder's release and its next acquire that arrived in one batch
// were taken acquire first: the holder's new request was granted, then
// the release handed the phone to the next waiter, and both goals held
// it. Runs without the marker take signals as before.
const ChangeLeaseRequestOrder = "lease-request-order"

// maxRetired bounds the request IDs a lease remembers its goals gave up.
const maxRetired = 64

// leaseSignalNames are the signals the lease takes, in the order of
// names a run from before ChangeLeaseRequestOrder preferred.
var leaseSignalNames = []string{SignalLeaseAcquire, SignalLeaseRelease}

// requestOrder decides, once per run, whether the lease takes its
// requests in arrival order (ChangeLeaseRequestOrder); a worker without
// the signal-order interceptor keeps the order of names, as
// newSignalOrder does for goals.
func (l *lease) requestOrder(ctx workflow.Context) {
	log, _ := ctx.Value(arrivalsKey{}).(*arrivals)
	maxV := workflow.DefaultVersion
	if log != nil {
		maxV = 1
	}
	if getVersion(ctx, ChangeLeaseRequestOrder, workflow.DefaultVersion, maxV) >= 1 {
		l.order = signalOrder{log: log}
	}
}

// takeInOrder applies every acquire and release waiting in their channels,
// in the order they arrived.
func (l *lease) takeInOrder(ctx workflow.Context, acquire, release workflow.ReceiveChannel) {
	ch := func(name string) workflow.ReceiveChannel {
		if name == SignalLeaseAcquire {
			return acquire
		}
		return release
	}
	l.order.drainByArrival(leaseSignalNames, ch, func(name string, c workflow.ReceiveChannel) {
		if name == SignalLeaseAcquire {
			var r activities.LeaseRequest
			c.Receive(ctx, &r)
			l.acquire(ctx, r)
			return
		}
		var r activities.LeaseRelease
		c.Receive(ctx, &r)
		l.release(ctx, r.GoalID)
	})
}

// retire remembers a request its goal gave up, so the same request
// arriving again (a retried delivery) is not granted or queued.
func (l *lease) retire(req string) {
	if !l.order.byArrival() || req == "" || slices.Contains(l.st.Retired, req) {
		return
	}
	l.st.Retired = append(l.st.Retired, req)
	if n := len(l.st.Retired); n > maxRetired {
		l.st.Retired = slices.Delete(l.st.Retired, 0, n-maxRetired)
	}
}

// retired reports whether req is a request its goal gave up.
func (l *lease) retired(req string) bool {
	return l.order.byArrival() && req != "" && slices.Contains(l.st.Retired, req)
}
