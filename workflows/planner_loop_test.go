package workflows

import (
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

func interact(msg string) autoglm.Action {
	return autoglm.Action{Name: autoglm.ActionInteract, Message: msg}
}

// The planner answers an executor's question from the goal: the person is
// never asked, the executor's next think carries the answer, and the
// planner saw the goal, the question and the earlier todos.
func TestPlannerAnswersTheExecutorsQuestion(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"open Messages": {finish("opened")},
		"message Bob":   {interact("What should the message say?"), finish("sent")},
	}}
	f.askPlannerFn = func(in activities.AskPlannerInput) activities.AskPlannerResult {
		return activities.AskPlannerResult{Choice: "answer", Answer: "on my way", Reason: "the goal quotes it"}
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: `tell Bob "on my way"`, Device: "emu-1",
		Options: GoalOptions{Plan: []string{"open Messages", "message Bob"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if len(f.asked) != 1 {
		t.Fatalf("planner asked %d times", len(f.asked))
	}
	in := f.asked[0]
	if in.Goal != `tell Bob "on my way"` || in.Task != "message Bob" || in.Question != "What should the message say?" || in.Kind != autoglm.ActionInteract {
		t.Fatalf("planner input = %+v", in)
	}
	if len(in.Earlier) != 1 || !strings.Contains(in.Earlier[0], "todo 1 done: open Messages → opened") {
		t.Fatalf("earlier = %q", in.Earlier)
	}
	if k := f.kinds(); len(k) != 0 {
		t.Fatalf("the person was told %v", k)
	}
	last := f.steps[len(f.steps)-1].In
	if !strings.Contains(last.PreviousResult, "the planner answered: on my way") || !containsNote(last.Notes, plannerNotePrefix+"on my way") {
		t.Fatalf("answer not fed to the executor: %q %q", last.PreviousResult, last.Notes)
	}
	// The answer is the planner's, not the person's: it is not kept as
	// one of the person's answers.
	for _, ri := range f.replanInputs {
		if len(ri.Answers) != 0 {
			t.Fatalf("replan answers = %+v", ri.Answers)
		}
	}
	// The finish is verified with the answer, and the replanner reads it
	// beside the todo (ChangeAnsweredQuestions).
	want := []activities.QA{{Question: "What should the message say?", Answer: "on my way"}}
	if len(f.verifies) != 2 || len(f.verifies[0].Answered) != 0 || !sameQA(f.verifies[1].Answered, want) {
		t.Fatalf("verify inputs = %+v, want the second with the answered question", f.verifies)
	}
	ri := f.replanInputs[len(f.replanInputs)-1]
	if len(ri.Done) != 2 || ri.Done[1].Todo != "message Bob" || !sameQA(ri.Done[1].Answered, want) {
		t.Fatalf("replan done = %+v, want message Bob with the answered question", ri.Done)
	}
	if r.Todos[1].Answered == nil || !sameQA(r.Todos[1].Answered, want) {
		t.Fatalf("todo 2 = %+v", r.Todos[1])
	}
}

func sameQA(a, b []activities.QA) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The planner stops the todo for a replan: the todo ends failed with the
// planner's reason, and the replanner reads it.
func TestPlannerReplansOnTheExecutorsQuestion(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{
			"open Mail":     {interact("There is no Mail app. Which app should I use?"), finish("never")},
			"open Messages": {finish("opened")},
		},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{"open Messages"}},
			{Status: activities.PlanDone, Response: "texted", Dropped: []activities.Dropped{{Todo: "open Mail", Reason: "the goal wants a text"}}},
		},
	}
	f.askPlannerFn = func(in activities.AskPlannerInput) activities.AskPlannerResult {
		return activities.AskPlannerResult{Choice: "replan", Reason: "the goal wants a text message, not mail"}
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "text Bob", Device: "emu-1", Options: GoalOptions{Plan: []string{"open Mail"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if len(f.replanInputs) != 2 {
		t.Fatalf("replans = %d", len(f.replanInputs))
	}
	fb := strings.Join(f.replanInputs[0].Feedback, "\n")
	if !strings.Contains(fb, "todo 1 failed") || !strings.Contains(fb, plannerReplanPrefix+"the goal wants a text message, not mail") {
		t.Fatalf("feedback = %q", fb)
	}
	if k := f.kinds(); len(k) != 0 {
		t.Fatalf("the person was told %v", k)
	}
	for _, s := range f.steps {
		if s.In.Act != nil && s.In.Act.Name == autoglm.ActionFinish {
			t.Fatal("the stopped todo went on")
		}
	}
}

// The planner leaves the question to the person: the person's answer is
// what the executor gets, and it reaches the replanner as the person's.
func TestPlannerAsksThePerson(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{"message Bob": {interact("What should the message say?"), finish("sent")}},
	}
	env := newEnv(t, f)
	var waiting Status
	env.RegisterDelayedCallback(func() {
		waiting = status(t, env)
		mustUpdate(t, env, SignalClarify, "see you at 8")
	}, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "message Bob", Device: "emu-1", Options: GoalOptions{Plan: []string{"message Bob"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if len(f.asked) != 1 || waiting.PendingQuestion != "What should the message say?" {
		t.Fatalf("planner asked %d times; status %+v", len(f.asked), waiting)
	}
	last := f.steps[len(f.steps)-1].In
	if !strings.Contains(last.PreviousResult, "user answered: see you at 8") {
		t.Fatalf("person's answer not fed back: %q", last.PreviousResult)
	}
	ri := f.replanInputs[len(f.replanInputs)-1]
	if len(ri.Answers) != 1 || ri.Answers[0].Answer != "see you at 8" {
		t.Fatalf("replan answers = %+v", ri.Answers)
	}
	// The person's answer is what the finish is verified with.
	if v := f.verifies[len(f.verifies)-1]; !sameQA(v.Answered, []activities.QA{{Question: "What should the message say?", Answer: "see you at 8"}}) {
		t.Fatalf("verify input answered = %+v", v.Answered)
	}
	if r.Usage.Planner.Calls < 2 {
		t.Fatalf("planner usage = %+v: the question's call is not counted", r.Usage.Planner)
	}
}

// The single-loop mode has no planner: the person is asked at once.
func TestSingleLoopAsksThePersonAtOnce(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"message Bob": {interact("What should it say?"), finish("sent")}}}
	env := newEnv(t, f)
	env.RegisterDelayedCallback(func() { mustUpdate(t, env, SignalClarify, "hi") }, time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "message Bob", Device: "emu-1", Options: GoalOptions{Mode: ModeSingle}})
	if r.Status != GoalDone || len(f.asked) != 0 {
		t.Fatalf("result = %+v, planner asked %d times", r, len(f.asked))
	}
}

func containsNote(notes []string, want string) bool {
	for _, n := range notes {
		if n == want {
			return true
		}
	}
	return false
}

// taps returns n taps at distinct points.
func taps(n int) []autoglm.Action {
	var out []autoglm.Action
	for i := range n {
		out = append(out, tap(100+10*i, 200))
	}
	return out
}

// Every ReviewEvery turns the planner looks in; "continue" changes
// nothing, and its calls count in the planner's usage.
func TestPlannerReviewContinues(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"long todo": append(taps(9), finish("done"))}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "long", Device: "emu-1", Options: GoalOptions{Plan: []string{"long todo"}, ReviewEvery: 4}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if len(f.reviews) != 2 {
		t.Fatalf("reviews = %d, want 2 (turns 4 and 8)", len(f.reviews))
	}
	rv := f.reviews[0]
	if rv.Goal != "long" || rv.Task != "long todo" || len(rv.Recent) == 0 || rv.Next == "" {
		t.Fatalf("review input = %+v", rv)
	}
	// 10 thinks + 9 taps + the replan: the reviews take no step.
	if r.Steps != 20 {
		t.Fatalf("steps = %d", r.Steps)
	}
	if r.Usage.Planner.Calls < 3 {
		t.Fatalf("planner usage = %+v: the reviews are not counted", r.Usage.Planner)
	}
}

// A hint goes with the executor's next think only.
func TestPlannerReviewHints(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"long todo": append(taps(5), finish("done"))}}
	f.reviewFn = func(in activities.ReviewInput) activities.ReviewResult {
		return activities.ReviewResult{Decision: "hint", Hint: "open the conversation first", Reason: "it taps the list"}
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "long", Device: "emu-1", Options: GoalOptions{Plan: []string{"long todo"}, ReviewEvery: 3}})
	if r.Status != GoalDone || len(f.reviews) != 1 {
		t.Fatalf("result = %+v, reviews %d", r, len(f.reviews))
	}
	hint := plannerNotePrefix + "open the conversation first"
	var with []int
	for i, s := range f.steps {
		if containsNote(s.In.Notes, hint) {
			with = append(with, i)
		}
	}
	if len(with) != 1 {
		t.Fatalf("the hint went with %d thinks, want 1", len(with))
	}
}

// "replan" stops the todo before its next action; the replanner reads the
// planner's reason.
func TestPlannerReviewStopsForAReplan(t *testing.T) {
	f := &fakeWorld{
		scripts: map[string][]autoglm.Action{"long todo": append(taps(8), finish("done"))},
		replans: []activities.PlanDecision{{Status: activities.PlanDone, Response: "gave up"}},
	}
	f.reviewFn = func(in activities.ReviewInput) activities.ReviewResult {
		return activities.ReviewResult{Decision: "replan", Reason: "it is in the wrong app"}
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "long", Device: "emu-1", Options: GoalOptions{Plan: []string{"long todo"}, ReviewEvery: 3}})
	// No todo succeeded: the goal ends failed with the replanner's words.
	if r.Status != GoalFailed || r.Todos[0].Status != TodoFailed || len(f.reviews) != 1 {
		t.Fatalf("result = %+v, reviews %d", r, len(f.reviews))
	}
	if n := len(f.acts()); n != 2 {
		t.Fatalf("actions on the phone = %d, want the 2 before the review", n)
	}
	fb := strings.Join(f.replanInputs[0].Feedback, "\n")
	if !strings.Contains(fb, plannerReplanPrefix+"it is in the wrong app") {
		t.Fatalf("feedback = %q", fb)
	}
}

// ReviewEvery zero: no review.
func TestPlannerReviewOff(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"long todo": append(taps(9), finish("done"))}}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "long", Device: "emu-1", Options: GoalOptions{Plan: []string{"long todo"}}})
	if r.Status != GoalDone || len(f.reviews) != 0 {
		t.Fatalf("result = %+v, reviews %d", r, len(f.reviews))
	}
}
