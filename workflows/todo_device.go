package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// Device wait backoff between retries of a step whose phone does not answer.
const (
	deviceRetryFirst = 2 * time.Second
	deviceRetryMax   = 30 * time.Second
)

// stepWaitingForDevice runs a step, waiting for its phone (waitForPhone).
// The step's input is unchanged on each try and the action journal (or,
// before it, the screen hash) keeps an action the phone did apply from
// being applied twice.
func (t *todoRun) stepWaitingForDevice(ctx workflow.Context, act *autoglm.Action, think bool) (activities.StepResult, error) {
	for {
		var res activities.StepResult
		err := t.waitForPhone(ctx, func() error {
			var err error
			res, err = t.step(ctx, act, think)
			return err
		})
		if err == nil && res.Locked != "" {
			// The lock screen stopped the step before anything was sent:
			// once the person has unlocked the phone, the same step runs
			// again with the same action ID.
			if err := t.askUnlock(ctx, res); err != nil {
				return res, err
			}
			continue
		}
		// A todo on a phone leased for it alone has no goal lease to ask
		// again for (docs/design.md#goals-that-span-phones): it fails.
		if !leaseLost(err) || ctx.Err() != nil || workflow.GetInfo(ctx).ParentWorkflowExecution == nil || t.in.OtherPhone ||
			getVersion(ctx, ChangeRevokeBlockedHolder, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
			return res, err
		}
		// The lease took the phone from the goal (docs/design.md §5):
		// nothing was sent. Ask the goal for the phone again and run the
		// same step once it holds it; the step keeps its action ID, so
		// the journal never applies an action twice.
		if err := t.needPhoneBack(ctx, rootMessage(err)); err != nil {
			return res, err
		}
	}
}

// waitForPhone runs try until it ends in anything but a phone that does
// not answer or a phone no worker serves. A phone that keeps failing (the
// Step activity hands such errors back after one Temporal retry), and a
// phone-bound activity no worker took within its schedule-to-start bound
// (docs/design.md §5), are waited for here rather than failing the todo:
// the goal's status says what it waits for, and past DeviceWaitDeadline
// the user is asked to reconnect the phone or start its worker.
func (t *todoRun) waitForPhone(ctx workflow.Context, try func() error) error {
	var since time.Time
	told := ""
	backoff := deviceRetryFirst
	for {
		err := try()
		var app *temporal.ApplicationError
		lost := hostLost(err)
		if err == nil || ctx.Err() != nil || (!lost && (!errors.As(err, &app) || app.Type() != activities.ErrTypeDevice)) {
			t.lostHost = false
			if !since.IsZero() {
				t.waiting = ""
				if terr := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting}); terr != nil && err == nil {
					err = terr
				}
			}
			return err
		}
		now := workflow.Now(ctx)
		if since.IsZero() {
			since, backoff = now, deviceRetryFirst
		}
		waiting := told
		if lost {
			if told == "" || !t.lostHost {
				waiting = noWorkerText(t.in.Device, now.Add(-deviceScheduleToStart))
			}
		} else if told == "" || t.lostHost {
			waiting = fmt.Sprintf("device %s: not answering since %s, retrying (%s)", t.in.Device, now.UTC().Format("15:04:05"), truncate(app.Message(), 200))
		}
		t.lostHost = lost
		if waiting != told {
			told, t.waiting = waiting, waiting
			if err := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting, Text: t.waiting}); err != nil {
				return err
			}
			t.details(ctx)
		}
		if deadline := t.in.DeviceWaitDeadline; deadline > 0 && now.Sub(since) >= deadline {
			q := fmt.Sprintf("The phone %s has not answered for %s (%s). Reconnect it (check the cable, or `adb connect` it again), then answer to retry.",
				t.in.Device, now.Sub(since).Round(time.Second), truncate(rootMessage(err), 200))
			if lost {
				q = noWorkerQuestion(t.in.Device, now.Sub(since)+deviceScheduleToStart)
			}
			if _, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: QuestionTakeOver, Text: q}); err != nil {
				return err
			}
			since, told = time.Time{}, "" // a fresh wait, told to the goal again
			continue
		}
		if err := workflow.Sleep(ctx, backoff); err != nil {
			return err
		}
		backoff = min(backoff*2, deviceRetryMax)
	}
}
