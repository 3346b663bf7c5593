package workflows

import (
	"fmt"
	"slices"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

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
		// For hooks (docs/design.md §10): payload only, no command changes.
		GoalID: t.in.GoalID, Todo: t.in.Index, StepNo: t.st.Steps,
		Guidance: t.st.Guidance.Version,
	}
	switch {
	case act != nil:
		t.withAction(ctx, &in, act)
		in.Commits = t.st.Commits.Made
		in.KeepApplied = keepsApplied(ctx)
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
		in.VerifyFinish = t.verifiesInStep(ctx)
		if in.VerifyFinish {
			in.Established = t.in.Established
			in.Commits, in.SentChecked = t.sentSoFar(), true
			in.Answered = t.answers()
		}
	}
	in.LookOnly = t.in.LookOnly
	if act != nil && act.TouchesDevice() {
		// The journal fences the action by the goal's lease token
		// (docs/design.md §5); a Step that only looks needs none.
		in.GoalID, in.LeaseToken = t.in.GoalID, t.in.LeaseToken
	}
	actx := workflow.WithActivityOptions(ctx, t.onPhone(stepActivityOptions(t.stepSummary(act, think))))
	var res activities.StepResult
	err := workflow.ExecuteActivity(actx, activities.NameStep, in).Get(ctx, &res)
	t.ahead = nil
	if err == nil && res.Verdict != nil && in.VerifyFinish {
		t.ahead = &verdictAhead{v: *res.Verdict, screen: res.Screen}
	}
	if err == nil && res.Think != nil {
		t.st.Usage.Executor = t.st.Usage.Executor.Add(res.Think.Usage)
		t.st.Guidance.use(res.Think.Guidance)
		t.replayed(in.Replay != nil, res.Think)
	}
	return res, err
}

// stepSummary is the Web UI summary of a Step activity. It numbers the
// steps it takes the way the budget counts them (docs/design.md §2): the
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
		result := t.took(*act, res.Act)
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
	if t.in.LookOnly && t.st.LookFrom.Package == "" {
		t.st.LookFrom = lookFrom{App: res.Screen.App, Package: res.Screen.AppPackage}
	}
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

// took folds the result of the todo's decided action (t.st.NextText)
// into its record: the routine's trace, the commit log, the last action
// and the recent ones. It returns the result's text.
func (t *todoRun) took(act autoglm.Action, r *activities.ActResult) string {
	result := "ok"
	if r != nil && r.Result != "" {
		result = r.Result
	}
	text := t.st.NextText
	t.traceAction(t.st.Screen, act, result)
	t.st.Commits.record(r)
	t.st.PreviousAction, t.st.PreviousResult = text, result
	t.addRecent(text, result)
	return result
}

// sentSoFar are the commits the todo made: its log (earlier runs' too),
// and the commit of an action a step applied whose result the todo has
// not taken in yet (t.applied). A finish is verified against them
// (VerifyInput.SentChecked).
func (t *todoRun) sentSoFar() []string {
	made := t.st.Commits.Made
	if a := t.applied; a != nil && a.Result.Act != nil && a.Result.Act.Commit != "" && !slices.Contains(made, a.Result.Act.Commit) {
		made = append(slices.Clone(made), a.Result.Act.Commit)
	}
	return made
}

// keepsApplied reports whether this run's Steps hand an applied action's
// result back with any error after it, and the todo records it
// (ChangeKeepApplied, docs/design.md §4).
func keepsApplied(ctx workflow.Context) bool {
	return markersOnceGive(ctx, ChangeKeepApplied) >= 1
}

// keepApplied records the action a step applied before the step failed
// for good (ChangeKeepApplied): the commit it made and the action itself,
// so the todo's result carries them (Committed, CommitKeys, Recent) and
// the replanner and the look before the next commit see them.
func (t *todoRun) keepApplied(act *autoglm.Action) {
	a := t.applied
	t.applied = nil
	if a == nil || act == nil {
		return
	}
	t.took(*act, a.Result.Act)
	if s := a.Result.Screen; s.Hash != "" || s.ScreenRef != "" {
		t.st.Screen = s
		t.st.Checks.saw(s)
	}
	t.st.Checks.acted(a.Result.Act)
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
	if t.planner != "" {
		fmt.Fprintf(&b, "- planner: %s\n", truncate(t.planner, 500))
	}
	if t.waiting != "" {
		fmt.Fprintf(&b, "\n**Waiting for:** %s\n", truncate(t.waiting, 500))
	}
	if u := usageMarkdown(t.st.Usage); u != "" {
		b.WriteString("\n" + u)
	}
	workflow.SetCurrentDetails(ctx, b.String())
}
