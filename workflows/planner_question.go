package workflows

import (
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// ChangeAskPlanner: an executor's question (Interact, Take_over) goes to
// the planner first (the AskPlanner activity), which answers it, stops
// the todo for a replan, or asks the person as before
// (docs/design.md#executor-questions). No marker of its own: it is
// ChangeTodoMarkersOnce version 4, so a run that recorded an earlier
// version asks the person at once, as it did.
const ChangeAskPlanner = "ask-planner"

// plannerNotePrefix opens the executor note that carries the planner's
// answer or hint.
const plannerNotePrefix = "Planner: "

// plannerReplanPrefix opens the result of a todo the planner stopped for
// a replan; the replanner reads the reason after it.
const plannerReplanPrefix = "stopped by the planner to replan: "

// asksPlanner reports whether this run's executor questions go to the
// planner first.
func (t *todoRun) asksPlanner(ctx workflow.Context) bool {
	return t.in.AskPlanner && markersOnceGive(ctx, ChangeAskPlanner) >= 1
}

// plannerActivityOptions: the planner's look at a running todo is an aid,
// tried twice within a short bound; when it fails the todo goes on as it
// would without it (the person is asked, the todo continues).
func plannerActivityOptions(ctx workflow.Context, summary string) workflow.ActivityOptions {
	return withModelHeartbeat(ctx, correctionActivityOptions(truncate(summary, 380)))
}

// askPlanner asks the planner about the executor's question q (action
// kind). It returns the planner's decision; a failed call is
// planner.QuestionAskUser, so the person is asked.
func (t *todoRun) askPlanner(ctx workflow.Context, kind, q string) (activities.AskPlannerResult, error) {
	in := activities.AskPlannerInput{Goal: t.in.Goal, Task: t.in.Task, Device: t.in.Device, Question: q, Kind: kind,
		Earlier: t.in.Earlier, Answers: t.in.Answers}
	t.waiting = "the planner: " + q
	t.details(ctx)
	defer func() { t.waiting = "" }()
	actx := workflow.WithActivityOptions(ctx, plannerActivityOptions(ctx, fmt.Sprintf("AskPlanner todo %d: %s", t.in.Index, q)))
	var res activities.AskPlannerResult
	err := workflow.ExecuteActivity(actx, activities.NameAskPlanner, in).Get(ctx, &res)
	if err != nil {
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			return res, err
		}
		workflow.GetLogger(ctx).Warn("the planner did not answer the executor's question; asking the person", "error", err)
		res = activities.AskPlannerResult{Choice: planner.QuestionAskUser, Reason: "the planner failed: " + truncate(rootMessage(err), 200)}
	}
	t.st.Usage.Planner = t.st.Usage.Planner.Add(res.Usage)
	t.planner = "question " + truncate(q, 200) + " → " + plannerChoiceLine(res.Choice, res.Answer, res.Reason)
	return res, nil
}

// plannerChoiceLine is the details' line of a planner decision.
func plannerChoiceLine(choice, text, reason string) string {
	s := choice
	if text != "" {
		s += ": " + truncate(text, 200)
	}
	if reason != "" {
		s += " (" + truncate(reason, 200) + ")"
	}
	return s
}

// plannerHeard handles an executor question the planner decided on
// (ChangeAskPlanner). It reports whether the question is settled (the
// planner answered it, or the todo ends with res); false leaves it to
// the person.
func (t *todoRun) plannerHeard(ctx workflow.Context, kind, q, action string) (settled bool, stop *TodoResult, err error) {
	d, err := t.askPlanner(ctx, kind, q)
	if err != nil {
		return false, nil, err
	}
	switch d.Choice {
	case planner.QuestionAnswer:
		t.st.Notes = boundNotes(append(t.st.Notes, plannerNotePrefix+d.Answer))
		t.st.Lessons = appendLesson(t.st.Lessons, "the planner answered "+truncate(q, 60)+": "+d.Answer)
		t.answered(ctx, kind, q, d.Answer)
		t.handled(action, "the planner answered: "+d.Answer)
		t.details(ctx)
		return true, nil, nil
	case planner.QuestionReplan:
		r := t.result(TodoFailed, plannerReplanPrefix+d.Reason+" (the executor asked: "+truncate(q, 200)+")")
		return true, &r, nil
	}
	return false, nil, nil
}
