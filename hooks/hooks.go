package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"
)

// Kind names an event.
type Kind string

// The events a goal produces, in the order they happen within it.
const (
	GoalStart Kind = "goal_start" // the goal's first run begins
	GoalEnd   Kind = "goal_end"   // the goal closes (Status: done, failed, cancelled)
	Plan      Kind = "plan"       // the planner made the first plan (Plan)
	Replan    Kind = "replan"     // the replanner decided after a todo (Status, Plan)
	TodoStart Kind = "todo_start" // a todo starts (Todo, Text)
	TodoEnd   Kind = "todo_end"   // a todo ended (Status, Reason)
	StepStart Kind = "step_start" // a Step activity starts (Action: the action it will apply, if any)
	StepEnd   Kind = "step_end"   // a Step activity ends (Action, Status: its result)
	// BeforeAction is asked, and waited for, before an action that touches
	// the phone is sent: the one event a Gate can veto.
	BeforeAction Kind = "before_action"
)

// Kinds lists every event kind.
var Kinds = []Kind{GoalStart, GoalEnd, Plan, Replan, TodoStart, TodoEnd, StepStart, StepEnd, BeforeAction}

// ParseKind checks an event name (as in hooks.events).
func ParseKind(s string) (Kind, error) {
	if slices.Contains(Kinds, Kind(s)) {
		return Kind(s), nil
	}
	return "", fmt.Errorf("unknown hook event %q: use one of %v", s, Kinds)
}

// Event is what a hook is told. Fields that do not apply to its Kind are
// zero. No event carries a screenshot, an answer to a question or a secret.
type Event struct {
	// ID is the same for every delivery of one occurrence (an activity
	// retried fires it again with the same ID): receivers dedupe by it.
	ID     string    `json:"id"`
	Kind   Kind      `json:"kind"`
	GoalID string    `json:"goal_id"`
	Device string    `json:"device,omitempty"`
	Goal   string    `json:"goal,omitempty"`
	Todo   int       `json:"todo,omitempty"` // 1-based
	Text   string    `json:"text,omitempty"` // the todo's text
	Step   int       `json:"step,omitempty"` // the todo's step, 1-based
	Action string    `json:"action,omitempty"`
	Plan   []string  `json:"plan,omitempty"`
	Status string    `json:"status,omitempty"`
	Reason string    `json:"reason,omitempty"`
	At     time.Time `json:"at"`
}

// Hook watches events. Handle's error is logged and otherwise ignored: a
// hook never fails a goal. It runs inside an activity, so it is called at
// least once per event and may be called again with the same Event.ID.
type Hook interface {
	Handle(ctx context.Context, ev Event) error
}

// Gate is asked before an action is sent to the phone (Kind BeforeAction)
// and may veto it. An error, or no answer within the Set's timeout, counts
// as the Set's default.
type Gate interface {
	Allow(ctx context.Context, ev Event) (Verdict, error)
}

// Verdict is a Gate's answer.
type Verdict struct {
	Allow  bool   `json:"allow"`
	Reason string `json:"reason,omitempty"`
}

// HookFunc adapts a function to Hook.
type HookFunc func(ctx context.Context, ev Event) error

// Handle calls f.
func (f HookFunc) Handle(ctx context.Context, ev Event) error { return f(ctx, ev) }

// GateFunc adapts a function to Gate.
type GateFunc func(ctx context.Context, ev Event) (Verdict, error)

// Allow calls f.
func (f GateFunc) Allow(ctx context.Context, ev Event) (Verdict, error) { return f(ctx, ev) }

// DefaultTimeout bounds one call of a hook or a gate when Set.Timeout is 0.
const DefaultTimeout = 5 * time.Second

// Set is a worker's hooks and gates. A nil *Set does nothing and allows
// every action.
type Set struct {
	Hooks []Hook
	Gates []Gate
	// Timeout bounds each call; 0 = DefaultTimeout.
	Timeout time.Duration
	// DenyByDefault vetoes an action whose gate failed or did not answer
	// in time; false allows it.
	DenyByDefault bool
	Logger        *slog.Logger
}

// Active reports whether s has anything to call.
func (s *Set) Active() bool { return s != nil && (len(s.Hooks) > 0 || len(s.Gates) > 0) }

func (s *Set) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

func (s *Set) log() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

// Only is h told only the events of kinds (all when kinds is empty).
func Only(h Hook, kinds ...Kind) Hook {
	if len(kinds) == 0 {
		return h
	}
	return HookFunc(func(ctx context.Context, ev Event) error {
		if !slices.Contains(kinds, ev.Kind) {
			return nil
		}
		return h.Handle(ctx, ev)
	})
}

// Emit tells every hook ev, one after the other in registration order,
// each bounded by the timeout. Failures are logged, never returned.
func (s *Set) Emit(ctx context.Context, ev Event) {
	if s == nil {
		return
	}
	if ev.At.IsZero() {
		ev.At = time.Now().UTC()
	}
	for i, h := range s.Hooks {
		if err := call(ctx, s.timeout(), func(ctx context.Context) error { return h.Handle(ctx, ev) }); err != nil {
			s.log().Warn("hook failed; the goal goes on", "hook", i, "event", ev.Kind, "event_id", ev.ID, "error", err)
		}
	}
}

// Decide asks every gate about the action in ev (Kind BeforeAction), in
// registration order: the first veto wins. A gate that fails or does not
// answer within the timeout counts as the default (DenyByDefault), with the
// reason saying so.
func (s *Set) Decide(ctx context.Context, ev Event) Verdict {
	if s == nil {
		return Verdict{Allow: true}
	}
	ev.Kind = BeforeAction
	if ev.At.IsZero() {
		ev.At = time.Now().UTC()
	}
	for i, g := range s.Gates {
		var v Verdict
		err := call(ctx, s.timeout(), func(ctx context.Context) error {
			var err error
			v, err = g.Allow(ctx, ev)
			return err
		})
		if err != nil {
			why := "failed"
			if errors.Is(err, context.DeadlineExceeded) {
				why = fmt.Sprintf("did not answer within %s", s.timeout())
			}
			s.log().Warn("before-action hook "+why+"; taking the default", "hook", i, "event_id", ev.ID, "deny", s.DenyByDefault, "error", err)
			if s.DenyByDefault {
				return Verdict{Reason: "the before-action hook " + why + " and the default is to deny"}
			}
			continue
		}
		if !v.Allow {
			if v.Reason == "" {
				v.Reason = "vetoed by a before-action hook"
			}
			return v
		}
	}
	return Verdict{Allow: true}
}

// call runs f with a deadline, recovering a panic as an error. A call that
// outlives its deadline is left to finish on its own.
func call(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("hook panicked: %v", r)
			}
		}()
		done <- f(ctx)
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
