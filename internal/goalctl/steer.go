package goalctl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/workflows"
)

// Send delivers a signal-or-update name with its argument (nil for none).
// By default it runs the update and waits for it to complete, so a
// validator rejection comes back as the error; with asSignal it sends a
// plain signal, which is accepted even when the goal will ignore it.
//
// The update carries an update ID (WithUpdateID's, else a fresh one) and
// is retried with that same ID while the frontend is unreachable, so a
// retried update is applied once: Temporal returns the first outcome of an
// ID instead of running the handler again.
func (g *Client) Send(ctx context.Context, id, name string, arg any, asSignal bool) error {
	if asSignal {
		return wrap(id, name, g.c.SignalWorkflow(ctx, id, "", name, arg))
	}
	return g.update(ctx, id, name, arg, nil)
}

// PersonAction sends a person's action on the goal's phone (the step
// viewer's take-over, docs/design.md §7) and returns what the phone did.
func (g *Client) PersonAction(ctx context.Context, id string, a workflows.PersonAction) (activities.PersonActResult, error) {
	var res activities.PersonActResult
	err := g.update(ctx, id, workflows.UpdatePersonAction, a, &res)
	return res, err
}

// update sends update name and decodes its result into out (nil: none),
// as Send describes.
func (g *Client) update(ctx context.Context, id, name string, arg, out any) error {
	var args []any
	if arg != nil {
		args = []any{arg}
	}
	updateID := updateIDFrom(ctx)
	if updateID == "" {
		updateID = NewUpdateID(name)
	}
	var err error
	for try, wait := 1, updateRetryFirst; ; try, wait = try+1, 2*wait {
		var h client.WorkflowUpdateHandle
		h, err = g.c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{
			WorkflowID:   id,
			UpdateID:     updateID,
			UpdateName:   name,
			Args:         args,
			WaitForStage: client.WorkflowUpdateStageCompleted,
		})
		if err == nil {
			err = h.Get(ctx, out)
		}
		if err == nil || try >= updateTries || !transient(err) {
			break
		}
		select {
		case <-ctx.Done():
			return wrap(id, name, err)
		case <-time.After(wait):
		}
	}
	if err == nil {
		return nil
	}
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		// The workflow's validator or handler refused: its message is the
		// answer ("resume: goal is not paused").
		return &RejectedError{Name: name, Message: app.Message()}
	}
	var nr *serviceerror.WorkflowNotReady
	if errors.As(err, &nr) {
		// The server refuses updates to a workflow whose workflow task keeps
		// failing (a deploy it cannot replay, or a bug), but still takes
		// signals: they wait in its history until it runs again.
		return fmt.Errorf("%s %s: the goal cannot take updates while its workflow task keeps failing (see why with `starter status %s`); "+
			"send it as a plain signal with --signal, which the goal applies once it runs again: %w", name, id, id, err)
	}
	return wrap(id, name, err)
}

// How often Send tries an update while the frontend does not answer.
const (
	updateTries      = 4
	updateRetryFirst = 500 * time.Millisecond
)

// transient reports errors after which the same update may be sent again:
// the frontend was unreachable or busy, or the call timed out.
func transient(err error) bool {
	var un *serviceerror.Unavailable
	var re *serviceerror.ResourceExhausted
	var de *serviceerror.DeadlineExceeded
	return errors.As(err, &un) || errors.As(err, &re) || errors.As(err, &de)
}

type updateIDKey struct{}

// WithUpdateID makes Send use updateID for its update: a command retried
// with the same ID (a script that re-runs `starter inject --update-id X`
// after a timeout) is applied once.
func WithUpdateID(ctx context.Context, updateID string) context.Context {
	return context.WithValue(ctx, updateIDKey{}, updateID)
}

func updateIDFrom(ctx context.Context) string {
	s, _ := ctx.Value(updateIDKey{}).(string)
	return s
}

// NewUpdateID returns a fresh update ID, the update's name and 16 hex digits.
func NewUpdateID(name string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return name + "-" + hex.EncodeToString(b[:])
}

// RejectedError is an update the goal refused.
type RejectedError struct {
	Name    string
	Message string
}

func (e *RejectedError) Error() string {
	if strings.HasPrefix(e.Message, e.Name+":") {
		return e.Message
	}
	return e.Name + ": " + e.Message
}

// Clarify answers the goal's pending question.
func (g *Client) Clarify(ctx context.Context, id, text string, asSignal bool) error {
	if err := checkText("clarify", text); err != nil {
		return err
	}
	return g.Send(ctx, id, workflows.SignalClarify, text, asSignal)
}

// Approve approves (or, with approved false, denies) the pending sensitive
// action.
func (g *Client) Approve(ctx context.Context, id string, approved bool, note string, asSignal bool) error {
	return g.Send(ctx, id, workflows.SignalApprove, workflows.ApproveInput{Approved: approved, Note: note}, asSignal)
}

// checkText applies the size rules the workflow's validators apply, so a
// plain signal is not silently dropped for them.
func checkText(name, text string) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("%s: the text is empty", name)
	}
	if len(text) > workflows.MaxSignalText {
		return fmt.Errorf("%s: the text is %d bytes, over the limit of %d: shorten it", name, len(text), workflows.MaxSignalText)
	}
	return nil
}

// SendText sends one of the text-carrying names (clarify, inject,
// user_input) after checking the text.
func (g *Client) SendText(ctx context.Context, id, name, text string, asSignal bool) error {
	if err := checkText(name, text); err != nil {
		return err
	}
	return g.Send(ctx, id, name, text, asSignal)
}
