package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// ChangePickPhone: a goal started with `--on` (GoalInput.On) and no
// device picks its phone in a PickPhone activity before it plans
// (docs/design.md#phone-fleet). Only goals with On reach it, so no history
// from before it meets the marker; it is versioned all the same, for the
// change-ID table. Version 2 writes the picked phone's labels to the
// goal's PhoneflowLabels search attribute.
const ChangePickPhone = "pick-phone"

// pickRetry is the pause between two looks for a phone of the kind a
// goal needs while none is served.
const pickRetry = 5 * time.Second

// pickPhone chooses the goal's phone when it was started with On and no
// Device: the PickPhone activity's answer is in the history, so a replay
// takes the same phone, and Device and Picked are carried across
// continue-as-new in the input. While no phone of the kind is served the
// goal waits, its status saying for what and since when, up to
// device_wait_deadline; then it fails naming the fix. failed reports
// that the goal ended.
func (g *goalRun) pickPhone(ctx workflow.Context) (GoalResult, bool) {
	if g.in.Device != "" || g.in.On == nil {
		return GoalResult{}, false
	}
	// Version 2 also writes the picked phone's labels to the goal's
	// PhoneflowLabels search attribute.
	pickVersion := getVersion(ctx, ChangePickPhone, workflow.DefaultVersion, 2)
	sel := *g.in.On
	since := workflow.Now(ctx)
	deadline := since.Add(g.opts.DeviceWaitDeadline)
	// A goal whose planner picks first has it choose a serial, then picks
	// that phone under the same wait.
	var choice plannerChoice
	if sel.Planner {
		c, r, ended := g.plannerPicks(ctx, since, deadline)
		switch {
		case ended:
			return r, true
		case ctx.Err() != nil:
			return GoalResult{}, false
		case c.Serial == "":
			sel = fleet.Selector{Any: true}
		default:
			sel, choice = fleet.Selector{Serial: c.Serial}, c
		}
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Second, MaximumAttempts: 5},
		Summary:             "Pick " + clip(sel.Kind(), 60),
	})
	in := activities.PickPhoneInput{GoalID: g.id, Selector: sel, QueuePrefix: DeviceTaskQueuePrefix, LeasePrefix: LeaseWorkflowIDPrefix}
	for {
		var res activities.PickPhoneResult
		err := workflow.ExecuteActivity(actx, activities.NamePickPhone, in).Get(ctx, &res)
		if ctx.Err() != nil {
			return GoalResult{}, false
		}
		if err == nil && res.Serial != "" {
			g.in.Device, g.in.Picked = res.Serial, pickedLine(res, sel)
			if choice.Serial != "" {
				g.in.Picked = choice.line(res)
			}
			if pickVersion >= 2 && len(res.Labels) > 0 {
				if err := workflow.UpsertTypedSearchAttributes(ctx, LabelsKey.ValueSet(res.Labels)); err != nil {
					workflow.GetLogger(ctx).Warn("labels search attribute not updated: register PhoneflowLabels (keyword list) on the namespace", "error", err)
				}
			}
			g.waiting = ""
			g.published = "" // the device search attribute is written again with the phase
			g.refresh(ctx)
			return GoalResult{}, false
		}
		why := res.Why
		if err != nil {
			why = "the fleet cannot be read: " + rootMessage(err)
		}
		if !workflow.Now(ctx).Before(deadline) {
			return g.finish(ctx, GoalResult{Status: GoalFailed,
				Reason:   fmt.Sprintf("no phone: waited %s for %s; %s", g.opts.DeviceWaitDeadline, sel.Kind(), why),
				NextStep: "see `starter devices` on the phones' hosts; start their workers or label a phone (adb.labels), then start the goal again"}), true
		}
		g.waiting = fmt.Sprintf("waiting for %s since %s: %s", sel.Kind(), since.UTC().Format("15:04:05"), why)
		g.details(ctx)
		if err := workflow.Sleep(ctx, pickRetry); err != nil {
			return GoalResult{}, false
		}
	}
}

// pickedLine is the status line of a picked phone.
func pickedLine(res activities.PickPhoneResult, sel interface{ String() string }) string {
	s := "on phone " + res.Serial
	if len(res.Labels) > 0 {
		s += " (label " + strings.Join(res.Labels, ", ") + ")"
	}
	switch {
	case !res.Free && res.ReservedBy != "":
		s += ", reserved by goal " + res.ReservedBy + " when picked: waiting for it"
	case !res.Free:
		s += ", held by another goal when picked: waiting for it"
	}
	return s + " for --on " + sel.String()
}
