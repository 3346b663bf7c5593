package workflows

import (
	"crypto/rand"
	"encoding/hex"
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
	// (docs/design.md §24).
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
	// (the fence of docs/design.md §24) until they hold it again.
	Revoked []RevokedHolder `json:"revoked,omitempty"`

	// Token is the fencing token of the newest grant (docs/design.md
	// §24): every grant takes the larger of Token+1 and the grant's time in
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
	if err := workflow.SetQueryHandler(ctx, QueryLease, func() (LeaseState, error) {
		s := l.st
		s.Queue = slices.Clone(s.Queue)
		s.Revoked = slices.Clone(s.Revoked)
		return s, nil
	}); err != nil {
		return err
	}
	acquire := workflow.GetSignalChannel(ctx, SignalLeaseAcquire)
	release := workflow.GetSignalChannel(ctx, SignalLeaseRelease)
	if !l.st.Derived && workflow.GetVersion(ctx, ChangeLeaseClaims, workflow.DefaultVersion, 1) >= 1 {
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
		sel.AddFuture(tick, func(workflow.Future) { fired = true })
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) { cancelled = true })
		sel.Select(ctx)
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

// idle reports whether the lease may close: nobody holds or waits, and no
// goal it took the phone from is left to fence (a lease started again
// would not know them).
func (l *lease) idle() bool {
	return l.st.Holder == "" && len(l.st.Queue) == 0 && len(l.st.Revoked) == 0
}

// ChangeLeaseClaims: a lease started empty asks the running goals on its
// phone whether they hold it or wait for it (the FindLeaseClaims activity
// and each goal's claim query), and starts from their answers
// (docs/design.md §24). Before it, a terminated or reset lease forgot its
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

// drain applies every signal already delivered, until none is left.
func (l *lease) drain(ctx workflow.Context, acquire, release workflow.ReceiveChannel) {
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

func (l *lease) acquire(ctx workflow.Context, r activities.LeaseRequest) {
	log := workflow.GetLogger(ctx)
	if r.GoalID == "" {
		log.Warn("device lease: acquire without goal ID ignored", "serial", l.st.Serial)
		return
	}
	switch {
	case r.GoalID == l.st.Holder:
		// A retried or repeated request from the holder: say yes again,
		// to the request now asking; a new request gets a new token.
		if r.RequestID != l.st.HolderRequest {
			l.nextToken(ctx)
		}
		l.st.HolderRequest = r.RequestID
		l.st.HolderRevocable = r.Revocable
		if !l.grant(ctx, LeaseWaiter{r.GoalID, r.RequestID, r.Revocable}) {
			l.dropHolder(ctx, "grant could not be delivered")
		}
	case l.st.Holder == "" && len(l.st.Queue) == 0:
		l.grantAndHold(ctx, LeaseWaiter{r.GoalID, r.RequestID, r.Revocable})
	default:
		pos := l.position(r.GoalID)
		if pos > 0 {
			l.st.Queue[pos-1].RequestID, l.st.Queue[pos-1].Revocable = r.RequestID, r.Revocable
		} else if r.Wait {
			l.st.Queue = append(l.st.Queue, LeaseWaiter{r.GoalID, r.RequestID, r.Revocable})
			pos = len(l.st.Queue)
			l.details(ctx)
		}
		busy := activities.LeaseBusy{Serial: l.st.Serial, Holder: l.st.Holder, Queued: pos > 0, Position: pos, RequestID: r.RequestID}
		if err := workflow.SignalExternalWorkflow(ctx, r.GoalID, "", SignalLeaseBusy, busy).Get(ctx, nil); err != nil {
			log.Warn("device lease: goal gone before it heard the phone is busy", "serial", l.st.Serial, "goal", r.GoalID, "error", err)
			l.unqueue(ctx, r.GoalID)
		}
	}
}

func (l *lease) release(ctx workflow.Context, goalID string) {
	if goalID != "" && goalID == l.st.Holder {
		workflow.GetLogger(ctx).Info("device released", "serial", l.st.Serial, "goal", goalID)
		l.st.Holder, l.st.HolderRequest, l.st.HeldSince, l.st.HolderRevocable = "", "", time.Time{}, false
		l.grantNext(ctx)
		l.details(ctx)
		return
	}
	l.unqueue(ctx, goalID)
	l.forget(ctx, goalID) // a goal that gives the phone up drives it no more
}

// position is the 1-based queue place of goalID, 0 when not queued.
func (l *lease) position(goalID string) int {
	return slices.IndexFunc(l.st.Queue, func(w LeaseWaiter) bool { return w.GoalID == goalID }) + 1
}

func (l *lease) unqueue(ctx workflow.Context, goalID string) {
	if i := l.position(goalID) - 1; i >= 0 {
		l.st.Queue = slices.Delete(l.st.Queue, i, i+1)
		l.details(ctx)
	}
}

// grant tells goalID it holds the phone; false when the signal could not
// be delivered (the goal has closed).
func (l *lease) grant(ctx workflow.Context, w LeaseWaiter) bool {
	g := activities.LeaseGrant{Serial: l.st.Serial, GoalID: w.GoalID, RequestID: w.RequestID, Token: l.st.Token}
	if err := workflow.SignalExternalWorkflow(ctx, w.GoalID, "", SignalLeaseGranted, g).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Warn("device lease: grant not delivered, skipping goal", "serial", l.st.Serial, "goal", w.GoalID, "error", err)
		return false
	}
	return true
}

// grantAndHold makes w the holder under a new token and tells it; a goal
// that cannot be told (it has closed) is not the holder after all (its
// token is never used, and the next grant's is larger).
func (l *lease) grantAndHold(ctx workflow.Context, w LeaseWaiter) {
	prev := l.st
	l.hold(ctx, w)
	if !l.grant(ctx, w) {
		l.st.Holder, l.st.HolderRequest, l.st.HeldSince, l.st.HolderRevocable = prev.Holder, prev.HolderRequest, prev.HeldSince, prev.HolderRevocable
		l.details(ctx)
	}
}

func (l *lease) hold(ctx workflow.Context, w LeaseWaiter) {
	l.nextToken(ctx)
	l.st.Holder, l.st.HolderRequest, l.st.HeldSince = w.GoalID, w.RequestID, workflow.Now(ctx)
	l.st.HolderRevocable = w.Revocable
	l.forget(ctx, w.GoalID) // it holds the phone again
	workflow.GetLogger(ctx).Info("device granted", "serial", l.st.Serial, "goal", w.GoalID, "token", l.st.Token, "queued", len(l.st.Queue))
	l.details(ctx)
}

// nextToken raises Token for a grant: strictly above every earlier token
// and at least the grant's time in nanoseconds (workflow time, the same on
// replay), so a lease that started again empty grants above the tokens of
// the lease before it.
func (l *lease) nextToken(ctx workflow.Context) {
	l.st.Token = max(l.st.Token+1, workflow.Now(ctx).UnixNano())
}

// grantNext hands a free phone to the first waiting goal still running.
func (l *lease) grantNext(ctx workflow.Context) {
	for l.st.Holder == "" && len(l.st.Queue) > 0 {
		next := l.st.Queue[0]
		l.st.Queue = l.st.Queue[1:]
		l.grantAndHold(ctx, next)
	}
}

func (l *lease) dropHolder(ctx workflow.Context, why string) {
	workflow.GetLogger(ctx).Warn("device lease: dropping holder", "serial", l.st.Serial, "goal", l.st.Holder, "reason", why)
	l.st.Holder, l.st.HolderRequest, l.st.HeldSince, l.st.HolderRevocable = "", "", time.Time{}, false
	l.grantNext(ctx)
	l.details(ctx)
}

// checkHolder frees the phone when its holder is no longer running. When
// the answer cannot be had the holder keeps the phone: never two goals on
// one phone.
func (l *lease) checkHolder(ctx workflow.Context) {
	holder := l.st.Holder
	hs, err := l.describe(ctx, holder)
	if err != nil {
		workflow.GetLogger(ctx).Warn("device lease: cannot tell whether the holder runs; keeping it", "serial", l.st.Serial, "goal", holder, "error", err)
		return
	}
	switch {
	case l.st.Holder != holder:
	case !hs.Running:
		l.dropHolder(ctx, "holder closed without releasing ("+hs.Status+")")
	case hs.Blocked && l.st.HolderRevocable:
		l.revokeBlocked(ctx, hs)
	}
}

// describe asks whether goal's workflow still runs, and whether its
// workflow task keeps failing (DescribeLeaseHolder).
func (l *lease) describe(ctx workflow.Context, goal string) (activities.HolderStatus, error) {
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
		Summary:             "Is " + clip(goal, 80) + " still running?",
	})
	var hs activities.HolderStatus
	err := workflow.ExecuteActivity(actx, activities.NameDescribeLeaseHolder, goal).Get(ctx, &hs)
	return hs, err
}

// closeDown tells every waiting goal that this lease is gone, so none
// waits forever on a cancelled lease.
func (l *lease) closeDown(ctx workflow.Context) {
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	for _, w := range l.st.Queue {
		busy := activities.LeaseBusy{Serial: l.st.Serial, RequestID: w.RequestID}
		_ = workflow.SignalExternalWorkflow(dctx, w.GoalID, "", SignalLeaseBusy, busy).Get(dctx, nil)
	}
}

// details shows the holder and queue in the Web UI.
func (l *lease) details(ctx workflow.Context) {
	s := fmt.Sprintf("**Phone** %s\n\n**Holder** %s\n\n**Queue** %d", l.st.Serial, orNone(l.st.Holder), len(l.st.Queue))
	for i, g := range l.st.Queue {
		if i == 20 {
			s += "\n- …"
			break
		}
		s += "\n- " + g.GoalID
	}
	if n := len(l.st.Revoked); n > 0 {
		s += "\n\n**Taken from blocked goals** (their device actions are refused until they hold the phone again)"
		for _, r := range l.st.Revoked[max(0, n-5):] {
			s += "\n- " + r.Reason
		}
	}
	workflow.SetCurrentDetails(ctx, s)
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// newRequestID runs inside a SideEffect only.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// AcquireDevice makes the calling goal workflow the only driver of the
// phone serial. It returns once the phone is held, with a release func the
// goal must call when done (from a disconnected context on cancel and
// failure paths); the lease also frees the phone by itself once the goal
// has closed. With wait false a busy phone fails at once with a
// *DeviceBusyError naming the holder; with wait true the goal queues and
// onWaiting (may be nil) is told the holder. A goal cancelled while
// waiting leaves the queue before returning the cancellation.
func AcquireDevice(ctx workflow.Context, serial string, wait bool, onWaiting func(holder string)) (release func(workflow.Context), err error) {
	return acquireDevice(ctx, serial, workflow.GetInfo(ctx).WorkflowExecution.ID, wait, onWaiting)
}

// LeaseDevice is AcquireDevice in the shape of the GoalWorkflow's
// DeviceLease hook (the worker sets workflows.DeviceLease = LeaseDevice).
// goalID must be the calling workflow's ID. waiting gets "device busy: held
// by <goal>" while queued and "" once the phone is held.
func LeaseDevice(ctx workflow.Context, serial, goalID string, wait bool, waiting func(string)) (func(workflow.Context), error) {
	rel, err := acquireDevice(ctx, serial, goalID, wait, func(holder string) {
		if waiting != nil {
			waiting("device busy: held by " + holder)
		}
	})
	if err == nil && waiting != nil {
		waiting("")
	}
	return rel, err
}

// ReleaseDevice gives serial back on behalf of goalID, or takes goalID out
// of its queue. Use it where the release func is not at hand (e.g. after
// continue-as-new); releasing a phone not held is harmless.
func ReleaseDevice(ctx workflow.Context, serial, goalID string) error {
	err := workflow.SignalExternalWorkflow(ctx, LeaseWorkflowID(serial), "", SignalLeaseRelease, activities.LeaseRelease{GoalID: goalID}).Get(ctx, nil)
	if err != nil {
		return fmt.Errorf("release device %s for %s: %w", serial, goalID, err)
	}
	return nil
}

func acquireDevice(ctx workflow.Context, serial, goalID string, wait bool, onWaiting func(string)) (func(workflow.Context), error) {
	if serial == "" {
		return nil, temporal.NewNonRetryableApplicationError("acquire device: empty serial: name the phone the goal runs on", "InvalidLease", nil)
	}
	log := workflow.GetLogger(ctx)
	release := func(rctx workflow.Context) {
		if err := ReleaseDevice(rctx, serial, goalID); err != nil {
			// The lease is gone (idle-closed or terminated): nothing held.
			log.Warn("device release not delivered", "serial", serial, "goal", goalID, "error", err)
		}
	}
	leaveOnCancel := func() {
		dctx, cancel := workflow.NewDisconnectedContext(ctx)
		defer cancel()
		release(dctx)
	}
	// Channels first, so an answer racing the activity's completion is kept.
	granted := workflow.GetSignalChannel(ctx, SignalLeaseGranted)
	busy := workflow.GetSignalChannel(ctx, SignalLeaseBusy)

	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    30 * time.Second,
			MaximumAttempts:    10,
		},
		Summary: "Acquire phone " + clip(serial, 60),
		// On cancel, wait for the attempt to end so the release sent
		// below cannot overtake a request still on its way.
		WaitForCancellation: true,
	})
	// A fresh ID per request, recorded in history, so answers to an
	// earlier request of this goal (a re-grant after a retried activity)
	// are told apart from the answer to this one.
	var reqID string
	if err := workflow.SideEffect(ctx, func(workflow.Context) any { return newRequestID() }).Get(&reqID); err != nil {
		return nil, fmt.Errorf("acquire device %s: request id: %w", serial, err)
	}
	// The goal answers who it is to the lease, so a lease started again
	// empty (terminated, reset) re-derives its holder and queue from the
	// goals themselves (docs/design.md §24). A query adds no command.
	hl, _ := ctx.Value(leaseKey).(*heldLease)
	revocable := hl != nil && hl.Revocable
	claim := activities.LeaseClaim{Serial: serial, GoalID: goalID, RequestID: reqID, Waiting: true, Revocable: revocable}
	if hl != nil {
		claim.Token = hl.Token // the last grant's: a lease started again grants above it
	}
	if err := workflow.SetQueryHandler(ctx, QueryLeaseClaim, func() (activities.LeaseClaim, error) { return claim, nil }); err != nil {
		return nil, fmt.Errorf("acquire device %s: %w", serial, err)
	}
	held := release
	release = func(rctx workflow.Context) {
		claim.Held, claim.Waiting = false, false
		if hl != nil && hl.Request == reqID {
			hl.Held = false
		}
		// A lease that learnt of this request from the goal's claim (and
		// a retried request) answers it twice; the answers left over are
		// taken here, so the goal does not close with unhandled signals.
		// Receiving adds no command.
		var g activities.LeaseGrant
		var b activities.LeaseBusy
		for granted.ReceiveAsync(&g) || busy.ReceiveAsync(&b) {
		}
		held(rctx)
	}
	in := activities.AcquireDeviceInput{
		Request:         activities.LeaseRequest{Serial: serial, GoalID: goalID, Wait: wait, RequestID: reqID, Revocable: revocable},
		LeaseWorkflowID: LeaseWorkflowID(serial),
		TaskQueue:       TaskQueue,
		DeviceTaskQueue: DeviceTaskQueue(serial),
	}
	if err := workflow.ExecuteActivity(actx, activities.NameAcquireDevice, in).Get(ctx, nil); err != nil {
		claim.Waiting = false
		if ctx.Err() != nil {
			leaveOnCancel() // the request may have landed
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("acquire device %s: %w", serial, err)
	}
	lastHolder := ""
	for {
		var (
			g                    activities.LeaseGrant
			b                    activities.LeaseBusy
			gotGrant, gotBusy, c bool
		)
		sel := workflow.NewSelector(ctx)
		sel.AddReceive(granted, func(ch workflow.ReceiveChannel, _ bool) { ch.Receive(ctx, &g); gotGrant = true })
		sel.AddReceive(busy, func(ch workflow.ReceiveChannel, _ bool) { ch.Receive(ctx, &b); gotBusy = true })
		sel.AddReceive(ctx.Done(), func(workflow.ReceiveChannel, bool) { c = true })
		sel.Select(ctx)
		switch {
		case c:
			claim.Waiting = false
			leaveOnCancel()
			return nil, ctx.Err()
		case gotGrant && g.Serial == serial && g.GoalID == goalID && g.RequestID == reqID:
			log.Info("device lease held", "serial", serial, "goal", goalID)
			claim.Held, claim.Waiting, claim.Token = true, false, g.Token
			if hl != nil {
				hl.Request, hl.Held, hl.Token = reqID, true, g.Token
				hl.unclaim = func() { claim.Held = false }
			}
			return release, nil
		case gotBusy && b.Serial == serial && b.RequestID == reqID:
			if !b.Queued {
				claim.Waiting = false
				if b.Holder == "" {
					return nil, fmt.Errorf("device %s: its lease workflow %s was cancelled; start the goal again", serial, LeaseWorkflowID(serial))
				}
				return nil, &DeviceBusyError{Serial: serial, Holder: b.Holder}
			}
			if b.Holder == lastHolder {
				continue // a repeated answer (retried request)
			}
			lastHolder = b.Holder
			log.Info("device busy, waiting", "serial", serial, "goal", goalID, "holder", b.Holder, "position", b.Position)
			if onWaiting != nil {
				onWaiting(b.Holder)
			}
		}
	}
}
