package goalctl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/workflows"
)

// GoalWorkflowName is the registered type name of workflows.GoalWorkflow.
// Goals are started by name so this package does not depend on the
// workflow code itself.
const GoalWorkflowName = "GoalWorkflow"

// MemoGoal is the memo key holding the goal text, so `list` can show it
// without querying every workflow.
const MemoGoal = "goal"

var (
	statusKey = temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrStatus)
	deviceKey = temporal.NewSearchAttributeKeyKeyword(workflows.SearchAttrDevice)
	labelsKey = temporal.NewSearchAttributeKeyKeywordList(workflows.SearchAttrLabels)
)

// Options configure a Client.
type Options struct {
	// Namespace is used in Web UI links; empty = "default".
	Namespace string
	// UIAddress is the Temporal Web UI, as host:port or a URL; empty = no
	// links.
	UIAddress string
	// DataConverter decodes memos and search attributes in list results;
	// nil = the SDK default.
	DataConverter converter.DataConverter
	// Prices estimate the cost of schedules' runs; zero = no estimate.
	Prices Prices
	// HideReasoning leaves the executor's reasoning out of snapshots
	// (viewer.show_reasoning false).
	HideReasoning bool
}

// Client runs goal operations against a Temporal cluster.
type Client struct {
	c    client.Client
	opts Options
}

// New returns a Client using c.
func New(c client.Client, opts Options) *Client {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	if opts.DataConverter == nil {
		opts.DataConverter = converter.GetDefaultDataConverter()
	}
	return &Client{c: c, opts: opts}
}

// NotFoundError says a goal or schedule does not exist, or that no worker
// serves a device.
type NotFoundError struct {
	Kind string // "goal", "schedule" or "device"
	ID   string
}

func (e *NotFoundError) Error() string {
	switch e.Kind {
	case "schedule":
		return fmt.Sprintf("no schedule named %s (list schedules with `starter schedule list`)", e.ID)
	case "device":
		return fmt.Sprintf("no worker serves device %s (task queue %s has no pollers): check the serial with `starter devices` "+
			"and that a worker runs on the host the phone is plugged into (`go run ./worker`)", e.ID, workflows.DeviceTaskQueue(e.ID))
	}
	return fmt.Sprintf("no goal with id %s (list goals with `starter list`)", e.ID)
}

// ErrFinished means the goal has already ended, so it cannot take signals
// or updates any more.
var ErrFinished = errors.New("goal has already finished")

// wrap turns Temporal's service errors into this package's errors.
func wrap(id, op string, err error) error {
	if err == nil {
		return nil
	}
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		if strings.Contains(strings.ToLower(nf.Error()), "already completed") {
			return fmt.Errorf("%s %s: %w (see its outcome with `starter status %s`)", op, id, ErrFinished, id)
		}
		return &NotFoundError{Kind: "goal", ID: id}
	}
	if strings.Contains(strings.ToLower(err.Error()), "workflow execution already completed") {
		return fmt.Errorf("%s %s: %w (see its outcome with `starter status %s`)", op, id, ErrFinished, id)
	}
	return fmt.Errorf("%s %s: %w", op, id, err)
}

// Cancel requests cancellation of a goal; the workflow cancels its running
// todo and returns with status cancelled.
// A goal that has already ended is reported with ErrFinished: the server
// accepts a cancel request for it and does nothing.
func (g *Client) Cancel(ctx context.Context, id string) error {
	info, err := g.Describe(ctx, id)
	if err != nil {
		return err
	}
	if info.State != "running" {
		return fmt.Errorf("cancel %s: %w (%s): nothing to cancel; see its outcome with `starter status %s`", id, ErrFinished, info.Status, id)
	}
	return wrap(id, "cancel", g.c.CancelWorkflow(ctx, id, ""))
}

// Result waits for the goal to end and returns its result, also when it
// closed as Failed or Canceled with its result in the details. A goal that
// failed as a workflow without a result (it broke, timed out, was
// terminated) returns the error.
func (g *Client) Result(ctx context.Context, id string) (workflows.GoalResult, error) {
	var r workflows.GoalResult
	err := g.c.GetWorkflow(ctx, id, "").Get(ctx, &r)
	// A wait the server did not answer is not the goal's end: the goal
	// runs on (docs/design.md §16).
	for wait := busyRetryFirst; serverBusy(ctx, err); wait = min(2*wait, busyRetryMax) {
		select {
		case <-ctx.Done():
			return r, wrap(id, "result", err)
		case <-time.After(wait):
		}
		r = workflows.GoalResult{}
		err = g.c.GetWorkflow(ctx, id, "").Get(ctx, &r)
	}
	if err != nil {
		// A goal that ended failed closes as Failed with its result as
		// the failure's details (docs/design.md §6).
		if workflows.FailedResult(err, &r) {
			return r, nil
		}
		var canceled *temporal.CanceledError
		if errors.As(err, &canceled) {
			// A goal closed as Canceled carries its partial result.
			r = workflows.GoalResult{}
			if !workflows.CanceledResult(err, &r) || r.Status == "" {
				r = workflows.GoalResult{Status: workflows.GoalCancelled, Reason: "cancelled"}
			}
			return r, nil
		}
		var terminated *temporal.TerminatedError
		if errors.As(err, &terminated) {
			// Terminated from outside, the goal wrote no result.
			return r, fmt.Errorf("goal %s was terminated from outside (`temporal workflow terminate`, or a demo that ended a goal an interrupted demo left): it has no result; its history in the Web UI shows how far it got", id)
		}
		return r, wrap(id, "result", err)
	}
	return r, nil
}

// CheckDevice reports a *NotFoundError when no worker polls the task queue
// of the phone serial, so a goal for a phone nobody drives fails at once
// instead of waiting forever. Workers stay listed for a few minutes after
// they stop, so a restarting worker does not fail the check.
func (g *Client) CheckDevice(ctx context.Context, serial string) error {
	resp, err := g.c.DescribeTaskQueue(ctx, workflows.DeviceTaskQueue(serial), enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return fmt.Errorf("check device %s: %w", serial, err)
	}
	if len(resp.GetPollers()) == 0 {
		return &NotFoundError{Kind: "device", ID: serial}
	}
	return nil
}
