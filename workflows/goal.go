package workflows

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/bounds"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// Typed search attributes, registered on the namespace before use.
var (
	StatusKey = temporal.NewSearchAttributeKeyKeyword(SearchAttrStatus)
	DeviceKey = temporal.NewSearchAttributeKeyKeyword(SearchAttrDevice)
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
	// Durable waits (docs/design.md §23): phoneOps carries the running
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
	// steer is ordered steering's state (docs/design.md §21).
	steer steering
	// person is a person acting on the phone from the step viewer
	// (docs/design.md §17).
	person personTakeover
	// lease is the phone lease this goal holds (shared with acquireDevice
	// through the context); revocable says the goal asks as a goal that
	// obeys a revoke, and revokedWhy why the lease last took the phone
	// from it, until it holds it again (docs/design.md §24).
	lease      *heldLease
	revocable  bool
	revokedWhy string
	// signals is how this run takes plain signals (docs/design.md §25).
	signals signalOrder
	// live is the running todo's step count as it last told the goal
	// (docs/design.md §7).
	live liveSteps
	// hooks tells the worker's hooks of the goal's boundaries
	// (docs/design.md §29).
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
	g.steer.ordered = workflow.GetVersion(ctx, ChangeSteeringOrder, workflow.DefaultVersion, 1) >= 1
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
		res, err = g.finish(dctx, GoalResult{Status: GoalFailed, Reason: unanswered.Error(), NextStep: unanswered.nextStep()}), nil
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
		g.revocable = workflow.GetVersion(ctx, ChangeRevokeBlockedHolder, workflow.DefaultVersion, 1) >= 1
		g.lease.Revocable = g.revocable
		rel, err := g.leaseServedPhone(ctx, g.opts.DeviceWait != DeviceWaitFail, func(s string) {
			g.waiting = s
			g.details(ctx)
		})
		if err != nil {
			if ctx.Err() != nil {
				return GoalResult{}, ctx.Err()
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
			workflow.GetVersion(ctx, ChangePhoneWait, workflow.DefaultVersion, 1) >= 1 {
			tr, err = g.phoneWaitTodo(ctx, i, pw)
		} else if w, isWait, werr := waits.Todo(g.st.Todos[i].Text); isWait &&
			workflow.GetVersion(ctx, ChangeDurableWait, workflow.DefaultVersion, 1) >= 1 {
			tr, err = g.waitTodo(ctx, i, w, werr)
		} else {
			tr, err = g.runTodo(ctx, i)
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

// plan fills the todo list: the single todo of single mode, the given plan,
// or PlanOnce (not counted against the budget; docs/design.md §2 rule 3).
func (g *goalRun) plan(ctx workflow.Context) error {
	switch {
	case g.opts.singleLoop():
		g.setTodos([]string{g.in.Goal}, nil)
		g.st.TaskType = g.opts.TaskType
		return nil
	case len(g.opts.Plan) > 0:
		g.setTodos(g.opts.Plan, nil)
		g.st.TaskType = g.opts.TaskType
		return nil
	}
	invalid, rejected := "", ""
	for {
		in := activities.PlanInput{Goal: g.in.Goal, Answers: g.st.Answers, UserMessages: g.st.UserMessages,
			Invalid: invalid, Rejected: rejected, Situation: g.situation(ctx), Device: g.in.Device}
		var d activities.PlanDecision
		if err := g.callPlanner(ctx, "Plan the goal", activities.NamePlanOnce, &in, &in.HandBackOutages, &d); err != nil {
			return err
		}
		g.st.Usage.Planner = g.st.Usage.Planner.Add(d.Usage)
		if d.Invalid == "" && d.Status == activities.PlanPlanned && len(d.Plan) == 0 {
			d.Invalid = "the plan is empty: answer with a non-empty plan or ask_user"
		}
		if d.Invalid != "" {
			g.st.Failures++
			invalid, rejected = d.Invalid, d.Raw
			if g.st.Failures >= g.opts.FailureThreshold {
				if err := g.ask(ctx, fmt.Sprintf("The planner failed %d times (%s). How should I proceed?", g.st.Failures, d.Invalid), 0); err != nil {
					return err
				}
				g.st.Failures, invalid, rejected = 0, "", ""
			}
			continue
		}
		g.st.Failures, invalid, rejected = 0, "", ""
		switch d.Status {
		case activities.PlanAskUser:
			if err := g.ask(ctx, d.Question, 0); err != nil {
				return err
			}
		default:
			g.setTodos(d.Plan, d.Expect)
			g.st.TaskType = d.TaskType
			if g.opts.TaskType != "" {
				g.st.TaskType = g.opts.TaskType
			}
			g.consumeUserMessages(len(in.UserMessages))
			return nil
		}
	}
}

func (g *goalRun) setTodos(plan []string, expect [][]postcond.Check) {
	var keep []TodoState
	for _, t := range g.st.Todos {
		if t.Status != TodoPending && t.Status != TodoRunning {
			keep = append(keep, t)
		}
	}
	for i, p := range plan {
		t := TodoState{Index: len(keep) + 1, Text: p, Status: TodoPending}
		if i < len(expect) {
			t.Expect = expect[i]
		}
		keep = append(keep, t)
	}
	g.st.Todos = keep
}

// consumeUserMessages drops the n oldest queued user messages, the ones the
// planner has just seen; messages that arrived during the call stay queued.
func (g *goalRun) consumeUserMessages(n int) {
	n = min(n, len(g.st.UserMessages))
	g.st.UserMessages = append([]string(nil), g.st.UserMessages[n:]...)
	if len(g.st.UserMessages) == 0 {
		g.st.UserMessages = nil
	}
}

func (g *goalRun) nextPending() int {
	for i, t := range g.st.Todos {
		if t.Status == TodoPending {
			return i
		}
	}
	return -1
}

// budgetStop implements docs/design.md §2 rule 1 at the goal's loop head.
func (g *goalRun) budgetStop(ctx workflow.Context) (GoalResult, bool) {
	if g.st.Steps < g.opts.MaxSteps {
		return GoalResult{}, false
	}
	next := "raise max_steps and start the goal again"
	if i := g.nextPending(); i >= 0 {
		next = fmt.Sprintf("continue with todo %d: %s (raise max_steps)", i+1, g.st.Todos[i].Text)
	}
	return g.finish(ctx, GoalResult{Status: GoalFailed,
		Reason:   fmt.Sprintf("step limit reached: %d of %d steps used", g.st.Steps, g.opts.MaxSteps),
		NextStep: next}), true
}

func (g *goalRun) todoID(i, attempt int) string {
	id := g.id + "/todo-" + strconv.Itoa(i+1)
	if attempt > 1 {
		id += "-r" + strconv.Itoa(attempt-1)
	}
	return id
}

// runTodo runs todo i as a child workflow: on the goal's own task queue
// with its phone-bound activities on the phone's queue, or (runs from
// before ChangeTodoOnSharedQueue) wholly on the phone's queue.
func (g *goalRun) runTodo(ctx workflow.Context, i int) (TodoResult, error) {
	t := &g.st.Todos[i]
	t.Status = TodoRunning
	t.Attempts++
	g.todo, g.todoStep = i+1, 0
	id := g.todoID(i, t.Attempts)
	todoQueue, deviceQueue := g.todoOnSharedQueue(ctx)
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:    id,
		TaskQueue:     todoQueue,
		StaticSummary: truncate(t.Text, 380),
		// The goal waits for the child to finish cancelling so the todo
		// ends cleanly before the goal records it as cancelled.
		WaitForCancellation: true,
	})
	in := TodoInput{
		GoalID: g.id, Index: i + 1, Task: t.Text, Device: g.in.Device, TaskType: g.st.TaskType,
		StepBudget: g.opts.MaxSteps - g.st.Steps, MaxSteps: g.opts.TodoMaxSteps, GoalTurns: g.st.Turns,
		AutoApprove: g.opts.AutoApprove, UITree: g.opts.UseUITree(), Paused: g.st.Paused,
		OptimizePrompt:   g.opts.OptimizePrompt,
		Routines:         g.opts.Routines,
		Expect:           t.Expect,
		Prior:            g.priorCommits(t.Text),
		Notes:            g.st.Notes,
		FailureThreshold: g.opts.FailureThreshold, StuckThreshold: g.opts.StuckThreshold,
		MaxStuckRetries: g.opts.MaxStuckRetries, HistoryEventLimit: g.opts.HistoryEventLimit,
		DeviceWaitDeadline: g.opts.DeviceWaitDeadline,
		ModelOutageWait:    g.opts.ModelOutageWait,
		AnswerDeadline:     g.opts.AnswerDeadline,
		DefaultAnswer:      g.opts.DefaultAnswer,
		DurableWaitAfter:   g.opts.DurableWaitAfter,
		ReleasePhone:       g.release != nil && !g.opts.KeepPhoneDuringWaits,
		ReleasePhoneAfter:  g.opts.ReleasePhoneAfter,
		Unguarded:          g.opts.Mode == ModeBare,
		SteerSeq:           g.st.SteerSeq,
		DeviceQueue:        deviceQueue,
		LeaseToken:         g.lease.Token,
	}
	g.st.Notes = nil
	g.child = id
	g.live.start(id)
	g.details(ctx)
	var res TodoResult
	fut := workflow.ExecuteChildWorkflow(cctx, TodoWorkflow, in)
	g.startSteering(fut)
	err := fut.Get(ctx, &res)
	if err != nil {
		// A todo that closed as Canceled carries its partial result.
		CanceledResult(err, &res)
	}
	g.endSteering(res)
	// From here the todo's result carries its steps. One that ended with
	// no result (its workflow failed, or it was cancelled before it could
	// close cleanly) keeps the steps it told: only todos that tell them
	// (docs/design.md §7) have any here, so older histories replay as
	// they ran.
	res.Steps = max(res.Steps, g.live.end())
	g.child, g.todoWaiting = "", ""
	g.question, g.approval = nil, nil
	if ctx.Err() != nil {
		// The goal was cancelled: the todo ended cleanly (its result says
		// cancelled) or with the cancellation itself. Keep its steps and
		// stop the goal either way.
		t.Steps += res.Steps
		g.st.Steps += res.Steps
		t.Usage = t.Usage.Add(res.Usage)
		g.st.Usage = g.st.Usage.Add(res.Usage)
		return TodoResult{}, ctx.Err()
	}
	if err != nil {
		if temporal.IsCanceledError(err) {
			return TodoResult{}, err
		}
		return TodoResult{Status: TodoFailed, Result: "todo workflow failed: " + rootMessage(err), Steps: res.Steps}, nil
	}
	return res, nil
}

// afterTodo records a todo's outcome and decides whether the goal stops.
func (g *goalRun) afterTodo(ctx workflow.Context, i int, tr TodoResult) (GoalResult, bool) {
	t := &g.st.Todos[i]
	g.todoStep = tr.Steps
	g.st.Steps += tr.Steps
	t.Steps += tr.Steps
	t.Usage = t.Usage.Add(tr.Usage)
	g.st.Usage = g.st.Usage.Add(tr.Usage)
	t.Result = tr.Result
	t.Verified, t.Evidence = tr.Verified, tr.Evidence
	t.Guidance = tr.Guidance
	t.Checks, t.Refused = tr.Checks, t.Refused+tr.Refused
	t.Committed = append(t.Committed, tr.Committed...)
	t.CommitKeys = mergeKeys(t.CommitKeys, tr.CommitKeys)
	g.st.LastRecent = tr.Recent
	g.st.Turns += tr.Turns
	for _, q := range tr.Asked {
		// The executor's questions and the answers reach the replanner
		// with the planner's own (docs/design.md §13).
		g.st.Answers = append(g.st.Answers, q)
	}
	if len(g.st.Answers) > maxAnswers {
		g.st.Answers = g.st.Answers[len(g.st.Answers)-maxAnswers:]
	}
	g.lastVerdict = ""
	if tr.Evidence != "" {
		g.lastVerdict = fmt.Sprintf("todo %d %s: %s", i+1, map[bool]string{true: "verified done", false: "not verified"}[tr.Verified], truncate(tr.Evidence, 300))
	}
	g.st.Notes = append(g.st.Notes, tr.Notes...)
	switch tr.Status {
	case TodoDone:
		t.Status = TodoDone
	case TodoStuck:
		if t.Attempts <= MaxTodoRestarts {
			t.Status = TodoPending // restart with a fresh executor context
		} else {
			t.Status = TodoFailed
		}
	case TodoReset:
		t.Status = TodoPending // run again under a new child ID, fresh context
	case TodoCancelled:
		t.Status = TodoCancelled
	case TodoOutOfBudget:
		t.Status = TodoFailed
	default:
		t.Status = TodoFailed
	}
	if r := g.st.Repeats.record(t.Text, tr); r != "" {
		t.Repeated = r
	}
	g.addFeedback(fmt.Sprintf("todo %d %s after %d steps: %s", i+1, tr.Status, tr.Steps, truncate(tr.Result, 300)))
	g.details(ctx)
	if tr.Unanswered != "" {
		// A person was needed and did not come: no replan can help.
		un := &unansweredError{Text: tr.Unanswered}
		return g.finish(ctx, GoalResult{Status: GoalFailed, Reason: fmt.Sprintf("todo %d: %s", i+1, tr.Result), NextStep: un.nextStep()}), true
	}
	if tr.Status == TodoOutOfBudget {
		r, _ := g.budgetStop(ctx)
		if r.Status == "" {
			r = g.finish(ctx, GoalResult{Status: GoalFailed, Reason: tr.Result})
		}
		return r, true
	}
	return GoalResult{}, false
}

func (g *goalRun) addFeedback(s string) {
	g.st.Feedback = append(g.st.Feedback, s)
	if len(g.st.Feedback) > maxFeedback {
		g.st.Feedback = g.st.Feedback[len(g.st.Feedback)-maxFeedback:]
	}
}

func (g *goalRun) lastFeedback() []string {
	f := g.st.Feedback
	if n := g.opts.FeedbackHistory; len(f) > n {
		f = f[len(f)-n:]
	}
	return f
}

// replan asks the planner what next. Each attempt counts against the budget
// (failures too); consecutive invalid answers end in a question to the user.
func (g *goalRun) replan(ctx workflow.Context) (GoalResult, bool, error) {
	invalid, rejected := "", ""
	for {
		if err := g.awaitResumed(ctx); err != nil {
			return GoalResult{}, true, err
		}
		if r, ok := g.budgetStop(ctx); ok {
			return r, true, nil
		}
		in := activities.ReplanInput{Goal: g.in.Goal, TodoIndex: g.todo, Feedback: g.lastFeedback(),
			Answers: g.st.Answers, UserMessages: g.st.UserMessages, Invalid: invalid, Rejected: rejected,
			Situation: g.situation(ctx), LastActions: g.st.LastRecent, Device: g.in.Device}
		queued := len(in.UserMessages)
		if g.steer.ordered {
			// Inject text no todo has taken yet reaches the replanner too
			// (it still waits for the next todo): an instruction is never
			// lost when the planner ends the goal.
			in.UserMessages = append([]string(nil), in.UserMessages...)
			for _, n := range g.st.Notes {
				in.UserMessages = append(in.UserMessages, executorNotePrefix+n)
			}
		}
		for _, t := range g.st.Todos {
			switch t.Status {
			case TodoPending:
				in.Remaining = append(in.Remaining, t.Text)
			case TodoDone, TodoFailed, TodoSkipped:
				in.Done = append(in.Done, activities.DoneTodo{Todo: t.Text, Status: t.Status, Result: truncate(t.Result, 500), Steps: t.Steps,
					Committed: t.Committed, Repeated: t.Repeated,
					Evidence: truncate(t.Evidence, 500), Verified: t.Verified})
			}
		}
		summary := "Replan"
		if g.todo > 0 {
			summary = fmt.Sprintf("Replan after todo %d", g.todo)
		}
		var d activities.PlanDecision
		err := g.callPlanner(ctx, summary, activities.NameReplan, &in, &in.HandBackOutages, &d)
		g.st.Steps++ // each replan attempt counts, failures too
		g.st.Usage.Planner = g.st.Usage.Planner.Add(d.Usage)
		if err != nil {
			if temporal.IsCanceledError(err) || ctx.Err() != nil {
				return GoalResult{}, true, err
			}
			return g.finish(ctx, GoalResult{Status: GoalFailed, Reason: "replan failed: " + rootMessage(err),
				NextStep: "check the planner model endpoint, then start the goal again"}), true, nil
		}
		if d.Invalid == "" {
			switch {
			case d.Status == activities.PlanReplanned && len(d.Plan) == 0:
				d.Invalid = "replanned needs a non-empty plan; answer done with a response when the goal is complete"
			case d.Status == activities.PlanDone && d.Response == "":
				d.Invalid = "done needs a response"
			case d.Status != activities.PlanReplanned && d.Status != activities.PlanDone && d.Status != activities.PlanAskUser:
				d.Invalid = fmt.Sprintf("unknown status %q: use replanned, done or ask_user", d.Status)
			}
		}
		if d.Invalid != "" {
			g.st.Failures++
			invalid, rejected = d.Invalid, d.Raw
			if g.st.Failures >= g.opts.FailureThreshold {
				if err := g.ask(ctx, fmt.Sprintf("The planner failed %d times (%s). How should I proceed?", g.st.Failures, d.Invalid), 0); err != nil {
					return GoalResult{}, true, err
				}
				g.st.Failures, invalid, rejected = 0, "", ""
			}
			continue
		}
		g.st.Failures = 0
		switch d.Status {
		case activities.PlanDone:
			for i := range g.st.Todos {
				if g.st.Todos[i].Status == TodoPending {
					g.st.Todos[i].Status = TodoSkipped
				}
			}
			if g.noneDone() {
				// The planner may drop a failed todo it judges unneeded, but a
				// goal where nothing succeeded has not been achieved.
				return g.finish(ctx, GoalResult{Status: GoalFailed, Response: d.Response,
					Reason:   "no todo succeeded: " + d.Response,
					NextStep: "check the phone, then retry the goal with clearer instructions"}), true, nil
			}
			if workflow.GetVersion(ctx, ChangeHonestGoalStatus, workflow.DefaultVersion, 1) >= 1 {
				if missing := g.notDone(d.Dropped); len(missing) > 0 {
					return g.finish(ctx, GoalResult{Status: GoalFailed, Response: d.Response,
						Reason:   "not every todo was done: " + strings.Join(missing, "; "),
						NextStep: "fix what the reason names (install the app, add the contact, adjust the goal), then run the goal again"}), true, nil
				}
			}
			return g.finish(ctx, GoalResult{Status: GoalDone, Response: d.Response}), true, nil
		case activities.PlanAskUser:
			if err := g.ask(ctx, d.Question, 0); err != nil {
				return GoalResult{}, true, err
			}
			invalid, rejected = "", ""
		default:
			g.setTodos(d.Plan, d.Expect)
			g.st.NeedReplan = false
			g.consumeUserMessages(queued)
			g.details(ctx)
			return GoalResult{}, false, nil
		}
	}
}

// ask puts a question to the user and waits for clarify. Waiting does not
// count against the budget and holds no worker slot.
func (g *goalRun) ask(ctx workflow.Context, text string, todo int) error {
	if text == "" {
		text = "The planner needs more information. What should I do?"
	}
	d := answerDeadline(ctx, g.opts.AnswerDeadline)
	g.question, g.answer = &question{Text: text, Todo: todo}, nil
	g.answerBy = answerBy(ctx, d)
	g.setPhase(ctx, GoalWaitingUser)
	g.notify(ctx, activities.NotifyInput{Kind: activities.NotifyQuestion, Text: text, Deadline: g.answerBy}, false)
	ok, err := g.awaitPersonReleasing(ctx, d, func() bool { return g.answer != nil })
	if err != nil {
		return err
	}
	if !ok {
		if g.opts.DefaultAnswer == "" {
			return &unansweredError{What: "question", Text: text, Deadline: g.opts.AnswerDeadline}
		}
		a := fmt.Sprintf("%s (nobody answered within %s; this is the configured default answer)", g.opts.DefaultAnswer, g.opts.AnswerDeadline)
		g.answer = &a
	}
	g.st.Answers = append(g.st.Answers, activities.QA{Question: text, Answer: *g.answer})
	if len(g.st.Answers) > maxAnswers {
		g.st.Answers = g.st.Answers[len(g.st.Answers)-maxAnswers:]
	}
	g.question, g.answer = nil, nil
	g.setPhase(ctx, GoalRunning)
	return nil
}

func (g *goalRun) awaitResumed(ctx workflow.Context) error {
	if !g.st.Paused {
		return nil
	}
	return workflow.Await(ctx, func() bool { return !g.st.Paused })
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

// notDone lists the todos that keep a goal from being done
// (docs/design.md §13): a failed, skipped or cancelled todo counts unless a
// later todo with the same text was done, or the planner dropped it with a
// reason (recorded on the todo so the result shows it).
func (g *goalRun) notDone(dropped []activities.Dropped) []string {
	reasons := map[string]string{}
	for _, d := range dropped {
		if r := strings.TrimSpace(d.Reason); r != "" {
			reasons[strings.TrimSpace(d.Todo)] = r
		}
	}
	var out []string
	for i := range g.st.Todos {
		t := &g.st.Todos[i]
		if t.Status == TodoDone {
			continue
		}
		later := false
		for _, u := range g.st.Todos[i+1:] {
			if u.Text == t.Text && u.Status == TodoDone {
				later = true
				break
			}
		}
		if later {
			continue
		}
		if r, ok := reasons[strings.TrimSpace(t.Text)]; ok {
			t.Dropped = r
			continue
		}
		why := t.Status
		if t.Repeated != "" {
			why += " twice the same way (not run again)"
		}
		switch {
		case t.Evidence != "":
			why += ": " + t.Evidence
		case t.Result != "":
			why += ": " + t.Result
		case t.Status == TodoSkipped:
			why += " without a reason"
		}
		out = append(out, fmt.Sprintf("todo %d %q %s", t.Index, t.Text, truncate(why, 300)))
	}
	return out
}

// noneDone reports whether todos ran and none of them succeeded.
func (g *goalRun) noneDone() bool {
	ran := false
	for _, t := range g.st.Todos {
		switch t.Status {
		case TodoDone:
			return false
		case TodoFailed:
			ran = true
		}
	}
	return ran
}

// finish stamps the final result with the todo list and step count.
func (g *goalRun) finish(ctx workflow.Context, r GoalResult) GoalResult {
	r.Todos = append([]TodoState(nil), g.st.Todos...)
	r.Steps = g.st.Steps
	r.Usage = g.st.Usage
	r.Unused = append([]string(nil), g.st.Notes...)
	g.question, g.approval = nil, nil
	g.setPhase(ctx, r.Status)
	return r
}

// cancelled marks unfinished todos cancelled. ctx is a disconnected context:
// the goal's own context is already cancelled.
func (g *goalRun) cancelled(ctx workflow.Context) GoalResult {
	for i := range g.st.Todos {
		if s := g.st.Todos[i].Status; s == TodoPending || s == TodoRunning {
			g.st.Todos[i].Status = TodoCancelled
		}
	}
	return g.finish(ctx, GoalResult{Status: GoalCancelled, Reason: "cancelled by the user",
		NextStep: "start the goal again to continue from the remaining todos"})
}

// setPhase records a phase change; refresh publishes it.
func (g *goalRun) setPhase(ctx workflow.Context, phase string) {
	g.phase = phase
	g.refresh(ctx)
}

// refresh keeps the status search attribute (upserted only on a change of
// the effective phase, paused and waiting_user included) and the Web UI
// details current.
func (g *goalRun) refresh(ctx workflow.Context) {
	if p := g.effectivePhase(); p != g.published {
		g.published = p
		if err := workflow.UpsertTypedSearchAttributes(ctx, StatusKey.ValueSet(p), DeviceKey.ValueSet(g.in.Device)); err != nil {
			workflow.GetLogger(ctx).Warn("search attributes not updated: register PhoneflowStatus and PhoneflowDevice (keyword) on the namespace", "error", err)
		}
	}
	g.details(ctx)
}

func (g *goalRun) effectivePhase() string {
	switch {
	case g.phase == GoalRunning && g.st.Paused:
		return GoalPaused
	case g.phase == GoalRunning && (g.question != nil || g.approval != nil):
		return GoalWaitingUser
	case (g.phase == GoalRunning || g.phase == GoalPlanning) && (g.modelWaiting != "" || modelWaitText(g.todoWaiting)):
		return GoalWaitingModel
	case g.phase == GoalRunning && !g.waitUntil.IsZero():
		return GoalWaitingUntil
	case g.phase == GoalRunning && g.phoneWait.on():
		return GoalWaitingPhone
	}
	return g.phase
}

func (g *goalRun) status() Status {
	s := Status{
		Phase: g.effectivePhase(), CurrentTodo: g.todo, Steps: g.st.Steps, MaxSteps: g.opts.MaxSteps,
		TodoSteps: g.todoStep, Paused: g.st.Paused, Feedback: g.lastFeedback(), Device: g.in.Device,
		WaitingFor: g.waiting, Todos: g.todos(), Usage: g.st.Usage, Verdict: g.lastVerdict,
		ViewerURL: viewerLink(g.id), SteerSeq: g.st.SteerSeq,
	}
	if g.modelWaiting != "" {
		s.WaitingFor = g.modelWaiting
	}
	if s.WaitingFor == "" {
		s.WaitingFor = g.todoWaiting
	}
	if g.question != nil {
		s.PendingQuestion = g.question.Text
	}
	if g.approval != nil {
		a := *g.approval
		s.PendingApproval = &a
	}
	if g.question != nil || g.approval != nil {
		s.AnswerBy = g.answerBy
	}
	s.WaitUntil, s.PhoneReleased, s.WaitLabel = g.waitUntil, g.phoneReleased, g.waitLabel
	return s
}

// todos is the answer of the todos query: a copy of the list, empty (never
// null) before planning.
func (g *goalRun) todos() []TodoState {
	return append([]TodoState{}, g.st.Todos...)
}

// situation is what the planner is always told: the time in the user's
// zone, the step budget and what is left of it (docs/design.md §4).
func (g *goalRun) situation(ctx workflow.Context) activities.Situation {
	return activities.Situation{Now: workflow.Now(ctx), TimeZone: g.opts.TimeZone,
		StepsUsed: g.st.Steps, MaxSteps: g.opts.MaxSteps, TodoMaxSteps: g.opts.TodoMaxSteps}
}
