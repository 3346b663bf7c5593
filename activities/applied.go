package activities

import (
	"context"
	"errors"

	"go.temporal.io/sdk/temporal"
)

// ErrTypeActionApplied is a Step that failed after its action reached the
// phone, handed back to the workflow at once with the action's result
// (details: StepApplied) when the Step was asked to (StepInput.KeepApplied,
// docs/design.md §4): Temporal does not retry it, since a retry would
// judge the action again from a screen that has moved on, and the todo
// records the action (a commit made, its last action) before it goes on
// or fails.
const ErrTypeActionApplied = "ActionApplied"

// StepApplied is the detail of an ActionApplied error: what the Step did
// before it failed (its action's result, and the screen after it when the
// Step saw it), and the error it failed with: its type, and whether it
// alone would have been retried (a device hiccup, a blob store that did
// not answer), so the workflow tries the rest of the step again without
// the action.
type StepApplied struct {
	Applied   StepResult `json:"applied"`
	Type      string     `json:"type,omitempty"`
	Retryable bool       `json:"retryable,omitempty"`
}

// keepApplied hands err back with the applied action's result
// (ErrTypeActionApplied). A cancelled Step and a model outage, which
// carries the result already (ModelOutage.Applied), pass unchanged.
func keepApplied(err error, applied StepResult) error {
	if err == nil || errors.Is(err, context.Canceled) {
		return err
	}
	f := StepApplied{Applied: StepResult{Act: applied.Act, Screen: applied.Screen}, Retryable: true}
	msg := err.Error()
	var app *temporal.ApplicationError
	if errors.As(err, &app) {
		if app.Type() == ErrTypeModelUnavailable || app.Type() == ErrTypeActionApplied {
			return err
		}
		f.Type, f.Retryable, msg = app.Type(), !app.NonRetryable(), app.Message()
	}
	return temporal.NewNonRetryableApplicationError(msg, ErrTypeActionApplied, err, f)
}

// AppliedOf returns what an ActionApplied error carries: the result of
// the action the Step applied before it failed, and the error's own type
// and retryability.
func AppliedOf(err error) (StepApplied, bool) {
	var app *temporal.ApplicationError
	if err == nil || !errors.As(err, &app) || app.Type() != ErrTypeActionApplied || !app.HasDetails() {
		return StepApplied{}, false
	}
	var f StepApplied
	if app.Details(&f) != nil || f.Applied.Act == nil {
		return StepApplied{}, false
	}
	return f, true
}

// KeepAppliedError is the error a Step asked to keep its applied action
// (StepInput.KeepApplied) fails with when err ends it after the action:
// for test doubles of the Step that must fail as the real one does.
func KeepAppliedError(err error, applied StepResult) error { return keepApplied(err, applied) }
