package workflows

import (
	"errors"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ChangeFailedGoalCloses versions how a goal that ends failed closes
// (docs/design.md §6): as Failed in Temporal, so the Web UI shows it red
// and a schedule with pause-on-failure pauses, with its whole GoalResult as
// the failure's details. Runs that recorded no marker complete with status
// failed in their result, as before.
const ChangeFailedGoalCloses = "failed-goal-closes"

// ErrTypeGoalFailed is the type of the application error a failed goal
// closes with; its details are the goal's GoalResult.
const ErrTypeGoalFailed = "GoalFailed"

// closeFailed ends a goal whose result r is failed.
func closeFailed(ctx workflow.Context, r GoalResult) (GoalResult, error) {
	if getVersion(ctx, ChangeFailedGoalCloses, workflow.DefaultVersion, 1) < 1 {
		return r, nil
	}
	msg := "goal failed: " + r.Reason
	if r.NextStep != "" {
		msg += " (next: " + r.NextStep + ")"
	}
	return GoalResult{}, temporal.NewApplicationErrorWithOptions(msg, ErrTypeGoalFailed,
		temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{r}})
}

// FailedResult reads into r the result a goal that closed as Failed
// carries, from the error its result returned. It reports whether err was
// such a failure; any other error (a goal that broke, timed out or was
// terminated) has no result.
func FailedResult(err error, r *GoalResult) bool {
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeGoalFailed || !ae.HasDetails() {
		return false
	}
	var out GoalResult
	if ae.Details(&out) != nil || out.Status == "" {
		return false
	}
	*r = out
	return true
}

// GoalOutcome is the result of a finished goal from what its run's Get
// returned: the result, or the one a goal closed as Failed or Canceled
// carries. err is returned when the goal has no result to show.
func GoalOutcome(r GoalResult, err error) (GoalResult, error) {
	if err == nil {
		return r, nil
	}
	var out GoalResult
	if FailedResult(err, &out) {
		return out, nil
	}
	if CanceledResult(err, &out) && out.Status != "" {
		return out, nil
	}
	return r, err
}
