package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/bounds"
	"github.com/phoneflow/phoneflow/internal/uitree"
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
	// verdict is the verification of the executor's finish (docs/design.md §13).
	verdict *activities.VerifyResult
	// stuck is set by afterStep when the stuck guard asks for a
	// correction: what it saw. correction is the latest correction given,
	// for the details.
	stuck      string
	correction string
	// phoneSeq numbers the todo's requests for the phone back
	// (docs/design.md §23).
	phoneSeq int
	// lostHost is set while the phone's last try found no worker serving
	// it (docs/design.md §24).
	lostHost bool
	// signals is how this run takes plain signals (docs/design.md §25).
	signals signalOrder
	// notices is what the goal was told of the todo's steps (docs/design.md §7).
	notices stepNotices
}

// TodoWorkflow runs one todo: the thought-act-observe loop on the phone.
// Each iteration is one Step activity (act on the decision the workflow
// already gated, observe, think). It ends on finish, the per-todo cap, the
// goal's budget, repeated failures, or being stuck; Take_over/Interact and
// sensitive taps wait for a human through the parent goal.
func TodoWorkflow(ctx workflow.Context, in TodoInput) (TodoResult, error) {
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
	// the routine up (docs/design.md §22).
	if in.Routines && in.State == nil && workflow.GetVersion(ctx, ChangeRoutineReplay, workflow.DefaultVersion, 1) == 1 {
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
		Guidance: t.st.Guidance.Version}
}

// setHandlers listens to the steering signals. The goal forwards them here;
// a person may also signal a todo directly. Signals (not updates) because
// the goal's updates already validated them.
func (t *todoRun) setHandlers(ctx workflow.Context) error {
	if err := workflow.SetQueryHandler(ctx, QueryStatus, func() (Status, error) {
		return t.status(), nil
	}); err != nil {
		return err
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		if t.signals.byArrival() {
			// In the order they arrived, whatever their names (§25).
			chs := t.channels(ctx)
			t.signals.readByArrival(ctx, todoSignalOrder, func(n string) workflow.ReceiveChannel { return chs[n] },
				func(n string, c workflow.ReceiveChannel) { t.receive(ctx, n, c) })
			return
		}
		for {
			sel := workflow.NewSelector(ctx)
			t.addSignalCases(ctx, sel)
			sel.Select(ctx)
			if ctx.Err() != nil {
				return
			}
		}
	})
	return nil
}

// status answers the status query: counters, what the todo waits for, and
// its latest action, result and reasoning (Feedback carries them as one
// line, as the goal's feedback items do).
func (t *todoRun) status() Status {
	s := Status{Phase: GoalRunning, CurrentTodo: t.in.Index, Steps: t.st.Steps, MaxSteps: t.in.StepBudget,
		TodoSteps: t.st.Steps, Paused: t.st.Paused, Device: t.in.Device, WaitingFor: t.waiting,
		LastAction: t.st.PreviousAction, LastResult: t.st.PreviousResult, Thinking: t.thinking,
		NextAction: t.st.NextText, Usage: t.st.Usage, Verdict: verdictLine(t.verdict), SteerSeq: t.st.SteerSeq,
		Routine: t.routineLine()}
	if t.st.Paused {
		s.Phase = GoalPaused
	}
	if r := t.ended; r != nil {
		s.Phase, s.NextAction = r.Status, ""
	}
	if s.LastAction != "" {
		s.Feedback = []string{truncate(s.LastAction, 200) + " → " + truncate(s.LastResult, 300)}
	}
	return s
}

// firstLine returns the first non-empty line of s, cut to n bytes.
func firstLine(s string, n int) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return truncate(l, n)
		}
	}
	return ""
}

func (t *todoRun) channels(ctx workflow.Context) map[string]workflow.ReceiveChannel {
	return map[string]workflow.ReceiveChannel{
		SignalPause:   workflow.GetSignalChannel(ctx, SignalPause),
		SignalResume:  workflow.GetSignalChannel(ctx, SignalResume),
		SignalInject:  workflow.GetSignalChannel(ctx, SignalInject),
		SignalApprove: workflow.GetSignalChannel(ctx, SignalApprove),
		SignalClarify: workflow.GetSignalChannel(ctx, SignalClarify),
		SignalSteer:   workflow.GetSignalChannel(ctx, SignalSteer),
	}
}

// todoSignalOrder lists the signals the todo reads: the set it takes in
// arrival order (docs/design.md §25), and for older runs the fixed order
// over channels (map order is random and workflow code must be
// deterministic). SignalSteer carries a goal's
// numbered commands in order (docs/design.md §21); the others are what a
// person signals to a todo directly, and what goals from before ordered
// steering forward.
var todoSignalOrder = []string{SignalPause, SignalResume, SignalInject, SignalApprove, SignalClarify, SignalSteer}

func (t *todoRun) addSignalCases(ctx workflow.Context, sel workflow.Selector) {
	chs := t.channels(ctx)
	for _, name := range todoSignalOrder {
		sel.AddReceive(chs[name], func(c workflow.ReceiveChannel, more bool) { t.receive(ctx, name, c) })
	}
}

// drain applies every signal already delivered, before continue-as-new.
func (t *todoRun) drain(ctx workflow.Context) {
	chs := t.channels(ctx)
	if t.signals.byArrival() {
		t.signals.drainByArrival(todoSignalOrder, func(n string) workflow.ReceiveChannel { return chs[n] },
			func(n string, c workflow.ReceiveChannel) { t.receive(ctx, n, c) })
		return
	}
	for {
		got := false
		for _, name := range todoSignalOrder {
			for chs[name].Len() > 0 {
				t.receive(ctx, name, chs[name])
				got = true
			}
		}
		if !got {
			return
		}
	}
}

func (t *todoRun) receive(ctx workflow.Context, name string, c workflow.ReceiveChannel) {
	logger := workflow.GetLogger(ctx)
	switch name {
	case SignalPause:
		c.Receive(ctx, nil)
		t.st.Paused = true
	case SignalResume:
		c.Receive(ctx, nil)
		t.st.Paused = false
	case SignalInject:
		var s string
		c.Receive(ctx, &s)
		if err := validText(SignalInject, s); err != nil {
			logger.Warn("inject signal dropped", "error", err)
			return
		}
		t.st.Notes = boundNotes(append(t.st.Notes, s))
		t.st.Unseen = append(t.st.Unseen, s)
	case SignalApprove:
		var a ApproveInput
		c.Receive(ctx, &a)
		t.approval = &a
	case SignalClarify:
		var s string
		c.Receive(ctx, &s)
		t.answer = &s
	case SignalSteer:
		var batch []Steer
		c.Receive(ctx, &batch)
		t.applySteer(ctx, batch)
	}
}

func boundNotes(n []string) []string {
	if len(n) > maxNotes {
		n = n[len(n)-maxNotes:]
	}
	return n
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
				workflow.GetVersion(ctx, ChangeVerifyAtStepCap, workflow.DefaultVersion, 1) == 1 {
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
			if temporal.IsCanceledError(err) || ctx.Err() != nil {
				return TodoResult{}, err
			}
			if think {
				t.st.Steps++ // a think attempt that failed for good still counts
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
		}
		if res.Act != nil && res.Act.NeedsHuman != "" {
			// Only a person can fix this (e.g. install the ADB Keyboard):
			// ask, then let the executor look at the screen again.
			done := t.st.PreviousAction
			ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, Action: done,
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

// Device wait backoff between retries of a step whose phone does not answer.
const (
	deviceRetryFirst = 2 * time.Second
	deviceRetryMax   = 30 * time.Second
)

// stepWaitingForDevice runs a step, waiting for its phone (waitForPhone).
// The step's input is unchanged on each try and the action journal (or,
// before it, the screen hash) keeps an action the phone did apply from
// being applied twice.
func (t *todoRun) stepWaitingForDevice(ctx workflow.Context, act *autoglm.Action, think bool) (activities.StepResult, error) {
	for {
		var res activities.StepResult
		err := t.waitForPhone(ctx, func() error {
			var err error
			res, err = t.step(ctx, act, think)
			return err
		})
		if err == nil && res.Locked != "" {
			// The lock screen stopped the step before anything was sent:
			// once the person has unlocked the phone, the same step runs
			// again with the same action ID.
			if err := t.askUnlock(ctx, res); err != nil {
				return res, err
			}
			continue
		}
		if !leaseLost(err) || ctx.Err() != nil || workflow.GetInfo(ctx).ParentWorkflowExecution == nil ||
			workflow.GetVersion(ctx, ChangeRevokeBlockedHolder, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
			return res, err
		}
		// The lease took the phone from the goal (docs/design.md §24):
		// nothing was sent. Ask the goal for the phone again and run the
		// same step once it holds it; the step keeps its action ID, so
		// the journal never applies an action twice.
		if err := t.needPhoneBack(ctx, rootMessage(err)); err != nil {
			return res, err
		}
	}
}

// waitForPhone runs try until it ends in anything but a phone that does
// not answer or a phone no worker serves. A phone that keeps failing (the
// Step activity hands such errors back after one Temporal retry), and a
// phone-bound activity no worker took within its schedule-to-start bound
// (docs/design.md §24), are waited for here rather than failing the todo:
// the goal's status says what it waits for, and past DeviceWaitDeadline
// the user is asked to reconnect the phone or start its worker.
func (t *todoRun) waitForPhone(ctx workflow.Context, try func() error) error {
	var since time.Time
	told := ""
	backoff := deviceRetryFirst
	for {
		err := try()
		var app *temporal.ApplicationError
		lost := hostLost(err)
		if err == nil || ctx.Err() != nil || (!lost && (!errors.As(err, &app) || app.Type() != activities.ErrTypeDevice)) {
			t.lostHost = false
			if !since.IsZero() {
				t.waiting = ""
				if terr := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting}); terr != nil && err == nil {
					err = terr
				}
			}
			return err
		}
		now := workflow.Now(ctx)
		if since.IsZero() {
			since, backoff = now, deviceRetryFirst
		}
		waiting := told
		if lost {
			if told == "" || !t.lostHost {
				waiting = noWorkerText(t.in.Device, now.Add(-deviceScheduleToStart))
			}
		} else if told == "" || t.lostHost {
			waiting = fmt.Sprintf("device %s: not answering since %s, retrying (%s)", t.in.Device, now.UTC().Format("15:04:05"), truncate(app.Message(), 200))
		}
		t.lostHost = lost
		if waiting != told {
			told, t.waiting = waiting, waiting
			if err := t.tell(ctx, TodoEvent{Kind: TodoEventWaiting, Text: t.waiting}); err != nil {
				return err
			}
			t.details(ctx)
		}
		if deadline := t.in.DeviceWaitDeadline; deadline > 0 && now.Sub(since) >= deadline {
			q := fmt.Sprintf("The phone %s has not answered for %s (%s). Reconnect it (check the cable, or `adb connect` it again), then answer to retry.",
				t.in.Device, now.Sub(since).Round(time.Second), truncate(rootMessage(err), 200))
			if lost {
				q = noWorkerQuestion(t.in.Device, now.Sub(since)+deviceScheduleToStart)
			}
			if _, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, Text: q}); err != nil {
				return err
			}
			since, told = time.Time{}, "" // a fresh wait, told to the goal again
			continue
		}
		if err := workflow.Sleep(ctx, backoff); err != nil {
			return err
		}
		backoff = min(backoff*2, deviceRetryMax)
	}
}

// budgetStop returns the todo's end when the goal budget or the per-todo cap
// leaves no room for another counted step.
func (t *todoRun) budgetStop() (TodoResult, bool) {
	if t.st.Steps >= t.in.StepBudget {
		return t.result(TodoOutOfBudget, fmt.Sprintf("goal step budget used up after %d steps in this todo", t.st.Steps)), true
	}
	if t.in.MaxSteps > 0 && t.st.Steps >= t.in.MaxSteps {
		return t.result(TodoFailed, fmt.Sprintf("todo step cap reached (%d steps)", t.in.MaxSteps)), true
	}
	return TodoResult{}, false
}

func (t *todoRun) awaitResumed(ctx workflow.Context) error {
	if !t.st.Paused {
		return nil
	}
	t.waiting = "paused: send resume"
	t.details(ctx)
	defer func() { t.waiting = "" }()
	// Await holds no worker slot: the run sleeps in history until resume
	// (or a reset, which starts the todo again).
	return workflow.Await(ctx, func() bool { return !t.st.Paused || t.st.Reset })
}

// gate handles the decided action before it may reach the phone: finish
// ends the todo, Take_over/Interact and sensitive taps wait for a human,
// Note and Call_API are answered without the device. It leaves t.st.Next set
// when the action should run.
func (t *todoRun) gate(ctx workflow.Context, a autoglm.Action) (bool, TodoResult, error) {
	text := t.st.NextText
	switch {
	case a.Name == autoglm.ActionFinish:
		res, err := t.finished(ctx, a.Message)
		return true, res, err
	case a.NeedsHuman():
		q := a.Message
		if q == "" {
			q = "The executor needs you to act on the phone (" + a.Name + "). Answer when done."
		}
		ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, Text: q, Action: text})
		if err != nil {
			return false, TodoResult{}, err
		}
		t.st.Notes = boundNotes(append(t.st.Notes, "User: "+ans))
		t.st.Checks.asked(q, ans)
		t.handled(text, "user answered: "+ans)
	case a.Sensitive() && !t.in.AutoApprove:
		t.approval = nil
		d := answerDeadline(ctx, t.in.AnswerDeadline)
		by := answerBy(ctx, d)
		if err := t.tell(ctx, TodoEvent{Kind: TodoEventApproval, Text: a.Message, Action: text, AnswerBy: by}); err != nil {
			return false, TodoResult{}, err
		}
		t.waiting = "approval: " + text + waitsUntil(by)
		t.details(ctx)
		ok, err := t.awaitPersonReleasing(ctx, d, false, func() bool { return t.approval != nil })
		t.waiting = ""
		if err != nil {
			return false, TodoResult{}, err
		}
		if !ok {
			// An action nobody approved is never run, whatever the
			// default answer says.
			return false, TodoResult{}, &unansweredError{What: "approval", Text: text, Deadline: t.in.AnswerDeadline}
		}
		ap := *t.approval
		t.approval = nil
		if err := t.tell(ctx, TodoEvent{Kind: TodoEventResolved}); err != nil {
			return false, TodoResult{}, err
		}
		if !ap.Approved {
			r := "rejected by the user"
			if ap.Note != "" {
				r += ": " + ap.Note
			}
			t.st.Lessons = appendLesson(t.st.Lessons, "a sensitive action was rejected: "+text)
			t.handled(text, r)
		} else if ap.Note != "" {
			t.st.Notes = boundNotes(append(t.st.Notes, "User: "+ap.Note))
		}
	case a.Name == autoglm.ActionNote:
		t.st.Notes = boundNotes(append(t.st.Notes, "Noted: "+a.Message))
		t.handled(text, "ok")
	case a.Name == autoglm.ActionCallAPI:
		t.handled(text, "Call_API is not available here; read the screen and answer with finish(message=...) instead")
	}
	return false, TodoResult{}, nil
}

// handled records an action that was resolved without the device.
func (t *todoRun) handled(action, result string) {
	t.st.PreviousAction, t.st.PreviousResult = action, result
	t.st.Next, t.st.NextText = nil, ""
}

// askHuman tells the parent a question is pending and waits for clarify.
func (t *todoRun) askHuman(ctx workflow.Context, ev TodoEvent) (string, error) {
	t.answer = nil
	d := answerDeadline(ctx, t.in.AnswerDeadline)
	ev.AnswerBy = answerBy(ctx, d)
	if err := t.tell(ctx, ev); err != nil {
		return "", err
	}
	t.waiting = "user: " + ev.Text + waitsUntil(ev.AnswerBy)
	t.details(ctx)
	ok, err := t.awaitPersonReleasing(ctx, d, t.in.DefaultAnswer != "", func() bool { return t.answer != nil })
	t.waiting = ""
	if err != nil {
		return "", err
	}
	if !ok {
		if t.in.DefaultAnswer == "" {
			return "", &unansweredError{What: "question", Text: ev.Text, Deadline: t.in.AnswerDeadline}
		}
		a := fmt.Sprintf("%s (nobody answered within %s; this is the configured default answer)", t.in.DefaultAnswer, t.in.AnswerDeadline)
		t.answer = &a
	}
	ans := *t.answer
	t.answer = nil
	return ans, t.tell(ctx, TodoEvent{Kind: TodoEventResolved})
}

// tell signals the parent goal, if there is one.
func (t *todoRun) tell(ctx workflow.Context, ev TodoEvent) error {
	parent := workflow.GetInfo(ctx).ParentWorkflowExecution
	if parent == nil {
		return nil
	}
	ev.Todo, ev.Steps = t.in.Index, t.st.Steps
	if ev.From = t.notices.from; ev.From != "" {
		t.notices.sent(ev.Steps, workflow.Now(ctx)) // the event tells the count (docs/design.md §7)
	}
	return workflow.SignalExternalWorkflow(ctx, parent.ID, "", SignalTodoEvent, ev).Get(ctx, nil)
}

func (t *todoRun) step(ctx workflow.Context, act *autoglm.Action, think bool) (activities.StepResult, error) {
	if waitsOutModels(ctx) {
		return t.stepWaitingForModel(ctx, act, think)
	}
	return t.stepOnce(ctx, act, think, false)
}

// stepOnce runs one Step activity. With t.applied set (the action already
// reached the phone) and act nil it only observes and thinks, telling the
// executor about that action.
func (t *todoRun) stepOnce(ctx workflow.Context, act *autoglm.Action, think, handBackOutages bool) (activities.StepResult, error) {
	in := activities.StepInput{
		Serial: t.in.Device, Task: t.in.Task, TaskType: t.in.TaskType, UITree: t.in.UITree,
		Think: think, HistoryRef: t.st.HistoryRef, HandBackOutages: handBackOutages, Expect: t.in.Expect,
		// For hooks (docs/design.md §29): payload only, no command changes.
		GoalID: t.in.GoalID, Todo: t.in.Index, StepNo: t.st.Steps,
		Guidance: t.st.Guidance.Version,
	}
	switch {
	case act != nil:
		t.withAction(ctx, &in, act)
		in.Commits = t.st.Commits.Made
	case t.applied != nil:
		in.PreviousAction = autoglm.FormatAction(t.applied.Action)
		if r := t.applied.Result.Act; r != nil {
			in.PreviousResult = r.Result
		}
	default:
		in.PreviousAction, in.PreviousResult = t.st.PreviousAction, t.st.PreviousResult
	}
	if think {
		in.Notes = append(append([]string(nil), t.st.Notes...), t.oneShot...)
		in.Replay = t.st.Routine.replaying()
	}
	if act != nil && act.TouchesDevice() {
		// The journal fences the action by the goal's lease token
		// (docs/design.md §24); a Step that only looks needs none.
		in.GoalID, in.LeaseToken = t.in.GoalID, t.in.LeaseToken
	}
	actx := workflow.WithActivityOptions(ctx, t.onPhone(stepActivityOptions(t.stepSummary(act, think))))
	var res activities.StepResult
	err := workflow.ExecuteActivity(actx, activities.NameStep, in).Get(ctx, &res)
	if err == nil && res.Think != nil {
		t.st.Usage.Executor = t.st.Usage.Executor.Add(res.Think.Usage)
		t.st.Guidance.use(res.Think.Guidance)
		t.replayed(in.Replay != nil, res.Think)
	}
	return res, err
}

// stepSummary is the Web UI summary of a Step activity. It numbers the
// steps it takes the way the budget counts them (docs/design.md §7): the
// device action (when it touches the phone, it was counted before the
// step ran) and the think that follows, which will be the next step:
// "todo 2 · step 5 Tap (540,1200) · step 6 Think".
func (t *todoRun) stepSummary(act *autoglm.Action, think bool) string {
	parts := []string{fmt.Sprintf("todo %d", t.in.Index)}
	if act != nil {
		a := ActionSummary(*act, t.st.Screen.Width, t.st.Screen.Height)
		if act.TouchesDevice() {
			a = fmt.Sprintf("step %d %s", t.st.Steps, a)
		}
		parts = append(parts, a)
	}
	if r := t.st.Routine.replaying(); think && r != nil {
		parts = append(parts, fmt.Sprintf("step %d Replay %d/%d of %s", t.st.Steps+1, r.Index, r.Total, r.Routine))
	} else if think {
		parts = append(parts, fmt.Sprintf("step %d Think", t.st.Steps+1))
	}
	return truncate(strings.Join(parts, " · "), 380)
}

// afterStep folds a step's outcome into the executor context and applies
// the failure and stuck guards.
func (t *todoRun) afterStep(ctx workflow.Context, act *autoglm.Action, res activities.StepResult) (TodoResult, bool) {
	prev := t.st.Screen
	prevHash := prev.Hash
	prevText := t.st.NextText
	if act != nil {
		result := "ok"
		if res.Act != nil && res.Act.Result != "" {
			result = res.Act.Result
		}
		t.traceAction(t.st.Screen, *act, result)
		t.st.Commits.record(res.Act)
		t.st.PreviousAction, t.st.PreviousResult = prevText, result
		t.addRecent(prevText, result)
		if result == "ok" || result == activities.ActAlreadyApplied || result == activities.ActUncertain {
			t.st.Failures = 0
		} else {
			t.st.Failures++
			t.st.Lessons = appendLesson(t.st.Lessons, prevText+" failed: "+result)
		}
		if act.TouchesDevice() {
			if res.Screen.Hash != "" && res.Screen.Hash == prevHash && !(textMoved(prev, res.Screen) && repeatMovesOn(ctx)) {
				t.st.SameScreen++
			} else {
				t.st.SameScreen = 0
			}
		}
	}
	t.st.Screen = res.Screen
	t.st.Checks.saw(res.Screen)
	if res.Act != nil && res.Act.Refused != "" {
		t.st.Usage.RefusedCommits++
	}
	t.st.Checks.acted(res.Act)
	t.st.Next, t.st.NextText = nil, ""
	if th := res.Think; th != nil {
		t.oneShot = nil
		t.thinking = ""
		if th.Response != nil {
			t.thinking = firstLine(th.Response.Thinking, 300)
		}
		if th.HistoryRef != "" {
			t.st.HistoryRef = th.HistoryRef
		}
		if th.ParseError != "" || th.Response == nil {
			t.st.Failures++
			// Keep the last applied action and its result: dropping them made
			// an executor that tracks its progress by them redo the action
			// (a message sent twice).
			prev, _, _ := strings.Cut(t.st.PreviousResult, parseFailedNote)
			prev = strings.TrimSuffix(prev, ". Then ")
			if t.st.PreviousAction == "" {
				prev = ""
			}
			if prev != "" {
				prev += ". Then "
			}
			t.st.PreviousResult = prev + parseFailedNote + ": " + th.ParseError +
				`; answer exactly as <think>...</think><answer>do(action="...", ...)</answer> or finish(message="...")`
			t.st.Lessons = appendLesson(t.st.Lessons, "reply format error: "+th.ParseError)
		} else {
			a := th.Response.Action
			text := th.Action
			if text == "" {
				text = actionKey(a)
			}
			again := text == prevText && act != nil
			switch {
			case !again:
				t.st.SameAction = 1
			case t.st.Repeat.movedOn(res.Screen) && repeatMovesOn(ctx):
				// The repeat left a screen the run had not shown: progress.
			default:
				t.st.SameAction++
			}
			t.st.Repeat.saw(again, res.Screen)
			t.st.Next, t.st.NextText = &a, text
		}
		// The warning counts this todo's turns; the forced end the
		// goal's, earlier todos included, so it can come before a todo's
		// step cap (docs/design.md §2).
		if t.st.Turns == dangerTurnWarn {
			t.oneShot = append(t.oneShot, dangerWarnNote)
		}
		if t.in.GoalTurns+t.st.Turns == dangerTurnForce {
			t.oneShot = append(t.oneShot, dangerForceNote)
		}
	}
	if t.st.Failures >= t.in.FailureThreshold {
		return t.result(TodoFailed, fmt.Sprintf("%d consecutive failures; last: %s", t.st.Failures, t.st.PreviousResult)), true
	}
	stuck := t.st.SameScreen >= t.in.StuckThreshold || t.st.SameAction >= sameActionLimit
	if stuck && !t.in.Unguarded && (t.st.Next == nil || t.st.Next.Name != autoglm.ActionFinish) {
		if t.st.Corrections >= t.in.MaxStuckRetries {
			t.st.Lessons = appendLesson(t.st.Lessons, "stuck: "+t.st.PreviousAction+" had no effect")
			return t.result(TodoStuck, fmt.Sprintf("stuck after %d corrections: %s had no effect", t.st.Corrections, t.st.PreviousAction)), true
		}
		why := fmt.Sprintf("the same action was decided %d times in a row: %s", t.st.SameAction, truncate(t.st.NextText, 200))
		if t.st.SameScreen >= t.in.StuckThreshold {
			why = fmt.Sprintf("the screen did not change after %d actions; the last was %s", t.st.SameScreen, truncate(t.st.PreviousAction, 200))
		}
		t.st.Corrections++
		t.st.SameScreen, t.st.SameAction = 0, 0
		// The correction replaces the decided action: think again with it
		// (the loop adds it before the next step, see correct).
		t.st.Next, t.st.NextText = nil, ""
		t.stuck = why
	}
	return TodoResult{}, false
}

// details writes the Web UI's current details of the todo.
func (t *todoRun) details(ctx workflow.Context) {
	var b strings.Builder
	fmt.Fprintf(&b, "**todo %d** · %s (cap %d, goal budget left %d) · turn %d\n\n", t.in.Index, plural(t.st.Steps, "step"), t.in.MaxSteps, t.in.StepBudget-t.st.Steps, t.st.Turns)
	if r := t.ended; r != nil {
		fmt.Fprintf(&b, "- **%s**: %s\n", r.Status, truncate(r.Result, 500))
	}
	if t.st.PreviousAction != "" {
		fmt.Fprintf(&b, "- last: `%s` → %s\n", truncate(t.st.PreviousAction, 200), truncate(t.st.PreviousResult, 300))
	}
	if t.thinking != "" && t.ended == nil {
		fmt.Fprintf(&b, "- thinking: %s\n", t.thinking)
	}
	if t.st.NextText != "" && t.ended == nil {
		fmt.Fprintf(&b, "- next: `%s`\n", truncate(t.st.NextText, 200))
	}
	if u := viewerLink(t.in.GoalID); u != "" {
		fmt.Fprintf(&b, "- screenshots of every step: [step viewer](%s)\n", u)
	}
	if s := t.st.Screen; s.App != "" {
		fmt.Fprintf(&b, "- screen: %s (%s)%s\n", s.App, s.AppPackage, map[bool]string{true: ", sensitive"}[s.Sensitive])
	}
	if t.correction != "" && t.ended == nil {
		fmt.Fprintf(&b, "- correction: %s\n", truncate(t.correction, 300))
	}
	if t.verdict != nil {
		fmt.Fprintf(&b, "- verified: %s\n", verdictLine(t.verdict))
		b.WriteString(checksMarkdown(t.in.Expect, t.verdict.Checks))
	} else {
		b.WriteString(checksMarkdown(t.in.Expect, nil))
	}
	if c := t.st.Checks; c.Refused > 0 {
		fmt.Fprintf(&b, "- refused commit actions: %d (last: %s)\n", c.Refused, truncate(c.LastRefusal, 300))
	}
	if l := t.routineLine(); l != "" {
		fmt.Fprintf(&b, "- routine: %s\n", truncate(l, 500))
	}
	if t.waiting != "" {
		fmt.Fprintf(&b, "\n**Waiting for:** %s\n", truncate(t.waiting, 500))
	}
	if u := usageMarkdown(t.st.Usage); u != "" {
		b.WriteString("\n" + u)
	}
	workflow.SetCurrentDetails(ctx, b.String())
}

func appendLesson(l []string, s string) []string {
	if len(s) > 160 {
		s = s[:160]
	}
	for _, x := range l {
		if x == s {
			return l
		}
	}
	l = append(l, s)
	if len(l) > 5 {
		l = l[len(l)-5:]
	}
	return l
}

// actionKey writes an action compactly for comparisons and summaries when
// the activity did not supply the model's own text.
func actionKey(a autoglm.Action) string {
	var b strings.Builder
	b.WriteString(a.Name)
	pt := func(p *autoglm.Point) {
		if p != nil {
			fmt.Fprintf(&b, " [%d,%d]", p[0], p[1])
		}
	}
	pt(a.Element)
	pt(a.Start)
	pt(a.End)
	for _, s := range []string{a.App, a.Text, a.Message, a.Duration, a.Instruction} {
		if s != "" {
			fmt.Fprintf(&b, " %q", s)
		}
	}
	return b.String()
}

// ActionSummary is the Web UI summary of an action, in pixels when the
// screen size is known: "Tap (540,1200)", "Launch Settings".
func ActionSummary(a autoglm.Action, width, height int) string {
	px := func(p *autoglm.Point) string {
		if p == nil {
			return ""
		}
		if width > 0 && height > 0 {
			return fmt.Sprintf("(%d,%d)", uitree.Pixel(p[0], width), uitree.Pixel(p[1], height))
		}
		return fmt.Sprintf("[%d,%d]", p[0], p[1])
	}
	s := a.Name
	switch a.Name {
	case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
		s += " " + px(a.Element)
	case autoglm.ActionSwipe:
		s += " " + px(a.Start) + "→" + px(a.End)
	case autoglm.ActionLaunch:
		s += " " + a.App
	case autoglm.ActionType, autoglm.ActionTypeName:
		s += " " + truncate(a.Text, 40)
	case autoglm.ActionWait:
		s += " " + a.Duration
	}
	return s
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && n < len(s) && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// rootMessage returns what an error says without Temporal's wrappers: the
// message of the application error inside (an activity's own words), else
// the innermost error's text.
func rootMessage(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Message()
	}
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}
