package goalctl

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

// WebURL returns the Web UI page of a workflow, or "" when no UI address
// is configured.
func (g *Client) WebURL(id string) string {
	ui := strings.TrimRight(g.opts.UIAddress, "/")
	if ui == "" {
		return ""
	}
	if !strings.Contains(ui, "://") {
		ui = "http://" + ui
	}
	return fmt.Sprintf("%s/namespaces/%s/workflows/%s", ui, g.opts.Namespace, escapeID(id))
}

// escapeID escapes the characters of a workflow ID that cannot appear in a
// URL path segment (child IDs contain "/").
func escapeID(id string) string {
	r := strings.NewReplacer("%", "%25", "/", "%2F", " ", "%20", "?", "%3F", "#", "%23")
	return r.Replace(id)
}

// Status runs the goal's status query.
func (g *Client) Status(ctx context.Context, id string) (workflows.Status, error) {
	var st workflows.Status
	v, err := g.c.QueryWorkflow(ctx, id, "", workflows.QueryStatus)
	if err != nil {
		return st, wrap(id, "status", err)
	}
	if err := v.Get(&st); err != nil {
		return st, fmt.Errorf("status %s: decode query answer: %w", id, err)
	}
	return st, nil
}

// Todos runs the goal's todos query.
func (g *Client) Todos(ctx context.Context, id string) ([]workflows.TodoState, error) {
	var todos []workflows.TodoState
	v, err := g.c.QueryWorkflow(ctx, id, "", workflows.QueryTodos)
	if err != nil {
		return nil, wrap(id, "todos", err)
	}
	if err := v.Get(&todos); err != nil {
		return nil, fmt.Errorf("todos %s: decode query answer: %w", id, err)
	}
	return todos, nil
}

// LiveTodos is Todos with the running todo's step count read from its own
// workflow: the goal only counts a todo's steps when the todo ends.
func (g *Client) LiveTodos(ctx context.Context, id string) ([]workflows.TodoState, error) {
	todos, err := g.Todos(ctx, id)
	if err != nil || !slices.ContainsFunc(todos, func(t workflows.TodoState) bool { return t.Status == workflows.TodoRunning }) {
		return todos, err
	}
	st, err := g.Status(ctx, id)
	if err != nil {
		return todos, nil // the list itself is right; only the live count is missing
	}
	if child := runningChild(id, st, todos); child != "" {
		if ts, err := g.Status(ctx, child); err == nil {
			_, todos[st.CurrentTodo-1].Steps = workflows.RunningCount(st.Steps, todos[st.CurrentTodo-1], ts.Steps)
		}
	}
	return todos, nil
}

// Snapshot reads both queries and returns the progress view of the goal.
func (g *Client) Snapshot(ctx context.Context, id string) (progress.Snapshot, error) {
	st, err := g.Status(ctx, id)
	if err != nil {
		return progress.Snapshot{}, err
	}
	// The status answer carries the todos of the same moment; a second
	// query could pair counters of one todo with the list of the next.
	todos := st.Todos
	if todos == nil {
		if todos, err = g.Todos(ctx, id); err != nil { // a worker that predates Status.Todos
			return progress.Snapshot{}, err
		}
	}
	return g.SnapshotOf(ctx, id, st, todos), nil
}

// SnapshotOf builds the progress view from query answers already read,
// adding the running todo's live step count and latest action when its
// workflow answers.
func (g *Client) SnapshotOf(ctx context.Context, id string, st workflows.Status, todos []workflows.TodoState) progress.Snapshot {
	s := ToSnapshot(id, st, todos)
	// The goal adds a todo's steps to its own when the todo ends; the
	// running todo workflow knows them live, and they join the goal's as
	// in the goal's details (docs/design.md §2).
	if child := runningChild(id, st, todos); child != "" {
		if ts, err := g.Status(ctx, child); err == nil {
			s.Steps, s.Todos[st.CurrentTodo-1].Steps = workflows.RunningCount(st.Steps, todos[st.CurrentTodo-1], ts.Steps)
			s.Action, s.Thinking, s.Routine = ActionLine(ts), ts.Thinking, ts.Routine
			if g.opts.HideReasoning {
				s.Thinking = ""
			}
		}
	}
	return s
}

// ActionLine is a todo's latest action and its result ("Tap [500,212] →
// ok"), or its latest feedback item from a worker that predates
// Status.LastAction.
func ActionLine(ts workflows.Status) string {
	if ts.LastAction != "" {
		r := ts.LastResult
		if r == "" {
			r = "ok"
		}
		return ts.LastAction + " → " + r
	}
	if n := len(ts.Feedback); n > 0 {
		return ts.Feedback[n-1]
	}
	return ""
}

// runningChild returns the workflow ID of the goal's running todo
// (`<goal id>/todo-<n>`, `-r<k>` for its k-th restart), or "".
func runningChild(id string, st workflows.Status, todos []workflows.TodoState) string {
	n := st.CurrentTodo
	if n <= 0 || n > len(todos) || todos[n-1].Status != workflows.TodoRunning {
		return ""
	}
	child := fmt.Sprintf("%s/todo-%d", id, n)
	if a := todos[n-1].Attempts; a > 1 {
		child += fmt.Sprintf("-r%d", a-1)
	}
	return child
}

// ToSnapshot converts the goal's query answers into the progress view. The
// goal's own feedback items (todo outcomes) are already in the checklist, so
// Action is left for the running todo's status to fill.
func ToSnapshot(id string, st workflows.Status, todos []workflows.TodoState) progress.Snapshot {
	s := progress.Snapshot{
		GoalID:      id,
		Phase:       st.Phase,
		Steps:       st.Steps,
		MaxSteps:    st.MaxSteps,
		CurrentTodo: st.CurrentTodo,
		Question:    st.PendingQuestion,
		WaitingFor:  st.WaitingFor,
		Todos:       ToTodos(todos),
		Replans:     st.Replans,
		ReplanKept:  st.ReplanKept,
	}
	if w := workflows.WaitLine(st, time.Now()); w != "" {
		s.WaitingFor = w // counted from now: the goal's own line is from when the wait began
	}
	if st.Paused && s.Phase != workflows.GoalPaused {
		s.Phase += " (paused)"
	}
	if a := st.PendingApproval; a != nil {
		s.Approval = a.Action
		if a.Reason != "" {
			s.Approval += " — " + a.Reason
		}
	}
	if by := st.AnswerBy; !by.IsZero() {
		// Past this the goal fails (docs/design.md §7).
		suffix := " (answer by " + by.UTC().Format("2006-01-02 15:04 UTC") + ")"
		if s.Question != "" {
			s.Question += suffix
		}
		if s.Approval != "" {
			s.Approval += suffix
		}
	}
	return s
}

// ToTodos converts todo states into checklist lines.
func ToTodos(todos []workflows.TodoState) []progress.Todo {
	out := make([]progress.Todo, 0, len(todos))
	for _, t := range todos {
		text := t.Text
		if t.Device != "" {
			// A todo of a goal that spans phones (docs/design.md#goals-that-span-phones).
			text += " [on phone " + t.Device + "]"
		}
		out = append(out, progress.Todo{Text: text, Status: t.Status, Steps: t.Steps, Result: t.Result})
	}
	return out
}

// ToResult converts a goal's result into the printed outcome.
func ToResult(id string, r workflows.GoalResult) progress.Result {
	return progress.Result{
		GoalID: id, Status: r.Status, Steps: r.Steps, Todos: ToTodos(r.Todos),
		Response: r.Response, Reason: r.Reason, NextStep: r.NextStep,
	}
}
