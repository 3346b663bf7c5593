package activities

import (
	"context"
	"strings"

	"go.temporal.io/sdk/activity"

	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// NameEmitHook is the local activity that tells hooks of a goal's and a
// todo's start and end (docs/design.md §10).
const NameEmitHook = "EmitHook"

// ActVetoed opens the result of an action a before-action hook vetoed: it
// never reached the phone, and the executor is told why.
const ActVetoed = "vetoed"

// EmitHook tells the worker's hooks ev, built by the workflow with an ID
// of its own. It never fails: a hook's failure is logged by the hook set.
func (a *Activities) EmitHook(ctx context.Context, ev hooks.Event) error {
	a.Hooks.Emit(ctx, ev)
	return nil
}

// hookID names an event fired from inside an activity: the same for every
// attempt of that activity, so a retry's copy dedupes.
func hookID(ctx context.Context, kind hooks.Kind) string {
	if !activity.IsActivity(ctx) {
		return ""
	}
	i := activity.GetInfo(ctx)
	return i.WorkflowExecution.ID + "/" + i.WorkflowExecution.RunID + "/" + i.ActivityID + "/" + string(kind)
}

// stepEvent is the event of a Step of in.
func stepEvent(ctx context.Context, kind hooks.Kind, in StepInput) hooks.Event {
	ev := hooks.Event{ID: hookID(ctx, kind), Kind: kind, GoalID: in.GoalID, Device: in.Serial,
		Todo: in.Todo, Text: in.Task, Step: in.StepNo + 1}
	if in.Act != nil {
		ev.Action = autoglm.FormatAction(*in.Act)
	}
	return ev
}

// vetoed asks the before-action gates about in's action: nil when it may
// be sent, else the result that takes the place of sending it.
func (a *Activities) vetoed(ctx context.Context, in StepInput) *ActResult {
	if a.Hooks == nil || in.Act == nil || !in.Act.TouchesDevice() {
		return nil
	}
	ev := stepEvent(ctx, hooks.BeforeAction, in)
	v := a.Hooks.Decide(ctx, ev)
	// Hooks that only watch hear the decision.
	ev.Status = "allowed"
	if !v.Allow {
		ev.Status, ev.Reason = ActVetoed, v.Reason
	}
	a.Hooks.Emit(ctx, ev)
	if v.Allow {
		return nil
	}
	why := strings.TrimSpace(v.Reason)
	a.logger(ctx).Info("action vetoed by a before-action hook; not sent", "serial", in.Serial, "action", autoglm.FormatAction(*in.Act), "reason", why)
	return &ActResult{
		Result: ActVetoed + ": " + why + ": this action was not sent and will not be; do something else, or finish and say it was not done",
		Vetoed: why,
	}
}

// planEvent tells hooks of a planner decision that made a plan or ended
// the goal.
func (a *Activities) planEvent(ctx context.Context, kind hooks.Kind, device string, d PlanDecision) {
	if a.Hooks == nil || d.Invalid != "" {
		return
	}
	goal := ""
	if activity.IsActivity(ctx) {
		goal = activity.GetInfo(ctx).WorkflowExecution.ID
	}
	ev := hooks.Event{ID: hookID(ctx, kind), Kind: kind, GoalID: goal, Device: device, Status: d.Status, Plan: d.Plan}
	switch d.Status {
	case PlanAskUser:
		ev.Reason = d.Question
	case PlanDone:
		ev.Reason = d.Response
	}
	a.Hooks.Emit(ctx, ev)
}

// stepEnd is the step_end event of a Step that returned res or err.
func stepEnd(ctx context.Context, in StepInput, res StepResult, err error) hooks.Event {
	ev := stepEvent(ctx, hooks.StepEnd, in)
	switch {
	case err != nil:
		ev.Status, ev.Reason = "error", clip(err.Error(), 300)
	case res.Act != nil && res.Act.Vetoed != "":
		ev.Status, ev.Reason = ActVetoed, res.Act.Vetoed
	case res.Act != nil:
		ev.Status = clip(res.Act.Result, 300)
	default:
		ev.Status = "observed"
	}
	return ev
}
