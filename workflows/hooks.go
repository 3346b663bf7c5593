package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/hooks"
)

// ChangeHooks: a goal tells the worker's hooks of its start and end and of
// each todo's start and end, through the EmitHook local activity
// (docs/design.md §10). Runs recorded before it tell none; plans, steps
// and actions are told from the activities that run them, with no command
// of their own.
const ChangeHooks = "hooks"

// goalHooks is how one run of a goal tells hooks of its boundaries.
type goalHooks struct {
	on  bool
	seq int // numbers this run's events for their IDs
}

// start decides, once per run and before any event, whether this run
// tells hooks.
func (h *goalHooks) start(ctx workflow.Context) {
	h.on = getVersion(ctx, ChangeHooks, workflow.DefaultVersion, 1) >= 1
}

// emit runs EmitHook for ev. The ID names the run and the event's place in
// it, so a retried local activity delivers the same ID; the time is the
// workflow's. A local activity (one marker, on the goal's own worker)
// because the event needs no phone; it never fails the goal.
func (h *goalHooks) emit(ctx workflow.Context, ev hooks.Event) {
	if !h.on {
		return
	}
	h.seq++
	info := workflow.GetInfo(ctx)
	ev.GoalID = info.WorkflowExecution.ID
	ev.ID = fmt.Sprintf("%s/%s/%d/%s", ev.GoalID, info.WorkflowExecution.RunID, h.seq, ev.Kind)
	ev.At = workflow.Now(ctx).UTC()
	lctx := workflow.WithLocalActivityOptions(ctx, workflow.LocalActivityOptions{
		ScheduleToCloseTimeout: time.Minute,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 3},
		Summary:                "Tell hooks: " + string(ev.Kind),
	})
	if err := workflow.ExecuteLocalActivity(lctx, activities.NameEmitHook, ev).Get(ctx, nil); err != nil {
		workflow.GetLogger(ctx).Warn("hooks not told; the goal goes on", "event", ev.Kind, "error", err)
	}
}

// hookGoalStart tells hooks the goal began (its first run only).
func (g *goalRun) hookGoalStart(ctx workflow.Context) {
	if g.in.State == nil {
		g.hooks.emit(ctx, hooks.Event{Kind: hooks.GoalStart, Device: g.in.Device, Goal: g.in.Goal})
	}
}

// hookGoalEnd tells hooks the goal closed with r (or err).
func (g *goalRun) hookGoalEnd(ctx workflow.Context, r GoalResult, err error) {
	if err != nil {
		// A goal that closes as Failed or Canceled carries its result in
		// the error.
		var x GoalResult
		if FailedResult(err, &x) || CanceledResult(err, &x) {
			r = x
		}
	}
	ev := hooks.Event{Kind: hooks.GoalEnd, Device: g.in.Device, Goal: g.in.Goal, Status: r.Status, Reason: r.Reason}
	if ev.Status == "" && err != nil {
		ev.Status, ev.Reason = GoalFailed, rootMessage(err)
	}
	if ev.Status == GoalDone {
		ev.Reason = r.Response
	}
	g.hooks.emit(ctx, ev)
}

// hookTodo tells hooks todo i started, or ended with tr (end).
func (g *goalRun) hookTodo(ctx workflow.Context, i int, end bool, tr TodoResult) {
	ev := hooks.Event{Kind: hooks.TodoStart, Device: g.in.Device, Todo: i + 1, Text: g.st.Todos[i].Text}
	if end {
		ev.Kind, ev.Status, ev.Reason = hooks.TodoEnd, tr.Status, truncate(tr.Result, 500)
	}
	g.hooks.emit(ctx, ev)
}
