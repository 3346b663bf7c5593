package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ask puts a question to the user and waits for clarify. Waiting does not
// count against the budget and holds no worker slot.
func (g *goalRun) ask(ctx workflow.Context, text string, todo int) error {
	if text == "" {
		text = "The planner needs more information. What should I do?"
	}
	d := answerDeadline(ctx, g.opts.AnswerDeadline)
	g.question, g.answer = &question{Text: text, Todo: todo, Kind: QuestionClarify}, nil
	g.answerBy = answerBy(ctx, d)
	g.setPhase(ctx, GoalWaitingUser)
	g.notify(ctx, activities.NotifyInput{Kind: activities.NotifyQuestion, Text: text, Deadline: g.answerBy}, false)
	ok, err := g.awaitPersonReleasing(ctx, d, func() bool { return g.answer != nil })
	if err != nil {
		return err
	}
	if !ok {
		if g.opts.DefaultAnswer == "" {
			return &unansweredError{What: "question", Text: text, Deadline: g.opts.AnswerDeadline}
		}
		a := fmt.Sprintf("%s (nobody answered within %s; this is the configured default answer)", g.opts.DefaultAnswer, g.opts.AnswerDeadline)
		g.answer = &a
	}
	g.st.Answers = append(g.st.Answers, activities.QA{Question: text, Answer: *g.answer})
	if len(g.st.Answers) > maxAnswers {
		g.st.Answers = g.st.Answers[len(g.st.Answers)-maxAnswers:]
	}
	g.question, g.answer = nil, nil
	g.setPhase(ctx, GoalRunning)
	return nil
}

func (g *goalRun) awaitResumed(ctx workflow.Context) error {
	if !g.st.Paused {
		return nil
	}
	return workflow.Await(ctx, func() bool { return !g.st.Paused })
}

// setPhase records a phase change; refresh publishes it.
func (g *goalRun) setPhase(ctx workflow.Context, phase string) {
	g.phase = phase
	g.refresh(ctx)
}

// refresh keeps the status search attribute (upserted only on a change of
// the effective phase, paused and waiting_user included) and the Web UI
// details current.
func (g *goalRun) refresh(ctx workflow.Context) {
	if p := g.effectivePhase(); p != g.published {
		g.published = p
		if err := workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(p), DeviceKey.ValueSet(g.in.Device)); err != nil {
			workflow.GetLogger(ctx).Warn("search attributes not updated: register PhoneflowStatus and PhoneflowDevice (keyword) on the namespace", "error", err)
		}
	}
	g.details(ctx)
}

func (g *goalRun) effectivePhase() string {
	switch {
	case g.phase == GoalRunning && g.st.Paused:
		return GoalPaused
	case g.phase == GoalRunning && (g.question != nil || g.approval != nil):
		return GoalWaitingUser
	case (g.phase == GoalRunning || g.phase == GoalPlanning) && (g.modelWaiting != "" || modelWaitText(g.todoWaiting)):
		return GoalWaitingModel
	case g.phase == GoalRunning && !g.waitUntil.IsZero():
		return GoalWaitingUntil
	case g.phase == GoalRunning && g.phoneWait.on():
		return GoalWaitingPhone
	case g.phase == GoalRunning && g.waitingDevice:
		return GoalWaitingDevice
	}
	return g.phase
}

func (g *goalRun) status() Status {
	s := Status{
		Phase: g.effectivePhase(), CurrentTodo: g.todo, Steps: g.st.Steps, MaxSteps: g.opts.MaxSteps,
		TodoSteps: g.todoStep, Paused: g.st.Paused, Feedback: g.lastFeedback(), Device: g.in.Device, Picked: g.in.Picked,
		WaitingFor: g.waiting, Todos: g.todos(), Usage: g.st.Usage, Verdict: g.lastVerdict,
		ViewerURL: viewerLink(g.id), SteerSeq: g.st.SteerSeq, Replans: g.st.Replans, ReplanKept: g.st.ReplanKept,
	}
	if g.modelWaiting != "" {
		s.WaitingFor = g.modelWaiting
	}
	if s.WaitingFor == "" {
		s.WaitingFor = g.todoWaiting
	}
	if g.question != nil {
		s.PendingQuestion, s.QuestionKind = g.question.Text, g.question.Kind
		if s.QuestionKind == "" {
			s.QuestionKind = QuestionClarify // a todo from before the kinds: ask for words, never assume work was done
		}
	}
	if g.approval != nil {
		a := *g.approval
		s.PendingApproval = &a
	}
	if g.question != nil || g.approval != nil {
		s.AnswerBy = g.answerBy
	}
	s.WaitUntil, s.PhoneReleased, s.WaitLabel = g.waitUntil, g.phoneReleased, g.waitLabel
	return s
}

// todos is the answer of the todos query: a copy of the list, empty (never
// null) before planning.
func (g *goalRun) todos() []TodoState {
	return append([]TodoState{}, g.st.Todos...)
}
