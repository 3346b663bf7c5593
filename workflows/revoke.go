package workflows

import (
	"errors"
	"fmt"
	"slices"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ChangeRevokeBlockedHolder: a goal whose workflow task keeps failing
// (non-determinism after a bad deploy, a panic) loses its phone to the next
// goal once it has failed for LeaseState.BlockedAfter with nothing of it on
// the phone; its todo's device actions are refused until it holds the
// phone again, and when it runs again it asks for the phone and goes on
// (docs/design.md §5). The goal asks for the phone as revocable, sends
// the fence with its todos' steps and hears the revoke; the lease takes
// the phone only from holders that asked as revocable; a todo whose step
// was refused asks its goal for the phone and runs the step again.
const ChangeRevokeBlockedHolder = "revoke-blocked-holder"

// ErrTypePhoneLeaseLost is the error type of a device action refused
// because its goal no longer holds the phone.
const ErrTypePhoneLeaseLost = activities.ErrTypePhoneLeaseLost

// leaseLost reports whether err is a step refused by the lease fence.
func leaseLost(err error) bool {
	var app *temporal.ApplicationError
	return errors.As(err, &app) && app.Type() == ErrTypePhoneLeaseLost
}

// revokeBlocked takes the phone from a holder whose workflow task has
// failed for at least BlockedAfter while nothing of it is on the phone:
// the holder is remembered as revoked (the fence refuses its actions),
// told by signal (best effort: a blocked workflow still takes signals),
// and the phone goes to the next waiter.
func (l *lease) revokeBlocked(ctx workflow.Context, hs activities.HolderStatus) {
	log := workflow.GetLogger(ctx)
	holder := l.st.Holder
	now := workflow.Now(ctx)
	if hs.Busy != "" {
		log.Info("device lease: holder blocked but still on the phone; keeping it", "serial", l.st.Serial, "goal", holder, "busy", hs.Busy)
		return
	}
	if now.Sub(hs.BlockedSince) < l.st.BlockedAfter {
		return
	}
	if getVersion(ctx, ChangeRevokeBlockedHolder, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	why := blockedReason(holder, hs)
	l.st.Revoked = append(l.st.Revoked, RevokedHolder{GoalID: holder, At: now, Reason: why})
	if n := len(l.st.Revoked); n > maxRevoked {
		l.st.Revoked = slices.Clone(l.st.Revoked[n-maxRevoked:])
	}
	rv := activities.LeaseRevoked{Serial: l.st.Serial, GoalID: holder, RequestID: l.st.HolderRequest, Reason: why}
	if err := workflow.SignalExternalWorkflow(ctx, holder, "", SignalLeaseRevoked, rv).Get(ctx, nil); err != nil {
		log.Warn("device lease: the blocked holder did not take the revoke signal", "serial", l.st.Serial, "goal", holder, "error", err)
	}
	l.dropHolder(ctx, why)
}

// blockedReason says why the phone was taken, for the lease's details,
// its query and the fence's error.
func blockedReason(holder string, hs activities.HolderStatus) string {
	s := fmt.Sprintf("phone taken from goal %s: its workflow task has failed since %s", holder, hs.BlockedSince.UTC().Format("15:04"))
	if hs.BlockedError != "" {
		s += " (" + clip(hs.BlockedError, 200) + ")"
	}
	return s
}

// forget drops goalID from the goals the phone was taken from.
func (l *lease) forget(ctx workflow.Context, goalID string) {
	if i := slices.IndexFunc(l.st.Revoked, func(r RevokedHolder) bool { return r.GoalID == goalID }); i >= 0 {
		l.st.Revoked = slices.Delete(l.st.Revoked, i, i+1)
		l.details(ctx)
	}
}

// checkRevoked forgets the oldest revoked goal once it has closed, so a
// lease whose revoked goals are gone can close when idle.
func (l *lease) checkRevoked(ctx workflow.Context) {
	goal := l.st.Revoked[0].GoalID
	hs, err := l.describe(ctx, goal)
	if err != nil {
		return
	}
	if !hs.Running {
		l.forget(ctx, goal)
	}
}

// heldLease is what a goal knows of the lease it holds: the request the
// phone was granted on (a revoke names it) and whether it still holds it.
// acquireDevice fills it through the workflow context (leaseKey).
type heldLease struct {
	Request   string
	Held      bool
	Revocable bool
	// Token is the fencing token of the grant the goal holds or last held
	// (docs/design.md §5); zero before its first grant carrying one.
	Token int64
	// unclaim makes the goal's claim answer say it no longer holds
	// the phone (a lease started again then does not take it as holder).
	unclaim func()
	// Busy is the lease's last "busy" answer while the goal waits in its
	// queue: who holds the phone and since when.
	Busy activities.LeaseBusy
}

type leaseKeyType struct{}

// leaseKey carries a *heldLease in the goal's workflow context.
var leaseKey leaseKeyType

// watchRevokes hears the lease take the phone from this goal
// (docs/design.md §5): the goal holds it no more, says so in its status,
// and asks for it again before its todo's next device action (the todo
// asks through need_phone) or before its next todo. A revoke for an
// earlier request, or to a goal that does not hold the phone, is dropped.
// The coroutine adds no command until a revoke arrives, and only goals past
// ChangeRevokeBlockedHolder ask as revocable, so only they get one.
func (g *goalRun) watchRevokes(ctx workflow.Context) {
	ch := signalChannel(ctx, SignalLeaseRevoked)
	for {
		var rv activities.LeaseRevoked
		if !ch.Receive(ctx, &rv) || ctx.Err() != nil {
			return
		}
		if g.lease == nil || !g.lease.Held || !g.lease.Revocable || rv.RequestID != g.lease.Request || g.release == nil {
			workflow.GetLogger(ctx).Info("stale lease revoke dropped", "device", g.in.Device, "request", rv.RequestID)
			continue
		}
		g.revoked(ctx, rv.Reason)
	}
}

// revoked records that the phone was taken from the goal: the release func
// is dropped (the lease no longer counts the goal as holder) and the goal
// asks for the phone again like after a wait (reacquirePhone).
func (g *goalRun) revoked(ctx workflow.Context, why string) {
	workflow.GetLogger(ctx).Warn("the lease took the phone from this goal", "device", g.in.Device, "reason", why)
	g.lease.Held = false
	if g.lease.unclaim != nil {
		g.lease.unclaim()
	}
	g.release, g.phoneReleased = nil, true
	g.revokedWhy = why
	g.waiting = "the phone back: " + why
	g.refresh(ctx)
}
