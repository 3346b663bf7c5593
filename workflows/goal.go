package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/bounds"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// Typed search attributes, registered on the namespace before use.
var (
	StatusKey = temporal.NewSearchAttributeKeyKeyword(SearchAttrStatus)
	DeviceKey = temporal.NewSearchAttributeKeyKeyword(SearchAttrDevice)
	LabelsKey = temporal.NewSearchAttributeKeyKeywordList(SearchAttrLabels)
)

// Bounds on what the goal keeps for the planner.
const (
	maxAnswers      = 10
	maxUserMessages = 10
	maxFeedback     = 20
)

// DeviceLease is how GoalWorkflow holds the phone for the whole goal: it
// returns once the goal may drive the phone (or fails when the phone is
// busy and wait is false), and a release func. waiting is called with a
// text such as "device busy: held by goal-x" while it waits, and with ""
// once the lease is held. It defaults to LeaseDevice (one
// DeviceLeaseWorkflow per phone); nil turns leasing off, which tests with
// scripted activities do. Workers and replayers must agree on it.
var DeviceLease func(ctx workflow.Context, serial, goalID string, wait bool, waiting func(string)) (release func(workflow.Context), err error) = LeaseDevice

// modelActivityOptions: planner and verifier calls retry with backoff (429 delays come
// back as NextRetryDelay); permanent errors are non-retryable and fail fast.
func modelActivityOptions(summary string) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: max(bounds.Plan, bounds.Verify),
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    2 * time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
			MaximumAttempts:    5,
		},
		Summary: summary,
	}
}

// question is a pending question for the user: the planner's ask_user
// (todo == 0) or a todo's Take_over/Interact.
type question struct {
	Text string
	Todo int
	Kind string // QuestionClarify, QuestionTakeOver; "" from an older todo
}

type goalRun struct {
	in    GoalInput
	opts  GoalOptions
	st    GoalState
	id    string
	phase string
	// published is the phase last written to the status search attribute.
	published string

	question *question
	answer   *string
	// answerBy is when the pending question or approval stops waiting
	// (zero: no deadline).
	answerBy time.Time
	approval *Approval
	child    string // workflow ID of the running todo, "" when none
	release  func(workflow.Context)
	waiting  string
	// modelWaiting says which model the goal waits for, and since when,
	// while the planner does not answer ("" otherwise).
	modelWaiting string
	// todoWaiting is what the running todo waits for (a phone that does
	// not answer), as it last told the goal.
	todoWaiting string
	todo        int // 1-based index of the current todo
	todoStep    int
	// lastVerdict is the verification of the last finished todo, for the
	// status query.
	lastVerdict string
	// Durable waits (docs/design.md §7): phoneOps carries the running
	// todo's requests to give the phone back and get it again;
	// phoneReleased says the goal gave it back while waiting; phoneLost is
	// why it could not get it again. waitUntil and waitLabel are the end of
	// the current wait for a time (zero when none).
	phoneOps      workflow.Channel
	phoneReleased bool
	phoneLost     error
	waitUntil     time.Time
	waitLabel     string
	// phoneWait is the wait for something on the phone that runs now.
	phoneWait phoneWaiting
	// steer is ordered steering's state (docs/design.md §6).
	steer steering
	// person is a person acting on the phone from the step viewer
	// (docs/design.md §7).
	person personTakeover
	// lease is the phone lease this goal holds (shared with acquireDevice
	// through the context); revocable says the goal asks as a goal that
	// obeys a revoke, and revokedWhy why the lease last took the phone
	// from it, until it holds it again (docs/design.md §5).
	lease *heldLease
	// waitingDevice: the goal queues for its busy phone under a bounded
	// device_wait (status waiting_device).
	waitingDevice bool
	revocable     bool
	revokedWhy    string
	// signals is how this run takes plain signals (docs/design.md §6).
	signals signalOrder
	// live is the running todo's step count as it last told the goal
	// (docs/design.md §2).
	live liveSteps
	// hooks tells the worker's hooks of the goal's boundaries
	// (docs/design.md §10).
	hooks goalHooks
}

// GoalWorkflow runs one natural-language goal: plan once (or take the given
// plan), then a child TodoWorkflow per todo on the device's task queue, a
// replan after each, until the planner says done, the step budget runs out,
// or the goal is cancelled. It continues as new between todos when its
// history grows long.
func GoalWorkflow(ctx workflow.Context, in GoalInput) (GoalResult, error) {
	return goalWorkflow(ctx, in, nil)
}

// goalWorkflow is GoalWorkflow with the starting worker's defaults for
// options the input leaves out (nil: the built-in ones).
func goalWorkflow(ctx workflow.Context, in GoalInput, defaults *GoalOptions) (GoalResult, error) {
	in = resolveOptions(ctx, in, defaults)
	g := &goalRun{in: in, opts: in.Options.WithDefaults(), id: workflow.GetInfo(ctx).WorkflowExecution.ID, lease: &heldLease{}}
	ctx = workflow.WithValue(ctx, leaseKey, g.lease)
	if in.State != nil {
		g.st = *in.State
	}
	// Decided before any handler runs, so every command of this run takes
	// the same path.
	g.steer.ordered = getVersion(ctx, ChangeSteeringOrder, workflow.DefaultVersion, 1) >= 1
	g.steer.settled = g.st.SteerSeq
	g.signals = newSignalOrder(ctx)
	if err := g.setHandlers(ctx); err != nil {
		return GoalResult{}, err
	}
	// A coroutine waiting on a channel adds no command: histories from
	// before durable waits replay unchanged.
	g.phoneOps = workflow.NewBufferedChannel(ctx, 16)
	workflow.Go(ctx, g.runPhoneOps)
	workflow.Go(ctx, g.watchRevokes)
	if g.steer.ordered {
		workflow.Go(ctx, g.deliverSteering)
	}
	phase := GoalPlanning
	if g.st.Planned { // a continued run
		phase = GoalRunning
	}
	g.setPhase(ctx, phase)
	g.hooks.start(ctx)
	g.hookGoalStart(ctx)

	res, err := g.run(ctx)
	var can *workflow.ContinueAsNewError
	if errors.As(err, &can) {
		return GoalResult{}, err // the lease stays held by this goal ID across runs
	}
	dctx, cancel := workflow.NewDisconnectedContext(ctx)
	defer cancel()
	res, err = g.closing(ctx, dctx, res, err)
	g.hookGoalEnd(dctx, res, err)
	return res, err
}

// closing is the end of goalWorkflow once its run returned: the phone
// given back, handlers finished, and the result (or error) the goal
// closes with.
func (g *goalRun) closing(ctx, dctx workflow.Context, res GoalResult, err error) (GoalResult, error) {
	if g.release != nil {
		g.release(dctx)
	}
	// Let steering handlers still forwarding to a todo finish before the
	// goal closes, so their callers get an answer.
	if werr := workflow.Await(dctx, func() bool { return workflow.AllHandlersFinished(dctx) }); werr != nil {
		workflow.GetLogger(ctx).Warn("goal closing with steering handlers still running", "error", werr)
	}
	var unanswered *unansweredError
	if errors.As(err, &unanswered) {
		res, err = g.finish(dctx, GoalResult{Status: GoalFailed, Reason: unanswered.Error(), NextStep: unanswered.nextStep(), Unanswered: unanswered.Text}), nil
	}
	if err != nil {
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			if ctx.Err() != nil {
				return closeCanceled(dctx, g.cancelled(dctx))
			}
			return g.cancelled(dctx), nil
		}
		return GoalResult{}, err
	}
	if res.Status == GoalFailed {
		g.notify(dctx, activities.NotifyInput{Kind: activities.NotifyFailed, Text: res.Reason}, true)
		return closeFailed(dctx, res)
	}
	return res, nil
}

func (g *goalRun) run(ctx workflow.Context) (GoalResult, error) {
	if r, tooLong := g.goalTooLong(ctx); tooLong {
		return r, nil
	}
	if r, failed := g.pickPhone(ctx); failed {
		return r, nil
	}
	g.listFleet(ctx)
	if !g.st.Planned {
		if err := g.plan(ctx); err != nil {
			return GoalResult{}, err
		}
		g.st.Planned = true
		g.setPhase(ctx, GoalRunning)
	}
	// The phone is leased once the todos are known and before the first
	// one runs: planning and its questions never hold the phone. Each run
	// (continue-as-new included) asks again; the lease answers its
	// current holder's repeated request with a grant.
	if DeviceLease != nil {
		// A goal past this change obeys a revoke: its todos check the
		// lease before acting and it asks for the phone again after one.
		g.revocable = getVersion(ctx, ChangeRevokeBlockedHolder, workflow.DefaultVersion, 1) >= 1
		g.lease.Revocable = g.revocable
		// A device_wait such as "10m" bounds the wait for a busy phone.
		lctx, bw := g.boundedLease(ctx)
		rel, err := g.leaseServedPhone(lctx, g.opts.DeviceWait != DeviceWaitFail, func(s string) {
			if bw != nil && bw.busy(ctx, s) {
				return
			}
			g.waiting = s
			g.details(ctx)
		})
		if bw != nil {
			bw.done(ctx)
		}
		if err != nil {
			if ctx.Err() != nil {
				return GoalResult{}, ctx.Err()
			}
			if bw != nil && bw.timedOut {
				return g.finish(ctx, bw.result(ctx)), nil
			}
			return g.finish(ctx, deviceUnavailable(g.in.Device, err)), nil
		}
		g.release = rel
	}
	for {
		// Continue-as-new only between todos: no child is running, every
		// signal is drained into the carried state first.
		if shouldContinueAsNew(ctx, g.opts.HistoryEventLimit) {
			return GoalResult{}, g.continueAsNew(ctx)
		}
		if err := g.awaitResumed(ctx); err != nil {
			return GoalResult{}, err
		}
		if r, ok := g.budgetStop(ctx); ok {
			return r, nil
		}
		i := g.nextPending()
		if g.st.NeedReplan || i < 0 {
			// The replanner decides after every todo, and when nothing is
			// left without a final answer.
			if r, done, err := g.replan(ctx); err != nil || done {
				return r, err
			}
			continue
		}
		// A todo that hit the same wall twice is not run a third time.
		if r, skipped, stop := g.notRunAgain(ctx, i); stop {
			return r, nil
		} else if skipped {
			continue
		}
		// A phone given back during a wait that ended without it (a default
		// answer) is leased again before the next todo; a no-op otherwise.
		if err := g.reacquirePhone(ctx); err != nil {
			return g.phoneGone(ctx, err)
		}
		var tr TodoResult
		var err error
		g.hookTodo(ctx, i, false, TodoResult{})
		// A wait for the phone first: "Wait for a message from …" also
		// reads as a wait for a time that cannot be read.
		if pw, isPhone := waits.PhoneTodo(g.st.Todos[i].Text); isPhone &&
			getVersion(ctx, ChangePhoneWait, workflow.DefaultVersion, 1) >= 1 {
			tr, err = g.phoneWaitTodo(ctx, i, pw)
		} else if w, isWait, werr := waits.Todo(g.st.Todos[i].Text); isWait &&
			getVersion(ctx, ChangeDurableWait, workflow.DefaultVersion, 1) >= 1 {
			tr, err = g.waitTodo(ctx, i, w, werr)
		} else {
			var stop *GoalResult
			if tr, stop, err = g.runTodoOnItsPhone(ctx, i); stop != nil {
				return g.finish(ctx, *stop), nil
			}
		}
		if err == nil && g.phoneLost != nil {
			err = g.phoneLost
		}
		if err != nil {
			var lost *errPhoneLost
			if errors.As(err, &lost) {
				return g.phoneGone(ctx, err)
			}
			return GoalResult{}, err
		}
		g.hookTodo(ctx, i, true, tr)
		if r, stop := g.afterTodo(ctx, i, tr); stop {
			return r, nil
		}
		if tr.Status == TodoReset {
			g.st.NeedReplan = false
			continue // the same todo again, before any replan
		}
		if g.opts.singleLoop() {
			t := g.st.Todos[i]
			if t.Status == TodoDone {
				return g.finish(ctx, GoalResult{Status: GoalDone, Response: t.Result}), nil
			}
			return g.finish(ctx, GoalResult{Status: GoalFailed, Reason: t.Result,
				NextStep: "retry the goal with clearer instructions, or in layered mode"}), nil
		}
		// A stuck todo put back to pending restarts with a fresh executor
		// context before the replanner sees it.
		g.st.NeedReplan = g.st.Todos[i].Status != TodoPending
	}
}

// deviceUnavailable is the result of a goal that could not lease its phone:
// the lease's own words, and a next step that fits why.
func deviceUnavailable(serial string, err error) GoalResult {
	r := GoalResult{Status: GoalFailed, Reason: "device " + serial + " unavailable: " + rootMessage(err)}
	var busy *DeviceBusyError
	var app *temporal.ApplicationError
	switch {
	case errors.As(err, &busy):
		r.Reason = busy.Error()
		r.NextStep = fmt.Sprintf("wait for goal %s to finish (or cancel it), or start this goal with the option device_wait=%q (the default) to queue behind it", busy.Holder, DeviceWaitWait)
	case errors.As(err, &app) && app.Type() == activities.ErrTypeDeviceNotServed:
		r.Reason = app.Message()
		r.NextStep = "start a worker on the host the phone is plugged into (`go run ./worker`), check it lists the phone (`starter devices`, adb.allow), then start the goal again"
	default:
		r.NextStep = "check the worker's logs and the phone (`starter devices`), then start the goal again"
	}
	return r
}

// continueAsNew drains signals into the state, waits for running handlers,
// and starts the next run with everything carried.
func (g *goalRun) continueAsNew(ctx workflow.Context) error {
	g.drain(ctx)
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return err
	}
	g.drain(ctx)
	next := g.in
	st := g.st
	st.Runs++
	next.State = &st
	workflow.GetLogger(ctx).Info("goal continues as new", "steps", g.st.Steps, "run", st.Runs)
	return workflow.NewContinueAsNewError(ctx, GoalWorkflow, next)
}
