package activities

import (
	"context"
	"errors"
	"slices"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// maxRejectedKept bounds the invalid answer carried back for a retry.
const maxRejectedKept = 2000

// PlanOnce asks the planner to split the goal into todos. An answer that
// breaks the contract is a result with Invalid set (the workflow asks
// again with the feedback), not an error.
func (a *Activities) PlanOnce(ctx context.Context, in PlanInput) (PlanDecision, error) {
	defer keepAlive(ctx, StepHeartbeat)()
	a.learn(ctx, in.Device, in.Answers, nil)
	pc := planner.PlanContext{Goal: in.Goal, Answers: toPlannerQA(in.Answers), UserMessages: in.UserMessages,
		Situation: plannerSituation(in.Situation), Memory: a.recall(ctx, in.Device), Phones: plannerPhones(in.Phones)}
	msgs := planner.BuildPlanMessages(pc, a.taskTypes(ctx))
	msgs = planner.WithInstructions(msgs, a.PlannerPrompt, a.plannerDay(in.Situation))
	if in.Invalid != "" {
		msgs = withFeedback(msgs, in.Rejected, in.Invalid)
	}
	d, err := outageOr(ctx, in.HandBackOutages)(a.plannerCall(llm.WithJSON(ctx, planner.PlanSchema), msgs, planner.ParsePlan))
	if err == nil {
		d.Memory = pc.Memory
		a.planEvent(ctx, hooks.Plan, in.Device, d)
	}
	return d, err
}

// Replan asks the planner what comes next after a todo.
func (a *Activities) Replan(ctx context.Context, in ReplanInput) (PlanDecision, error) {
	defer keepAlive(ctx, StepHeartbeat)()
	rc := planner.ReplanContext{
		Goal: in.Goal, Remaining: in.Remaining, Feedback: in.Feedback,
		Answers: toPlannerQA(in.Answers), UserMessages: in.UserMessages,
		LastActions: in.LastActions, Situation: plannerSituation(in.Situation),
		Phones: plannerPhones(in.Phones),
	}
	a.learn(ctx, in.Device, in.Answers, in.Done)
	rc.Memory = a.recall(ctx, in.Device)
	for _, d := range in.Done {
		r := planner.TodoResult{Todo: d.Todo, Status: d.Status, Result: d.Result, Steps: d.Steps, Evidence: d.Evidence,
			Committed: d.Committed, Repeated: d.Repeated}
		for _, qa := range d.Answered {
			r.Answered = append(r.Answered, "asked: "+oneLine(qa.Question)+" answered: "+oneLine(qa.Answer))
		}
		rc.Done = append(rc.Done, r)
	}
	msgs := planner.BuildReplanMessages(rc)
	msgs = planner.WithInstructions(msgs, a.PlannerPrompt, a.plannerDay(in.Situation))
	if in.Invalid != "" {
		msgs = withFeedback(msgs, in.Rejected, in.Invalid)
	}
	d, err := outageOr(ctx, in.HandBackOutages)(a.plannerCall(llm.WithJSON(ctx, planner.ReplanSchema), msgs, planner.ParseReplan))
	if err == nil {
		d.Memory = rc.Memory
		a.planEvent(ctx, hooks.Replan, in.Device, d)
	}
	return d, err
}

// outageOr hands a planner outage back to the workflow when asked to
// (see handBackOutage).
func outageOr(ctx context.Context, handBack bool) func(PlanDecision, error) (PlanDecision, error) {
	return func(d PlanDecision, err error) (PlanDecision, error) {
		if err != nil && handBack {
			err = handBackOutage(attempt(ctx), err, nil)
		}
		return d, err
	}
}

// plannerCall asks for JSON in the best response format the endpoint
// accepts (docs/design.md §3); the answer is validated the same way in
// every format.
func (a *Activities) plannerCall(ctx context.Context, msgs []llm.Message, parse func(string) (planner.Decision, error)) (PlanDecision, error) {
	if a.Planner == nil {
		return PlanDecision{}, temporal.NewNonRetryableApplicationError("no planner model configured", ErrTypeConfig, nil)
	}
	ans, err := a.Planner.Chat(ctx, msgs)
	if err != nil {
		return PlanDecision{}, modelError("planner", err)
	}
	d, err := parse(ans.Text)
	if err != nil {
		var ve *planner.ValidationError
		if errors.As(err, &ve) {
			return PlanDecision{Invalid: ve.Feedback(), Raw: clip(ans.Text, maxRejectedKept), Usage: ans.Usage()}, nil
		}
		return PlanDecision{Invalid: err.Error(), Raw: clip(ans.Text, maxRejectedKept), Usage: ans.Usage()}, nil
	}
	pd := PlanDecision{Status: d.Status, Plan: d.Plan, Expect: d.Expect, Phones: d.Phones, TaskType: d.TaskType, Question: d.Question, Response: d.Response,
		Usage: ans.Usage()}
	for _, x := range d.Dropped {
		pd.Dropped = append(pd.Dropped, Dropped{Todo: x.Todo, Reason: x.Reason})
	}
	return pd, nil
}

// withFeedback appends the rejected answer and the correction, so the next
// attempt sees what was wrong (planner validation failures are fed back).
func withFeedback(msgs []llm.Message, rejected, feedback string) []llm.Message {
	if rejected != "" {
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: rejected})
	}
	return append(msgs, llm.Message{Role: llm.RoleUser, Text: feedback})
}

// plannerPhones is the fleet as the planner is shown it: the phones a
// worker serves, by serial and labels.
func plannerPhones(ps []FleetPhone) []planner.Phone {
	var out []planner.Phone
	for _, p := range ps {
		if p.Served {
			out = append(out, planner.Phone{Serial: p.Serial, Labels: p.Labels})
		}
	}
	return out
}

func toPlannerQA(qs []QA) []planner.QA {
	var out []planner.QA
	for _, q := range qs {
		out = append(out, planner.QA{Question: q.Question, Answer: q.Answer})
	}
	return out
}

// taskTypes lists the task types prompt memory knows, when it can list them.
func (a *Activities) taskTypes(ctx context.Context) []string {
	lister, ok := a.Prompts.(interface {
		All() (map[string]promptmem.Entry, error)
	})
	if !ok {
		return nil
	}
	all, err := lister.All()
	if err != nil {
		a.logger(ctx).Warn("prompt memory unreadable; planning without known task types", "error", err)
		return nil
	}
	var out []string
	for k := range all {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// plannerDay is the day a planner prompt's "{date}" names: the
// situation's time in the user's zone, or the worker's clock for inputs
// recorded before the situation was sent.
func (a *Activities) plannerDay(s Situation) time.Time {
	if s.Now.IsZero() {
		if a.Now != nil {
			return a.Now()
		}
		return time.Now()
	}
	loc, err := waits.Zone(s.TimeZone)
	if err != nil || s.TimeZone == "" {
		loc = time.UTC
	}
	return s.Now.In(loc)
}

// plannerSituation is s as the planner reads it: the time in the user's
// zone (UTC when the zone does not load), with the weekday, and the budget
// left; nil for inputs recorded before the situation was sent.
func plannerSituation(s Situation) *planner.Situation {
	if s.Now.IsZero() {
		return nil
	}
	zone := s.TimeZone
	loc, err := waits.Zone(zone)
	if err != nil || zone == "" {
		loc, zone = time.UTC, "UTC"
	}
	return &planner.Situation{Now: s.Now.In(loc).Format("2006-01-02 15:04 Monday"), TimeZone: zone,
		StepsUsed: s.StepsUsed, StepsLeft: max(s.MaxSteps-s.StepsUsed, 0), TodoMaxSteps: s.TodoMaxSteps}
}
