package workflows

import (
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// ChangePlannerReview: every TodoInput.ReviewEvery executor turns the
// planner looks in on the todo (the Review activity: recent actions and
// what went wrong, no screen) and lets it continue, gives its next think
// a hint, or stops it for a replan (docs/design.md#planner-review). No
// marker of its own: it is ChangeTodoMarkersOnce version 4.
const ChangePlannerReview = "planner-review"

// maxHints bounds the planner's hints a todo keeps to show the planner.
const maxHints = 3

// reviewDue reports whether the planner looks in now: the run takes
// ChangePlannerReview, ReviewEvery turns passed since the last look, and
// the executor's next action is not its finish (the verification judges
// that).
func (t *todoRun) reviewDue(ctx workflow.Context) bool {
	if t.in.ReviewEvery <= 0 || t.in.Unguarded || t.st.Turns-t.st.ReviewedAt < t.in.ReviewEvery {
		return false
	}
	if n := t.st.Next; n != nil && (n.Name == autoglm.ActionFinish || n.NeedsHuman()) {
		return false
	}
	return markersOnceGive(ctx, ChangePlannerReview) >= 1
}

// review runs the planner's look in on the todo when it is due. It
// returns the todo's end when the planner stops it for a replan.
func (t *todoRun) review(ctx workflow.Context) (*TodoResult, error) {
	if !t.reviewDue(ctx) {
		return nil, nil
	}
	t.st.ReviewedAt = t.st.Turns
	in := activities.ReviewInput{Goal: t.in.Goal, Task: t.in.Task, Steps: t.st.Steps, MaxSteps: t.in.MaxSteps,
		Recent: t.st.Recent, Failures: t.st.Lessons, Hints: t.st.Hints, Next: t.st.NextText}
	actx := workflow.WithActivityOptions(ctx, plannerActivityOptions(ctx, fmt.Sprintf("Review todo %d after %s", t.in.Index, plural(t.st.Steps, "step"))))
	var res activities.ReviewResult
	err := workflow.ExecuteActivity(actx, activities.NameReview, in).Get(ctx, &res)
	if err != nil {
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			return nil, err
		}
		workflow.GetLogger(ctx).Warn("the planner's review failed; the todo goes on", "error", err)
		t.planner = "review failed: " + truncate(rootMessage(err), 200)
		return nil, nil
	}
	t.st.Usage.Planner = t.st.Usage.Planner.Add(res.Usage)
	t.planner = fmt.Sprintf("review at step %d → %s", t.st.Steps, plannerChoiceLine(res.Decision, res.Hint, res.Reason))
	switch res.Decision {
	case planner.ReviewHint:
		t.oneShot = append(t.oneShot, plannerNotePrefix+res.Hint)
		t.st.Hints = append(t.st.Hints, truncate(res.Hint, 300))
		if len(t.st.Hints) > maxHints {
			t.st.Hints = t.st.Hints[len(t.st.Hints)-maxHints:]
		}
	case planner.ReviewReplan:
		r := t.result(TodoFailed, plannerReplanPrefix+res.Reason)
		return &r, nil
	}
	t.details(ctx)
	return nil, nil
}
