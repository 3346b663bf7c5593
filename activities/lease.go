package activities

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
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
	// LeaseSignalRevoked carries a LeaseRevoked to a holder whose workflow
	// task kept failing and whose phone the lease gave to the next goal.
	LeaseSignalRevoked = "lease_revoked"
	// LeaseQueryState is the lease workflow's query answering its state.
	LeaseQueryState = "lease"
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
	// Revocable says the goal obeys a revoke (docs/design.md §5): its
	// todo checks the lease before each device action and it asks for the
	// phone again after one. Only such a holder is taken off a phone when
	// its workflow task keeps failing.
	Revocable bool `json:"revocable,omitempty"`
}

// LeaseRevoked tells GoalID that the lease took the phone from it on
// request RequestID, and why.
type LeaseRevoked struct {
	Serial    string `json:"serial"`
	GoalID    string `json:"goal_id"`
	RequestID string `json:"request_id,omitempty"`
	Reason    string `json:"reason"`
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
	// Token is the grant's fencing token: larger than every token the
	// lease granted before (docs/design.md §5). The goal's device actions
	// carry it, and the phone's journal refuses one lower than the highest
	// it has recorded. Zero in grants from before fencing tokens.
	Token int64 `json:"token,omitempty"`
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
	// HeldSince is when Holder was granted the phone, for the waiting
	// goal's status; zero from a lease that did not say.
	HeldSince time.Time `json:"held_since,omitzero"`
}

// LeaseStart is the input a lease workflow is started with by
// AcquireDevice; it is the JSON subset {"serial": …} of the workflow's
// state, so the two packages need not share the state type. The bounds are
// the worker's (limits.lease_check_interval, limits.blocked_holder_after);
// zero takes the workflow's defaults.
type LeaseStart struct {
	Serial        string        `json:"serial"`
	CheckInterval time.Duration `json:"check_interval,omitempty"`
	BlockedAfter  time.Duration `json:"blocked_after,omitempty"`
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
	// Blocked says the running holder's workflow task is being retried
	// after failing (non-determinism after a bad deploy, a panic): it
	// cannot make progress. BlockedSince is when it first failed and
	// BlockedError what it said.
	Blocked      bool      `json:"blocked,omitempty"`
	BlockedSince time.Time `json:"blocked_since,omitzero"`
	BlockedError string    `json:"blocked_error,omitempty"`
	// Busy names what of a blocked holder still works the phone: a running
	// todo with a phone-bound activity scheduled or running, or a healthy
	// todo between two steps. The lease does not take the phone then.
	Busy string `json:"busy,omitempty"`
}

// historyReader reads a workflow's history, newest event first.
type historyReader interface {
	WorkflowService() workflowservice.WorkflowServiceClient
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
	// Namespace is the namespace the goals run in (for history reads).
	Namespace string
	// CheckInterval and BlockedAfter are given to a lease this host
	// starts (limits.lease_check_interval, limits.blocked_holder_after);
	// zero takes the lease's defaults.
	CheckInterval time.Duration
	BlockedAfter  time.Duration
	// DataConverter decodes the fleet's phone records (PickPhone); nil
	// is the SDK default.
	DataConverter converter.DataConverter
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
		opts, LeaseWorkflowType, LeaseStart{Serial: in.Request.Serial, CheckInterval: a.CheckInterval, BlockedAfter: a.BlockedAfter})
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
	hs := HolderStatus{Running: st == enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, Status: st.String()}
	if wt := resp.GetPendingWorkflowTask(); hs.Running && wt != nil && wt.GetAttempt() > 1 {
		// A workflow task on its second attempt or later failed before:
		// the server keeps retrying it and writes only the first failure
		// of the streak into history, so that event says since when and why.
		hs.Blocked = true
		hs.BlockedSince = time.Now() // unknown: the bound counts from now
		if t := wt.GetOriginalScheduledTime(); t != nil {
			hs.BlockedSince = t.AsTime()
		}
		if since, msg, ok := a.lastTaskFailure(ctx, goalID, resp.GetWorkflowExecutionInfo().GetExecution().GetRunId()); ok {
			hs.BlockedSince, hs.BlockedError = since, msg
		}
		hs.Busy = a.busyChild(ctx, resp.GetPendingChildren())
	}
	return hs, nil
}

// lastTaskFailure returns the time and message of the workflow task
// failure that began the current streak: the newest one in the run's
// history, unless a completed workflow task came after it (that streak
// was resolved; not found).
func (a *LeaseActivities) lastTaskFailure(ctx context.Context, id, runID string) (time.Time, string, bool) {
	h, ok := a.Client.(historyReader)
	if !ok {
		return time.Time{}, "", false
	}
	var token []byte
	for range 10 { // the failure is among the newest events; do not read a whole long history
		resp, err := h.WorkflowService().GetWorkflowExecutionHistoryReverse(ctx, &workflowservice.GetWorkflowExecutionHistoryReverseRequest{
			Namespace: a.namespace(), Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: runID},
			MaximumPageSize: 50, NextPageToken: token,
		})
		if err != nil {
			activity.GetLogger(ctx).Warn("cannot read the holder's history", "goal", id, "error", err)
			return time.Time{}, "", false
		}
		for _, e := range resp.GetHistory().GetEvents() {
			if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_COMPLETED {
				// A completed task ended every streak before it: the one
				// retrying now has left no failure in history yet.
				return time.Time{}, "", false
			}
			if e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED {
				f := e.GetWorkflowTaskFailedEventAttributes()
				msg := f.GetFailure().GetMessage()
				if msg == "" {
					msg = f.GetCause().String()
				}
				return e.GetEventTime().AsTime(), firstLine(msg), true
			}
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	return time.Time{}, "", false
}

// busyChild names a running child of a blocked holder that still works the
// phone: one with an activity pending (a todo's activities are all
// phone-bound: Step, Verify, Correct, the prompt-memory and routine
// updates), or whose own workflow task is healthy (a todo between steps).
// A child that cannot be described counts as busy: the phone is taken
// only when it is certain nothing of the holder drives it.
func (a *LeaseActivities) busyChild(ctx context.Context, children []*workflowpb.PendingChildExecutionInfo) string {
	for _, c := range children {
		d, err := a.Client.DescribeWorkflowExecution(ctx, c.GetWorkflowId(), c.GetRunId())
		var nf *serviceerror.NotFound
		switch {
		case errors.As(err, &nf):
			continue
		case err != nil:
			return fmt.Sprintf("todo %s cannot be described (%v)", c.GetWorkflowId(), err)
		case d.GetWorkflowExecutionInfo().GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING:
			continue
		}
		for _, p := range d.GetPendingActivities() {
			return fmt.Sprintf("todo %s runs %s", c.GetWorkflowId(), p.GetActivityType().GetName())
		}
		if wt := d.GetPendingWorkflowTask(); wt != nil && wt.GetAttempt() <= 1 {
			return fmt.Sprintf("todo %s is between two steps", c.GetWorkflowId())
		}
	}
	return ""
}

func (a *LeaseActivities) namespace() string {
	if a.Namespace == "" {
		return "default"
	}
	return a.Namespace
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return clip(l, 300)
}

// LeaseQueryClaim is the query a goal answers with its LeaseClaim while it
// asks for or holds a phone. The Web UI lists a workflow's queries by name
// and preselects the first, so this internal one is named to sort after the
// person's `status` (docs/design.md §5).
const LeaseQueryClaim = "x_lease_claim"

// leaseQueryClaimBefore is the claim query's name on workers from before
// LeaseQueryClaim: a goal they run answers only this one.
const leaseQueryClaimBefore = "lease_claim"

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
	Revocable bool   `json:"revocable,omitempty"` // as LeaseRequest.Revocable
	// Token is the fencing token of the grant the goal holds (or last
	// held): a lease started again grants above it.
	Token int64 `json:"token,omitempty"`
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
// it holds the phone or waits for it (docs/design.md §5). A goal that
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
		var qf *serviceerror.QueryFailed
		if errors.As(err, &qf) {
			v, err = c.QueryWorkflow(qctx, g.id, "", leaseQueryClaimBefore)
		}
		cancel()
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
