package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// Change IDs of workflow.GetVersion (docs/design.md §9). Histories recorded
// before a change replay on its DefaultVersion branch.
const (
	// ChangeVerifyFinish: a todo whose executor says finish runs the
	// Verify activity, and the verdict decides done or failed. Before it,
	// finish was done.
	ChangeVerifyFinish = "verify-finish"
	// ChangeHonestGoalStatus: the replanner's done ends the goal done only
	// when every todo it kept was done (or it dropped the todo with a
	// reason); otherwise the goal fails. Before it, done was done unless no
	// todo had succeeded.
	ChangeHonestGoalStatus = "honest-goal-status"
	// ChangeVerifyOutageWait: Verify and Correct hand a lasting model
	// outage back and the todo waits it out visibly, as a Step does
	// (docs/design.md §16), and a finish that could not be verified is
	// asked about instead of failing the todo. Before it, Temporal's five
	// attempts ran out and the todo failed (Verify) or took the fixed
	// correction (Correct).
	ChangeVerifyOutageWait = "verify-outage-wait"
	// ChangeVerifyAtStepCap: a todo that reaches its step cap is verified
	// on the screen its last step left, as a finish is, and is done when
	// the verdict is (docs/design.md §9). Before it, the cap failed the
	// todo even when its last action had done the task.
	ChangeVerifyAtStepCap = "verify-at-step-cap"
	// ChangeVerifyHeartbeat: Verify has a heartbeat timeout (15 s on the
	// phone's queue) and heartbeats while it runs. Before it, a Verify task
	// that a starved server handed to a poll the worker had already given up
	// on ran nowhere, and the todo waited out the 5-minute start-to-close
	// timeout, once for each such attempt.
	ChangeVerifyHeartbeat = "verify-heartbeat"
)

// verifyAtCap ends a todo that reached its step cap: the phone, not the
// count, says whether the task was done. The executor claimed nothing, so
// the verifier judges the task on the last screen alone (a read, which
// needs an answer, cannot pass); any verdict but done keeps the cap's
// failure, with the verifier's evidence.
func (t *todoRun) verifyAtCap(ctx workflow.Context, stop TodoResult) (TodoResult, error) {
	res, err := t.finished(ctx, "")
	if err != nil {
		return TodoResult{}, err
	}
	if res.Status == TodoDone && res.Verified {
		res.Result = stop.Result + ", and the phone shows the task done: " + truncate(res.Evidence, 300)
		return res, nil
	}
	stop.Evidence, stop.VerifiedBy, stop.Checks = res.Evidence, res.VerifiedBy, res.Checks
	return stop, nil
}

// finished ends the todo on the executor's finish. Under
// ChangeVerifyFinish the finish is verified first: the todo is done only
// when the verdict is done, and the verdict and its evidence go into the
// result, the Web UI details and the status query.
func (t *todoRun) finished(ctx workflow.Context, msg string) (TodoResult, error) {
	if getVersion(ctx, ChangeVerifyFinish, workflow.DefaultVersion, 1) == workflow.DefaultVersion || t.in.Unguarded {
		return t.result(TodoDone, msg), nil
	}
	waitOut := getVersion(ctx, ChangeVerifyOutageWait, workflow.DefaultVersion, 1) >= 1
	in := activities.VerifyInput{Serial: t.in.Device, Task: t.in.Task, Message: msg, Screen: t.st.Screen, HandBackOutages: waitOut}
	if len(t.in.Expect) > 0 && getVersion(ctx, ChangePostconditions, workflow.DefaultVersion, 1) == 1 {
		in.Expect, in.Seen = t.in.Expect, t.st.Checks.Seen
	}
	in.Established = t.in.Established
	in.Commits, in.SentChecked = t.sentSoFar(), true
	// What the executor was told the todo left out (ChangeAnsweredQuestions).
	in.Answered = t.answers()
	in.GoalID, in.LeaseToken = t.in.GoalID, t.in.LeaseToken // its probes are fenced
	if t.st.Checks.Stale && markersOnceGive(ctx, ChangeReobserveAfterWait) >= 1 {
		// The screen the finish was decided on is from before a pause or
		// a question: Verify looks at the phone again.
		in.Reobserve = true
	}
	actx := workflow.WithActivityOptions(ctx, modelActivityOptions(truncate(fmt.Sprintf("Verify todo %d: %s", t.in.Index, t.in.Task), 380)))
	var v activities.VerifyResult
	verify := func() error { return workflow.ExecuteActivity(actx, activities.NameVerify, in).Get(ctx, &v) }
	if a := t.takeAhead(in); a != nil {
		// The Step that decided this finish verified it on the same
		// input: that verdict is Verify's.
		verify = func() error { v = *a; return nil }
	}
	if waitOut {
		once := verify
		verify = func() error { return t.waitOutModel(ctx, once) }
	}
	if getVersion(ctx, ChangeVerifyHeartbeat, workflow.DefaultVersion, 1) >= 1 {
		// Verify heartbeats: a task no worker ran is tried again after the
		// heartbeat timeout (onPhone shortens it on the phone's queue).
		o := workflow.GetActivityOptions(actx)
		o.HeartbeatTimeout = time.Minute
		actx = workflow.WithActivityOptions(ctx, o)
	}
	if t.in.DeviceQueue != "" {
		// The screen's blobs are on the phone's host: wait for it as a
		// step does (docs/design.md §5).
		actx = workflow.WithActivityOptions(ctx, t.onPhone(workflow.GetActivityOptions(actx)))
		once := verify
		verify = func() error { return t.waitForPhone(ctx, once) }
	}
	// The goal hears of the last think with the result (docs/design.md §2).
	err := t.working(verify)
	if err != nil {
		if temporal.IsCanceledError(err) || ctx.Err() != nil {
			return TodoResult{}, err
		}
		v = activities.VerifyResult{Status: TodoFailed, By: "error", Evidence: "could not verify: " + rootMessage(err)}
		if waitOut {
			// Not verified is not failed: a failed todo makes the
			// replanner run its actions again. The person decides.
			if v, err = t.askVerdict(ctx, msg, rootMessage(err)); err != nil {
				return TodoResult{}, err
			}
		}
	}
	if v.Screen != nil {
		t.st.Screen = *v.Screen
		t.st.Checks.saw(*v.Screen)
	}
	t.verdict = &v
	t.st.Usage.Executor = t.st.Usage.Executor.Add(v.Usage)
	t.details(ctx)
	res := t.result(TodoDone, msg)
	res.Verified, res.Evidence, res.VerifiedBy = v.Status == TodoDone, v.Evidence, v.By
	res.Checks, res.Rechecked = v.Checks, v.Rechecked
	for _, r := range v.Rechecked {
		if !r.Held {
			// The replanner reads it here: an earlier todo's state this
			// todo's screen shows undone (docs/design.md §9).
			res.Result += fmt.Sprintf(" [an earlier todo's %s %s]", r.Check, truncate(r.Evidence, 200))
		}
	}
	if !res.Verified {
		res.Status = TodoFailed
		res.Result = "not done: " + v.Evidence
		if msg != "" && !strings.Contains(v.Evidence, msg) {
			res.Result += " (executor said: " + truncate(msg, 300) + ")"
		}
		res.Lessons = appendLesson(res.Lessons, "finish not verified: "+v.Evidence)
	}
	return res, nil
}

// verdictAhead is the verdict a Step gave on the finish its think
// decided (activities.StepResult.Verdict), and the screen it verified on.
type verdictAhead struct {
	v      activities.VerifyResult
	screen activities.Observation
}

// verifiesInStep reports whether a think Step is asked to verify the
// finish it decides (ChangeVerifyInStep, docs/design.md §9): not in an
// unguarded todo, which takes a finish as done, and not when the
// postconditions need the screens the todo saw, which only the workflow
// holds.
func (t *todoRun) verifiesInStep(ctx workflow.Context) bool {
	return markersOnceGive(ctx, ChangeVerifyInStep) >= 1 && !t.in.Unguarded && !activities.NeedsSeen(t.in.Expect)
}

// takeAhead returns the verdict the last Step gave when it answers in:
// the Step verified the finish with this message, on this screen, with
// the todo's postconditions and no screens seen before (the Step verifies
// only when none are needed). Anything between the Step and the finish
// that could change what Verify sees (a pause, a person's answer, another
// step) has dropped it. It is taken once.
func (t *todoRun) takeAhead(in activities.VerifyInput) *activities.VerifyResult {
	a := t.ahead
	t.ahead = nil
	if a == nil || t.st.Next == nil || in.Message != t.st.Next.Message || !sameObservation(in.Screen, a.screen) ||
		activities.NeedsSeen(in.Expect) || len(in.Expect) != len(t.in.Expect) {
		return nil
	}
	return &a.v
}

// sameObservation reports whether two observations are of the same
// screen capture: its hash and the blobs of its image and UI tree.
func sameObservation(a, b activities.Observation) bool {
	return a.Hash == b.Hash && a.ScreenRef == b.ScreenRef && a.TreeRef == b.TreeRef && a.AppPackage == b.AppPackage
}

// verdictLine is the verdict as the Web UI details and status show it.
func verdictLine(v *activities.VerifyResult) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf("%s (%s): %s", v.Status, v.By, truncate(v.Evidence, 300))
}

// ByPerson is the verdict's By when a person answered it.
const ByPerson = "person"

// askVerdict asks the person whether a finished todo is done when the
// verifier could not say, and takes the answer as the verdict.
func (t *todoRun) askVerdict(ctx workflow.Context, msg, why string) (activities.VerifyResult, error) {
	q := fmt.Sprintf("phoneflow could not verify that %q is done (%s); the executor said: %s. Look at the phone and answer yes if it is done, or no.",
		truncate(t.in.Task, 200), truncate(why, 200), truncate(msg, 200))
	ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: QuestionClarify, Text: q})
	if err != nil {
		return activities.VerifyResult{}, err
	}
	v := activities.VerifyResult{Status: TodoFailed, By: ByPerson, Evidence: "the verifier could not run (" + truncate(why, 200) + "); the person answered: " + truncate(ans, 200)}
	if affirmative(ans) {
		v.Status = TodoDone
	}
	return v, nil
}

// affirmative reports whether an answer says yes.
func affirmative(ans string) bool {
	a := strings.ToLower(strings.TrimSpace(ans))
	for _, y := range []string{"yes", "y", "done", "ok", "it is", "it's done", "是", "对", "好", "完成", "已完成"} {
		if a == y || strings.HasPrefix(a, y+" ") || strings.HasPrefix(a, y+",") || strings.HasPrefix(a, y+".") || strings.HasPrefix(a, y+"!") {
			return true
		}
	}
	return false
}
