package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"
)

// ChangeTodoStepNotice: a todo tells its goal its step count (a
// step_notice todo event, and the count on its other events) whenever it
// is held with a count the goal has not heard, and every stepNoticeEvery
// while it keeps stepping, so the goal's details count the running todo's
// steps as `starter status` does (docs/design.md §2). Before it the goal
// learned a todo's steps only when the todo ended. The goal's side needs
// no marker: it takes a notice as any todo event (a refresh of its
// details), and a history from before the change holds none.
const ChangeTodoStepNotice = "todo-step-notice"

// RunningCount is the one way a running todo's own count joins the goal's
// (docs/design.md §2): the goal's counter is its steps so far (finished
// todos, earlier attempts of this one, replans) plus the running todo's
// count, and the todo's line is its earlier attempts' steps plus the same.
// The goal's details and the CLI's status both count with it.
func RunningCount(goalSteps int, todo TodoState, running int) (goal, todoSteps int) {
	return goalSteps + running, todo.Steps + running
}

// stepNoticeEvery is how long a todo that keeps stepping goes without
// telling its goal (docs/design.md §2). Changing it changes when notices
// are sent: version it.
const stepNoticeEvery = 15 * time.Second

// stepNotices is the todo's side: what it last told its goal, and whether
// it is running its own next Step or verification, when a notice waits for
// stepNoticeEvery.
type stepNotices struct {
	from string    // the todo's workflow ID; "" when this run tells nothing
	told int       // the count the goal was last told
	at   time.Time // when
	busy bool
}

// due reports whether the goal should hear of steps now: the count
// changed and the todo is held (a person, a resume, a timer, a phone or a
// model it waits for), or has kept stepping for stepNoticeEvery.
func (n *stepNotices) due(steps int, now time.Time) bool {
	return n.from != "" && steps != n.told && (!n.busy || now.Sub(n.at) >= stepNoticeEvery)
}

// stop ends the notices of a run that is closing: its result, or the
// next run's first notice, tells the goal its count.
func (n *stepNotices) stop() { n.from = "" }

// sent records a count the goal was told.
func (n *stepNotices) sent(steps int, now time.Time) { n.told, n.at = steps, now }

// working runs f, the todo's own next Step or verification, as busy.
func (t *todoRun) working(f func() error) error {
	t.notices.busy = true
	err := f()
	t.notices.busy = false
	return err
}

// tellSteps starts the coroutine that sends the notices, in a todo that
// has a goal and runs past ChangeTodoStepNotice. The coroutine runs once
// the rest of the workflow task has run and the todo waits, so a notice
// carries every step counted in that task. It waits for each notice to be
// delivered before the next. A notice carries only the todo's index, its
// workflow ID and its count: no text, no screen. The todo's other events
// carry the same (tell), so a question or an approval needs no notice.
func (t *todoRun) tellSteps(ctx workflow.Context) {
	info := workflow.GetInfo(ctx)
	parent := info.ParentWorkflowExecution
	if parent == nil || getVersion(ctx, ChangeTodoStepNotice, workflow.DefaultVersion, 1) < 1 {
		return
	}
	t.notices.from, t.notices.at = info.WorkflowExecution.ID, workflow.Now(ctx)
	workflow.Go(ctx, func(ctx workflow.Context) {
		for {
			if err := workflow.Await(ctx, func() bool { return t.notices.due(t.st.Steps, workflow.Now(ctx)) }); err != nil {
				return
			}
			t.notices.sent(t.st.Steps, workflow.Now(ctx))
			ev := TodoEvent{Kind: TodoEventSteps, Todo: t.in.Index, Steps: t.st.Steps, From: t.notices.from}
			if err := workflow.SignalExternalWorkflow(ctx, parent.ID, "", SignalTodoEvent, ev).Get(ctx, nil); err != nil {
				if ctx.Err() != nil {
					return
				}
				// The next count tells the goal again; a goal that is gone
				// has no details to show.
				workflow.GetLogger(ctx).Warn("step notice not delivered to the goal", "goal", parent.ID, "error", err)
			}
		}
	})
}

// liveSteps is the goal's side: the running todo's count as the todo last
// told it, kept apart from the goal's own count until the todo ends and
// its result carries its steps.
type liveSteps struct {
	child string // workflow ID of the running todo, "" when none
	steps int
}

// start begins counting for the todo child, a new attempt from zero.
func (l *liveSteps) start(child string) { *l = liveSteps{child: child} }

// heard takes a notice: only the running todo's, and only a higher count
// than heard before, since notices of one todo may arrive out of order
// and an earlier attempt's may arrive late. It reports whether the count
// changed.
func (l *liveSteps) heard(from string, steps int) bool {
	if l.child == "" || from != l.child || steps <= l.steps {
		return false
	}
	l.steps = steps
	return true
}

// end stops counting once the todo has ended and returns the last count
// it told, for a todo that ended with no result to carry its steps.
func (l *liveSteps) end() int {
	n := l.steps
	*l = liveSteps{}
	return n
}
