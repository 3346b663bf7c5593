package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"
)

// ChangeBoundedDeviceWait: a goal whose device_wait is a duration ("10m")
// queues for a phone another goal holds at most that long (docs/design.md
// §5): its status is waiting_device, naming the holder, since when it
// holds the phone and when the goal gives up; past it the goal leaves the
// queue and fails naming the holder. The marker is recorded the first time
// such a goal hears its phone is busy; goals with "wait" or "fail" never
// record it and behave as before.
const ChangeBoundedDeviceWait = "bounded-device-wait"

// ChangeBoundedReacquire: a goal whose device_wait is a duration asks for
// its phone back after a durable wait (docs/design.md §5, §7) as it asks
// for it first: it queues behind the goal that took it meanwhile at most
// its device_wait, then fails naming the holder and the wait. The marker
// is recorded the first time such a goal hears, asking again, that its
// phone is busy; before it the goal queued for as long as it took.
const ChangeBoundedReacquire = "bounded-reacquire"

// GoalWaitingDevice: the goal queues for its phone, which another goal
// holds, for at most its device_wait (status waiting_for names the holder
// and when the goal gives up).
const GoalWaitingDevice = "waiting_device"

// DeviceWaitBound is the longest a goal with device_wait d waits for a
// phone another goal holds: ok is false for "wait" (no bound), "fail" and
// anything that is not a duration above zero.
func DeviceWaitBound(d string) (time.Duration, bool) {
	if d == DeviceWaitWait || d == DeviceWaitFail {
		return 0, false
	}
	b, err := time.ParseDuration(d)
	return b, err == nil && b > 0
}

// CheckDeviceWait refuses a device_wait that is none of "wait", "fail" and
// a duration above zero; "" takes the default.
func CheckDeviceWait(d string) error {
	if _, ok := DeviceWaitBound(d); ok || d == "" || d == DeviceWaitWait || d == DeviceWaitFail {
		return nil
	}
	return fmt.Errorf("device_wait %q: use %q (queue for a busy phone), %q (fail at once) or a duration such as \"10m\" (queue at most that long)", d, DeviceWaitWait, DeviceWaitFail)
}

// busyWait bounds a goal's wait in its phone's queue.
type busyWait struct {
	g      *goalRun
	serial string     // the phone waited for
	hl     *heldLease // its lease's last busy answer
	// change is the change ID that allows the bound on this request.
	change string
	bound  time.Duration
	asked  time.Time // the wait counts from the lease request
	cancel workflow.CancelFunc
	// decided: the version was read (on the first "busy"); on: it allows
	// the bound.
	decided, on bool
	stopTimer   workflow.CancelFunc
	giveUp      time.Time
	holder      string
	heldSince   time.Time
	timedOut    bool
}

// boundedLease returns the context the goal asks for its phone in, and the
// wait that cancels it once the goal has waited its device_wait for a
// busy phone; nil when device_wait sets no bound.
func (g *goalRun) boundedLease(ctx workflow.Context) (workflow.Context, *busyWait) {
	bound, ok := DeviceWaitBound(g.opts.DeviceWait)
	if !ok {
		return ctx, nil
	}
	lctx, cancel := workflow.WithCancel(ctx)
	return lctx, &busyWait{g: g, serial: g.in.Device, hl: g.lease, change: ChangeBoundedDeviceWait, bound: bound, asked: workflow.Now(ctx), cancel: cancel}
}

// boundedReacquire is boundedLease for the request that gets the phone
// back after a wait, under its own change ID.
func (g *goalRun) boundedReacquire(ctx workflow.Context) (workflow.Context, *busyWait) {
	lctx, w := g.boundedLease(ctx)
	if w != nil {
		w.change = ChangeBoundedReacquire
	}
	return lctx, w
}

// errWaitedOut ends a goal that waited its device_wait for its phone
// back after a wait: result names the holder and the wait.
type errWaitedOut struct{ result GoalResult }

func (e *errWaitedOut) Error() string { return e.result.Reason }

// busy takes the lease's waiting text s; it reports whether it set the
// goal's status itself. ctx is the goal's context, not the lease's.
func (w *busyWait) busy(ctx workflow.Context, s string) bool {
	holder, isBusy := strings.CutPrefix(s, "device busy: held by ")
	if !isBusy {
		return false
	}
	if !w.decided {
		w.decided = true
		w.on = getVersion(ctx, w.change, workflow.DefaultVersion, 1) >= 1
		if w.on {
			w.giveUp = w.asked.Add(w.bound)
			tctx, stop := workflow.WithCancel(ctx)
			w.stopTimer = stop
			t := workflow.NewTimer(tctx, max(w.giveUp.Sub(workflow.Now(ctx)), time.Millisecond))
			workflow.Go(ctx, func(c workflow.Context) {
				if t.Get(c, nil) == nil {
					w.timedOut = true
					w.cancel()
				}
			})
		}
	}
	if !w.on {
		return false
	}
	w.holder, w.heldSince = holder, time.Time{}
	if hl := w.hl; hl != nil && hl.Busy.Holder == holder {
		w.heldSince = hl.Busy.HeldSince
	}
	tz := w.g.opts.TimeZone
	since := ""
	if !w.heldSince.IsZero() {
		since = " since " + localClock(ctx, w.heldSince, tz)
	}
	w.g.waiting = fmt.Sprintf("waiting for phone %s, held by goal %s%s; gives up at %s",
		w.serial, holder, since, localClock(ctx, w.giveUp, tz))
	w.g.waitingDevice = true
	w.g.refresh(ctx)
	return true
}

// done ends the wait once the lease answered: the timer is stopped and the
// status no longer says waiting_device.
func (w *busyWait) done(ctx workflow.Context) {
	if w.stopTimer != nil {
		w.stopTimer()
	}
	if w.g.waitingDevice {
		w.g.waitingDevice, w.g.waiting = false, ""
		w.g.refresh(ctx)
	}
}

// result is the goal's end once it waited its device_wait out.
func (w *busyWait) result(ctx workflow.Context) GoalResult {
	since := ""
	if !w.heldSince.IsZero() {
		since = " (holding it since " + localClock(ctx, w.heldSince, w.g.opts.TimeZone) + ")"
	}
	return GoalResult{
		Status: GoalFailed,
		Reason: fmt.Sprintf("device %s is busy: goal %s%s still drives it after this goal waited its device_wait of %s",
			w.serial, w.holder, since, w.bound),
		NextStep: fmt.Sprintf("wait for goal %s to finish (or cancel it), then start this goal again; a longer device_wait (or %q) queues longer", w.holder, DeviceWaitWait),
	}
}
