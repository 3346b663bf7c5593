package goalctl

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

// WatchOptions configure Watch.
type WatchOptions struct {
	// Interval between query rounds; 0 = 500 ms.
	Interval time.Duration
	// OnUpdate is called with every snapshot that differs from the one
	// before (and with the first one).
	OnUpdate func(progress.Snapshot)
	// Lines, when set, carries answers typed by the user. A line that
	// arrives while a question or approval is pending answers it (see
	// Answer); OnAnswer reports the outcome.
	Lines    <-chan string
	OnAnswer func(msg string, err error)
	// Goal is shown in the snapshots (the status query does not carry it).
	Goal string
}

// Watch follows a goal until it ends: it polls the status and todos
// queries, reports changes, answers pending prompts from Lines, and returns
// the goal's result. Transient query failures (the goal's first workflow
// task has not run yet, a worker restart) are skipped; a missing goal is a
// *NotFoundError.
func (g *Client) Watch(ctx context.Context, id string, opts WatchOptions) (workflows.GoalResult, error) {
	if opts.Interval <= 0 {
		opts.Interval = 500 * time.Millisecond
	}
	type outcome struct {
		r   workflows.GoalResult
		err error
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		r, err := g.Result(wctx, id)
		done <- outcome{r, err}
	}()

	var last *progress.Snapshot
	poll := func() error {
		qctx, qcancel := context.WithTimeout(ctx, 10*time.Second)
		defer qcancel()
		s, err := g.Snapshot(qctx, id)
		if err != nil {
			var nf *NotFoundError
			if errors.As(err, &nf) {
				return err
			}
			slog.Debug("goal query failed; retrying", "goal", id, "err", err)
			return nil
		}
		s.Goal = opts.Goal
		if last != nil {
			keepCounters(*last, &s)
		}
		if last == nil || !sameSnapshot(*last, s) {
			if opts.OnUpdate != nil {
				opts.OnUpdate(s)
			}
		}
		last = &s
		return nil
	}
	if err := poll(); err != nil {
		return workflows.GoalResult{}, err
	}
	tick := time.NewTicker(opts.Interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return workflows.GoalResult{}, ctx.Err()
		case o := <-done:
			if o.err == nil {
				// One last look so the view shows the final checklist.
				_ = poll()
			}
			return o.r, o.err
		case line, ok := <-opts.Lines:
			if !ok {
				opts.Lines = nil
				continue
			}
			cur := progress.Snapshot{}
			if last != nil {
				cur = *last
			}
			msg, err := g.Answer(ctx, cur, line)
			if opts.OnAnswer != nil {
				opts.OnAnswer(msg, err)
			}
			if err == nil {
				_ = poll()
			}
		case <-tick.C:
			if err := poll(); err != nil {
				return workflows.GoalResult{}, err
			}
		}
	}
}

// Answer interprets a line typed by the user against what s is waiting
// for: the answer to a pending question, or y/yes/n/no (optionally followed
// by a note) for a pending approval. It returns what was done.
func (g *Client) Answer(ctx context.Context, s progress.Snapshot, line string) (string, error) {
	line = strings.TrimSpace(line)
	switch {
	case s.Question != "":
		if line == "" {
			return "", errors.New("empty answer: type the answer to the question, then Enter")
		}
		if err := g.Clarify(ctx, s.GoalID, line, false); err != nil {
			return "", err
		}
		return "answer sent", nil
	case s.Approval != "":
		word, note, _ := strings.Cut(line, " ")
		switch strings.ToLower(word) {
		case "y", "yes", "approve":
			if err := g.Approve(ctx, s.GoalID, true, strings.TrimSpace(note), false); err != nil {
				return "", err
			}
			return "approved", nil
		case "n", "no", "deny":
			if err := g.Approve(ctx, s.GoalID, false, strings.TrimSpace(note), false); err != nil {
				return "", err
			}
			return "denied", nil
		}
		return "", fmt.Errorf("type y to approve or n to deny (optionally followed by a note), not %q", line)
	}
	if line == "" {
		return "", nil
	}
	return "", errors.New("the goal is not waiting for an answer; to steer it use `starter inject` or `starter say`")
}

func sameSnapshot(a, b progress.Snapshot) bool {
	if a.GoalID != b.GoalID || a.Goal != b.Goal || a.Phase != b.Phase || a.Steps != b.Steps ||
		a.MaxSteps != b.MaxSteps || a.CurrentTodo != b.CurrentTodo || a.Action != b.Action || a.Thinking != b.Thinking || a.Routine != b.Routine ||
		a.Question != b.Question || a.Approval != b.Approval || a.WaitingFor != b.WaitingFor ||
		len(a.Todos) != len(b.Todos) {
		return false
	}
	for i := range a.Todos {
		if a.Todos[i] != b.Todos[i] {
			return false
		}
	}
	return true
}

// keepCounters stops counters from going backwards between two polls. The
// goal adds a todo's steps to its own count only when the todo ends, and
// reads of the goal and of its todo are not one transaction, so a poll
// that lands between the two may see fewer steps than the one before;
// steps are never given back (docs/design.md §2).
func keepCounters(prev progress.Snapshot, s *progress.Snapshot) {
	s.Steps = max(s.Steps, prev.Steps)
	for i := range s.Todos {
		if i < len(prev.Todos) && prev.Todos[i].Text == s.Todos[i].Text {
			s.Todos[i].Steps = max(s.Todos[i].Steps, prev.Todos[i].Steps)
		}
	}
}
