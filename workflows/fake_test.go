package workflows

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// fakeWorld scripts the planner and the executor and plays a phone whose
// screen changes after every action (unless stuck). It records what the
// workflows asked for so tests can assert on it.
type fakeWorld struct {
	mu      sync.Mutex
	hooked  []hooks.Event // EmitHook calls
	plans   []activities.PlanDecision
	replans []activities.PlanDecision
	// scripts holds the executor's decisions per todo text, consumed one
	// per think; an exhausted script finishes the todo.
	scripts map[string][]autoglm.Action
	stuck   bool // the screen never changes
	// replanFn, when set, answers Replan instead of the replans list.
	replanFn func(activities.ReplanInput) activities.PlanDecision
	// onReplan runs inside the Replan activity, before it answers: a test
	// uses it to deliver signals at the goal's continue-as-new boundary.
	onReplan func()
	// deviceDown makes that many Step calls fail as a phone that does not
	// answer (what Step hands back after its one Temporal retry); a
	// negative value keeps failing until the test sets it to 0.
	deviceDown int
	// hostDown makes that many phone-bound activities (Step, Verify) fail
	// as an attempt no worker took within its schedule-to-start bound; a
	// negative value keeps failing until the test sets it to 0.
	hostDown int
	// verifyHostDown does the same to that many Verify calls.
	verifyHostDown int
	// undoes names, by a finish message, the labels of earlier todos'
	// states that todo's final screen shows undone.
	undoes map[string][]string
	// hides names, by a finish message, the labels of earlier todos'
	// states that todo's final screen does not show at all.
	hides map[string][]string
	// appOf, when set, names the app a Step's screen shows (default
	// Settings).
	appOf func(workflowID string, in activities.StepInput) (app, pkg string)
	// fence, when set, plays the lease check of a Step that acts: an
	// error refuses the step before its action (the world's lock held).
	fence func(workflowID string, in activities.StepInput) error
	// queues records the task queue of every phone-bound activity.
	queues []string
	// noIME makes Type actions fail as a phone without the ADB Keyboard.
	noIME bool
	// locked makes Steps find a lock screen they cannot pass.
	locked string
	// phoneChecks counts CheckPhone calls; the one numbered phoneMetAt
	// (from 1, the baseline) finds phoneValue; 0 never does.
	phoneChecks []activities.CheckPhoneInput
	phoneMetAt  int
	phoneValue  string
	// uncertain makes the action with this key come back uncertain, as the
	// journal answers when a crash left its effect unreadable.
	uncertain string
	// plannerDown and executorDown make that many planner calls and
	// executor thinks fail as a model outage handed back by the activity
	// (after a Step's action was applied, as the real Step hands it back).
	plannerDown, executorDown int
	// planDown makes that many PlanOnce calls fail as a planner outage.
	planDown int
	// verifierDown makes that many Verify calls fail as a verifier
	// outage does: handed back when the call asks, else retryable.
	verifierDown int
	// executorDownOnAct sets executorDown at the first step that acts.
	executorDownOnAct int
	// whileThinking runs inside a Step that thinks, before it answers,
	// with the step's input (the world's lock not held).
	whileThinking func(activities.StepInput)
	// refute lists finish messages the verifier finds contradicted by the
	// screen; any other finish that does not admit failure is verified.
	refute   map[string]string
	verifies []activities.VerifyInput
	// verifyInStep makes a Step asked to (StepInput.VerifyFinish) verify
	// the finish it decides, as the real Step does; aheadDown makes that
	// many of those give no verdict (a verifier that did not answer).
	// ahead records the inputs of those verifications.
	verifyInStep bool
	aheadDown    int
	ahead        []activities.VerifyInput
	// correctFail makes the planner's correction fail as an unreachable
	// model; correctInvalid makes it answer outside the contract.
	correctFail, correctInvalid bool
	corrects                    []activities.CorrectInput
	// routine is what FindRoutine answers (nil: no routine); replayMiss
	// makes the replay of that routine step index (1-based) miss.
	routine    *activities.FindRoutineResult
	replayMiss int
	recorded   []activities.RecordRoutineInput

	// failAfter makes the Step that applies the action with this key fail
	// once after it, with the error given, as the real Step does: handed
	// back with the action's result when the step asks for it
	// (StepInput.KeepApplied).
	failAfter map[string]error
	// commitKeys marks actions as commits (action key → commit key): the
	// Step refuses one whose key the step's Commits hold, as the look
	// before a commit does, and counts in sent the ones it applies.
	commitKeys map[string]string
	sent       map[string]int

	// askPlannerFn answers the planner's hearing of an executor question
	// (nil: ask the person); reviewFn the planner's review (nil:
	// continue). asked and reviews record their inputs.
	askPlannerFn func(activities.AskPlannerInput) activities.AskPlannerResult
	reviewFn     func(activities.ReviewInput) activities.ReviewResult
	asked        []activities.AskPlannerInput
	reviews      []activities.ReviewInput

	planInputs   []activities.PlanInput
	replanInputs []activities.ReplanInput
	steps        []stepCall
	optimized    []activities.OptimizeInput
	// guidance is the version in force a think reports when the step
	// pinned none; rewriteAt makes the optimize call of that number (1-based)
	// ask for a guidance rewrite, and rewrites records the asks.
	guidance  int
	rewriteAt int
	rewrites  []activities.RewriteInput
	notified  []activities.NotifyInput
	log       []string
	screen    int
	stepBytes int
}

type stepCall struct {
	WorkflowID string
	RunID      string
	In         activities.StepInput
}

// Usage the fake models report per call.
var (
	fakePlanUsage  = llm.Usage{Calls: 1, InputTokens: 500, OutputTokens: 40, LatencyMS: 300}
	fakeThinkUsage = llm.Usage{Calls: 1, InputTokens: 1200, OutputTokens: 60, CachedTokens: 800, LatencyMS: 900}
)

// parseErrorAction marks a scripted reply that does not parse.
const parseErrorAction = "!parse"

func tap(x, y int) autoglm.Action {
	return autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{x, y}}
}
func sensitiveTap(x, y int, msg string) autoglm.Action {
	a := tap(x, y)
	a.Message = msg
	return a
}
func launch(app string) autoglm.Action { return autoglm.Action{Name: autoglm.ActionLaunch, App: app} }
func finish(msg string) autoglm.Action {
	return autoglm.Action{Name: autoglm.ActionFinish, Message: msg}
}
func takeOver(msg string) autoglm.Action {
	return autoglm.Action{Name: autoglm.ActionTakeOver, Message: msg}
}
func badReply() autoglm.Action { return autoglm.Action{Name: parseErrorAction} }

func (f *fakeWorld) logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.log = append(f.log, fmt.Sprintf(format, args...))
}

func (f *fakeWorld) PlanOnce(_ context.Context, in activities.PlanInput) (activities.PlanDecision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.planInputs = append(f.planInputs, in)
	if f.planDown > 0 {
		f.planDown--
		return activities.PlanDecision{}, fakeOutage("planner", nil)
	}
	if len(f.plans) == 0 {
		return activities.PlanDecision{}, fmt.Errorf("fake: no plan scripted")
	}
	d := f.plans[0]
	f.plans = f.plans[1:]
	d.Usage = fakePlanUsage
	return d, nil
}

func (f *fakeWorld) Replan(_ context.Context, in activities.ReplanInput) (activities.PlanDecision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replanInputs = append(f.replanInputs, in)
	if f.plannerDown > 0 {
		f.plannerDown--
		return activities.PlanDecision{}, fakeOutage("planner", nil)
	}
	if f.onReplan != nil {
		f.onReplan()
	}
	if f.replanFn != nil {
		d := f.replanFn(in)
		d.Usage = fakePlanUsage
		return d, nil
	}
	if len(f.replans) == 0 {
		// A planner with nothing scripted keeps the remaining plan.
		if len(in.Remaining) > 0 {
			return activities.PlanDecision{Status: activities.PlanReplanned, Plan: in.Remaining, Usage: fakePlanUsage}, nil
		}
		return activities.PlanDecision{Status: activities.PlanDone, Response: "all done", Usage: fakePlanUsage}, nil
	}
	d := f.replans[0]
	f.replans = f.replans[1:]
	d.Usage = fakePlanUsage
	return d, nil
}

// ptrOr is *a, or the zero action.
func ptrOr(a *autoglm.Action) autoglm.Action {
	if a == nil {
		return autoglm.Action{}
	}
	return *a
}

func (f *fakeWorld) Step(ctx context.Context, in activities.StepInput) (activities.StepResult, error) {
	if f.whileThinking != nil && in.Think {
		f.whileThinking(in)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queues = append(f.queues, activity.GetInfo(ctx).TaskQueue)
	if f.hostDown != 0 {
		if f.hostDown > 0 {
			f.hostDown--
		}
		return activities.StepResult{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
	}
	f.steps = append(f.steps, stepCall{WorkflowID: activity.GetInfo(ctx).WorkflowExecution.ID, RunID: activity.GetInfo(ctx).WorkflowExecution.RunID, In: in})
	if f.fence != nil && in.Act != nil && in.Act.TouchesDevice() {
		if err := f.fence(activity.GetInfo(ctx).WorkflowExecution.ID, in); err != nil {
			f.log = append(f.log, "fenced "+actionKey(*in.Act))
			return activities.StepResult{}, err
		}
	}
	if f.deviceDown != 0 {
		if f.deviceDown > 0 {
			f.deviceDown--
		}
		return activities.StepResult{}, temporal.NewNonRetryableApplicationError("Tap: device emu-1 offline", activities.ErrTypeDevice, nil)
	}
	if f.locked != "" {
		f.log = append(f.log, "locked")
		return activities.StepResult{Locked: f.locked}, nil
	}
	var res activities.StepResult
	if in.Act != nil && f.noIME && in.Act.Name == autoglm.ActionType {
		f.log = append(f.log, "no-ime "+actionKey(*in.Act))
		res.Act = &activities.ActResult{Result: "ADB Keyboard is not installed", NeedsHuman: "ADB Keyboard is not installed"}
	} else if in.Act != nil && f.uncertain != "" && actionKey(*in.Act) == f.uncertain {
		f.log = append(f.log, "uncertain "+actionKey(*in.Act))
		res.Act = &activities.ActResult{Result: activities.ActUncertain, Uncertain: "Did the phone take " + f.uncertain + "? The screen is secure."}
	} else if k, ok := f.commitKeys[actionKey(ptrOr(in.Act))]; in.Act != nil && ok && slices.Contains(in.Commits, k) {
		f.log = append(f.log, "refused "+actionKey(*in.Act))
		why := "this todo already made " + k + "; it is not done twice"
		res.Act = &activities.ActResult{Result: activities.ActRefused + ": " + why, Refused: why}
	} else if in.Act != nil {
		f.log = append(f.log, "act "+actionKey(*in.Act))
		res.Act = &activities.ActResult{Result: "ok", Touched: in.Act.TouchesDevice()}
		if k, ok := f.commitKeys[actionKey(*in.Act)]; ok {
			if f.sent == nil {
				f.sent = map[string]int{}
			}
			f.sent[k]++
			res.Act.Commit, res.Act.Committed = k, "sent: "+k
		}
		if !f.stuck {
			f.screen++
		}
	}
	res.Screen = activities.Observation{
		ScreenRef: "sha256:" + strings.Repeat("ab", 32), Hash: fmt.Sprintf("%016x", f.screen),
		App: "Settings", AppPackage: "com.android.settings", Width: 1080, Height: 2400,
	}
	if f.appOf != nil {
		res.Screen.App, res.Screen.AppPackage = f.appOf(activity.GetInfo(ctx).WorkflowExecution.ID, in)
	}
	if e, ok := f.failAfter[actionKey(ptrOr(in.Act))]; ok && in.Act != nil && res.Act != nil {
		delete(f.failAfter, actionKey(*in.Act))
		f.log = append(f.log, "failed after "+actionKey(*in.Act))
		if in.KeepApplied {
			return activities.StepResult{}, activities.KeepAppliedError(e, res)
		}
		return activities.StepResult{}, e
	}
	if in.Act != nil && f.executorDownOnAct > 0 {
		f.executorDown, f.executorDownOnAct = f.executorDownOnAct, 0
	}
	if in.Think && f.executorDown > 0 {
		f.executorDown--
		var applied *activities.StepResult
		if res.Act != nil {
			applied = &activities.StepResult{Act: res.Act, Screen: res.Screen}
		}
		return activities.StepResult{}, fakeOutage("executor", applied)
	}
	if r := in.Replay; in.Think && r != nil && r.Index != f.replayMiss && r.Model == "" {
		res.Think = &activities.ThinkResult{Response: &autoglm.Response{Thinking: "replaying", Action: r.Action},
			Action: actionKey(r.Action), Replayed: true, HistoryRef: "sha256:replayed"}
		return res, nil
	}
	if in.Think {
		script := f.scripts[in.Task]
		a := finish("nothing left to do")
		if len(script) > 0 {
			a, f.scripts[in.Task] = script[0], script[1:]
		}
		// A realistic turn: the trimmed answer (the request text stays in
		// the history blob).
		turn := activities.Turn{
			Assistant: "<think>The Wi-Fi row is visible near the top; tapping its switch turns it on.</think><answer>" + actionKey(a) + "</answer>",
		}
		histRef := fmt.Sprintf("sha256:%s-turns-%d", activity.GetInfo(ctx).WorkflowExecution.ID, len(f.steps))
		if a.Name == parseErrorAction {
			res.Think = &activities.ThinkResult{ParseError: "no action found in the answer", Turn: turn, Model: "fake", HistoryRef: histRef}
		} else {
			res.Think = &activities.ThinkResult{Response: &autoglm.Response{Thinking: "ok", Action: a},
				Action: actionKey(a), Turn: turn, Model: "fake", HistoryRef: histRef}
		}
		res.Think.Usage = fakeThinkUsage
		if in.Guidance > 0 {
			res.Think.Guidance = in.Guidance
		} else {
			res.Think.Guidance = f.guidance
		}
		if in.Replay != nil {
			res.Think.ReplayMiss = fmt.Sprintf("the screen before step %d differs", in.Replay.Index)
		}
	}
	if th := res.Think; f.verifyInStep && in.VerifyFinish && th != nil && th.Response != nil && th.Response.Action.Name == autoglm.ActionFinish {
		if f.aheadDown > 0 {
			f.aheadDown--
		} else {
			vin := activities.VerifyInput{Serial: in.Serial, Task: in.Task, Message: th.Response.Action.Message, Screen: res.Screen, HandBackOutages: true, Expect: in.Expect, Answered: in.Answered}
			f.ahead = append(f.ahead, vin)
			v := f.verdict(vin)
			res.Verdict = &v
		}
	}
	b1, _ := json.Marshal(in)
	b2, _ := json.Marshal(res)
	f.stepBytes += len(b1) + len(b2)
	return res, nil
}

func (f *fakeWorld) Verify(ctx context.Context, in activities.VerifyInput) (activities.VerifyResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queues = append(f.queues, "verify:"+activity.GetInfo(ctx).TaskQueue)
	if f.verifyHostDown > 0 {
		f.verifyHostDown--
		return activities.VerifyResult{}, temporal.NewTimeoutError(enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START, nil)
	}
	if f.verifierDown > 0 {
		f.verifierDown--
		if in.HandBackOutages {
			return activities.VerifyResult{}, fakeOutage("verifier", nil)
		}
		return activities.VerifyResult{}, temporal.NewApplicationError("verifier model: connection refused", activities.ErrTypeModelRetryable)
	}
	f.verifies = append(f.verifies, in)
	v := f.verdict(in)
	for _, c := range in.Established {
		// The final screen of a todo whose message is in undoes shows
		// those labels' states undone (an item's text for an item gone);
		// every other state still held.
		label := c.Label
		if label == "" {
			label = c.Text
		}
		if slices.Contains(f.hides[in.Message], label) {
			continue
		}
		undone := slices.Contains(f.undoes[in.Message], label)
		v.Rechecked = append(v.Rechecked, postcond.Result{Check: c, Held: !undone, Evidence: "rechecked " + label})
	}
	return v, nil
}

// verdict is the fake verifier's verdict on in.
func (f *fakeWorld) verdict(in activities.VerifyInput) activities.VerifyResult {
	if p, ok := verify.Admits(in.Message); ok {
		return activities.VerifyResult{Status: verify.Failed, By: verify.ByMessage, Evidence: "the message admits it: " + p}
	}
	if why, ok := f.refute[in.Message]; ok {
		return activities.VerifyResult{Status: verify.Failed, By: verify.ByModel, Evidence: why}
	}
	if len(in.Expect) > 0 {
		// The postconditions decide: here, each holds when the message
		// names its label.
		res := activities.VerifyResult{Status: verify.Done, By: verify.ByPostcondition}
		for _, c := range in.Expect {
			held := strings.Contains(in.Message, c.Label)
			res.Checks = append(res.Checks, postcond.Result{Check: c, Held: held, Evidence: "checked " + c.Label})
			if !held {
				res.Status = verify.Failed
			}
		}
		res.Evidence = postcond.Summary(res.Checks)
		return res
	}
	return activities.VerifyResult{Status: verify.Done, By: verify.ByModel, Evidence: "the screen shows " + in.Message}
}

func (f *fakeWorld) Notify(_ context.Context, in activities.NotifyInput) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notified = append(f.notified, in)
	return nil
}

// fakeCorrection is the correction the fake planner writes.
const fakeCorrection = "Tapping [500,500] did nothing; go Back with do(action=\"Back\") and open the page again."

func (f *fakeWorld) Correct(_ context.Context, in activities.CorrectInput) (activities.CorrectResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.corrects = append(f.corrects, in)
	switch {
	case f.correctFail:
		return activities.CorrectResult{}, temporal.NewApplicationError("planner model: connection refused", activities.ErrTypeModelRetryable)
	case f.correctInvalid:
		return activities.CorrectResult{Invalid: `"correction" must be a non-empty string`, Usage: fakePlanUsage}, nil
	}
	return activities.CorrectResult{Correction: fakeCorrection, Usage: fakePlanUsage}, nil
}

func (f *fakeWorld) AskPlanner(_ context.Context, in activities.AskPlannerInput) (activities.AskPlannerResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, in)
	if f.askPlannerFn == nil {
		return activities.AskPlannerResult{Choice: "ask_user", Reason: "only the person knows", Usage: fakePlanUsage}, nil
	}
	res := f.askPlannerFn(in)
	res.Usage = fakePlanUsage
	return res, nil
}

func (f *fakeWorld) Review(_ context.Context, in activities.ReviewInput) (activities.ReviewResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reviews = append(f.reviews, in)
	if f.reviewFn == nil {
		return activities.ReviewResult{Decision: "continue", Reason: "on its way", Usage: fakePlanUsage}, nil
	}
	res := f.reviewFn(in)
	res.Usage = fakePlanUsage
	return res, nil
}

func (f *fakeWorld) OptimizePrompt(_ context.Context, in activities.OptimizeInput) (activities.OptimizeResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.optimized = append(f.optimized, in)
	res := activities.OptimizeResult{TodoType: activities.TodoType(in.Todo)}
	if len(f.optimized) == f.rewriteAt {
		res.Rewrite = &activities.RewriteInput{TodoType: res.TodoType, From: in.Guidance, Why: "3 failures in a row"}
	}
	return res, nil
}

func (f *fakeWorld) RewritePrompt(_ context.Context, in activities.RewriteInput) (activities.RewriteResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rewrites = append(f.rewrites, in)
	f.guidance = in.From + 1
	return activities.RewriteResult{Version: in.From + 1}, nil
}

// acts returns the actions the phone received, in order.
func (f *fakeWorld) acts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, l := range f.log {
		if strings.HasPrefix(l, "act ") {
			out = append(out, strings.TrimPrefix(l, "act "))
		}
	}
	return out
}

func (f *fakeWorld) register(env *testsuite.TestWorkflowEnvironment) {
	env.RegisterWorkflow(GoalWorkflow)
	env.RegisterWorkflow(TodoWorkflow)
	env.RegisterActivityWithOptions(f.PlanOnce, activity.RegisterOptions{Name: activities.NamePlanOnce})
	env.RegisterActivityWithOptions(f.Replan, activity.RegisterOptions{Name: activities.NameReplan})
	env.RegisterActivityWithOptions(f.Step, activity.RegisterOptions{Name: activities.NameStep})
	env.RegisterActivityWithOptions(f.OptimizePrompt, activity.RegisterOptions{Name: activities.NameOptimizePrompt})
	env.RegisterActivityWithOptions(f.RewritePrompt, activity.RegisterOptions{Name: activities.NameRewritePrompt})
	env.RegisterActivityWithOptions(f.Verify, activity.RegisterOptions{Name: activities.NameVerify})
	env.RegisterActivityWithOptions(f.Notify, activity.RegisterOptions{Name: activities.NameNotify})
	env.RegisterActivityWithOptions(f.Correct, activity.RegisterOptions{Name: activities.NameCorrect})
	env.RegisterActivityWithOptions(f.AskPlanner, activity.RegisterOptions{Name: activities.NameAskPlanner})
	env.RegisterActivityWithOptions(f.Review, activity.RegisterOptions{Name: activities.NameReview})
	env.RegisterActivityWithOptions(f.FindRoutine, activity.RegisterOptions{Name: activities.NameFindRoutine})
	env.RegisterActivityWithOptions(f.RecordRoutine, activity.RegisterOptions{Name: activities.NameRecordRoutine})
	env.RegisterActivityWithOptions(f.CheckPhone, activity.RegisterOptions{Name: activities.NameCheckPhone})
	env.RegisterActivityWithOptions(f.EmitHook, activity.RegisterOptions{Name: activities.NameEmitHook})
}

// EmitHook records the hook events the goal tells (docs/design.md §10).
func (f *fakeWorld) EmitHook(_ context.Context, ev hooks.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hooked = append(f.hooked, ev)
	return nil
}

func (f *fakeWorld) CheckPhone(ctx context.Context, in activities.CheckPhoneInput) (activities.CheckPhoneResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.queues = append(f.queues, activity.GetInfo(ctx).TaskQueue)
	f.phoneChecks = append(f.phoneChecks, in)
	n := len(f.phoneChecks)
	latest := time.Date(2026, 3, 2, 9, 0, n, 0, time.UTC)
	if n == f.phoneMetAt && !in.First {
		return activities.CheckPhoneResult{Met: true, Value: f.phoneValue, From: in.Wait.From, Latest: latest,
			Evidence: "notification from " + in.Wait.From}, nil
	}
	return activities.CheckPhoneResult{Latest: latest}, nil
}

func jsonSize(v any) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// estimateEvents counts the history events a goal produces on a real
// server from what it ran (the test environment keeps no history):
//   - an activity: scheduled, started, completed, plus the workflow task
//     (scheduled, started, completed) that reacts to its result: 6;
//   - a local activity: one marker, recorded with the task that ran it;
//   - a child: initiated, started, completed and two reacting workflow
//     tasks in the parent (9), started, first task and completed in the
//     child (5): 14;
//   - a signal: the signal and the workflow task that handles it: 4;
//   - the goal: started, first workflow task, completed (5), plus about
//     three search attribute upserts.
func estimateEvents(activities, local, children, signals int) int {
	return activities*6 + local + children*14 + signals*4 + 5 + 3
}

// fakeOutage is the error a model activity hands back during an outage.
func fakeOutage(role string, applied *activities.StepResult) error {
	return temporal.NewNonRetryableApplicationError(role+" model: connection refused", activities.ErrTypeModelUnavailable, nil,
		activities.ModelOutage{Role: role, Endpoint: "http://127.0.0.1:9/v1/chat/completions", Error: "connection refused", Applied: applied})
}
