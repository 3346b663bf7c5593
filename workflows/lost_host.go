package workflows

import (
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ChangeTodoOnSharedQueue: the goal starts its todos on its own (shared)
// task queue, and a todo sends only its phone-bound activities (Step,
// Verify, Correct, the prompt-memory update) to the phone's queue, each
// with a schedule-to-start bound, so a phone host that is gone is seen by
// the todo, told in the goal's status and waited for (docs/design.md §5).
// Before it, the whole todo ran on the phone's queue and a dead host froze
// it silently. The todo learns which mode it runs in from
// TodoInput.DeviceQueue, set only by goals past this change.
const ChangeTodoOnSharedQueue = "todo-on-shared-queue"

// Bounds of phone-bound activities sent from a todo on the shared queue
// (docs/design.md §5). A step whose worker died is retried after
// deviceHeartbeatTimeout; an attempt no worker takes within
// deviceScheduleToStart fails (not retried by Temporal) and the todo says
// "no worker serves phone X" and tries again with backoff. A host killed
// in the middle of a step is therefore told within about
// deviceHeartbeatTimeout + deviceRetryInitial + deviceScheduleToStart.
const (
	deviceScheduleToStart  = 10 * time.Second
	deviceHeartbeatTimeout = 15 * time.Second
	deviceRetryInitial     = time.Second
)

// todoOnSharedQueue reports whether this goal starts its todos on its own
// task queue; it returns the phone's queue for the todo's phone-bound
// activities ("" when the todo runs on the phone's queue as before).
func (g *goalRun) todoOnSharedQueue(ctx workflow.Context) (todoQueue, deviceQueue string) {
	if getVersion(ctx, ChangeTodoOnSharedQueue, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return DeviceTaskQueue(g.in.Device), ""
	}
	return workflow.GetInfo(ctx).TaskQueueName, DeviceTaskQueue(g.in.Device)
}

// onPhone turns the options of an activity that must run on the phone's
// host into options that send it there from the shared queue: the phone's
// queue, a schedule-to-start bound, a short heartbeat timeout, and
// WaitForCancellation so a cancelled todo returns only once the activity
// has stopped touching the phone. A todo that runs on the phone's queue
// (DeviceQueue "") keeps the options as they are.
func (t *todoRun) onPhone(o workflow.ActivityOptions) workflow.ActivityOptions {
	if t.in.DeviceQueue == "" {
		return o
	}
	o.TaskQueue = t.in.DeviceQueue
	o.ScheduleToStartTimeout = deviceScheduleToStart
	o.WaitForCancellation = true
	if o.HeartbeatTimeout > 0 {
		o.HeartbeatTimeout = deviceHeartbeatTimeout
	}
	if o.RetryPolicy != nil {
		p := *o.RetryPolicy
		p.InitialInterval = deviceRetryInitial
		o.RetryPolicy = &p
	}
	return o
}

// hostLost reports whether err is a phone-bound activity that no worker
// took within its schedule-to-start bound: nobody serves the phone.
func hostLost(err error) bool {
	var te *temporal.TimeoutError
	return err != nil && errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START
}

// noWorkerText is the status text while nobody serves the phone. since is
// when the first unserved attempt was put on the phone's queue.
func noWorkerText(serial string, since time.Time) string {
	return fmt.Sprintf("no worker serves phone %s since %s: start the worker on the host the phone is plugged into (`go run ./worker`); the goal goes on once it polls",
		serial, since.UTC().Format("15:04:05"))
}

// noWorkerQuestion asks the user past the device-wait deadline.
func noWorkerQuestion(serial string, waited time.Duration) string {
	return fmt.Sprintf("No worker has served the phone %s for %s. Start the worker on the host the phone is plugged into (`go run ./worker`), check that `starter devices` lists the phone with a worker, then answer to retry.",
		serial, waited.Round(time.Second))
}

// onPhoneHost runs a short activity that needs the phone's host (its
// phone, blobs, prompt memory or routines): as a local activity where the
// todo itself runs on the phone's queue (one marker instead of an
// activity's events), else as an activity sent to the phone's queue (a
// local activity would run on whichever worker runs the todo).
func (t *todoRun) onPhoneHost(ctx workflow.Context, lo workflow.LocalActivityOptions, name string, in, out any) error {
	if t.in.DeviceQueue == "" {
		lctx := workflow.WithLocalActivityOptions(ctx, lo)
		return workflow.ExecuteLocalActivity(lctx, name, in).Get(ctx, out)
	}
	actx := workflow.WithActivityOptions(ctx, t.onPhone(workflow.ActivityOptions{
		StartToCloseTimeout: lo.StartToCloseTimeout,
		RetryPolicy:         lo.RetryPolicy,
		Summary:             lo.Summary,
	}))
	return workflow.ExecuteActivity(actx, name, in).Get(ctx, out)
}
