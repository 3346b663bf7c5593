package workflows

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// verdictScenarios are goals whose todos end on finishes the verifier
// judges differently: confirmed, refuted by the screen, admitted failed,
// decided by the planner's postconditions.
func verdictScenarios() map[string]func() (*fakeWorld, GoalInput) {
	off := false
	exp := [][]postcond.Check{{{Kind: postcond.Switch, Label: "Wi-Fi", On: &off}}}
	return map[string]func() (*fakeWorld, GoalInput){
		"refuted then done": func() (*fakeWorld, GoalInput) {
			return &fakeWorld{
				plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn on wifi"}, TaskType: "settings"}},
				replans: []activities.PlanDecision{
					{Status: activities.PlanReplanned, Plan: []string{"turn on wifi"}},
					{Status: activities.PlanDone, Response: "Wi-Fi is on"},
				},
				scripts: map[string][]autoglm.Action{"turn on wifi": {finish("wifi on?"), tap(500, 212), finish("wifi on")}},
				refute:  map[string]string{"wifi on?": "the Wi-Fi switch is off"},
			}, GoalInput{Goal: "turn on wifi", Device: "emu-1"}
		},
		"admits failure": func() (*fakeWorld, GoalInput) {
			return &fakeWorld{
				plans:   []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"book a train"}, TaskType: "general"}},
				replans: []activities.PlanDecision{{Status: activities.PlanDone, Response: "Done: book a train"}},
				scripts: map[string][]autoglm.Action{"book a train": {tap(5, 5), finish("cannot book: no travel app")}},
			}, GoalInput{Goal: "book a train", Device: "emu-1"}
		},
		"postconditions": func() (*fakeWorld, GoalInput) {
			return &fakeWorld{
				plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn off wifi"}, Expect: exp, TaskType: "settings"}},
				replans: []activities.PlanDecision{
					{Status: activities.PlanReplanned, Plan: []string{"turn off wifi"}, Expect: exp},
					{Status: activities.PlanDone, Response: "Wi-Fi is off"},
				},
				scripts: map[string][]autoglm.Action{"turn off wifi": {finish("done"), finish("Wi-Fi is off")}},
			}, GoalInput{Goal: "turn off wifi", Device: "emu-1"}
		},
	}
}

// verdictOf is what a todo's result says of its verification.
type verdictOf struct {
	Status, Result, Evidence string
	Verified                 bool
	Checks                   []postcond.Result
}

func verdictsOf(r GoalResult) []verdictOf {
	var out []verdictOf
	for _, td := range r.Todos {
		out = append(out, verdictOf{Status: td.Status, Result: td.Result, Evidence: td.Evidence, Verified: td.Verified, Checks: td.Checks})
	}
	return out
}

// A finish verified in the Step that decided it ends every todo, and the
// goal, exactly as the Verify activity's verdict on the same input does;
// no Verify runs (docs/design.md §9, ChangeVerifyInStep).
func TestVerdictInStepEndsTodosAsVerifyDoes(t *testing.T) {
	for name, scenario := range verdictScenarios() {
		t.Run(name, func(t *testing.T) {
			byActivity, in := scenario()
			want := runGoal(t, newEnv(t, byActivity), in)
			inStep, in := scenario()
			inStep.verifyInStep = true
			got := runGoal(t, newEnv(t, inStep), in)
			if got.Status != want.Status || got.Reason != want.Reason {
				t.Errorf("goal = %s (%s), by the Verify activity %s (%s)", got.Status, got.Reason, want.Status, want.Reason)
			}
			if g, w := verdictsOf(got), verdictsOf(want); !reflect.DeepEqual(g, w) {
				t.Errorf("todos verified in the Step:\n%+v\nby the Verify activity:\n%+v", g, w)
			}
			if len(inStep.verifies) != 0 {
				t.Errorf("Verify ran %d times beside the Step's verdicts", len(inStep.verifies))
			}
			if len(inStep.ahead) != len(byActivity.verifies) || len(byActivity.ahead) != 0 {
				t.Errorf("verified in the Step %d times, by Verify %d times", len(inStep.ahead), len(byActivity.verifies))
			}
			for i, v := range inStep.ahead {
				if w := byActivity.verifies[i]; v.Task != w.Task || v.Message != w.Message || v.Screen != w.Screen || !reflect.DeepEqual(v.Expect, w.Expect) {
					t.Errorf("verification %d in the Step: %+v, by Verify: %+v", i+1, v, w)
				}
			}
		})
	}
}

// runOneTodo runs one todo on its own and returns its result.
func runOneTodo(t *testing.T, f *fakeWorld, in TodoInput, setup func(*testsuite.TestWorkflowEnvironment)) TodoResult {
	t.Helper()
	env := newEnv(t, f)
	if setup != nil {
		setup(env)
	}
	env.ExecuteWorkflow(TodoWorkflow, in)
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	return r
}

// A Step whose verifier gave no verdict leaves the finish to Verify, which
// then decides it.
func TestNoVerdictInStepRunsVerify(t *testing.T) {
	f := &fakeWorld{verifyInStep: true, aheadDown: 1, scripts: map[string][]autoglm.Action{"t": {tap(1, 1), finish("on")}}}
	r := runOneTodo(t, f, TodoInput{Index: 1, Task: "t", Device: "emu-1"}, nil)
	if r.Status != TodoDone || !r.Verified || len(f.verifies) != 1 || len(f.ahead) != 0 {
		t.Fatalf("result = %+v, Verify ran %d times, verified in the Step %d times; want done by one Verify", r, len(f.verifies), len(f.ahead))
	}
}

// A pause that arrives while the finishing Step runs drops its verdict:
// the person may use the phone meanwhile, so the finish is verified after
// the pause, by Verify.
func TestPauseDropsTheStepsVerdict(t *testing.T) {
	f := &fakeWorld{verifyInStep: true, scripts: map[string][]autoglm.Action{"t": {tap(1, 1), finish("on")}}}
	r := runOneTodo(t, f, TodoInput{Index: 1, Task: "t", Device: "emu-1"}, func(env *testsuite.TestWorkflowEnvironment) {
		f.whileThinking = func(in activities.StepInput) {
			if in.Act != nil {
				env.SignalWorkflow(SignalPause, nil)
			}
		}
		env.RegisterDelayedCallback(func() { env.SignalWorkflow(SignalResume, nil) }, 10*time.Minute)
	})
	if r.Status != TodoDone || len(f.ahead) != 1 || len(f.verifies) != 1 {
		t.Fatalf("result = %+v, verified in the Step %d times, by Verify %d times; want the Step's verdict dropped and Verify after the pause",
			r, len(f.ahead), len(f.verifies))
	}
	// A person may have changed the phone while it was paused: Verify
	// judges the phone observed again, not the screen from before.
	if !f.verifies[0].Reobserve {
		t.Errorf("Verify after the pause got %+v, want it to observe the phone again", f.verifies[0])
	}
}

// A finish decided with no wait since the last observation is verified on
// that observation: nothing is observed twice.
func TestFinishWithoutAWaitIsNotObservedAgain(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"t": {tap(1, 1), finish("on")}}}
	r := runOneTodo(t, f, TodoInput{Index: 1, Task: "t", Device: "emu-1"}, nil)
	if r.Status != TodoDone || len(f.verifies) != 1 || f.verifies[0].Reobserve {
		t.Fatalf("result = %+v, verifies %+v", r, f.verifies)
	}
}

// Only a guarded todo whose postconditions need no screens it saw asks
// its Steps to verify: an unguarded todo takes a finish as done, and a
// read's answer is checked against every screen the todo saw, which only
// the workflow holds.
func TestWhichTodosVerifyInStep(t *testing.T) {
	read := []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel}}
	on := true
	for _, c := range []struct {
		name string
		in   TodoInput
		want bool
	}{
		{"guarded", TodoInput{Index: 1, Task: "t", Device: "emu-1"}, true},
		{"with a switch to check", TodoInput{Index: 1, Task: "t", Device: "emu-1", Expect: []postcond.Check{{Kind: postcond.Switch, Label: "t", On: &on}}}, true},
		{"unguarded", TodoInput{Index: 1, Task: "t", Device: "emu-1", Unguarded: true}, false},
		{"a read", TodoInput{Index: 1, Task: "t", Device: "emu-1", Expect: read}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeWorld{verifyInStep: true, scripts: map[string][]autoglm.Action{"t": {tap(1, 1), finish("t")}}}
			runOneTodo(t, f, c.in, nil)
			thinks := slices.DeleteFunc(slices.Clone(f.steps), func(s stepCall) bool { return !s.In.Think })
			if len(thinks) == 0 {
				t.Fatal("no think")
			}
			for _, s := range thinks {
				if s.In.VerifyFinish != c.want {
					t.Fatalf("think step asked to verify = %v, want %v", s.In.VerifyFinish, c.want)
				}
			}
			if c.want && (len(f.ahead) != 1 || len(f.verifies) != 0) {
				t.Fatalf("verified in the Step %d times, by Verify %d times", len(f.ahead), len(f.verifies))
			}
		})
	}
}
