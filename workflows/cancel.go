package workflows

import (
	"errors"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// changeCloseCanceled versions how a cancelled goal or todo closes
// (docs/design.md §6): as Canceled in Temporal (the Web UI shows
// CANCELED), its partial result carried as the cancellation's details.
// Runs that recorded no marker for it complete with status cancelled in
// their result, as before.
const changeCloseCanceled = "close-canceled"

// closeCanceled ends a cancelled run with its partial result r. ctx may be
// the cancelled context: GetVersion issues no cancellable command.
func closeCanceled[T any](ctx workflow.Context, r T) (T, error) {
	if getVersion(ctx, changeCloseCanceled, workflow.DefaultVersion, 1) < 1 {
		return r, nil
	}
	var zero T
	return zero, temporal.NewCanceledError(r)
}

// CanceledResult reads into r the partial result a run closed as Canceled
// carries (a goal's GoalResult, a todo's TodoResult), from the error its
// result returned. It reports whether err was such a cancellation with a
// result.
func CanceledResult(err error, r any) bool {
	var ce *temporal.CanceledError
	if !errors.As(err, &ce) || !ce.HasDetails() {
		return false
	}
	return ce.Details(r) == nil
}
