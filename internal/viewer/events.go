package viewer

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"time"
)

// Event is one line of the event stream (`starter run --events`): the
// moments the viewer shows, as JSON objects. Type is one of plan,
// todo_started, step, question, answer, approval, approved, denied,
// paused, resumed, inject, say, person (a person's action on the phone from
// the step viewer, typed text redacted), todo_done, replanned (Unchanged
// when it kept the plan), planner (every answer of the planner: to a plan
// or replan request, with its Decision; to an executor's question or its
// review of the running todo, with its choice and reason in Text), and last
// done, failed or cancelled.
type Event struct {
	Type   string    `json:"type"`
	Time   time.Time `json:"time"`
	GoalID string    `json:"goal_id"`
	// Todo events.
	Todo       int    `json:"todo,omitempty"`
	WorkflowID string `json:"workflow_id,omitempty"`
	// Step events: one per finished Step activity of a todo, in order.
	Step          int      `json:"step,omitempty"` // the activity's place in its todo, from 1
	Summary       string   `json:"summary,omitempty"`
	Applied       string   `json:"applied,omitempty"`        // the action this step applied
	AppliedResult string   `json:"applied_result,omitempty"` // what it did
	ScreenRef     string   `json:"screen_ref,omitempty"`     // the screenshot the executor saw (blob ref)
	Thinking      string   `json:"thinking,omitempty"`
	Action        string   `json:"action,omitempty"` // the action decided next
	Flags         []string `json:"flags,omitempty"`
	Failure       string   `json:"failure,omitempty"`
	ViewerURL     string   `json:"viewer_url,omitempty"`
	// Plans, questions, results.
	// Decision, on a planner event, is what the planner answered: plan,
	// replanned, unchanged, done, ask_user or invalid.
	Decision string `json:"decision,omitempty"`
	// Unchanged, on a replanned event, says the replan kept the todos not
	// yet started as they were.
	Unchanged bool     `json:"unchanged,omitempty"`
	Todos     []string `json:"todos,omitempty"`
	Text      string   `json:"text,omitempty"`
	Status    string   `json:"status,omitempty"`
	Result    string   `json:"result,omitempty"`
	Steps     int      `json:"steps,omitempty"`
}

// key identifies an event across polls.
func (e Event) key() string {
	return fmt.Sprintf("%s|%s|%d|%d|%s|%d", e.Type, e.WorkflowID, e.Todo, e.Step, e.Text, e.Time.UnixNano())
}

// Events lists what happened in g, in time order. viewerURL, when set, is
// put on step events with the step's anchor.
func Events(g Goal, viewerURL string) []Event {
	var out []Event
	note := func(n Note, todo int, wf string) {
		e := Event{Type: n.Kind, Time: n.Time, GoalID: g.ID, Todo: todo, WorkflowID: wf, Text: n.Text}
		if n.Planner != "" {
			// Every planner answer, whatever it decided.
			pe := Event{Type: "planner", Time: n.Time, GoalID: g.ID, Todo: todo, WorkflowID: wf, Decision: n.Planner, Text: n.Text}
			if n.Kind == "plan" || n.Kind == "replanned" || n.Kind == PlannerUnchanged {
				pe.Todos, pe.Text = planOf(n.Text), ""
			}
			out = append(out, pe)
		}
		switch n.Kind {
		case "plan", "replanned":
			e.Todos, e.Text = planOf(n.Text), ""
		case PlannerUnchanged:
			// Still a replanned event for readers that count them.
			e.Type, e.Todos, e.Text, e.Unchanged = "replanned", planOf(n.Text), "", true
		case "done":
			return // the goal's own end says it
		case "invalid":
			e.Type = "replan_invalid"
		}
		out = append(out, e)
	}
	for _, n := range g.Notes {
		note(n, 0, "")
	}
	for _, t := range g.Todos {
		out = append(out, Event{Type: "todo_started", Time: t.Started, GoalID: g.ID, Todo: t.Index, WorkflowID: t.WorkflowID, Text: t.Text})
		for _, n := range t.Notes {
			note(n, t.Index, t.WorkflowID)
		}
		for _, s := range t.Steps {
			if s.Finished.IsZero() {
				continue // still running
			}
			e := Event{Type: "step", Time: s.Finished, GoalID: g.ID, Todo: t.Index, WorkflowID: t.WorkflowID, Step: s.N,
				Summary: s.Summary, Applied: s.Applied, AppliedResult: s.AppliedNote, ScreenRef: s.ScreenRef,
				Thinking: s.Thinking, Action: s.Action, Flags: s.Flags, Failure: s.Failure}
			if viewerURL != "" {
				e.ViewerURL = viewerURL + "#" + StepAnchor(t.WorkflowID, s.N)
			}
			out = append(out, e)
		}
		if !t.Closed.IsZero() {
			out = append(out, Event{Type: "todo_done", Time: t.Closed, GoalID: g.ID, Todo: t.Index, WorkflowID: t.WorkflowID,
				Text: t.Text, Status: t.Status, Result: t.Result, Steps: t.BudgetSteps()})
		}
	}
	slices.SortStableFunc(out, func(a, b Event) int { return a.Time.Compare(b.Time) })
	if !g.Running {
		res := g.Response
		if res == "" {
			res = g.Reason
		}
		out = append(out, Event{Type: g.Status, Time: g.Closed, GoalID: g.ID, Status: g.Status, Result: res, Steps: g.Steps})
	}
	return out
}

func planOf(text string) []string {
	var out []string
	for _, l := range splitLines(text) {
		if _, rest, ok := cutNumber(l); ok {
			l = rest
		}
		out = append(out, l)
	}
	return out
}

// ID names an event in the live stream (Last-Event-ID): a hash of what it
// is and when, the same on every read of the goal.
func (e Event) ID() string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(e.key()))
	return fmt.Sprintf("%016x", h.Sum64())
}

// Follow polls goal id every interval and calls emit with each event not
// emitted before, until the goal has closed and its last event is out. It
// returns the goal as last read.
func (r *Reader) Follow(ctx context.Context, id string, interval time.Duration, viewerURL string, emit func(Event) error) (Goal, error) {
	return r.FollowFrom(ctx, id, interval, viewerURL, FollowState{}, emit)
}

// FollowState is where a follower of a goal's events resumes: After, the
// ID of the last event it has (from the first read on, that event and
// every one before it in time order are skipped; an ID the goal does not
// have skips nothing), and Seen, IDs it already has (a stream's events
// when a follower falls back to polling).
type FollowState struct {
	After string
	Seen  map[string]bool
	// Idle, when set, is called after each read that found nothing new
	// (a stream's keep-alive).
	Idle func() error
}

// FollowFrom is Follow resuming from st.
func (r *Reader) FollowFrom(ctx context.Context, id string, interval time.Duration, viewerURL string, st FollowState, emit func(Event) error) (Goal, error) {
	if interval <= 0 {
		interval = 500 * time.Millisecond
	}
	seen := map[string]bool{}
	for k := range st.Seen {
		seen[k] = true
	}
	first := true
	for {
		g, err := r.Load(ctx, id)
		if err != nil {
			return g, err
		}
		evs := Events(g, viewerURL)
		if first && st.After != "" {
			if i := slices.IndexFunc(evs, func(e Event) bool { return e.ID() == st.After }); i >= 0 {
				for _, e := range evs[:i+1] {
					seen[e.ID()] = true
				}
			}
		}
		first = false
		fresh := 0
		for _, e := range evs {
			if k := e.ID(); !seen[k] {
				seen[k] = true
				fresh++
				if err := emit(e); err != nil {
					return g, err
				}
			}
		}
		if !g.Running {
			return g, nil
		}
		if fresh == 0 && st.Idle != nil {
			if err := st.Idle(); err != nil {
				return g, err
			}
		}
		select {
		case <-ctx.Done():
			return g, ctx.Err()
		case <-time.After(interval):
		}
	}
}

// WriteJSONLines writes each event as one JSON object per line.
func WriteJSONLines(w io.Writer, evs []Event) error {
	enc := json.NewEncoder(w)
	for _, e := range evs {
		if err := enc.Encode(e); err != nil {
			return err
		}
	}
	return nil
}
