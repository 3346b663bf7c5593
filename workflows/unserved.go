package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ChangeWaitForUnservedPhone: a goal whose phone no worker polls when it
// asks for the phone (its worker is restarting, or not started yet) waits
// for one, visibly and for at most the goal's device_wait_deadline, instead
// of failing after the lease request's 15 s look (docs/design.md §5).
// Goals without its marker fail at once, as before.
const ChangeWaitForUnservedPhone = "wait-for-unserved-phone"

// unservedRetry is the pause between two requests for a phone no worker
// serves; each request itself looks for a worker for about 15 s.
const unservedRetry = 5 * time.Second

// leaseServedPhone is DeviceLease for a goal, waiting up to the goal's
// device_wait_deadline for a worker to serve the phone: meanwhile the
// goal's status says since when it waits; past the deadline the goal
// fails with an error that names the fix.
func (g *goalRun) leaseServedPhone(ctx workflow.Context, wait bool, waiting func(string)) (func(workflow.Context), error) {
	asked := workflow.Now(ctx) // the wait counts from the first request
	var since time.Time
	for {
		rel, err := DeviceLease(ctx, g.in.Device, g.id, wait, waiting)
		if err == nil || !notServed(err) || ctx.Err() != nil {
			if !since.IsZero() && err == nil {
				g.waiting = ""
				g.details(ctx)
			}
			return rel, err
		}
		if since.IsZero() {
			if getVersion(ctx, ChangeWaitForUnservedPhone, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
				return rel, err
			}
			since = asked
		}
		deadline := g.opts.DeviceWaitDeadline
		waited := workflow.Now(ctx).Sub(since)
		if waited >= deadline {
			g.waiting = ""
			return nil, temporal.NewNonRetryableApplicationError(fmt.Sprintf(
				"no worker served phone %s from %s to %s (the goal's device_wait_deadline, %s): start the worker on the host the phone is plugged into (`go run ./worker`) and check that `starter devices` lists the phone with a worker (adb.allow), then start the goal again; a worker that takes longer to come back needs a longer limits.device_wait_deadline",
				g.in.Device, since.UTC().Format("15:04:05"), workflow.Now(ctx).UTC().Format("15:04:05"), deadline),
				activities.ErrTypeDeviceNotServed, nil)
		}
		g.waiting = unservedText(g.in.Device, since, deadline)
		g.details(ctx)
		if err := workflow.Sleep(ctx, min(unservedRetry, deadline-waited)); err != nil {
			return nil, err
		}
	}
}

// unservedText is the goal's status while it waits for a worker to serve
// its phone.
func unservedText(serial string, since time.Time, deadline time.Duration) string {
	return fmt.Sprintf("waiting for a worker to serve phone %s since %s (up to %s): start the worker on the host the phone is plugged into (`go run ./worker`); the goal goes on once it polls",
		serial, since.UTC().Format("15:04"), deadline)
}

// notServed reports whether err is the lease request's "no worker serves
// device".
func notServed(err error) bool {
	var app *temporal.ApplicationError
	return errors.As(err, &app) && app.Type() == activities.ErrTypeDeviceNotServed
}
