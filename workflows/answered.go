package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// ChangeAnsweredQuestions: the todo keeps each executor question about
// what it left out (Interact) with the answer the planner or the person
// gave, and its finish is verified with them (VerifyInput.Answered,
// StepInput.Answered): a message todo that left out the words is
// confirmed by the bubble with the answer's words, and one sent with
// other words is not (docs/design.md#executor-questions). The todo's
// result hands them to the goal, whose replanner reads them beside the
// todo. No marker of its own: it is ChangeTodoMarkersOnce version 5, so a
// run that recorded an earlier version verifies the todo's text alone,
// as it did, and returns none.
const ChangeAnsweredQuestions = "answered-questions"

// maxAnswered bounds the answered questions a todo keeps.
const maxAnswered = 4

// answeredQuestions are the executor's questions about the todo that
// were answered, oldest first.
type answeredQuestions []activities.QA

// add records an answered question, keeping the newest maxAnswered.
func (a *answeredQuestions) add(q, ans string) {
	*a = append(*a, activities.QA{Question: truncate(q, 300), Answer: truncate(ans, 300)})
	if len(*a) > maxAnswered {
		*a = append(answeredQuestions(nil), (*a)[len(*a)-maxAnswered:]...)
	}
}

// keepsAnswers reports whether this run keeps the answered questions and
// verifies with them (ChangeAnsweredQuestions).
func keepsAnswers(ctx workflow.Context) bool {
	return markersOnceGive(ctx, ChangeAnsweredQuestions) >= 1
}

// answered records the answer to the executor's question q (an action
// named action) when the run keeps them: only an Interact is about what
// the todo left out (a Take_over hands the phone over, and its answer
// says the person is done).
func (t *todoRun) answered(ctx workflow.Context, action, q, ans string) {
	if action == autoglm.ActionInteract && keepsAnswers(ctx) {
		t.st.Answered.add(q, ans)
	}
}

// answers are the answered questions for a verification input or the
// todo's result, nil when there are none.
func (t *todoRun) answers() []activities.QA {
	if len(t.st.Answered) == 0 {
		return nil
	}
	return append([]activities.QA(nil), t.st.Answered...)
}
