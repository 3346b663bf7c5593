package workflows

import (
	"slices"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

func (l *lease) acquire(ctx workflow.Context, r activities.LeaseRequest) {
	log := workflow.GetLogger(ctx)
	if r.GoalID == "" {
		log.Warn("device lease: acquire without goal ID ignored", "serial", l.st.Serial)
		return
	}
	if l.retired(r.RequestID) {
		// A request its goal gave up, delivered again (a retried
		// signal): granting or queueing it would give the phone to a goal
		// that no longer waits for this answer (ChangeLeaseRequestOrder).
		log.Info("device lease: a request given up arrived again; ignored", "serial", l.st.Serial, "goal", r.GoalID, "request", r.RequestID)
		return
	}
	switch {
	case r.GoalID == l.st.Holder:
		// A retried or repeated request from the holder: say yes again,
		// to the request now asking; a new request gets a new token.
		if r.RequestID != l.st.HolderRequest {
			l.retire(l.st.HolderRequest)
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
			if old := l.st.Queue[pos-1].RequestID; old != r.RequestID {
				l.retire(old)
			}
			l.st.Queue[pos-1].RequestID, l.st.Queue[pos-1].Revocable = r.RequestID, r.Revocable
		} else if r.Wait {
			l.st.Queue = append(l.st.Queue, LeaseWaiter{r.GoalID, r.RequestID, r.Revocable})
			pos = len(l.st.Queue)
			l.details(ctx)
		}
		// HeldSince is only carried in the signal's payload, which replay
		// does not compare: the lease decides nothing differently.
		busy := activities.LeaseBusy{Serial: l.st.Serial, Holder: l.st.Holder, Queued: pos > 0, Position: pos, RequestID: r.RequestID, HeldSince: l.st.HeldSince}
		if err := workflow.SignalExternalWorkflow(ctx, r.GoalID, "", SignalLeaseBusy, busy).Get(ctx, nil); err != nil {
			log.Warn("device lease: goal gone before it heard the phone is busy", "serial", l.st.Serial, "goal", r.GoalID, "error", err)
			l.unqueue(ctx, r.GoalID)
		}
	}
}

func (l *lease) release(ctx workflow.Context, goalID string) {
	if goalID != "" && goalID == l.st.Holder {
		workflow.GetLogger(ctx).Info("device released", "serial", l.st.Serial, "goal", goalID)
		l.retire(l.st.HolderRequest)
		l.st.Holder, l.st.HolderRequest, l.st.HeldSince, l.st.HolderRevocable = "", "", time.Time{}, false
		l.grantNext(ctx)
		l.details(ctx)
		return
	}
	if i := l.position(goalID); i > 0 {
		l.retire(l.st.Queue[i-1].RequestID)
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
