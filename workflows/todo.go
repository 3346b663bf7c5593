package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/bounds"
)

// Executor context limits. The executor's earlier turns stay in the blob
// store (the workflow keeps a ref), so a step's payload stays small (the
// goal's history budget is ~4 KB a step).
const (
	maxNotes        = 5
	sameActionLimit = 3
	// Danger prompts (docs/design.md §2): a warning at turn 7, a forced end at 30.
	dangerTurnWarn  = 7
	dangerTurnForce = 30
)

// Prompts added to the executor's notes by the workflow.
const (
	dangerWarnNote  = "You have spent 7 turns on this subtask. Do not repeat actions that had no effect; try a different approach."
	dangerForceNote = "You have spent 30 turns on this goal. Finish now with finish(message=...) describing what you achieved, or use Take_over to ask the user."
	// CorrectionNote is the note a stuck executor gets with its next think.
	CorrectionNote = "You seem stuck: the screen did not change or you repeated the same action. Try something different (go Back, scroll, pick another element, or launch the app again)."
)

// stepActivityOptions: the Step activity talks to a model and a phone. Model
// and device errors are retried here (Temporal owns retries; the model
// client's own retries are off); permanent model errors are non-retryable
// application errors and fail fast.
func stepActivityOptions(summary string) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: bounds.Step,
		// Step heartbeats every activities.StepHeartbeat: a dead worker's
		// step is retried after this, not after the whole timeout (onPhone
		// shortens it for a todo on the shared queue).
		HeartbeatTimeout: time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    2 * time.Second,
			BackoffCoefficient: 2,
			MaximumInterval:    time.Minute,
			MaximumAttempts:    5,
		},
		Summary: summary,
	}
}

// todoRun is the state of one TodoWorkflow run.
type todoRun struct {
	in      TodoInput
	st      TodoRunState
	oneShot []string // correction and danger notes for the next think only
	// Answers from the user, delivered by signal.
	approval *ApproveInput
	answer   *string
	waiting  string // what the todo waits for, for the status query
	// applied is the current step's action when it reached the phone
	// before a model outage: later tries do not send it again.
	applied *applied
	// thinking is the first line of the executor's latest reasoning, for
	// the status query and the details (not carried across
	// continue-as-new: the next think sets it again).
	thinking string
	// ended is the todo's outcome once it has one, for the details.
	ended *TodoResult
	// verdict is the verification of the executor's finish (docs/design.md §9).
	verdict *activities.VerifyResult
	// ahead is the verdict the last Step gave on its think's finish,
	// until the finish takes it or something in between drops it.
	ahead *verdictAhead
	// stuck is set by afterStep when the stuck guard asks for a
	// correction: what it saw. correction is the latest correction given,
	// for the details.
	stuck      string
	correction string
	// phoneSeq numbers the todo's requests for the phone back
	// (docs/design.md §7).
	phoneSeq int
	// lostHost is set while the phone's last try found no worker serving
	// it (docs/design.md §5).
	lostHost bool
	// signals is how this run takes plain signals (docs/design.md §6).
	signals signalOrder
	// notices is what the goal was told of the todo's steps (docs/design.md §2).
	notices stepNotices
	// planner is the planner's latest decision on the running todo, for
	// the details (docs/design.md#executor-questions).
	planner string
}

// TodoWorkflow runs one todo: the thought-act-observe loop on the phone.
// Each iteration is one Step activity (act on the decision the workflow
// already gated, observe, think). It ends on finish, the per-todo cap, the
// goal's budget, repeated failures, or being stuck; Take_over/Interact and
// sensitive taps wait for a human through the parent goal.
func TodoWorkflow(ctx workflow.Context, in TodoInput) (TodoResult, error) {
	// First, before any other change is asked (docs/design.md §16).
	ctx = withTodoMarkersOnce(ctx)
	in = in.withDefaults()
	t := &todoRun{in: in}
	if in.State != nil {
		t.st = *in.State
	} else {
		t.st.Paused = in.Paused
		t.st.Notes = boundNotes(in.Notes)
		t.st.SteerSeq = in.SteerSeq
		for _, k := range in.Prior {
			t.st.Commits.Made = append(t.st.Commits.Made, k)
		}
	}
	t.signals = newSignalOrder(ctx)
	if err := t.setHandlers(ctx); err != nil {
		return TodoResult{}, err
	}
	t.tellSteps(ctx)
	// The result carries the last count: no notice in the closing task.
	defer t.notices.stop()
	// A continued run carries its routine state; only the first run looks
	// the routine up (docs/design.md §8).
	if in.Routines && in.State == nil && getVersion(ctx, ChangeRoutineReplay, workflow.DefaultVersion, 1) == 1 {
		t.findRoutine(ctx)
		t.details(ctx)
	}
	res, err := t.loop(ctx)
	var unanswered *unansweredError
	if errors.As(err, &unanswered) {
		// Nobody answered in time: the todo fails and the goal with it.
		res, err = t.result(TodoFailed, unanswered.Error()), nil
		res.Unanswered = unanswered.Text
	}
	if err != nil {
		var can *workflow.ContinueAsNewError
		if errors.As(err, &can) {
			return TodoResult{}, err
		}
		if ctx.Err() != nil {
			dctx, cancel := workflow.NewDisconnectedContext(ctx)
			defer cancel()
			return closeCanceled(dctx, t.result(TodoCancelled, "cancelled"))
		}
		if temporal.IsCanceledError(err) {
			return t.result(TodoCancelled, "cancelled"), nil
		}
		return TodoResult{}, err
	}
	if in.LookOnly {
		res = t.lookReturns(ctx, res)
	}
	// The details end with the outcome, not with the last decided action.
	// SetCurrentDetails adds no command.
	t.recordRoutine(ctx, res)
	t.ended = &res
	t.details(ctx)
	t.optimize(ctx, res)
	return res, nil
}

// withDefaults fills unset limits, for a todo started on its own (the goal
// always sets them).
func (in TodoInput) withDefaults() TodoInput {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&in.StepBudget, DefaultMaxSteps)
	def(&in.MaxSteps, DefaultTodoMaxSteps)
	def(&in.FailureThreshold, DefaultFailureThreshold)
	def(&in.StuckThreshold, DefaultStuckThreshold)
	def(&in.MaxStuckRetries, DefaultMaxStuckRetries)
	if in.DeviceWaitDeadline <= 0 {
		in.DeviceWaitDeadline = DefaultDeviceWaitDeadline
	}
	if in.ModelOutageWait <= 0 {
		in.ModelOutageWait = DefaultModelOutageWait
	}
	return in
}

func (t *todoRun) result(status, text string) TodoResult {
	return TodoResult{Status: status, Result: text, Steps: t.st.Steps, Lessons: t.st.Lessons, Usage: t.st.Usage,
		Notes: append([]string(nil), t.st.Unseen...), SteerSeq: t.st.SteerSeq,
		Committed: t.st.Checks.Committed, Refused: t.st.Checks.Refused, Asked: t.st.Checks.Asked, Screen: t.st.Screen.Hash,
		CommitKeys: t.st.Commits.Made, Recent: append([]string(nil), t.st.Recent...), Turns: t.st.Turns,
		Guidance: t.st.Guidance.Version, Answered: t.answers(), App: workedIn(t.st.Screen, t.st.Checks.Seen)}
}

// shouldContinueAsNew reports whether this run's history is long enough to
// start a fresh run: the server's suggestion or the configured threshold.
func shouldContinueAsNew(ctx workflow.Context, limit int) bool {
	info := workflow.GetInfo(ctx)
	return info.GetContinueAsNewSuggested() || (limit > 0 && info.GetCurrentHistoryLength() >= limit)
}

func (t *todoRun) loop(ctx workflow.Context) (TodoResult, error) {
	logger := workflow.GetLogger(ctx)
	for {
		// Continue-as-new only here, between steps: no activity is running
		// and the whole executor context is in t.st.
		if shouldContinueAsNew(ctx, t.in.HistoryEventLimit) {
			t.drain(ctx)
			if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
				return TodoResult{}, err
			}
			next := t.in
			st := t.st
			st.Notes = append(st.Notes, t.oneShot...)
			next.State = &st
			logger.Info("todo continues as new", "steps", t.st.Steps)
			return TodoResult{}, workflow.NewContinueAsNewError(ctx, TodoWorkflow, next)
		}
		// Budget at the loop head, before any think or act (docs/design.md §2 rule 1).
		if stop, ok := t.budgetStop(); ok {
			if stop.Status == TodoFailed && t.st.Steps > 0 && !t.in.Unguarded &&
				getVersion(ctx, ChangeVerifyAtStepCap, workflow.DefaultVersion, 1) == 1 {
				return t.verifyAtCap(ctx, stop)
			}
			return stop, nil
		}
		if err := t.awaitResumed(ctx); err != nil {
			return TodoResult{}, err
		}
		if t.st.Reset {
			return t.result(TodoReset, "reset by a person: started again with a fresh executor context"), nil
		}

		var act *autoglm.Action
		if n := t.st.Next; n != nil {
			done, res, err := t.gate(ctx, *n)
			if err != nil {
				return TodoResult{}, err
			}
			if done {
				return res, nil
			}
			if t.st.Next == nil { // handled without the device (rejected, answered, note)
				continue
			}
			act = t.st.Next
			if d := t.longWait(ctx, *act); d > 0 {
				// A long Wait is a timer here, not a sleep in the Step
				// activity: no worker slot, and the phone is free meanwhile.
				if err := t.sleep(ctx, d, t.st.NextText); err != nil {
					return TodoResult{}, err
				}
				continue
			}
			if act.TouchesDevice() {
				t.st.Steps++ // each device action counts
			}
		}
		think := true
		if act != nil && act.TouchesDevice() {
			if _, ok := t.budgetStop(); ok {
				think = false // the action fits the budget, a think after it does not
			}
			// Pause takes effect before the device action, even when it
			// arrived while the action waited for approval; so does a reset.
			if err := t.awaitResumed(ctx); err != nil {
				return TodoResult{}, err
			}
			if t.st.Reset {
				t.st.Steps-- // the action counted above was not sent
				return t.result(TodoReset, "reset by a person: started again with a fresh executor context"), nil
			}
		}

		unseen := len(t.st.Unseen) // the notes this step's think is sent with
		var res activities.StepResult
		err := t.working(func() (err error) {
			res, err = t.stepWaitingForDevice(ctx, act, think)
			return err
		})
		if err == nil && think {
			t.st.Unseen = append([]string(nil), t.st.Unseen[unseen:]...)
		}
		if err != nil {
			if keepsApplied(ctx) {
				// The step's action reached the phone before it failed:
				// the todo's result records it (ChangeKeepApplied).
				t.keepApplied(act)
			}
			if temporal.IsCanceledError(err) || ctx.Err() != nil {
				return TodoResult{}, err
			}
			if think {
				t.st.Steps++ // a think attempt that failed for good still counts
			}
			var un *unansweredError
			if errors.As(err, &un) && getVersion(ctx, ChangeFanOutAsked, workflow.DefaultVersion, 1) >= 1 {
				// The step waited for a person (the phone's lock screen)
				// who did not come: the todo ends unanswered, so its goal
				// does too (ChangeFanOutAsked).
				return TodoResult{}, err
			}
			t.st.Lessons = appendLesson(t.st.Lessons, "step failed: "+rootMessage(err))
			return t.result(TodoFailed, "step failed: "+rootMessage(err)), nil
		}
		if think {
			t.st.Steps++ // each think attempt counts, parse failures too
			t.st.Turns++
		}
		stop, ok := t.afterStep(ctx, act, res)
		t.details(ctx)
		if ok {
			return stop, nil
		}
		if why := t.stuck; why != "" {
			t.stuck = ""
			if err := t.correct(ctx, why); err != nil {
				return TodoResult{}, err
			}
			t.details(ctx)
		} else if stop, err := t.review(ctx); err != nil {
			return TodoResult{}, err
		} else if stop != nil {
			return *stop, nil
		}
		if res.Act != nil && res.Act.NeedsHuman != "" {
			// Only a person can fix this (e.g. install the ADB Keyboard):
			// ask, then let the executor look at the screen again.
			done := t.st.PreviousAction
			ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: QuestionTakeOver, Action: done,
				Text: "The phone needs you: " + res.Act.NeedsHuman + ". Answer when it is fixed."})
			if err != nil {
				return TodoResult{}, err
			}
			t.handled(done, fmt.Sprintf("%s. The user was asked to fix it and answered: %s", res.Act.NeedsHuman, ans))
			t.details(ctx)
		} else if res.Act != nil && res.Act.Refused != "" {
			if err := t.askAfterRefusal(ctx, res); err != nil {
				return TodoResult{}, err
			}
		} else if res.Act != nil && res.Act.Uncertain != "" {
			// Only runs with the action journal get this result.
			if err := t.askUncertain(ctx, res.Act.Uncertain); err != nil {
				return TodoResult{}, err
			}
		}
	}
}

// parseFailedNote opens the feedback on an executor reply that did not parse.
const parseFailedNote = "your last reply could not be parsed"
