package activities

import (
	"context"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// NameRewritePrompt is the activity in which the planner rewrites a todo
// type's executor guidance.
const NameRewritePrompt = "RewritePrompt"

// RewritePrompt asks the planner to rewrite a todo type's guidance from
// the version in force and the recent verified runs, and stores the answer
// as a new version on trial (docs/design.md §2 Guards). An answer that
// breaks the contract is fed back once; a second bad answer, or a version
// that moved on meanwhile, is a result with Invalid set, not an error:
// the guidance in force stays.
func (a *Activities) RewritePrompt(ctx context.Context, in RewriteInput) (RewriteResult, error) {
	if a.Prompts == nil {
		return RewriteResult{Invalid: "no prompt memory"}, nil
	}
	if a.Planner == nil {
		return RewriteResult{}, temporal.NewNonRetryableApplicationError("no planner model configured", ErrTypeConfig, nil)
	}
	g, ok, err := a.Prompts.Guidance(in.TodoType)
	if err != nil {
		return RewriteResult{}, temporal.NewApplicationError("prompt memory: "+err.Error(), ErrTypeConfig)
	}
	if !ok || g.InForce != in.From {
		return RewriteResult{Invalid: "the guidance in force moved on"}, nil
	}
	gc := planner.GuidanceContext{TodoType: in.TodoType, Version: g.InForce, Current: g.Current().Text, Why: in.Why}
	for _, o := range g.Recent {
		gc.Runs = append(gc.Runs, planner.GuidanceRun{Version: o.Version, Success: o.Success, Todo: o.Todo, Reason: o.Reason})
	}
	msgs := planner.BuildGuidanceMessages(gc)
	var res RewriteResult
	for range 2 {
		ans, err := a.Planner.Chat(llm.WithJSON(ctx, planner.GuidanceSchema), msgs)
		if err != nil {
			if err = modelError("planner", err); in.HandBackOutages {
				err = handBackOutage(attempt(ctx), err, nil)
			}
			return RewriteResult{}, err
		}
		res.Usage = res.Usage.Add(ans.Usage())
		text, err := planner.ParseGuidance(ans.Text)
		if err == nil {
			v, err := a.Prompts.Propose(in.TodoType, in.From, text, in.Why)
			if err != nil {
				res.Invalid = err.Error()
				return res, nil
			}
			a.logger(ctx).Info("guidance rewritten", "todo_type", in.TodoType, "from", in.From, "version", v.N)
			res.Version, res.Invalid = v.N, ""
			return res, nil
		}
		res.Invalid = err.Error()
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: clip(ans.Text, maxRejectedKept)},
			llm.Message{Role: llm.RoleUser, Text: "Your answer broke the contract: " + res.Invalid})
	}
	return res, nil
}
