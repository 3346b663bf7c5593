package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"
)

// ErrTypePhoneLeaseLost is the error type of a device action refused because
// its goal no longer holds the phone: the lease took it from the goal (its
// workflow task kept failing) or another goal holds it (docs/design.md §24).
// It is not retryable: the todo asks its goal for the phone again first.
const ErrTypePhoneLeaseLost = "PhoneLeaseLost"

// LeaseFence names the lease a Step checks before it applies a device
// action, and the goal that must hold it.
type LeaseFence struct {
	LeaseWorkflowID string `json:"lease_workflow_id"`
	GoalID          string `json:"goal_id"`
}

// LeaseQuerier is the part of client.Client the fence uses.
type LeaseQuerier interface {
	QueryWorkflowWithOptions(ctx context.Context, request *client.QueryWorkflowWithOptionsRequest) (*client.QueryWorkflowWithOptionsResponse, error)
}

var _ LeaseQuerier = client.Client(nil)

// fenceQueryTimeout bounds the lease's answer; a lease that does not
// answer in time does not fence.
const fenceQueryTimeout = 5 * time.Second

// leaseView is the part of the lease's state the fence reads (the JSON of
// workflows.LeaseState).
type leaseView struct {
	Holder  string        `json:"holder,omitempty"`
	Revoked []revokedView `json:"revoked,omitempty"`
}

type revokedView struct {
	GoalID string    `json:"goal_id"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason,omitempty"`
}

// checkLease refuses a device action whose goal does not hold the phone:
// another goal holds it, or the lease took it from this goal and has not
// granted it again. A lease that is not running, or holds nobody and has
// not taken the phone from this goal, does not fence (a goal may drive a
// phone whose lease closed idle or was terminated; the lease asks the
// goals again when it starts). A lease that cannot be asked does not
// fence either: the fence guards against a revoked goal, and a revoke
// needs a lease that answers.
func (a *Activities) checkLease(ctx context.Context, serial string, f *LeaseFence) error {
	if f == nil || a.Leases == nil || f.LeaseWorkflowID == "" || f.GoalID == "" {
		return nil
	}
	qctx, cancel := context.WithTimeout(ctx, fenceQueryTimeout)
	defer cancel()
	resp, err := a.Leases.QueryWorkflowWithOptions(qctx, &client.QueryWorkflowWithOptionsRequest{
		WorkflowID: f.LeaseWorkflowID, QueryType: LeaseQueryState,
		QueryRejectCondition: enumspb.QUERY_REJECT_CONDITION_NOT_OPEN,
	})
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
		return nil
	case err != nil:
		if ctx.Err() != nil {
			return ctx.Err()
		}
		a.logger(ctx).Warn("the phone's lease did not answer; acting without the fence", "serial", serial, "lease", f.LeaseWorkflowID, "error", err)
		return nil
	case resp.QueryRejected != nil || resp.QueryResult == nil:
		return nil // the lease is closed
	}
	var v leaseView
	if err := resp.QueryResult.Get(&v); err != nil {
		return fmt.Errorf("read the lease of %s: %w", serial, err)
	}
	if v.Holder == f.GoalID {
		return nil
	}
	i := slices.IndexFunc(v.Revoked, func(r revokedView) bool { return r.GoalID == f.GoalID })
	switch {
	case i >= 0:
		msg := fmt.Sprintf("phone %s was taken from goal %s at %s and not given back", serial, f.GoalID, v.Revoked[i].At.UTC().Format("15:04:05"))
		if v.Revoked[i].Reason != "" {
			msg += " (" + v.Revoked[i].Reason + ")"
		}
		if v.Holder != "" {
			msg += "; goal " + v.Holder + " holds it now"
		}
		return temporal.NewNonRetryableApplicationError(msg+": the goal asks for the phone again before it acts", ErrTypePhoneLeaseLost, nil)
	case v.Holder != "":
		return temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("phone %s is held by goal %s, not by goal %s: the goal asks for the phone again before it acts", serial, v.Holder, f.GoalID),
			ErrTypePhoneLeaseLost, nil)
	}
	return nil
}
