package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// changeModelOutageWait versions the model outage wait (docs/design.md §16):
// model activities hand a lasting outage back and the workflow waits it
// out with timers, saying so in the goal's status. Runs that recorded no
// marker for it keep the earlier behaviour (Temporal's 5 attempts, then
// the goal or todo fails).
const changeModelOutageWait = "model-outage-wait"

// waitsOutModels reports whether this run waits out model outages.
func waitsOutModels(ctx workflow.Context) bool {
	return getVersion(ctx, changeModelOutageWait, workflow.DefaultVersion, 1) >= 1
}

// Backoff between tries of a model that does not answer.
const (
	outageRetryFirst = 5 * time.Second
	outageRetryMax   = time.Minute
)

// modelWaitPrefix opens every status text of a model outage; the goal's
// PhoneflowStatus is GoalWaitingModel while its own or its todo's wait
// text starts with it.
const modelWaitPrefix = "waiting for the "

// modelOutage returns the outage an activity handed back.
func modelOutage(err error) (activities.ModelOutage, bool) {
	var app *temporal.ApplicationError
	if err == nil || !errors.As(err, &app) || app.Type() != activities.ErrTypeModelUnavailable {
		return activities.ModelOutage{}, false
	}
	var o activities.ModelOutage
	if app.HasDetails() {
		_ = app.Details(&o)
	}
	if o.Role == "" {
		o.Role = "model"
	}
	if o.Error == "" {
		o.Error = app.Message()
	}
	return o, true
}

// outageWait is one outage being waited out.
type outageWait struct {
	since   time.Time
	backoff time.Duration
}

func (w *outageWait) active() bool { return !w.since.IsZero() }

// wait records a failed try, shows the status text, and sleeps before the
// next try. Past limit it returns a non-retryable error naming the model,
// its endpoint and the fix.
func (w *outageWait) wait(ctx workflow.Context, o activities.ModelOutage, limit time.Duration, show func(string)) error {
	now := workflow.Now(ctx)
	if !w.active() {
		w.since, w.backoff = now, outageRetryFirst
	}
	at := o.Endpoint
	if at == "" {
		at = "its endpoint"
	}
	show(fmt.Sprintf("%s%s model at %s since %s, last error: %s", modelWaitPrefix, o.Role, at,
		w.since.UTC().Format("15:04"), truncate(o.Error, 200)))
	if limit > 0 && now.Sub(w.since) >= limit {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
			"the %s model at %s did not answer for %s (last error: %s): check that it runs and that the worker can reach it, or raise limits.model_outage_wait, then start the goal again",
			o.Role, at, now.Sub(w.since).Round(time.Second), truncate(o.Error, 200)), activities.ErrTypeModelUnavailable, nil)
	}
	if err := workflow.Sleep(ctx, w.backoff); err != nil {
		return err
	}
	w.backoff = min(w.backoff*2, outageRetryMax)
	return nil
}

// callPlanner runs a planner activity (PlanOnce or Replan), waiting out a
// model outage when this run does (changeModelOutageWait). in points at the
// activity's input, handBack at its HandBackOutages field.
func (g *goalRun) callPlanner(ctx workflow.Context, summary, name string, in any, handBack *bool, d *activities.PlanDecision) error {
	actx := workflow.WithActivityOptions(ctx, withModelHeartbeat(ctx, modelActivityOptions(summary)))
	if !waitsOutModels(ctx) {
		return workflow.ExecuteActivity(actx, name, in).Get(ctx, d)
	}
	*handBack = true
	var w outageWait
	for {
		err := workflow.ExecuteActivity(actx, name, in).Get(ctx, d)
		o, ok := modelOutage(err)
		if ok && ctx.Err() == nil {
			err = w.wait(ctx, o, g.opts.ModelOutageWait, func(s string) {
				g.modelWaiting = s
				g.refresh(ctx)
			})
			if err == nil {
				continue
			}
		}
		if w.active() {
			g.modelWaiting = ""
			g.refresh(ctx)
		}
		return err
	}
}

// applied is a device action a step applied before its model call failed:
// later tries of the step only observe and think.
type applied struct {
	Action autoglm.Action
	Result activities.StepResult
}

// stepWaitingForModel runs a step, waiting out an executor model outage
// (changeModelOutageWait). When the outage struck after the step's action
// reached the phone, the tries after it do not act again: they think about
// the screen the action left, and the step's result carries the action's
// result as if one attempt had done both.
func (t *todoRun) stepWaitingForModel(ctx workflow.Context, act *autoglm.Action, think bool) (activities.StepResult, error) {
	var w outageWait
	told := ""
	keep := keepsApplied(ctx)
	for {
		a := act
		if t.applied != nil {
			a = nil
		}
		res, err := t.stepOnce(ctx, a, think, true)
		o, ok := modelOutage(err)
		if ok && o.Applied != nil && act != nil && t.applied == nil {
			t.applied = &applied{Action: *act, Result: *o.Applied}
		}
		if f, is := activities.AppliedOf(err); is && keep && act != nil && t.applied == nil {
			// The action reached the phone and the step failed after it
			// (ChangeKeepApplied): the todo keeps its result. An error
			// that alone would have been retried is: the step's look and
			// think run again without the action, with retries of their own.
			t.applied = &applied{Action: *act, Result: f.Applied}
			if f.Retryable && ctx.Err() == nil {
				continue
			}
		}
		if ok && ctx.Err() == nil {
			err = w.wait(ctx, o, t.in.ModelOutageWait, t.showModelWait(ctx, &told))
			if err == nil {
				continue
			}
		}
		if w.active() {
			t.waiting = ""
			if terr := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting}); terr != nil && err == nil {
				err = terr
			}
		}
		if err == nil && t.applied != nil {
			res.Act = t.applied.Result.Act
		}
		if (err == nil && (res.Locked == "" || !keep)) || (!ok && !keep) {
			// A run that keeps applied actions keeps this one past a
			// failure and a lock screen: a try after the device wait or
			// the unlock does not send it again, and the todo records it
			// if the step fails for good.
			t.applied = nil
		}
		return res, err
	}
}

// modelWaitText reports whether a wait text is a model outage's.
func modelWaitText(s string) bool { return strings.HasPrefix(s, modelWaitPrefix) }

// waitOutModel runs try, a verifier or correction call that hands a lasting
// outage back, until it ends in anything but an outage, showing the wait as
// a step's is shown (ChangeVerifyOutageWait).
func (t *todoRun) waitOutModel(ctx workflow.Context, try func() error) error {
	var w outageWait
	told := ""
	for {
		err := try()
		if o, ok := modelOutage(err); ok && ctx.Err() == nil {
			err = w.wait(ctx, o, t.in.ModelOutageWait, t.showModelWait(ctx, &told))
			if err == nil {
				continue
			}
		}
		if w.active() {
			t.waiting = ""
			t.details(ctx)
			if terr := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting}); terr != nil && err == nil {
				err = terr
			}
		}
		return err
	}
}

// showModelWait returns the func that shows a model outage's wait text in
// the todo's details and tells the goal when it changes.
func (t *todoRun) showModelWait(ctx workflow.Context, told *string) func(string) {
	return func(s string) {
		t.waiting = s
		t.details(ctx)
		if s != *told {
			*told = s
			if terr := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting, Text: s}); terr != nil {
				workflow.GetLogger(ctx).Warn("goal not told of the model outage", "error", terr)
			}
		}
	}
}
