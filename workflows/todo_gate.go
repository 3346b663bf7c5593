package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// budgetStop returns the todo's end when the goal budget or the per-todo cap
// leaves no room for another counted step.
func (t *todoRun) budgetStop() (TodoResult, bool) {
	if t.st.Steps >= t.in.StepBudget {
		return t.result(TodoOutOfBudget, fmt.Sprintf("goal step budget used up after %d steps in this todo", t.st.Steps)), true
	}
	if t.in.MaxSteps > 0 && t.st.Steps >= t.in.MaxSteps {
		return t.result(TodoFailed, fmt.Sprintf("todo step cap reached (%d steps)", t.in.MaxSteps)), true
	}
	return TodoResult{}, false
}

func (t *todoRun) awaitResumed(ctx workflow.Context) error {
	if !t.st.Paused {
		return nil
	}
	// A person may use the phone while the todo is paused: a finish is
	// verified after the pause, not before it, on the phone as it is then.
	t.ahead = nil
	t.st.Checks.waited()
	t.waiting = "paused: send resume"
	t.details(ctx)
	defer func() { t.waiting = "" }()
	// Await holds no worker slot: the run sleeps in history until resume
	// (or a reset, which starts the todo again).
	return workflow.Await(ctx, func() bool { return !t.st.Paused || t.st.Reset })
}

// gate handles the decided action before it may reach the phone: finish
// ends the todo, Take_over/Interact and sensitive taps wait for a human,
// Note and Call_API are answered without the device. It leaves t.st.Next set
// when the action should run.
func (t *todoRun) gate(ctx workflow.Context, a autoglm.Action) (bool, TodoResult, error) {
	text := t.st.NextText
	switch {
	case a.Name == autoglm.ActionFinish:
		res, err := t.finished(ctx, a.Message)
		return true, res, err
	case a.NeedsHuman():
		q := a.Message
		if q == "" {
			q = "The executor needs you to act on the phone (" + a.Name + "). Answer when done."
		}
		// Take_over hands the phone to the person; Interact asks them
		// to choose, in words.
		kind := QuestionClarify
		if a.Name == autoglm.ActionTakeOver {
			kind = QuestionTakeOver
		}
		if t.asksPlanner(ctx) {
			// The planner hears the question first (ChangeAskPlanner).
			settled, stop, err := t.plannerHeard(ctx, a.Name, q, text)
			if err != nil {
				return false, TodoResult{}, err
			}
			if stop != nil {
				return true, *stop, nil
			}
			if settled {
				return false, TodoResult{}, nil
			}
		}
		ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: kind, Text: q, Action: text})
		if err != nil {
			return false, TodoResult{}, err
		}
		t.st.Notes = boundNotes(append(t.st.Notes, "User: "+ans))
		t.st.Checks.asked(q, ans)
		t.answered(ctx, a.Name, q, ans)
		t.handled(text, "user answered: "+ans)
	case a.Sensitive() && !t.in.AutoApprove:
		t.approval = nil
		d := answerDeadline(ctx, t.in.AnswerDeadline)
		by := answerBy(ctx, d)
		if err := t.tell(ctx, TodoEvent{Kind: TodoEventApproval, Text: a.Message, Action: text, AnswerBy: by}); err != nil {
			return false, TodoResult{}, err
		}
		t.waiting = "approval: " + text + waitsUntil(by)
		t.details(ctx)
		ok, err := t.awaitPersonReleasing(ctx, d, false, func() bool { return t.approval != nil })
		t.waiting = ""
		if err != nil {
			return false, TodoResult{}, err
		}
		if !ok {
			// An action nobody approved is never run, whatever the
			// default answer says.
			return false, TodoResult{}, &unansweredError{What: "approval", Text: text, Deadline: t.in.AnswerDeadline}
		}
		ap := *t.approval
		t.approval = nil
		if err := t.tell(ctx, TodoEvent{Kind: TodoEventResolved}); err != nil {
			return false, TodoResult{}, err
		}
		if !ap.Approved {
			r := "rejected by the user"
			if ap.Note != "" {
				r += ": " + ap.Note
			}
			t.st.Lessons = appendLesson(t.st.Lessons, "a sensitive action was rejected: "+text)
			t.handled(text, r)
		} else if ap.Note != "" {
			t.st.Notes = boundNotes(append(t.st.Notes, "User: "+ap.Note))
		}
	case a.Name == autoglm.ActionNote:
		t.st.Notes = boundNotes(append(t.st.Notes, "Noted: "+a.Message))
		t.handled(text, "ok")
	case a.Name == autoglm.ActionCallAPI:
		t.handled(text, "Call_API is not available here; read the screen and answer with finish(message=...) instead")
	}
	return false, TodoResult{}, nil
}

// handled records an action that was resolved without the device.
func (t *todoRun) handled(action, result string) {
	t.st.PreviousAction, t.st.PreviousResult = action, result
	t.st.Next, t.st.NextText = nil, ""
}

// askHuman tells the parent a question is pending and waits for clarify.
func (t *todoRun) askHuman(ctx workflow.Context, ev TodoEvent) (string, error) {
	t.answer = nil
	d := answerDeadline(ctx, t.in.AnswerDeadline)
	ev.AnswerBy = answerBy(ctx, d)
	if err := t.tell(ctx, ev); err != nil {
		return "", err
	}
	t.waiting = "user: " + ev.Text + waitsUntil(ev.AnswerBy)
	t.st.Checks.waited()
	t.details(ctx)
	ok, err := t.awaitPersonReleasing(ctx, d, t.in.DefaultAnswer != "", func() bool { return t.answer != nil })
	t.waiting = ""
	if err != nil {
		return "", err
	}
	if !ok {
		if t.in.DefaultAnswer == "" {
			return "", &unansweredError{What: "question", Text: ev.Text, Deadline: t.in.AnswerDeadline}
		}
		a := fmt.Sprintf("%s (nobody answered within %s; this is the configured default answer)", t.in.DefaultAnswer, t.in.AnswerDeadline)
		t.answer = &a
	}
	ans := *t.answer
	t.answer = nil
	return ans, t.tell(ctx, TodoEvent{Kind: TodoEventResolved})
}

// tell signals the parent goal, if there is one.
func (t *todoRun) tell(ctx workflow.Context, ev TodoEvent) error {
	parent := workflow.GetInfo(ctx).ParentWorkflowExecution
	if parent == nil {
		return nil
	}
	ev.Todo, ev.Steps = t.in.Index, t.st.Steps
	if ev.From = t.notices.from; ev.From != "" {
		t.notices.sent(ev.Steps, workflow.Now(ctx)) // the event tells the count (docs/design.md §2)
	}
	return workflow.SignalExternalWorkflow(ctx, parent.ID, "", SignalTodoEvent, ev).Get(ctx, nil)
}
