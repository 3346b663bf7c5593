package activities

import (
	"context"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/promptmem"
	"github.com/phoneflow/phoneflow/internal/routine"
)

// maxLessonsInReason bounds the lessons carried into an outcome's reason.
const maxLessonsInReason = 3

// TodoType is the key of a todo's guidance: the routine's task key, the
// todo text with its quoted text, numbers and names abstracted
// (docs/design.md §8), so "Send Alice a message saying \"hi\"" and "Send
// Bob a message saying \"late\"" share one.
func TodoType(todo string) string { return routine.Parse(todo).Template }

// OptimizePrompt records a finished todo in prompt memory: a run of the
// goal's task type (its run count and success rate, which the planner
// sees), and a run of the todo type's guidance version the todo used.
// The todo type's policy then decides (docs/design.md §2 Guards): a
// version on trial that has its runs is kept or rolled back, and a failure
// streak or a run count asks for a rewrite, which the result carries for
// the workflow to run as RewritePrompt.
func (a *Activities) OptimizePrompt(ctx context.Context, in OptimizeInput) (OptimizeResult, error) {
	if a.Prompts == nil {
		return OptimizeResult{}, nil
	}
	if in.TaskType != "" {
		if err := a.Prompts.Record(in.TaskType, in.Success, ""); err != nil {
			return OptimizeResult{}, temporal.NewApplicationError("prompt memory: "+err.Error(), ErrTypeConfig)
		}
	}
	todoType := TodoType(in.Todo)
	if todoType == "" {
		return OptimizeResult{}, nil
	}
	rewrite, note, err := a.Prompts.RecordRun(todoType, promptmem.Outcome{Version: in.Guidance, Success: in.Success,
		Todo: in.Todo, Reason: outcomeReason(in)}, a.PromptPolicy)
	if err != nil {
		return OptimizeResult{}, temporal.NewApplicationError("prompt memory: "+err.Error(), ErrTypeConfig)
	}
	res := OptimizeResult{TodoType: todoType, Note: note}
	if rewrite {
		g, _, err := a.Prompts.Guidance(todoType)
		if err != nil {
			return res, temporal.NewApplicationError("prompt memory: "+err.Error(), ErrTypeConfig)
		}
		cur := g.Current()
		res.Note = ""
		res.Rewrite = &RewriteInput{TodoType: todoType, From: cur.N,
			Why: fmt.Sprintf("%s; v%d has %d of %d runs done", note, cur.N, cur.Successes, cur.Runs)}
	}
	return res, nil
}

// outcomeReason is what the rewriter reads of one run: why it was not
// done and the newest lessons (failed actions, refusals, corrections).
func outcomeReason(in OptimizeInput) string {
	parts := []string{}
	if r := strings.TrimSpace(in.Reason); r != "" {
		parts = append(parts, r)
	}
	ls := in.Lessons
	if len(ls) > maxLessonsInReason {
		ls = ls[len(ls)-maxLessonsInReason:]
	}
	for _, l := range ls {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}

// executorGuidance is the guidance text and version a think carries in
// the executor's system prompt: the todo type's version in.Guidance, or
// the version in force when the todo has none yet. A todo type with no
// guidance text falls back to the goal task type's stored prompt.
func (a *Activities) executorGuidance(ctx context.Context, in ThinkInput) (string, int) {
	if a.Prompts == nil {
		return "", 0
	}
	version := 1 // a todo type never seen runs the base
	if todoType := TodoType(in.Task); todoType != "" {
		g, ok, err := a.Prompts.Guidance(todoType)
		if err != nil {
			a.logger(ctx).Warn("prompt memory unreadable; using the default prompt", "todo_type", todoType, "error", err)
			return "", 0
		}
		if ok {
			v, found := g.Version(in.Guidance)
			if !found {
				v = g.Current()
			}
			if v.Text != "" {
				return v.Text, v.N
			}
			version = v.N
		}
	}
	if in.TaskType == "" {
		return "", version
	}
	e, ok, err := a.Prompts.Get(in.TaskType)
	if err != nil || !ok {
		if err != nil {
			a.logger(ctx).Warn("prompt memory unreadable; using the default prompt", "task_type", in.TaskType, "error", err)
		}
		return "", version
	}
	return e.SystemPrompt, version
}
