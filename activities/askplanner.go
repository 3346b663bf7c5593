package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// NameAskPlanner is the activity in which the planner hears an executor's
// question while its todo runs (docs/design.md#executor-questions).
const NameAskPlanner = "AskPlanner"

// AskPlannerInput is an executor's question with what the planner knows.
type AskPlannerInput struct {
	Goal     string `json:"goal"`
	Task     string `json:"task"`
	Device   string `json:"device,omitempty"` // whose memory the planner is shown
	Question string `json:"question"`
	Kind     string `json:"kind,omitempty"` // Interact or Take_over
	// Earlier are the goal's earlier todos with their results.
	Earlier []string `json:"earlier,omitempty"`
	// Answers are the person's earlier answers in the goal.
	Answers []QA `json:"answers,omitempty"`
}

// AskPlannerResult is the planner's choice: planner.QuestionAnswer,
// QuestionReplan or QuestionAskUser, with the answer (for QuestionAnswer)
// and the reason. An answer that broke the contract twice is
// QuestionAskUser with Invalid set: the person is asked.
type AskPlannerResult struct {
	Choice  string    `json:"choice"`
	Answer  string    `json:"answer,omitempty"`
	Reason  string    `json:"reason,omitempty"`
	Invalid string    `json:"invalid,omitempty"`
	Usage   llm.Usage `json:"usage,omitzero"`
}

// AskPlanner asks the planner what to do about an executor's question:
// answer it from the goal, the earlier results, the person's answers and
// the phone's memory, stop the todo for a replan, or ask the person. An
// answer that breaks the contract is fed back once.
func (a *Activities) AskPlanner(ctx context.Context, in AskPlannerInput) (AskPlannerResult, error) {
	defer keepAlive(ctx, StepHeartbeat)()
	if a.Planner == nil {
		return AskPlannerResult{}, temporal.NewNonRetryableApplicationError("no planner model configured", ErrTypeConfig, nil)
	}
	qc := planner.QuestionContext{Goal: in.Goal, Todo: in.Task, Question: in.Question, Kind: in.Kind,
		Earlier: in.Earlier, Answers: toPlannerQA(in.Answers), Memory: a.recall(ctx, in.Device)}
	msgs := planner.BuildQuestionMessages(qc)
	var res AskPlannerResult
	var d planner.QuestionDecision
	usage, invalid, err := a.chatStrict(ctx, planner.QuestionSchema, msgs, func(text string) (err error) {
		d, err = planner.ParseQuestionDecision(text)
		return err
	})
	if err != nil {
		return AskPlannerResult{}, err
	}
	res.Usage, res.Invalid = usage, invalid
	if invalid == "" {
		res.Choice, res.Answer, res.Reason = d.Choice, d.Answer, d.Reason
		return res, nil
	}
	res.Choice, res.Reason = planner.QuestionAskUser, "the planner's answer was invalid"
	return res, nil
}

// NameReview is the activity in which the planner looks in on a running
// todo (docs/design.md#planner-review).
const NameReview = "Review"

// ReviewInput is a running todo as the planner reviews it: no screen.
type ReviewInput struct {
	Goal     string   `json:"goal"`
	Task     string   `json:"task"`
	Steps    int      `json:"steps"`
	MaxSteps int      `json:"max_steps,omitempty"`
	Recent   []string `json:"recent,omitempty"`
	Failures []string `json:"failures,omitempty"`
	Hints    []string `json:"hints,omitempty"`
	Next     string   `json:"next,omitempty"`
}

// ReviewResult is the planner's decision: planner.ReviewContinue,
// ReviewHint or ReviewReplan. An answer that broke the contract twice is
// ReviewContinue with Invalid set.
type ReviewResult struct {
	Decision string    `json:"decision"`
	Hint     string    `json:"hint,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Invalid  string    `json:"invalid,omitempty"`
	Usage    llm.Usage `json:"usage,omitzero"`
}

// Review asks the planner whether a running todo goes on, gets a hint, or
// stops for a replan, from its recent actions and what went wrong. An
// answer that breaks the contract is fed back once.
func (a *Activities) Review(ctx context.Context, in ReviewInput) (ReviewResult, error) {
	defer keepAlive(ctx, StepHeartbeat)()
	if a.Planner == nil {
		return ReviewResult{}, temporal.NewNonRetryableApplicationError("no planner model configured", ErrTypeConfig, nil)
	}
	msgs := planner.BuildReviewMessages(planner.ReviewContext{Goal: in.Goal, Todo: in.Task, Steps: in.Steps, MaxSteps: in.MaxSteps,
		Recent: in.Recent, Failures: in.Failures, Hints: in.Hints, Next: in.Next})
	var res ReviewResult
	var d planner.ReviewDecision
	usage, invalid, err := a.chatStrict(ctx, planner.ReviewSchema, msgs, func(text string) (err error) {
		d, err = planner.ParseReviewDecision(text)
		return err
	})
	if err != nil {
		return ReviewResult{}, err
	}
	res.Usage, res.Invalid = usage, invalid
	if invalid == "" {
		res.Decision, res.Hint, res.Reason = d.Decision, d.Hint, d.Reason
		return res, nil
	}
	res.Decision, res.Reason = planner.ReviewContinue, "the planner's answer was invalid"
	return res, nil
}

// chatStrict asks the planner for an answer under schema and reads it
// with parse; an answer that breaks the contract is fed back once. It
// returns the usage of every try and the last contract error, "" when
// parse took an answer.
func (a *Activities) chatStrict(ctx context.Context, schema llm.JSONSchema, msgs []llm.Message, parse func(string) error) (llm.Usage, string, error) {
	var usage llm.Usage
	invalid := ""
	for range 2 {
		ans, err := a.Planner.Chat(llm.WithJSON(ctx, schema), msgs)
		if err != nil {
			return llm.Usage{}, "", modelError("planner", err)
		}
		usage = usage.Add(ans.Usage())
		perr := parse(ans.Text)
		if perr == nil {
			return usage, "", nil
		}
		invalid = perr.Error()
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: clip(ans.Text, maxRejectedKept)},
			llm.Message{Role: llm.RoleUser, Text: "Your answer broke the contract: " + invalid})
	}
	return usage, invalid, nil
}
