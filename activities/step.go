package activities

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Step runs one iteration of a todo: perform the action the workflow
// already approved (if any; the device settles before returning), observe
// the new screen, and think the next action (if asked). Doing the three in
// one activity keeps a step at about six history events; the screenshot
// stays in memory between observing and thinking.
func (a *Activities) Step(ctx context.Context, in StepInput) (StepResult, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return StepResult{}, handBackDeviceError(attempt(ctx), err)
	}
	defer keepAlive(ctx, StepHeartbeat)()
	a.Hooks.Emit(ctx, stepEvent(ctx, hooks.StepStart, in))
	res, err := a.step(ctx, d, attempt(ctx), in)
	a.Hooks.Emit(ctx, stepEnd(ctx, in, res, err))
	if err != nil && in.HandBackOutages {
		var applied *StepResult
		if res.Act != nil {
			applied = &StepResult{Act: res.Act, Screen: res.Screen}
		}
		err = handBackOutage(attempt(ctx), err, applied)
	}
	if err != nil && in.KeepApplied && res.Act != nil {
		// The action reached the phone: its result goes back with the
		// error, whatever the error (docs/design.md §4).
		err = keepApplied(err, res)
	}
	if err != nil {
		res = StepResult{}
	}
	return res, handBackDeviceError(attempt(ctx), err)
}

// handBackDeviceError lets Temporal retry a device error once (a passing
// adb hiccup), then hands a phone that still does not answer back to the
// workflow as a non-retryable DeviceError: the workflow waits for the phone
// itself, so the goal can say what it waits for and ask the user to
// reconnect the phone past its deadline.
func handBackDeviceError(attempt int, err error) error {
	var app *temporal.ApplicationError
	if attempt < 2 || !errors.As(err, &app) || app.Type() != ErrTypeDevice || app.NonRetryable() {
		return err
	}
	return temporal.NewNonRetryableApplicationError(app.Message(), ErrTypeDevice, nil)
}

// StepHeartbeat is how often a running Step heartbeats. Workflows set a
// heartbeat timeout a few times longer (15 s for a todo on the shared
// queue, docs/design.md §5), so a step whose worker died is retried
// within that instead of at the end of its start-to-close timeout, and a
// cancelled goal reaches the step promptly (the SDK sends at most one
// heartbeat per 0.8 heartbeat timeouts).
const StepHeartbeat = 3 * time.Second

// keepAlive heartbeats every interval until the returned stop func is
// called. Outside an activity it does nothing.
func keepAlive(ctx context.Context, interval time.Duration) (stop func()) {
	if !activity.IsActivity(ctx) {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx)
			}
		}
	}()
	return func() { close(done) }
}

func (a *Activities) step(ctx context.Context, d device.Device, attempt int, in StepInput) (StepResult, error) {
	var res StepResult
	// A phone that timed out to its lock screen is unlocked before the
	// action lands; one that cannot be gets the person asked, with
	// nothing sent and no model called (docs/design.md §15).
	if _, ok := d.(phoneUnlocker); ok && a.Unlock != nil {
		// The unlock touches the phone before the action does: fenced
		// as the action is.
		if err := a.fenceFirst(ctx, d, in); err != nil {
			return StepResult{}, err
		}
	}
	if q, err := a.unlock(ctx, d); err != nil || q != "" {
		return StepResult{Locked: q}, err
	}
	prevAction, prevResult := in.PreviousAction, in.PreviousResult
	var commit commitTap // a tap on a commit control, for the todo's log
	if in.Act != nil {
		var ar ActResult
		// A commit aimed at a target the todo does not name (docs/design.md
		// §9), then one whose effect is already on the phone (§9): a
		// refused commit never reaches the phone or the journal.
		// A todo that only looks sends nothing that could change the
		// phone (docs/design.md §9, A todo that only looks): such an action is
		// not judged as a commit, nor probed for.
		look := a.lookOnly(ctx, d, in)
		var cc commitCheck
		var err error
		if look == nil {
			if cc, err = a.wrongTarget(ctx, in); err != nil {
				return StepResult{}, err
			}
		}
		var refusal *ActResult
		if cc.Refused == "" && look == nil {
			if refusal, commit, err = a.commitCheck(ctx, d, in); err != nil {
				return StepResult{}, err
			}
		}
		if commit.Key == "" && refusal == nil && cc.Refused == "" && look == nil {
			// The screen now shows no commit (a retry after the input
			// emptied the fields): the commit is named from the screen the
			// action was decided on, as the first try named it.
			commit = a.decidedCommit(ctx, in, cc.Commit != "")
			// A tap on a commit named only here (an OK, whose label alone
			// does not say it commits) is refused as one named by its
			// control is. A Back is never refused: it also leaves the
			// screen, and an editor left again unchanged saves nothing new.
			if in.Act.Name == autoglm.ActionTap {
				refusal = repeatRefusal(in, commit)
			}
		}
		switch {
		case look != nil:
			// Fed back only: the workflow asks no one, and the executor
			// looks without it.
			ar = *look
		case cc.Refused != "":
			// The executor is told why, and the workflow asks the person
			// when it tries again.
			ar = ActResult{Result: ActRefused + ": " + cc.Refused, Refused: cc.Refused}
		case refusal != nil:
			ar = *refusal
			if why, ok := strings.CutPrefix(ar.Result, ActRefused+": "); ok {
				ar.Refused = why
			}
		case in.ActionID != "" && a.Journal != nil && in.Act.TouchesDevice():
			// The journal keeps a veto as the action's result, so a retry
			// returns it without asking again (docs/design.md §10).
			ar, err = a.actOnce(ctx, d, in, &commit)
		default:
			if v := a.vetoed(ctx, in); v != nil {
				ar = *v
				break
			}
			ar, err = a.act(ctx, d, attempt, *in.Act, in.ScreenHash, in.Width, in.Height)
		}
		if err != nil && ar.Result == "" {
			return StepResult{}, err
		}
		if ar.Refused == "" && ar.Vetoed == "" && (ar.Result == "ok" || ar.Result == ActAlreadyApplied) {
			ar.Committed, ar.Commit = cc.Commit, commit.Key
		} else if ar.Result == ActUncertain && commit.Key != "" {
			// Nothing tells whether the commit reached the phone: it is
			// named as a tap a system window met (unconfirmedMark), which
			// counts as made only where the screen shows a trace of it.
			ar.Commit = commit.Key + unconfirmedMark + commit.Shown
		} else {
			commit = commitTap{}
		}
		res.Act = &ar
		if err != nil {
			// The action was decided (sent, or judged) and its record
			// failed: what it did goes back with the error.
			return res, err
		}
		prevAction, prevResult = autoglm.FormatAction(*in.Act), ar.Result
	}
	s, err := a.observe(ctx, d, in.UITree)
	if err != nil {
		return res, err // what was applied, for keepApplied
	}
	if r := res.Act; r != nil && r.Commit == "" && r.Refused == "" && r.Vetoed == "" && (r.Result == "ok" || r.Result == ActAlreadyApplied) {
		// No commit control named it: the screen after it may show what
		// it sent.
		if c := a.sentByEffect(ctx, in, s.elems); c.Key != "" {
			commit, r.Commit = c, c.Key
		}
	}
	if res.Act != nil && res.Act.Commit != "" && !strings.Contains(res.Act.Commit, unconfirmedMark) && metSystemWindow(commit.App, s.elems) {
		// A system window took the focus around the commit tap: the todo
		// remembers what the screen showed, so a tap again on the same
		// content is refused only if the first one left a trace.
		res.Act.Commit = commit.Key + unconfirmedMark + commit.Shown
	}
	res.Screen = s.obs
	if !in.Think {
		return res, nil
	}
	var miss string
	if in.Replay != nil {
		miss = replayStops(res.Act)
	}
	if in.Replay != nil && miss == "" {
		rin := in
		rin.PreviousAction, rin.PreviousResult = prevAction, prevResult
		th, why, err := a.replay(ctx, rin, s)
		if err == nil && why == "" {
			err = a.sealTyped(&th, s.obs, s.elems)
		}
		if err != nil {
			return res, err
		}
		if why == "" {
			res.Think = &th
			res.Verdict = a.verifyAhead(ctx, in, res)
			return res, nil
		}
		miss = why
	}
	th, err := a.think(ctx, ThinkInput{
		Task: in.Task, TaskType: in.TaskType, Screen: s.obs,
		PreviousAction: prevAction, PreviousResult: prevResult,
		Notes: in.Notes, HistoryRef: in.HistoryRef, Guidance: in.Guidance,
	}, s)
	if err != nil {
		return res, err // what was applied and seen, for handBackOutage and keepApplied
	}
	th.ReplayMiss = miss
	res.Think = &th
	res.Verdict = a.verifyAhead(ctx, in, res)
	return res, nil
}

// verifyAhead verifies the finish a Step's think decided, when the
// workflow asked for it (StepInput.VerifyFinish): Verify's verdict on the
// screen the Step observed, so the todo ends without one more activity
// (docs/design.md §9). It gives nil when there is no finish, when the
// todo's postconditions need the screens the todo saw (only the workflow
// holds them), and when the verifier could not give a verdict: a model
// that does not answer, a blob that cannot be read. The workflow then runs
// Verify itself, which waits out an outage and asks the person.
func (a *Activities) verifyAhead(ctx context.Context, in StepInput, res StepResult) *VerifyResult {
	th := res.Think
	if !in.VerifyFinish || th == nil || th.ParseError != "" || th.Response == nil ||
		th.Response.Action.Name != autoglm.ActionFinish || NeedsSeen(in.Expect) {
		return nil
	}
	if activity.IsActivity(ctx) && !activity.GetInfo(ctx).Deadline.IsZero() {
		// A slow verifier must not cost the Step its think: it gives up
		// in time for the Step to return what it did.
		end := activity.GetInfo(ctx).Deadline.Add(-verifyAheadMargin)
		if time.Until(end) <= 0 {
			return nil
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, end)
		defer cancel()
	}
	commits := in.Commits
	if res.Act != nil && res.Act.Commit != "" {
		// This Step's own action committed too: the todo records it next.
		commits = append(slices.Clone(commits), res.Act.Commit)
	}
	v, err := a.Verify(ctx, VerifyInput{Serial: in.Serial, Task: in.Task, Message: th.Response.Action.Message,
		Screen: res.Screen, HandBackOutages: true, Expect: in.Expect, Established: in.Established,
		Commits: commits, SentChecked: in.SentChecked, GoalID: in.GoalID, LeaseToken: in.LeaseToken, Answered: in.Answered})
	if err != nil {
		return nil
	}
	return &v
}

// verifyAheadMargin is the time a Step keeps, after a verification that
// gave up, to return its result before its start-to-close timeout.
const verifyAheadMargin = 20 * time.Second

// NeedsSeen reports whether verifying against the postconditions needs
// the screens the todo observed (VerifyInput.Seen): an answer to find on
// one of them.
func NeedsSeen(expect []postcond.Check) bool {
	for _, c := range expect {
		if c.Kind == postcond.AnswerSeen {
			return true
		}
	}
	return false
}

// replayStops says why a routine's replay stops at this Step: the action
// the Step performed was refused (the screen contradicts the todo: the
// routine reached another conversation than the recorded one), vetoed or
// failed, so the recorded next step no longer follows; the model decides
// from here (docs/design.md §8). "" lets the replay go on.
func replayStops(act *ActResult) string {
	switch {
	case act == nil:
		return ""
	case act.Refused != "":
		return "the replayed action was refused: " + act.Refused
	case act.Vetoed != "":
		return "the replayed action was vetoed: " + act.Vetoed
	case act.NeedsHuman != "":
		return "the replayed action needs a person: " + act.NeedsHuman
	case act.Result != "" && act.Result != "ok" && act.Result != ActAlreadyApplied:
		return "the replayed action failed: " + act.Result
	}
	return ""
}
