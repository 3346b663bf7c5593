package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ChangeTodoGuidance: a todo records its outcome under its todo type's
// guidance version also when its goal has no task type, and a todo whose
// outcome made that guidance due for a rewrite runs RewritePrompt
// (docs/design.md §2 Guards).
const ChangeTodoGuidance = "todo-guidance"

// guidancePin is the guidance version a todo runs with: the version its
// first think carried, sent with every later think so one todo never
// mixes two versions, and its outcome is counted for the version it used.
type guidancePin struct {
	Version int `json:"version,omitempty"`
}

// use pins the version a think carried, once.
func (p *guidancePin) use(v int) {
	if p.Version == 0 && v > 0 {
		p.Version = v
	}
}

// optimize records the todo in prompt memory on the phone's host, whose
// Think reads that memory. A todo on the phone's queue does it as a local
// activity (one history event instead of six). When the outcome makes the
// todo type's guidance due for a rewrite, the planner rewrites it. A
// failure never fails the todo: prompt memory is an aid, not the job.
func (t *todoRun) optimize(ctx workflow.Context, res TodoResult) {
	if !t.in.OptimizePrompt || res.Status == TodoOutOfBudget {
		return
	}
	if t.in.TaskType == "" && getVersion(ctx, ChangeTodoGuidance, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	in := activities.OptimizeInput{TaskType: t.in.TaskType, Todo: t.in.Task, Success: res.Status == TodoDone, Lessons: res.Lessons,
		Reason: truncate(outcomeReason(res), 400), Guidance: t.st.Guidance.Version}
	label := t.in.TaskType
	if label == "" {
		label = "todo type"
	}
	var out activities.OptimizeResult
	err := t.onPhoneHost(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 3},
		Summary:             truncate(fmt.Sprintf("Update the %s prompt after todo %d", label, t.in.Index), 380),
	}, activities.NameOptimizePrompt, in, &out)
	if err != nil {
		workflow.GetLogger(ctx).Warn("prompt memory not updated", "task_type", t.in.TaskType, "error", err)
		return
	}
	if out.Note != "" {
		workflow.GetLogger(ctx).Info("guidance trial decided", "todo_type", out.TodoType, "note", out.Note)
	}
	if out.Rewrite == nil || getVersion(ctx, ChangeTodoGuidance, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	t.rewriteGuidance(ctx, *out.Rewrite)
}

// rewriteGuidance asks the planner for the todo type's next guidance
// version. Bounded to two tries; a planner that does not answer leaves the
// version in force, and the next failing run asks again.
func (t *todoRun) rewriteGuidance(ctx workflow.Context, in activities.RewriteInput) {
	var out activities.RewriteResult
	err := t.onPhoneHost(ctx, workflow.LocalActivityOptions{
		StartToCloseTimeout: 2 * time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 2},
		Summary:             truncate(fmt.Sprintf("Rewrite the executor guidance of %q (%s)", in.TodoType, in.Why), 380),
	}, activities.NameRewritePrompt, in, &out)
	switch {
	case err != nil:
		workflow.GetLogger(ctx).Warn("guidance not rewritten", "todo_type", in.TodoType, "error", err)
	case out.Version == 0:
		workflow.GetLogger(ctx).Info("guidance not rewritten", "todo_type", in.TodoType, "why", out.Invalid)
	default:
		workflow.GetLogger(ctx).Info("guidance rewritten", "todo_type", in.TodoType, "version", out.Version)
	}
}

// outcomeReason is what a todo's result says of why it was or was not
// done: its result and the verification's evidence.
func outcomeReason(res TodoResult) string {
	parts := []string{}
	for _, s := range []string{res.Result, res.Evidence} {
		if s = strings.TrimSpace(s); s != "" && !containsString(parts, s) {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "; ")
}

func containsString(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
