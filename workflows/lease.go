package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// Device lease names on the wire. One DeviceLeaseWorkflow per phone (ID
// LeaseWorkflowID(serial), task queue TaskQueue) decides which goal drives
// that phone; goals ask through the AcquireDevice activity and hear back
// by signal.
const (
	LeaseWorkflowType     = activities.LeaseWorkflowType  // registered name of DeviceLeaseWorkflow
	LeaseWorkflowIDPrefix = "device-lease-"               // + serial
	SignalLeaseAcquire    = activities.LeaseSignalAcquire // to the lease: activities.LeaseRequest
	SignalLeaseRelease    = activities.LeaseSignalRelease // to the lease: activities.LeaseRelease
	SignalLeaseGranted    = activities.LeaseSignalGranted // to a goal: activities.LeaseGrant
	SignalLeaseBusy       = activities.LeaseSignalBusy    // to a goal: activities.LeaseBusy
	SignalLeaseRevoked    = activities.LeaseSignalRevoked // to a goal: activities.LeaseRevoked
	QueryLease            = activities.LeaseQueryState    // on the lease: LeaseState
	QueryLeaseClaim       = activities.LeaseQueryClaim    // on a goal: activities.LeaseClaim
)

// Lease defaults, used when the LeaseState fields are zero.
const (
	// DefaultLeaseCheckInterval is how often the lease asks whether its
	// holder is still running, so a goal that closed without releasing
	// (terminated, timed out, or a bug) frees the phone.
	DefaultLeaseCheckInterval = time.Minute
	// DefaultLeaseIdleTimeout is how long a lease with no holder and no
	// queue stays open before it completes; the next acquire starts it again.
	DefaultLeaseIdleTimeout = 10 * time.Minute
	// DefaultLeaseHistoryLimit continues the lease as new once its history
	// reaches this many events, even before the server suggests it.
	DefaultLeaseHistoryLimit = 2000
	// DefaultBlockedHolderAfter is how long a holder's workflow task may
	// keep failing before the lease takes the phone from it
	// (docs/design.md §5).
	DefaultBlockedHolderAfter = 5 * time.Minute
	// maxRevoked bounds the goals a lease remembers it took the phone from.
	maxRevoked = 32
)

// LeaseWorkflowID returns the workflow ID of the lease of serial.
func LeaseWorkflowID(serial string) string { return LeaseWorkflowIDPrefix + serial }

// LeaseState is the whole state of a DeviceLeaseWorkflow: its input, what
// it carries across continue-as-new, and the answer of QueryLease. The
// AcquireDevice activity starts a lease with only Serial set.
type LeaseState struct {
	Serial string `json:"serial"`
	// Holder is the goal workflow ID driving the phone ("" when free) and
	// HolderRequest the request it was granted on.
	Holder        string        `json:"holder,omitempty"`
	HolderRequest string        `json:"holder_request,omitempty"`
	HeldSince     time.Time     `json:"held_since,omitzero"`
	Queue         []LeaseWaiter `json:"queue,omitempty"` // first come, first served
	// HolderRevocable says the holder asked as a goal that obeys a revoke
	// (activities.LeaseRequest.Revocable): only such a holder is taken
	// off the phone when its workflow task keeps failing.
	HolderRevocable bool `json:"holder_revocable,omitempty"`
	// Revoked are the goals the phone was taken from and that have not
	// held it again since, oldest first: their device actions are refused
	// (the fence of docs/design.md §5) until they hold it again.
	Revoked []RevokedHolder `json:"revoked,omitempty"`

	// Token is the fencing token of the newest grant (docs/design.md
	// §5): every grant takes the larger of Token+1 and the grant's time in
	// Unix nanoseconds, so tokens keep rising across continue-as-new (the
	// state carries Token) and across a lease started again empty (its
	// time is later, and it starts above the tokens its goals claim).
	Token int64 `json:"token,omitempty"`

	// Derived is set once this lease has asked the goals on the phone
	// who holds it and who waits (ChangeLeaseClaims); a lease started
	// empty asks before it grants anything.
	Derived bool `json:"derived,omitempty"`

	CheckInterval time.Duration `json:"check_interval,omitempty"`
	IdleTimeout   time.Duration `json:"idle_timeout,omitempty"`
	HistoryLimit  int           `json:"history_limit,omitempty"`
	// BlockedAfter is how long a holder's workflow task may keep failing
	// before the phone is taken from it (limits.blocked_holder_after).
	BlockedAfter time.Duration `json:"blocked_after,omitempty"`

	// Retired are requests their goals gave up (released, or replaced by
	// a newer request), newest last: the same request arriving again is
	// ignored (ChangeLeaseRequestOrder).
	Retired []string `json:"retired,omitempty"`
}

// LeaseWaiter is a goal queued for a phone.
type LeaseWaiter struct {
	GoalID    string `json:"goal_id"`
	RequestID string `json:"request_id,omitempty"`
	Revocable bool   `json:"revocable,omitempty"`
}

// RevokedHolder is a goal the lease took the phone from, when, and why:
// "phone taken from goal X: its workflow task has failed since 09:12 (…)".
type RevokedHolder struct {
	GoalID string    `json:"goal_id"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason,omitempty"`
}

// DeviceBusyError is returned by AcquireDevice in fail-fast mode when
// another goal holds the phone.
type DeviceBusyError struct {
	Serial string
	Holder string
}

func (e *DeviceBusyError) Error() string {
	return fmt.Sprintf("device %s is busy: goal %s is driving it (wait for it, cancel it, or start with device_wait=wait to queue behind it)", e.Serial, e.Holder)
}

type lease struct {
	st LeaseState
	// order is how the run takes acquires and releases: by arrival
	// (ChangeLeaseRequestOrder), or in the fixed order of names.
	order signalOrder
}

// DeviceLeaseWorkflow serializes goals on one phone: it grants the phone
// to one goal at a time, queues the others that asked to wait (first come,
// first served) and tells the rest who holds it. Requests and releases are
// signals, not updates: they come from other workflows, which can signal
// but not update. The holder's liveness is checked every CheckInterval so
// a goal that closed without releasing cannot keep the phone.
func DeviceLeaseWorkflow(ctx workflow.Context, st LeaseState) error {
	if st.Serial == "" {
		return temporal.NewNonRetryableApplicationError("device lease: empty serial: start the lease through AcquireDevice", "InvalidLease", nil)
	}
	if st.CheckInterval <= 0 {
		st.CheckInterval = DefaultLeaseCheckInterval
	}
	if st.IdleTimeout <= 0 {
		st.IdleTimeout = DefaultLeaseIdleTimeout
	}
	if st.HistoryLimit <= 0 {
		st.HistoryLimit = DefaultLeaseHistoryLimit
	}
	if st.BlockedAfter <= 0 {
		st.BlockedAfter = DefaultBlockedHolderAfter
	}
	l := &lease{st: st}
	log := workflow.GetLogger(ctx)
	if err := setQuery(ctx, QueryLease, func() (LeaseState, error) {
		s := l.st
		s.Queue = slices.Clone(s.Queue)
		s.Revoked = slices.Clone(s.Revoked)
		return s, nil
	}); err != nil {
		return err
	}
	acquire := signalChannel(ctx, SignalLeaseAcquire)
	release := signalChannel(ctx, SignalLeaseRelease)
	l.requestOrder(ctx)
	if !l.st.Derived && getVersion(ctx, ChangeLeaseClaims, workflow.DefaultVersion, 1) >= 1 {
		// A lease that starts empty may replace one that was terminated
		// or reset while a goal held the phone: learn the holder and the
		// queue from the goals before granting anything (requests wait in
		// the channel meanwhile).
		l.derive(ctx)
	}
	l.details(ctx)

	var tick workflow.Future
	var idleSince time.Time
	for {
		l.grantNext(ctx)
		if l.idle() {
			if idleSince.IsZero() {
				idleSince = workflow.Now(ctx)
			}
		} else {
			idleSince = time.Time{}
		}
		info := workflow.GetInfo(ctx)
		if info.GetContinueAsNewSuggested() || info.GetCurrentHistoryLength() >= l.st.HistoryLimit {
			// Continue as new only with empty signal channels: a request
			// left unread here would be lost with this run.
			l.drain(ctx, acquire, release)
			log.Info("device lease continues as new", "serial", l.st.Serial, "holder", l.st.Holder, "queued", len(l.st.Queue))
			return workflow.NewContinueAsNewError(ctx, DeviceLeaseWorkflow, l.st)
		}
		if tick == nil {
			tick = workflow.NewTimer(ctx, l.st.CheckInterval)
		}
		fired, cancelled := false, false
		if l.order.byArrival() {
			// A condition, not a selector: a selector takes the ready
			// channels in the order its cases were added.
			t := tick
			if workflow.Await(ctx, func() bool { return acquire.Len() > 0 || release.Len() > 0 || t.IsReady() }) != nil {
				cancelled = true
			} else if acquire.Len() > 0 || release.Len() > 0 {
				l.takeInOrder(ctx, acquire, release)
			} else {
				fired = true
			}
		} else {
			l.selectOne(ctx, acquire, release, tick, &fired, &cancelled)
		}
		if cancelled {
			l.closeDown(ctx)
			return ctx.Err()
		}
		if !fired {
			continue
		}
		tick = nil
		switch {
		case l.st.Holder != "":
			l.checkHolder(ctx)
		case len(l.st.Revoked) > 0:
			l.checkRevoked(ctx)
		case l.idle() && workflow.Now(ctx).Sub(idleSince) >= l.st.IdleTimeout:
			l.drain(ctx, acquire, release)
			if l.idle() {
				log.Info("device lease idle, closing", "serial", l.st.Serial)
				return nil
			}
		}
	}
}

// selectOne waits for one acquire, release, the check timer or the cancel,
// as runs from before ChangeLeaseRequestOrder do: of the signals ready
// together, acquires first.
func (l *lease) selectOne(ctx workflow.Context, acquire, release workflow.ReceiveChannel, tick workflow.Future, fired, cancelled *bool) {
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(acquire, func(c workflow.ReceiveChannel, _ bool) {
		var r activities.LeaseRequest
		c.Receive(ctx, &r)
		l.acquire(ctx, r)
	})
	sel.AddReceive(release, func(c workflow.ReceiveChannel, _ bool) {
		var r activities.LeaseRelease
		c.Receive(ctx, &r)
		l.release(ctx, r.GoalID)
	})
	sel.AddFuture(tick, func(workflow.Future) { *fired = true })
	sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) { *cancelled = true })
	sel.Select(ctx)
}

// idle reports whether the lease may close: nobody holds or waits, and no
// goal it took the phone from is left to fence (a lease started again
// would not know them).
func (l *lease) idle() bool {
	return l.st.Holder == "" && len(l.st.Queue) == 0 && len(l.st.Revoked) == 0
}

// ChangeLeaseClaims: a lease started empty asks the running goals on its
// phone whether they hold it or wait for it (the FindLeaseClaims activity
// and each goal's claim query), and starts from their answers
// (docs/design.md §5). Before it, a terminated or reset lease forgot its
// holder and granted the phone to the next goal that asked.
const ChangeLeaseClaims = "lease-claims"

// goalWorkflowName is the registered type name of GoalWorkflow.
const goalWorkflowName = "GoalWorkflow"

// derive sets the holder and queue from the goals' claims: the earliest
// goal that holds the phone holds it, the goals that wait queue in the
// order they started. When no goal says it holds the phone but some did
// not answer (their worker is away), the first of those is taken as the
// holder: never two goals on one phone; the liveness check frees the phone
// once it has closed.
func (l *lease) derive(ctx workflow.Context) {
	log := workflow.GetLogger(ctx)
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout:    2 * time.Minute,
		ScheduleToCloseTimeout: 10 * time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: time.Minute},
		Summary:                "Ask the goals on phone " + clip(l.st.Serial, 60) + " who holds it",
	})
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND %s = '%s'",
		goalWorkflowName, SearchAttrDevice, strings.ReplaceAll(l.st.Serial, "'", "\\'"))
	var found activities.LeaseClaims
	if err := workflow.ExecuteActivity(actx, activities.NameFindLeaseClaims, activities.FindLeaseClaimsInput{Serial: l.st.Serial, Query: q}).Get(ctx, &found); err != nil {
		log.Warn("device lease: cannot ask the goals who holds the phone; starting empty", "serial", l.st.Serial, "error", err)
		l.st.Derived = true
		return
	}
	now := workflow.Now(ctx)
	for _, c := range found.Claims {
		l.st.Token = max(l.st.Token, c.Token)
		switch {
		case c.Held && l.st.Holder == "":
			l.st.Holder, l.st.HolderRequest, l.st.HeldSince = c.GoalID, c.RequestID, now
			l.st.HolderRevocable = c.Revocable
		case c.Held:
			log.Warn("device lease: another goal also says it holds the phone", "serial", l.st.Serial, "holder", l.st.Holder, "goal", c.GoalID)
		case c.Waiting && c.GoalID != l.st.Holder && l.position(c.GoalID) == 0:
			l.st.Queue = append(l.st.Queue, LeaseWaiter{c.GoalID, c.RequestID, c.Revocable})
		}
	}
	if l.st.Holder == "" && len(found.Unknown) > 0 {
		l.st.Holder, l.st.HeldSince = found.Unknown[0], now
		l.unqueue(ctx, l.st.Holder)
	}
	if l.st.Holder != "" || len(l.st.Queue) > 0 {
		log.Info("device lease re-derived from the goals", "serial", l.st.Serial, "holder", l.st.Holder, "queued", len(l.st.Queue))
	}
	l.st.Derived = true
}

// drain applies every signal already delivered, until none is left: in
// arrival order (ChangeLeaseRequestOrder), else releases first.
func (l *lease) drain(ctx workflow.Context, acquire, release workflow.ReceiveChannel) {
	if l.order.byArrival() {
		l.takeInOrder(ctx, acquire, release)
		return
	}
	for {
		var r activities.LeaseRequest
		var rel activities.LeaseRelease
		switch {
		case release.ReceiveAsync(&rel):
			l.release(ctx, rel.GoalID)
		case acquire.ReceiveAsync(&r):
			l.acquire(ctx, r)
		default:
			return
		}
	}
}
