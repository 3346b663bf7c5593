package workflows

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	sdkpb "go.temporal.io/api/sdk/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
)

const testGoalID = "goal-t1"

func newEnv(t *testing.T, f *fakeWorld) *testsuite.TestWorkflowEnvironment {
	t.Helper()
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, worker.Options{Interceptors: Interceptors()})
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: testGoalID})
	f.register(env)
	// The scripted world has no lease workflow; lease tests live in lease_test.go.
	saved := DeviceLease
	DeviceLease = nil
	t.Cleanup(func() { DeviceLease = saved })
	return env
}

func runGoal(t *testing.T, env *testsuite.TestWorkflowEnvironment, in GoalInput) GoalResult {
	t.Helper()
	env.ExecuteWorkflow(GoalWorkflow, in)
	if !env.IsWorkflowCompleted() {
		t.Fatal("goal did not complete")
	}
	var r GoalResult
	if err := env.GetWorkflowError(); err != nil {
		// A goal that ended failed closes as Failed with its result.
		if FailedResult(err, &r) {
			return r
		}
		t.Fatalf("goal failed: %v", err)
	}
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

func status(t *testing.T, env *testsuite.TestWorkflowEnvironment) Status {
	t.Helper()
	v, err := env.QueryWorkflow(QueryStatus)
	if err != nil {
		t.Fatalf("status query: %v", err)
	}
	var s Status
	if err := v.Get(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// updateResult is filled when the test environment has run an update:
// rejected by its validator, or completed by its handler.
type updateResult struct {
	err  error
	done bool
}

func (u *updateResult) Err() error {
	if !u.done {
		return errors.New("update neither rejected nor completed")
	}
	return u.err
}

var updateSeq int

// mustUpdate sends an update that must complete without error.
func mustUpdate(t *testing.T, env *testsuite.TestWorkflowEnvironment, name string, args ...any) {
	t.Helper()
	u := update(env, name, args...)
	t.Cleanup(func() {
		if err := u.Err(); err != nil {
			t.Errorf("update %s: %v", name, err)
		}
	})
}

// update sends an update; its outcome is known once the workflow has run.
func update(env *testsuite.TestWorkflowEnvironment, name string, args ...any) *updateResult {
	u := &updateResult{}
	updateSeq++
	env.UpdateWorkflow(name, fmt.Sprintf("%s-%d", name, updateSeq), &testsuite.TestUpdateCallback{
		OnAccept:   func() {},
		OnReject:   func(err error) { u.err, u.done = err, true },
		OnComplete: func(_ any, err error) { u.err, u.done = err, true },
	}, args...)
	return u
}

func todoStatuses(r GoalResult) []string {
	var s []string
	for _, t := range r.Todos {
		s = append(s, t.Status)
	}
	return s
}

func TestGoalPlanTodosReplanDone(t *testing.T) {
	f := &fakeWorld{
		plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"open settings", "turn on wifi"}, TaskType: "settings"}},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{"turn on wifi"}},
			{Status: activities.PlanDone, Response: "Wi-Fi is on"},
		},
		scripts: map[string][]autoglm.Action{
			"open settings": {launch("Settings"), finish("settings open")},
			"turn on wifi":  {tap(500, 212), finish("wifi on")},
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "turn on wifi", Device: "emu-1", Options: GoalOptions{OptimizePrompt: true}})

	if r.Status != GoalDone || r.Response != "Wi-Fi is on" {
		t.Fatalf("result = %+v", r)
	}
	if got := todoStatuses(r); !slices.Equal(got, []string{TodoDone, TodoDone}) {
		t.Fatalf("todo statuses = %v", got)
	}
	if r.Todos[0].Result != "settings open" || r.Todos[1].Result != "wifi on" {
		t.Fatalf("todo results = %+v", r.Todos)
	}
	// todo 1: 2 thinks + 1 act; todo 2: 2 thinks + 1 act; 2 replans. PlanOnce is free.
	if r.Steps != 8 {
		t.Fatalf("steps = %d, want 8", r.Steps)
	}
	// Usage: one plan and two replans, two thinks per todo.
	times := func(u llm.Usage, n int) (s llm.Usage) {
		for range n {
			s = s.Add(u)
		}
		return s
	}
	if want := (llm.RoleUsage{Planner: times(fakePlanUsage, 3), Executor: times(fakeThinkUsage, 4)}); r.Usage != want {
		t.Fatalf("usage = %+v, want %+v", r.Usage, want)
	}
	for _, td := range r.Todos {
		if want := (llm.RoleUsage{Executor: times(fakeThinkUsage, 2)}); td.Usage != want {
			t.Fatalf("todo %d usage = %+v, want %+v", td.Index, td.Usage, want)
		}
	}
	if got := f.acts(); !slices.Equal(got, []string{`Launch "Settings"`, "Tap [500,212]"}) {
		t.Fatalf("acts = %v", got)
	}
	ids := map[string]bool{}
	for _, s := range f.steps {
		ids[s.WorkflowID] = true
	}
	if !ids[testGoalID+"/todo-1"] || !ids[testGoalID+"/todo-2"] || len(ids) != 2 {
		t.Fatalf("child ids = %v", ids)
	}
	if len(f.replanInputs) != 2 || len(f.replanInputs[0].Done) != 1 || f.replanInputs[0].Remaining[0] != "turn on wifi" {
		t.Fatalf("replan inputs = %+v", f.replanInputs)
	}
	if len(f.optimized) != 2 || !f.optimized[0].Success || f.optimized[0].TaskType != "settings" {
		t.Fatalf("optimize calls = %+v", f.optimized)
	}
	if f.steps[0].In.Serial != "emu-1" || !f.steps[0].In.UITree || f.steps[0].In.TaskType != "settings" {
		t.Fatalf("first step input = %+v", f.steps[0].In)
	}
}

func TestGoalAskUserClarify(t *testing.T) {
	f := &fakeWorld{
		plans: []activities.PlanDecision{
			{Status: activities.PlanAskUser, Question: "Which contact?"},
			{Status: activities.PlanPlanned, Plan: []string{"message Zhang San"}},
		},
		replans: []activities.PlanDecision{
			{Status: activities.PlanAskUser, Question: "Send it now?"},
			{Status: activities.PlanDone, Response: "sent"},
		},
	}
	env := newEnv(t, f)
	var rejected, firstStatus Status
	var rejectErr *updateResult
	env.RegisterDelayedCallback(func() {
		firstStatus = status(t, env)
		rejectErr = update(env, SignalClarify, "")
		mustUpdate(t, env, SignalClarify, "Zhang San")
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		rejected = status(t, env)
		env.SignalWorkflow(SignalClarify, "yes") // the signal form works too
	}, 2*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "tell the contact", Device: "emu-1"})

	if firstStatus.Phase != GoalWaitingUser || firstStatus.PendingQuestion != "Which contact?" || firstStatus.QuestionKind != QuestionClarify {
		t.Fatalf("status while waiting = %+v", firstStatus)
	}
	if rejectErr.Err() == nil || !strings.Contains(rejectErr.Err().Error(), "empty") {
		t.Fatalf("empty clarify: %v", rejectErr)
	}
	if rejected.PendingQuestion != "Send it now?" {
		t.Fatalf("replan question not pending: %+v", rejected)
	}
	if r.Status != GoalDone || r.Response != "sent" {
		t.Fatalf("result = %+v", r)
	}
	if len(f.planInputs) != 2 || len(f.planInputs[1].Answers) != 1 || f.planInputs[1].Answers[0].Answer != "Zhang San" {
		t.Fatalf("plan inputs = %+v", f.planInputs)
	}
	last := f.replanInputs[len(f.replanInputs)-1]
	if len(last.Answers) != 2 || last.Answers[1] != (activities.QA{Question: "Send it now?", Answer: "yes"}) {
		t.Fatalf("replan answers = %+v", last.Answers)
	}
	// 1 think (finish) + 2 replans; waiting for the user is free.
	if r.Steps != 3 {
		t.Fatalf("steps = %d, want 3", r.Steps)
	}
}

func TestGoalRejectsClarifyWithoutQuestion(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay 20 yuan"), finish("paid")}},
	}
	env := newEnv(t, f)
	var clarifyErr, resumeErr, approveErr *updateResult
	env.RegisterDelayedCallback(func() {
		clarifyErr = update(env, SignalClarify, "hello")
		resumeErr = update(env, SignalResume)
		approveErr = update(env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})
	if clarifyErr.Err() == nil || clarifyErr.Err().Error() != "clarify: no question is pending" {
		t.Fatalf("clarify: %v", clarifyErr)
	}
	if resumeErr.Err() == nil || resumeErr.Err().Error() != "resume: goal is not paused" {
		t.Fatalf("resume: %v", resumeErr)
	}
	if approveErr.Err() != nil {
		t.Fatalf("approve: %v", approveErr)
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
}

func TestGoalApproveAndReject(t *testing.T) {
	for _, approved := range []bool{true, false} {
		t.Run(map[bool]string{true: "approve", false: "reject"}[approved], func(t *testing.T) {
			f := &fakeWorld{
				scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay 20 yuan"), finish("done")}},
			}
			env := newEnv(t, f)
			var waiting Status
			var actsBefore []string
			env.RegisterDelayedCallback(func() {
				waiting = status(t, env)
				actsBefore = f.acts()
				mustUpdate(t, env, SignalApprove, ApproveInput{Approved: approved, Note: "not now"})
			}, time.Hour)
			r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})

			if waiting.Phase != GoalWaitingUser || waiting.PendingApproval == nil ||
				waiting.PendingApproval.Reason != "pay 20 yuan" || !strings.Contains(waiting.PendingApproval.Action, "Tap") {
				t.Fatalf("status while waiting = %+v", waiting)
			}
			if len(actsBefore) != 0 {
				t.Fatalf("acted before approval: %v", actsBefore)
			}
			acts := f.acts()
			if approved && len(acts) != 1 {
				t.Fatalf("approved tap not sent: %v", acts)
			}
			if !approved {
				if len(acts) != 0 {
					t.Fatalf("rejected tap was sent: %v", acts)
				}
				last := f.steps[len(f.steps)-1].In
				if last.PreviousResult != "rejected by the user: not now" {
					t.Fatalf("rejection not fed back: %+v", last)
				}
			}
			if r.Status != GoalDone {
				t.Fatalf("result = %+v", r)
			}
		})
	}
}

func TestGoalAutoApprove(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay"), finish("done")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}, AutoApprove: true}})
	if r.Status != GoalDone || len(f.acts()) != 1 {
		t.Fatalf("result = %+v acts = %v", r, f.acts())
	}
}

func TestGoalPauseResume(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay"), tap(100, 100), finish("done")}},
	}
	env := newEnv(t, f)
	var paused Status
	var pauseAgain *updateResult
	env.RegisterDelayedCallback(func() {
		mustUpdate(t, env, SignalPause)
		pauseAgain = update(env, SignalPause)
		mustUpdate(t, env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	env.RegisterDelayedCallback(func() {
		paused = status(t, env)
		f.logf("resume")
		mustUpdate(t, env, SignalResume)
	}, time.Hour)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})

	if pauseAgain.Err() == nil || pauseAgain.Err().Error() != "pause: goal is already paused" {
		t.Fatalf("second pause: %v", pauseAgain)
	}
	if !paused.Paused || paused.Phase != GoalPaused {
		t.Fatalf("status while paused = %+v", paused)
	}
	// The approved tap waited for resume: pause takes effect before the next device action.
	if got := f.log; len(got) < 2 || got[0] != "resume" || !strings.HasPrefix(got[1], "act Tap [500,900]") {
		t.Fatalf("log = %v", got)
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
}

func TestGoalInjectAndUserInput(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(500, 900, "pay"), finish("done")}},
		replans: []activities.PlanDecision{{Status: activities.PlanDone, Response: "ok"}},
	}
	env := newEnv(t, f)
	var tooLong *updateResult
	env.RegisterDelayedCallback(func() {
		tooLong = update(env, SignalInject, strings.Repeat("x", MaxSignalText+1))
		mustUpdate(t, env, SignalInject, "use the blue button")
		env.SignalWorkflow(SignalUserInput, "also check the balance")
		mustUpdate(t, env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "pay", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay"}}})

	if tooLong.Err() == nil || !strings.Contains(tooLong.Err().Error(), "over the 4096-byte limit") {
		t.Fatalf("oversized inject: %v", tooLong)
	}
	last := f.steps[len(f.steps)-1].In
	if !slices.Contains(last.Notes, "use the blue button") {
		t.Fatalf("inject not in the executor's notes: %+v", last.Notes)
	}
	if len(f.replanInputs) != 1 || !slices.Equal(f.replanInputs[0].UserMessages, []string{"also check the balance"}) {
		t.Fatalf("user input not queued for the replan: %+v", f.replanInputs)
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
}

// A goal that ends failed closes as Failed (the Web UI shows it red, a
// schedule with pause-on-failure pauses) with its whole result as the
// failure's details, which FailedResult and GoalOutcome read back.
func TestFailedGoalClosesFailed(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"scroll": {tap(10, 500), tap(20, 500), tap(30, 500)}}}
	env := newEnv(t, f)
	env.ExecuteWorkflow(GoalWorkflow, GoalInput{Goal: "scroll", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"scroll"}, MaxSteps: 2}})
	err := env.GetWorkflowError()
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeGoalFailed || !ae.NonRetryable() ||
		!strings.Contains(ae.Error(), "goal failed: step limit reached: 2 of 2") || !strings.Contains(ae.Error(), "next: ") {
		t.Fatalf("close error = %v, want a non-retryable %s naming the reason and the next step", err, ErrTypeGoalFailed)
	}
	var r GoalResult
	if !FailedResult(err, &r) || r.Status != GoalFailed || r.Steps != 2 || len(r.Todos) != 1 || r.NextStep == "" {
		t.Fatalf("failed result = %+v", r)
	}
	if out, oerr := GoalOutcome(GoalResult{}, err); oerr != nil || out.Reason != r.Reason {
		t.Fatalf("GoalOutcome = %+v, %v", out, oerr)
	}
	if _, oerr := GoalOutcome(GoalResult{}, errors.New("terminated")); oerr == nil {
		t.Fatal("GoalOutcome of an error without a result must return it")
	}
}

func TestGoalStepLimitAtLoopHead(t *testing.T) {
	var forever []autoglm.Action
	for i := range 50 {
		forever = append(forever, tap(10*i, 500))
	}
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"scroll": forever}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "scroll", Device: "emu-1",
		Options: GoalOptions{Plan: []string{"scroll", "then stop"}, MaxSteps: 5}})

	if r.Status != GoalFailed || r.Steps != 5 || !strings.HasPrefix(r.Reason, "step limit reached: 5 of 5") {
		t.Fatalf("result = %+v", r)
	}
	// think, act, think, act, think: the act after the last think is not taken.
	if len(f.acts()) != 2 || len(f.steps) != 3 {
		t.Fatalf("acts = %v steps = %d", f.acts(), len(f.steps))
	}
	if !strings.Contains(r.NextStep, "then stop") {
		t.Fatalf("next step = %q", r.NextStep)
	}
	if len(f.replanInputs) != 0 {
		t.Fatal("replanned with no budget left")
	}
}

func TestGoalStepLimitActWithoutThink(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"tap": {tap(1, 1), tap(2, 2), tap(3, 3)}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "tap", Device: "emu-1", Options: GoalOptions{Plan: []string{"tap"}, MaxSteps: 4}})
	// think, act+think, act (no think: the budget is used up by the act).
	if r.Steps != 4 || len(f.acts()) != 2 || f.steps[2].In.Think {
		t.Fatalf("steps = %d acts = %v last = %+v", r.Steps, f.acts(), f.steps[len(f.steps)-1].In)
	}
}

func TestGoalParseFailuresCounted(t *testing.T) {
	f := &fakeWorld{replans: []activities.PlanDecision{{Status: activities.PlanReplanned, Plan: []string{"b"}}}, scripts: map[string][]autoglm.Action{
		"a": {badReply(), badReply(), finish("got it")},
		"b": {badReply(), badReply(), badReply(), finish("never")},
	}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"a", "b"}}})
	if r.Todos[0].Status != TodoDone || r.Todos[0].Steps != 3 {
		t.Fatalf("todo a = %+v", r.Todos[0])
	}
	if !strings.Contains(f.steps[1].In.PreviousResult, "could not be parsed: no action found") {
		t.Fatalf("parse error not fed back: %+v", f.steps[1].In)
	}
	if r.Todos[1].Status != TodoFailed || r.Todos[1].Steps != 3 || !strings.Contains(r.Todos[1].Result, "3 consecutive failures") {
		t.Fatalf("todo b = %+v", r.Todos[1])
	}
	// 3 + 3 thinks + 2 replans
	if r.Steps != 8 {
		t.Fatalf("steps = %d", r.Steps)
	}
}

func TestGoalStuckCorrectionRestartFail(t *testing.T) {
	var same []autoglm.Action
	for range 40 {
		same = append(same, tap(500, 500))
	}
	f := &fakeWorld{stuck: true, scripts: map[string][]autoglm.Action{"tap it": same}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"tap it"}}})

	ids := []string{}
	corrections := 0
	for _, s := range f.steps {
		if len(ids) == 0 || ids[len(ids)-1] != s.WorkflowID {
			ids = append(ids, s.WorkflowID)
		}
		if slices.Contains(s.In.Notes, correctionPrefix+fakeCorrection) {
			corrections++
		}
	}
	if !slices.Equal(ids, []string{testGoalID + "/todo-1", testGoalID + "/todo-1-r1"}) {
		t.Fatalf("todo runs = %v", ids)
	}
	if corrections != 4 { // two per run
		t.Fatalf("corrections = %d, want 4", corrections)
	}
	td := r.Todos[0]
	if td.Status != TodoFailed || td.Attempts != 2 || !strings.Contains(td.Result, "stuck") {
		t.Fatalf("todo = %+v", td)
	}
	if len(f.replanInputs) != 1 || f.replanInputs[0].Done[0].Status != TodoFailed {
		t.Fatalf("replan did not decide after the stuck todo: %+v", f.replanInputs)
	}
	// The restart began with a fresh executor context.
	for _, s := range f.steps {
		if s.WorkflowID == testGoalID+"/todo-1-r1" {
			if s.In.HistoryRef != "" {
				t.Fatalf("restart kept history: %+v", s.In.HistoryRef)
			}
			break
		}
	}
}

// An Interact asks the person to choose: a question answered in words,
// never one the step viewer's Continue may answer for them.
func TestGoalInteractAsksInWords(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"pick": {{Name: autoglm.ActionInteract, Message: "Which of the two Alices?"}, finish("picked")}}}
	env := newEnv(t, f)
	var waiting Status
	env.RegisterDelayedCallback(func() {
		waiting = status(t, env)
		mustUpdate(t, env, SignalClarify, "the one from work")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"pick"}}})
	if waiting.PendingQuestion != "Which of the two Alices?" || waiting.QuestionKind != QuestionClarify {
		t.Fatalf("status = %+v", waiting)
	}
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
}

func TestGoalTakeOverAsksThroughParent(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"login": {takeOver("please log in"), finish("logged in")}}}
	env := newEnv(t, f)
	var waiting Status
	env.RegisterDelayedCallback(func() {
		waiting = status(t, env)
		mustUpdate(t, env, SignalClarify, "done, logged in")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"login"}}})
	if waiting.PendingQuestion != "please log in" || waiting.Phase != GoalWaitingUser || waiting.QuestionKind != QuestionTakeOver {
		t.Fatalf("status = %+v", waiting)
	}
	last := f.steps[len(f.steps)-1].In
	if last.PreviousResult != "user answered: done, logged in" {
		t.Fatalf("answer not fed back: %+v", last)
	}
	if r.Status != GoalDone || r.Steps != 3 {
		t.Fatalf("result = %+v", r)
	}
}

func TestGoalCancel(t *testing.T) {
	for _, mode := range []string{ModeLayered, ModeSingle} {
		t.Run(mode, func(t *testing.T) {
			f := &fakeWorld{scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(1, 1, "pay")}}}
			env := newEnv(t, f)
			env.RegisterDelayedCallback(func() { env.CancelWorkflow() }, time.Minute)
			opts := GoalOptions{Plan: []string{"pay", "after"}}
			want := []string{TodoCancelled, TodoCancelled}
			if mode == ModeSingle {
				opts = GoalOptions{Mode: ModeSingle}
				want = []string{TodoCancelled}
			}
			env.ExecuteWorkflow(GoalWorkflow, GoalInput{Goal: "pay", Device: "emu-1", Options: opts})
			// The goal closes as Canceled, its partial result in the
			// cancellation's details.
			err := env.GetWorkflowError()
			var r GoalResult
			if !temporal.IsCanceledError(err) || !CanceledResult(err, &r) {
				t.Fatalf("goal ended with %v, want a cancellation carrying the result", err)
			}
			if r.Status != GoalCancelled || !slices.Equal(todoStatuses(r), want) {
				t.Fatalf("result = %+v", r)
			}
			// The think before the approval wait is kept in the count.
			if r.Steps != 1 || r.Todos[0].Steps != 1 {
				t.Fatalf("steps = %d, todo steps = %d", r.Steps, r.Todos[0].Steps)
			}
			if len(f.acts()) != 0 {
				t.Fatalf("acted after cancel: %v", f.acts())
			}
		})
	}
}

func TestGoalEmptyPlanAndInvalidReplan(t *testing.T) {
	f := &fakeWorld{
		plans: []activities.PlanDecision{
			{Status: activities.PlanPlanned},
			{Status: activities.PlanPlanned, Plan: []string{"a"}},
		},
		replans: []activities.PlanDecision{
			{Invalid: "not JSON"},
			{Status: activities.PlanReplanned},
			{Status: activities.PlanDone, Response: "ok"},
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1"})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if f.planInputs[1].Invalid == "" || !strings.Contains(f.planInputs[1].Invalid, "empty") {
		t.Fatalf("empty plan not fed back: %+v", f.planInputs)
	}
	if f.replanInputs[1].Invalid != "not JSON" || !strings.Contains(f.replanInputs[2].Invalid, "non-empty plan") {
		t.Fatalf("invalid replans not fed back: %+v", f.replanInputs)
	}
	// 1 think + 3 replan attempts (failures count)
	if r.Steps != 4 {
		t.Fatalf("steps = %d", r.Steps)
	}
}

func TestGoalPlannerFailuresAskUser(t *testing.T) {
	f := &fakeWorld{
		plans: []activities.PlanDecision{
			{Invalid: "bad"}, {Invalid: "bad"}, {Invalid: "bad"},
			{Status: activities.PlanPlanned, Plan: []string{"a"}},
		},
	}
	env := newEnv(t, f)
	var s Status
	env.RegisterDelayedCallback(func() {
		s = status(t, env)
		mustUpdate(t, env, SignalClarify, "just open the app")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1"})
	if !strings.HasPrefix(s.PendingQuestion, "The planner failed 3 times") {
		t.Fatalf("status = %+v", s)
	}
	if r.Status != GoalDone || f.planInputs[3].Answers[0].Answer != "just open the app" {
		t.Fatalf("result = %+v inputs = %+v", r, f.planInputs)
	}
}

func TestGoalSingleMode(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"read the battery level": {launch("Settings"), finish("87%")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "read the battery level", Device: "emu-1", Options: GoalOptions{Mode: ModeSingle}})
	if r.Status != GoalDone || r.Response != "87%" || len(f.planInputs)+len(f.replanInputs) != 0 {
		t.Fatalf("result = %+v", r)
	}
}

func TestGoalContinueAsNewCarriesSignals(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{"pay": {sensitiveTap(1, 1, "pay"), finish("paid")}},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{"a"}},
			{Status: activities.PlanDone, Response: "ok"},
		},
	}
	env := newEnv(t, f)
	env.RegisterDelayedCallback(func() {
		mustUpdate(t, env, SignalApprove, ApproveInput{Approved: true})
	}, time.Minute)
	f.onReplan = func() {
		// These arrive with the replan's completion: the goal continues as
		// new in that same workflow task and must carry them.
		f.onReplan = nil
		env.SetCurrentHistoryLength(100)
		env.SignalWorkflow(SignalUserInput, "also mute")
		env.SignalWorkflow(SignalInject, "be quick")
		env.SignalWorkflow(SignalPause, nil)
	}
	in := GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"pay", "a"}, HistoryEventLimit: 50}}
	env.ExecuteWorkflow(GoalWorkflow, in)
	var can *workflow.ContinueAsNewError
	if err := env.GetWorkflowError(); !errors.As(err, &can) {
		t.Fatalf("want continue-as-new, got %v", err)
	}
	var next GoalInput
	if err := converter.GetDefaultDataConverter().FromPayloads(can.Input, &next); err != nil {
		t.Fatal(err)
	}
	st := next.State
	if st == nil || st.Runs != 1 || st.Todos[0].Status != TodoDone || st.Todos[1].Status != TodoPending {
		t.Fatalf("carried state = %+v", st)
	}
	if !slices.Equal(st.UserMessages, []string{"also mute"}) || !slices.Equal(st.Notes, []string{"be quick"}) || !st.Paused {
		t.Fatalf("signals not carried: %+v", st)
	}
	if st.Steps != 4 || st.NeedReplan { // think, act, think, replan
		t.Fatalf("steps = %d", st.Steps)
	}

	// The next run resumes where the first stopped: after resume it runs
	// todo 2 with the injected note and replans with the user message.
	f2 := &fakeWorld{replans: f.replans}
	env2 := newEnv(t, f2)
	env2.RegisterDelayedCallback(func() {
		mustUpdate(t, env2, SignalResume)
	}, time.Minute)
	next.Options.HistoryEventLimit = 0
	r := runGoal(t, env2, next)
	if r.Status != GoalDone || len(r.Todos) != 2 || r.Todos[1].Status != TodoDone {
		t.Fatalf("result = %+v", r)
	}
	if !slices.Contains(f2.steps[0].In.Notes, "be quick") {
		t.Fatalf("carried inject lost: %+v", f2.steps[0].In)
	}
	if len(f2.replanInputs) == 0 || !slices.Equal(f2.replanInputs[0].UserMessages, []string{"also mute"}) {
		t.Fatalf("carried user input lost: %+v", f2.replanInputs)
	}
}

func TestGoalDangerPrompts(t *testing.T) {
	var acts []autoglm.Action
	for i := range 12 {
		acts = append(acts, tap(i*10, 100))
	}
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"long": acts}}
	env := newEnv(t, f)
	runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"long"}}})
	for i, s := range f.steps {
		has := slices.Contains(s.In.Notes, dangerWarnNote)
		if has != (i == dangerTurnWarn) {
			t.Fatalf("step %d danger note = %v", i, has)
		}
	}
}

func TestGoalDoneWithNothingDoneIsFailed(t *testing.T) {
	f := &fakeWorld{
		replans: []activities.PlanDecision{{Status: activities.PlanDone, Response: "Not done: b failed."}},
		scripts: map[string][]autoglm.Action{"b": {badReply(), badReply(), badReply()}},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"b"}}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "no todo succeeded") || r.Response != "Not done: b failed." || r.NextStep == "" {
		t.Fatalf("result = %+v, want failed with the planner's response kept", r)
	}
}

func TestParseFailureKeepsTheLastAppliedAction(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"send": {tap(900, 950), badReply(), badReply(), finish("sent")}}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "send", Device: "emu-1", Options: GoalOptions{Plan: []string{"send"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	for _, i := range []int{2, 3} {
		in := f.steps[i].In
		if !strings.Contains(in.PreviousAction, "Tap") || !strings.HasPrefix(in.PreviousResult, "ok. Then your last reply could not be parsed: ") ||
			strings.Count(in.PreviousResult, "could not be parsed") != 1 {
			t.Fatalf("step %d told the executor %q / %q, want the applied tap kept with one parse note", i, in.PreviousAction, in.PreviousResult)
		}
	}
}

// A goal started without the starter (the Temporal CLI) checks its own
// text: one over its limit ends failed before any planner call, naming the
// limit and the fix.
func TestGoalTextOverLimitFailsBeforePlanning(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  GoalOptions
		size  int
		limit int
	}{
		{"default limit", GoalOptions{}, DefaultMaxGoalText + 1, DefaultMaxGoalText},
		{"own limit", GoalOptions{MaxGoalText: 50}, 51, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeWorld{}
			env := newEnv(t, f)
			goal := strings.Repeat("x", tc.size)
			r := runGoal(t, env, GoalInput{Goal: goal, Device: "emu-1", Options: tc.opts})
			want := fmt.Sprintf("the goal is %d bytes, over the limit of %d", tc.size, tc.limit)
			if r.Status != GoalFailed || !strings.Contains(r.Reason, want) || !strings.Contains(r.Reason, "max_goal_text") ||
				!strings.Contains(r.NextStep, fmt.Sprintf("max_goal_text=%d", tc.size)) {
				t.Fatalf("result = %+v, want failed with %q and the fix", r, want)
			}
			if len(f.planInputs) != 0 || len(f.steps) != 0 {
				t.Fatalf("the planner or the phone was called: plans=%d steps=%d", len(f.planInputs), len(f.steps))
			}
		})
	}
	// At the limit the goal plans as usual.
	f := &fakeWorld{}
	env := newEnv(t, f)
	if r := runGoal(t, env, GoalInput{Goal: strings.Repeat("x", 50), Device: "emu-1", Options: GoalOptions{MaxGoalText: 50, Plan: []string{"a"}}}); strings.Contains(r.Reason, "over the limit") || len(f.steps) == 0 {
		t.Fatalf("a goal at its limit was refused: %+v", r)
	}
}

// The Web UI lists a workflow's queries sorted by name, those starting with
// "__" last, and preselects the first: for a goal holding its phone that
// must be the person's status query, not the lease's claim query.
func TestWebUIPreselectsStatus(t *testing.T) {
	f := &fakeWorld{}
	env := newEnv(t, f)
	// A stand-in for LeaseDevice that answers the claim query as it does.
	DeviceLease = func(ctx workflow.Context, serial, goalID string, _ bool, _ func(string)) (func(workflow.Context), error) {
		err := workflow.SetQueryHandler(ctx, QueryLeaseClaim, func() (activities.LeaseClaim, error) {
			return activities.LeaseClaim{Serial: serial, GoalID: goalID, Held: true}, nil
		})
		return func(workflow.Context) {}, err
	}
	runGoal(t, env, GoalInput{Goal: "g", Device: "emu-1", Options: GoalOptions{Plan: []string{"a"}}})
	v, err := env.QueryWorkflow("__temporal_workflow_metadata")
	if err != nil {
		t.Fatal(err)
	}
	var md sdkpb.WorkflowMetadata
	if err := v.Get(&md); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, q := range md.GetDefinition().GetQueryDefinitions() {
		names = append(names, q.GetName())
	}
	if !slices.Contains(names, QueryLeaseClaim) {
		t.Fatalf("queries %v lack the claim query %q", names, QueryLeaseClaim)
	}
	slices.SortFunc(names, func(a, b string) int {
		if da, db := strings.HasPrefix(a, "__"), strings.HasPrefix(b, "__"); da != db {
			return map[bool]int{true: 1, false: -1}[da]
		}
		return strings.Compare(a, b)
	})
	if names[0] != QueryStatus {
		t.Fatalf("the Web UI would preselect %q of %v, want %q", names[0], names, QueryStatus)
	}
}

// The note to finish or ask counts the goal's turns, earlier todos'
// included, so it comes even though no todo reaches 30 turns of its own.
func TestGoalTurnThirtyNoteCountsTheGoalsTurns(t *testing.T) {
	script := func() []autoglm.Action {
		var acts []autoglm.Action
		for i := range 12 {
			acts = append(acts, tap(i*10, 100))
		}
		return append(acts, finish("done"))
	}
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"a": script(), "b": script(), "c": script()}}
	env := newEnv(t, f)
	runGoal(t, env, GoalInput{Goal: "x", Device: "emu-1", Options: GoalOptions{Plan: []string{"a", "b", "c"}, MaxSteps: 200}})
	turns, forced := 0, []int{}
	for _, s := range f.steps {
		if !s.In.Think {
			continue
		}
		turns++
		if slices.Contains(s.In.Notes, dangerForceNote) {
			forced = append(forced, turns)
			if !strings.HasSuffix(s.WorkflowID, "/todo-3") {
				t.Errorf("the note came in %s", s.WorkflowID)
			}
		}
	}
	if !slices.Equal(forced, []int{dangerTurnForce + 1}) {
		t.Fatalf("the note came with the goal's thinks %v (of %d), want once, with the think after turn %d", forced, turns, dangerTurnForce)
	}
}
