package activities

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
)

// Phone reservation names on the wire. A goal that picks a free phone
// reserves it by starting that phone's reservation workflow (ID
// ReservationWorkflowIDPrefix + serial, shared queue): the server starts
// one workflow per ID at a time, so of two goals that pick the same free
// phone at once exactly one holds the reservation and the other picks
// another phone (docs/design.md#phone-fleet).
const (
	ReservationWorkflowType     = "PhoneReservationWorkflow"
	ReservationWorkflowIDPrefix = "phone-reserve-" // + serial
	// MemoReservedFor is the memo key of the goal ID a reservation is for.
	MemoReservedFor = "reserved_for"
	// DefaultReserveFor is how long a reservation lasts: long enough for a
	// goal to plan and its first todo to hold the phone's lease, which then
	// keeps other picks off the phone.
	DefaultReserveFor = 2 * time.Minute
)

// PhoneReservation is the input of a reservation workflow.
type PhoneReservation struct {
	Serial string        `json:"serial"`
	GoalID string        `json:"goal_id"`
	For    time.Duration `json:"for"`
}

// ReservationWorkflowID returns the workflow ID of serial's reservation.
func ReservationWorkflowID(serial string) string { return ReservationWorkflowIDPrefix + serial }

// reserveClient is the part of client.Client a reservation uses.
type reserveClient interface {
	ExecuteWorkflow(ctx context.Context, options client.StartWorkflowOptions, workflow any, args ...any) (client.WorkflowRun, error)
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
	TerminateWorkflow(ctx context.Context, workflowID string, runID string, reason string, details ...any) error
}

// reservedFor returns the goal a running reservation of serial is for, ""
// when none runs or its goal has ended; stale is then the run ID of a
// reservation that still runs for an ended goal. self is the asking goal,
// taken as running.
func (a *LeaseActivities) reservedFor(ctx context.Context, c reserveClient, serial, self string) (goal, stale string, err error) {
	resp, err := c.DescribeWorkflowExecution(ctx, ReservationWorkflowID(serial), "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("describe the reservation of %s: %w", serial, err)
	}
	info := resp.GetWorkflowExecutionInfo()
	if info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
		return "", "", nil
	}
	pl := info.GetMemo().GetFields()[MemoReservedFor]
	if pl != nil {
		if err := a.dataConverter().FromPayload(pl, &goal); err != nil {
			return "", "", fmt.Errorf("read the reservation of %s: %w", serial, err)
		}
	}
	if goal == self && goal != "" {
		return goal, "", nil
	}
	// A goal that ended before its reservation did (it failed, or was
	// done quickly) keeps nobody off the phone.
	if goal != "" {
		g, err := c.DescribeWorkflowExecution(ctx, goal, "")
		if err != nil && !errors.As(err, &nf) {
			return "", "", fmt.Errorf("describe goal %s that reserved %s: %w", goal, serial, err)
		}
		if err == nil && g.GetWorkflowExecutionInfo().GetStatus() == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING {
			return goal, "", nil
		}
	}
	return "", info.GetExecution().GetRunId(), nil
}

// reserve starts serial's reservation for goal on queue (the shared
// one, where the workers run workflows). It reports false, with the goal
// that holds it, when another running goal's reservation runs; a
// reservation already held by goal (a retried pick) is goal's. The server
// starts one reservation per phone at a time, so of two goals reserving
// at once one gets false.
func (a *LeaseActivities) reserve(ctx context.Context, c reserveClient, queue, serial, goal string, d time.Duration) (bool, string, error) {
	if d <= 0 {
		d = DefaultReserveFor
	}
	for range 3 {
		_, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{
			ID:                       ReservationWorkflowID(serial),
			TaskQueue:                queue,
			WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
			WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
			// A reservation no worker runs still ends: the server closes it.
			WorkflowExecutionTimeout:                 d + time.Minute,
			WorkflowExecutionErrorWhenAlreadyStarted: true,
			Memo:                                     map[string]any{MemoReservedFor: goal},
			StaticSummary:                            "Phone " + serial + " reserved for " + goal,
		}, ReservationWorkflowType, PhoneReservation{Serial: serial, GoalID: goal, For: d})
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if !errors.As(err, &started) {
			if err != nil {
				return false, "", fmt.Errorf("reserve phone %s: %w", serial, err)
			}
			return true, goal, nil
		}
		holder, stale, err := a.reservedFor(ctx, c, serial, goal)
		if err != nil {
			return false, "", err
		}
		if holder != "" {
			// Ours from an earlier attempt of this pick, or another goal's.
			return holder == goal, holder, nil
		}
		if stale != "" {
			// Its goal ended: end that reservation by its run ID, so of
			// two goals doing this at once the start above still lets one
			// in.
			err := c.TerminateWorkflow(ctx, ReservationWorkflowID(serial), stale, "its goal has ended")
			var nf *serviceerror.NotFound
			if err != nil && !errors.As(err, &nf) {
				return false, "", fmt.Errorf("end the stale reservation of %s: %w", serial, err)
			}
		}
		// It closed between the start and the look: start it again.
	}
	return false, "", fmt.Errorf("reserve phone %s: its reservation keeps closing and starting", serial)
}

func (a *LeaseActivities) dataConverter() converter.DataConverter {
	if a.DataConverter == nil {
		return converter.GetDefaultDataConverter()
	}
	return a.DataConverter
}
