package workflows

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// newRequestID runs inside a SideEffect only.
func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
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
	granted := signalChannel(ctx, SignalLeaseGranted)
	busy := signalChannel(ctx, SignalLeaseBusy)

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
	// goals themselves (docs/design.md §5). A query adds no command.
	hl, _ := ctx.Value(leaseKey).(*heldLease)
	// A lease taken for one todo on another phone (docs/design.md#goals-that-span-phones)
	// keeps its grant apart and adds no claim: the goal's claim stays
	// its own phone's.
	other, _ := ctx.Value(otherLeaseKey{}).(bool)
	if oh, _ := ctx.Value(otherHeldKey{}).(*heldLease); oh != nil {
		hl = oh
	}
	revocable := hl != nil && hl.Revocable
	claim := activities.LeaseClaim{Serial: serial, GoalID: goalID, RequestID: reqID, Waiting: true, Revocable: revocable}
	if hl != nil {
		claim.Token = hl.Token // the last grant's: a lease started again grants above it
	}
	if !other {
		if err := setQuery(ctx, QueryLeaseClaim, func() (activities.LeaseClaim, error) { return claim, nil }); err != nil {
			return nil, fmt.Errorf("acquire device %s: %w", serial, err)
		}
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
			if hl != nil {
				hl.Busy = b
			}
			log.Info("device busy, waiting", "serial", serial, "goal", goalID, "holder", b.Holder, "position", b.Position)
			if onWaiting != nil {
				onWaiting(b.Holder)
			}
		}
	}
}
