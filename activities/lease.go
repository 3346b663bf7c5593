package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
)

// Device lease names. They live here, next to the activities that use
// them, because workflows imports activities; package workflows re-exports
// them as SignalLease* and LeaseWorkflowType.
const (
	// LeaseWorkflowType is the registered name of workflows.DeviceLeaseWorkflow.
	LeaseWorkflowType = "DeviceLeaseWorkflow"
	// LeaseSignalAcquire carries a LeaseRequest to the lease workflow.
	LeaseSignalAcquire = "acquire"
	// LeaseSignalRelease carries a LeaseRelease to the lease workflow.
	LeaseSignalRelease = "release"
	// LeaseSignalGranted carries a LeaseGrant to the goal now holding the phone.
	LeaseSignalGranted = "lease_granted"
	// LeaseSignalBusy carries a LeaseBusy to a goal whose phone is held.
	LeaseSignalBusy = "lease_busy"
)

// Lease activity names as registered from the methods of LeaseActivities.
const (
	NameAcquireDevice       = "AcquireDevice"
	NameDescribeLeaseHolder = "DescribeLeaseHolder"
)

// LeaseRequest asks the lease workflow of Serial for the phone on behalf of
// the goal workflow GoalID. With Wait false a busy phone is answered with
// LeaseBusy{Queued: false} instead of a place in the queue.
// RequestID is echoed in the answer so a goal never mistakes a late
// answer to an earlier request for the current one.
type LeaseRequest struct {
	Serial    string `json:"serial"`
	GoalID    string `json:"goal_id"`
	Wait      bool   `json:"wait"`
	RequestID string `json:"request_id,omitempty"`
}

// LeaseRelease gives the phone back (or leaves the queue).
type LeaseRelease struct {
	GoalID string `json:"goal_id"`
}

// LeaseGrant tells GoalID that it now holds Serial.
type LeaseGrant struct {
	Serial    string `json:"serial"`
	GoalID    string `json:"goal_id"`
	RequestID string `json:"request_id,omitempty"`
}

// LeaseBusy tells a goal that Serial is held by Holder. Queued reports
// whether the goal was put in the queue (Wait was true) and Position its
// 1-based place there.
type LeaseBusy struct {
	Serial    string `json:"serial"`
	Holder    string `json:"holder"`
	Queued    bool   `json:"queued"`
	Position  int    `json:"position,omitempty"`
	RequestID string `json:"request_id,omitempty"`
}

// LeaseStart is the input a lease workflow is started with by
// AcquireDevice; it is the JSON subset {"serial": …} of the workflow's
// state, so the two packages need not share the state type.
type LeaseStart struct {
	Serial string `json:"serial"`
}

// AcquireDeviceInput is the input of AcquireDevice.
type AcquireDeviceInput struct {
	Request         LeaseRequest `json:"request"`
	LeaseWorkflowID string       `json:"lease_workflow_id"`
	TaskQueue       string       `json:"task_queue"`
	// DeviceTaskQueue, when set, is the phone's task queue: the lease is
	// only requested once a worker polls it, so a goal for a phone no
	// worker serves (unknown serial, not on any allow-list) fails with a
	// clear error instead of waiting forever.
	DeviceTaskQueue string `json:"device_task_queue,omitempty"`
}

// taskQueueDescriber is the part of client.Client that tells whether a
// worker polls a task queue.
type taskQueueDescriber interface {
	DescribeTaskQueue(ctx context.Context, taskQueue string, taskQueueType enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error)
}

// ErrTypeDeviceNotServed is the error type of a goal whose phone no worker serves.
const ErrTypeDeviceNotServed = "DeviceNotServed"

// servedGrace is how long AcquireDevice looks for a worker on the phone's
// queue before it gives up (a worker that just started may not have polled).
const servedGrace = 15 * time.Second

// checkServed fails when no worker polls the phone's task queue.
func (a *LeaseActivities) checkServed(ctx context.Context, serial, queue string) error {
	d, ok := a.Client.(taskQueueDescriber)
	if !ok || queue == "" {
		return nil
	}
	deadline := time.Now().Add(servedGrace)
	for {
		resp, err := d.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
		if err != nil {
			return fmt.Errorf("acquire device %s: describe task queue %s: %w", serial, queue, err)
		}
		if len(resp.GetPollers()) > 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
				"no worker serves device %q: check the serial with `starter devices`, and that a worker runs on the phone's host, reaches its adb server and allows it (adb.allow)", serial),
				ErrTypeDeviceNotServed, nil)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// HolderStatus is the result of DescribeLeaseHolder.
type HolderStatus struct {
	Running bool   `json:"running"`
	Status  string `json:"status"` // Temporal's execution status, or "not found"
}

// LeaseClient is the part of client.Client the lease activities use.
type LeaseClient interface {
	SignalWithStartWorkflow(ctx context.Context, workflowID string, signalName string, signalArg any,
		options client.StartWorkflowOptions, workflow any, workflowArgs ...any) (client.WorkflowRun, error)
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
}

var _ LeaseClient = client.Client(nil)

// LeaseActivities talk to the Temporal service on behalf of the device
// lease protocol: a workflow cannot start another workflow it does not own,
// so starting-or-signalling the per-phone lease workflow is an activity.
type LeaseActivities struct {
	Client LeaseClient
}

// AcquireDevice signals the lease workflow of the requested phone,
// starting it first if it is not running. The answer (granted or busy)
// comes back to the goal as a signal, not as this activity's result, so a
// goal can wait hours in the queue without an activity open. Retrying is
// safe: the lease workflow ignores a repeated request from a goal it
// already queued and re-grants to its holder.
func (a *LeaseActivities) AcquireDevice(ctx context.Context, in AcquireDeviceInput) error {
	if in.Request.Serial == "" || in.Request.GoalID == "" || in.LeaseWorkflowID == "" || in.TaskQueue == "" {
		return temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("acquire device: serial, goal ID, lease workflow ID and task queue are all required (got %+v)", in),
			"InvalidLeaseRequest", nil)
	}
	if err := a.checkServed(ctx, in.Request.Serial, in.DeviceTaskQueue); err != nil {
		return err
	}
	opts := client.StartWorkflowOptions{
		// Signal-with-start signals the running lease workflow or starts
		// one; a closed one (idle timeout) may be started again.
		ID:            in.LeaseWorkflowID,
		TaskQueue:     in.TaskQueue,
		StaticSummary: "Lease of phone " + in.Request.Serial,
	}
	_, err := a.Client.SignalWithStartWorkflow(ctx, in.LeaseWorkflowID, LeaseSignalAcquire, in.Request,
		opts, LeaseWorkflowType, LeaseStart{Serial: in.Request.Serial})
	if err != nil {
		return fmt.Errorf("acquire device %s for %s: signal lease workflow %s: %w", in.Request.Serial, in.Request.GoalID, in.LeaseWorkflowID, err)
	}
	activity.GetLogger(ctx).Info("device lease requested", "serial", in.Request.Serial, "goal", in.Request.GoalID, "wait", in.Request.Wait)
	return nil
}

// DescribeLeaseHolder reports whether the goal workflow holding a lease is
// still running (any run of that workflow ID, so a goal that continued as
// new still counts). A workflow the service does not know is not running.
func (a *LeaseActivities) DescribeLeaseHolder(ctx context.Context, goalID string) (HolderStatus, error) {
	resp, err := a.Client.DescribeWorkflowExecution(ctx, goalID, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return HolderStatus{Running: false, Status: "not found"}, nil
	}
	if err != nil {
		return HolderStatus{}, fmt.Errorf("describe lease holder %s: %w", goalID, err)
	}
	st := resp.GetWorkflowExecutionInfo().GetStatus()
	return HolderStatus{Running: st == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, Status: st.String()}, nil
}

// LeaseQueryClaim is the query a goal answers with its LeaseClaim while it
// asks for or holds a phone.
const LeaseQueryClaim = "lease_claim"

// NameFindLeaseClaims is the activity a lease started empty runs to learn
// its holder and queue from the goals.
const NameFindLeaseClaims = "FindLeaseClaims"

// LeaseClaim is a goal's answer to LeaseQueryClaim: whether it holds the
// phone or waits for it, and on which request.
type LeaseClaim struct {
	Serial    string `json:"serial"`
	GoalID    string `json:"goal_id"`
	RequestID string `json:"request_id,omitempty"`
	Held      bool   `json:"held,omitempty"`
	Waiting   bool   `json:"waiting,omitempty"`
}

// FindLeaseClaimsInput names the phone and the visibility query that lists
// the running goals on it.
type FindLeaseClaimsInput struct {
	Serial string `json:"serial"`
	Query  string `json:"query"`
}

// LeaseClaims is the result of FindLeaseClaims: the claims on the phone in
// the order the goals started, and the running goals on it that did not
// answer (their worker is away).
type LeaseClaims struct {
	Claims  []LeaseClaim `json:"claims,omitempty"`
	Unknown []string     `json:"unknown,omitempty"`
}

// claimsClient is the part of client.Client FindLeaseClaims uses.
type claimsClient interface {
	ListWorkflow(ctx context.Context, request *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error)
	QueryWorkflow(ctx context.Context, workflowID string, runID string, queryType string, args ...any) (converter.EncodedValue, error)
}

var _ claimsClient = client.Client(nil)

// claimQueryTimeout bounds each goal's answer.
const claimQueryTimeout = 10 * time.Second

// FindLeaseClaims lists the running goals on a phone and asks each whether
// it holds the phone or waits for it (docs/design.md §24). A goal that
// answers the query with "unknown query type" has not asked for the phone
// yet (it is planning) and claims nothing; a goal whose query gets no
// answer at all is listed as unknown.
func (a *LeaseActivities) FindLeaseClaims(ctx context.Context, in FindLeaseClaimsInput) (LeaseClaims, error) {
	c, ok := a.Client.(claimsClient)
	if !ok {
		return LeaseClaims{}, temporal.NewNonRetryableApplicationError("find lease claims: the lease client cannot list or query goals", "InvalidLeaseClient", nil)
	}
	type goal struct {
		id    string
		start time.Time
	}
	var goals []goal
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{PageSize: 100, NextPageToken: token, Query: in.Query})
		if err != nil {
			return LeaseClaims{}, fmt.Errorf("find lease claims on %s: list running goals: %w", in.Serial, err)
		}
		for _, e := range resp.GetExecutions() {
			goals = append(goals, goal{e.GetExecution().GetWorkflowId(), e.GetStartTime().AsTime()})
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	slices.SortStableFunc(goals, func(x, y goal) int { return x.start.Compare(y.start) })
	var out LeaseClaims
	for _, g := range goals {
		qctx, cancel := context.WithTimeout(ctx, claimQueryTimeout)
		v, err := c.QueryWorkflow(qctx, g.id, "", LeaseQueryClaim)
		cancel()
		var qf *serviceerror.QueryFailed
		switch {
		case errors.As(err, &qf):
			continue // no claim handler yet: the goal has not asked for the phone
		case err != nil:
			activity.GetLogger(ctx).Warn("goal did not answer whether it holds the phone", "serial", in.Serial, "goal", g.id, "error", err)
			out.Unknown = append(out.Unknown, g.id)
			continue
		}
		var cl LeaseClaim
		if err := v.Get(&cl); err != nil {
			return LeaseClaims{}, fmt.Errorf("find lease claims: decode %s's answer: %w", g.id, err)
		}
		if cl.Serial == in.Serial && (cl.Held || cl.Waiting) {
			out.Claims = append(out.Claims, cl)
		}
	}
	return out, nil
}
