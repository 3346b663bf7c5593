package workflows

import (
	"errors"
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// ChangeFanOutFails versions how a fan-out whose phones did not all end
// done closes (docs/design.md#phone-fleet): as Failed in Temporal, like a
// failed goal, with an error naming the summary and the whole FanOutStatus
// as the failure's details. Runs that recorded no marker complete with
// phase failed in their result, as before.
const ChangeFanOutFails = "fan-out-fails"

// ErrTypeFanOutFailed is the type of the application error a fan-out
// closes with when not every phone ended done; its details are the
// fan-out's FanOutStatus.
const ErrTypeFanOutFailed = "FanOutFailed"

// closeFanOut ends a fan-out with status st: a failed one closes as
// Failed from change fan-out-fails on, anything else completes.
func closeFanOut(ctx workflow.Context, st FanOutStatus) (FanOutStatus, error) {
	if st.Phase != PhoneFailed || getVersion(ctx, ChangeFanOutFails, workflow.DefaultVersion, 1) < 1 {
		return st, nil
	}
	return FanOutStatus{}, temporal.NewApplicationErrorWithOptions(st.FailureSummary(), ErrTypeFanOutFailed,
		temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{st}})
}

// FailureSummary is the one line a failed fan-out closes with: how many
// phones ended done, then each that did not, by outcome, with its reason.
func (st FanOutStatus) FailureSummary() string {
	if len(st.Phones) == 0 {
		why := st.Why
		if why == "" {
			why = "no phone to run on"
		}
		return "fan-out failed: " + why
	}
	parts := []string{fmt.Sprintf("%d of %d phones done", st.Count(PhoneDone), len(st.Phones))}
	for _, s := range []string{PhoneFailed, PhoneAsked, PhoneUnserved, PhoneCancelled} {
		var each []string
		for _, p := range st.Phones {
			if p.Status != s {
				continue
			}
			e := p.Serial
			if p.Reason != "" {
				e += " (" + clip(p.Reason, 120) + ")"
			}
			each = append(each, e)
		}
		if len(each) > 0 {
			parts = append(parts, s+": "+strings.Join(each, ", "))
		}
	}
	return clip(strings.Join(parts, "; "), 2000)
}

// FanOutOutcome is the status of an ended fan-out from what its run's Get
// returned: the result, or the status a fan-out closed as Failed carries.
// err is returned when the fan-out has no status to show.
func FanOutOutcome(st FanOutStatus, err error) (FanOutStatus, error) {
	if err == nil {
		return st, nil
	}
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeFanOutFailed || !ae.HasDetails() {
		return st, err
	}
	var out FanOutStatus
	if ae.Details(&out) != nil || out.Phase == "" {
		return st, err
	}
	return out, nil
}
