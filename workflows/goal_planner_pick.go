package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// ChangePlannerPicks: a goal started with `--on planner` (or by `starter
// run` without --device while several phones are ready) lists the fleet
// with each phone's facts and state in ListFleet and has the planner
// choose its phone in ChoosePhone, then picks that serial as `--on
// serial=S` does (docs/design.md#phone-fleet). Only goals whose selector
// says Planner reach it.
const ChangePlannerPicks = "planner-picks"

// plannerChoice is how the planner chose the goal's phone: the serial and
// its reason, kept for the status line once the phone is picked.
type plannerChoice struct {
	Serial string
	Reason string
}

// line is the status line of a phone the planner chose.
func (c plannerChoice) line(res activities.PickPhoneResult) string {
	s := "on phone " + c.Serial + ", chosen by the planner: " + c.Reason
	switch {
	case !res.Free && res.ReservedBy != "":
		s += "; reserved by goal " + res.ReservedBy + " when picked: waiting for it"
	case !res.Free:
		s += "; held by another goal when picked: waiting for it"
	}
	return s
}

// plannerPicks has the planner choose the goal's phone from the fleet. It
// waits, its status saying so, while the fleet lists no phone, up to
// deadline; the planner's answer is the ChoosePhone activity's result, so
// a replay takes the same phone. An answer that twice named no listed
// phone, a planner that cannot be asked or a fleet empty past deadline
// ends the goal (ended). No serial without ended: the goal was cancelled,
// or it is from before the change and takes any phone.
func (g *goalRun) plannerPicks(ctx workflow.Context, since, deadline time.Time) (c plannerChoice, r GoalResult, ended bool) {
	if getVersion(ctx, ChangePlannerPicks, workflow.DefaultVersion, 1) < 1 {
		return plannerChoice{}, GoalResult{}, false
	}
	sel := fleet.Selector{Planner: true}
	for {
		var lf activities.ListFleetResult
		err := workflow.ExecuteActivity(fleetActivity(ctx, "List the fleet for the planner to choose a phone"), activities.NameListFleet,
			activities.ListFleetInput{GoalID: g.id, QueuePrefix: DeviceTaskQueuePrefix, LeasePrefix: LeaseWorkflowIDPrefix}).Get(ctx, &lf)
		if ctx.Err() != nil {
			return plannerChoice{}, GoalResult{}, false
		}
		why := lf.Why
		if err != nil {
			why = "the fleet cannot be read: " + rootMessage(err)
		}
		if err == nil && len(lf.Phones) > 0 {
			// The planner sees the fleet the goal spans, as a goal started
			// with --on does.
			g.st.Span = spanPhones{Listed: true, Phones: spanOf(lf.Phones)}
			return g.askChoice(ctx, lf.Phones)
		}
		if !workflow.Now(ctx).Before(deadline) {
			return plannerChoice{}, g.finish(ctx, GoalResult{Status: GoalFailed,
				Reason:   fmt.Sprintf("no phone: waited %s for %s; %s", g.opts.DeviceWaitDeadline, sel.Kind(), why),
				NextStep: "see `starter devices`; start a worker on a host with phones, then start the goal again"}), true
		}
		g.waiting = fmt.Sprintf("waiting for %s since %s: %s", sel.Kind(), since.UTC().Format("15:04:05"), why)
		g.details(ctx)
		if err := workflow.Sleep(ctx, pickRetry); err != nil {
			return plannerChoice{}, GoalResult{}, false
		}
	}
}

// askChoice runs ChoosePhone on the listed phones; its model call counts
// in the goal's planner usage.
func (g *goalRun) askChoice(ctx workflow.Context, phones []activities.FleetEntry) (plannerChoice, GoalResult, bool) {
	g.waiting = fmt.Sprintf("the planner chooses a phone of %s", plural(len(phones), "phone"))
	g.details(ctx)
	defer func() { g.waiting = "" }()
	actx := workflow.WithActivityOptions(ctx, plannerActivityOptions(ctx, "Choose the goal's phone"))
	var res activities.ChoosePhoneResult
	err := workflow.ExecuteActivity(actx, activities.NameChoosePhone, activities.ChoosePhoneInput{Goal: g.in.Goal, Phones: phones}).Get(ctx, &res)
	if ctx.Err() != nil {
		return plannerChoice{}, GoalResult{}, false
	}
	g.st.Usage.Planner = g.st.Usage.Planner.Add(res.Usage)
	next := "start the goal again with --on serial=SERIAL or --on label=LABEL (see `starter devices`)"
	switch {
	case err != nil:
		if temporal.IsCanceledError(err) {
			return plannerChoice{}, GoalResult{}, false
		}
		return plannerChoice{}, g.finish(ctx, GoalResult{Status: GoalFailed,
			Reason: "the planner could not choose the goal's phone: " + rootMessage(err), NextStep: next}), true
	case res.Invalid != "" || res.Serial == "":
		return plannerChoice{}, g.finish(ctx, GoalResult{Status: GoalFailed,
			Reason: "the planner named no phone of the fleet, twice: " + res.Invalid, NextStep: next}), true
	}
	workflow.GetLogger(ctx).Info("the planner chose the goal's phone", "serial", res.Serial, "reason", res.Reason)
	return plannerChoice{Serial: res.Serial, Reason: res.Reason}, GoalResult{}, false
}

// spanOf is the listed fleet as a goal that spans phones shows it to its
// planner.
func spanOf(phones []activities.FleetEntry) []activities.FleetPhone {
	out := make([]activities.FleetPhone, 0, len(phones))
	for _, e := range phones {
		fp := activities.FleetPhone{Serial: e.Phone.Serial, Labels: e.Phone.Labels, Served: e.Served}
		if !e.Served {
			fp.Why = "no worker serves phone " + e.Phone.Serial + ": start the worker of its host"
		}
		out = append(out, fp)
	}
	return out
}
