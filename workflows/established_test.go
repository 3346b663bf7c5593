package workflows

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Bluetooth turned on, then airplane mode turned on, which switches
// Bluetooth off as it does on most phones: each todo is verified in its
// turn, but the goal does not end done while the phone shows Bluetooth off
// (docs/design.md §9, ChangeEstablishedStillHold).
func TestGoalWhoseLaterTodoUndidAnEarlierOneIsNotDone(t *testing.T) {
	on := true
	bt := []postcond.Check{{Kind: postcond.Switch, Label: "Bluetooth", On: &on}}
	air := []postcond.Check{{Kind: postcond.Switch, Label: "Airplane mode", On: &on}}
	world := func(undo bool) *fakeWorld {
		f := &fakeWorld{
			plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn on bluetooth", "turn on airplane mode"},
				Expect: [][]postcond.Check{bt, air}, TaskType: "settings"}},
			replans: []activities.PlanDecision{
				{Status: activities.PlanReplanned, Plan: []string{"turn on airplane mode"}, Expect: [][]postcond.Check{air}},
				{Status: activities.PlanDone, Response: "Bluetooth and airplane mode are on"},
			},
			scripts: map[string][]autoglm.Action{
				"turn on bluetooth":     {tap(500, 212), finish("Bluetooth on")},
				"turn on airplane mode": {tap(500, 312), finish("Airplane mode on")},
			},
		}
		if undo {
			f.undoes = map[string][]string{"Airplane mode on": {"Bluetooth"}}
		}
		return f
	}
	f := world(true)
	r := runGoal(t, newEnv(t, f), GoalInput{Goal: "turn on bluetooth, then airplane mode", Device: "emu-1"})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "undid") || !strings.Contains(r.Reason, `"Bluetooth"`) {
		t.Fatalf("goal %s (%s), want failed naming the Bluetooth switch todo 2 undid", r.Status, r.Reason)
	}
	if n := len(f.verifies); n != 2 || len(f.verifies[0].Established) != 0 || len(f.verifies[1].Established) != 1 {
		t.Fatalf("verifies %+v: want the second todo to recheck the first one's state", f.verifies)
	}
	if !strings.Contains(r.Todos[1].Result, "Bluetooth") {
		t.Errorf("the replanner is not told: todo 2 result %q", r.Todos[1].Result)
	}
	// The same goal whose phone keeps Bluetooth on ends done.
	if r := runGoal(t, newEnv(t, world(false)), GoalInput{Goal: "turn on bluetooth, then airplane mode", Device: "emu-1"}); r.Status != GoalDone {
		t.Fatalf("nothing undone: goal %s (%s)", r.Status, r.Reason)
	}
}

// A later todo that sets the same switch again replaces the earlier state,
// and a recheck that shows a state held again clears it.
func TestEstablishedStatesTakeTheLatest(t *testing.T) {
	on, off := true, false
	var e established
	e.took(1, TodoResult{Status: TodoDone, Verified: true, Checks: []postcond.Result{{Check: postcond.Check{Kind: postcond.Switch, Label: "Wi-Fi", On: &off}, Held: true}}})
	e.took(2, TodoResult{Status: TodoDone, Verified: true, Checks: []postcond.Result{{Check: postcond.Check{Kind: postcond.Switch, Label: "Wi-Fi", On: &on}, Held: true}}})
	if len(e.States) != 1 || !*e.States[0].Check.On || e.States[0].By != 2 {
		t.Fatalf("states %+v, want only todo 2's Wi-Fi on", e.States)
	}
	c := e.States[0].Check
	e.took(3, TodoResult{Status: TodoFailed, Rechecked: []postcond.Result{{Check: c, Held: false, Evidence: "off"}}})
	if u := e.undone(); len(u) != 1 || !strings.Contains(u[0], "todo 3") {
		t.Fatalf("undone %v", u)
	}
	e.took(4, TodoResult{Status: TodoDone, Rechecked: []postcond.Result{{Check: c, Held: true}}})
	if u := e.undone(); len(u) != 0 {
		t.Fatalf("held again, still undone: %v", u)
	}
}

// Bluetooth turned on, then a message sent: the message's screen does not
// show Bluetooth, so before the goal ends done it adds a todo that looks
// again, changing nothing, and ends on what that todo's screen shows
// (docs/design.md §9, A todo that only looks, ChangeLookAgain).
func TestGoalLooksAgainAtAStateNoLaterScreenShowed(t *testing.T) {
	on := true
	bt := []postcond.Check{{Kind: postcond.Switch, Label: "Bluetooth", On: &on}}
	look := lookText(establishedState{Check: bt[0], By: 1})
	world := func(lookSees string) *fakeWorld {
		return &fakeWorld{
			plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn on bluetooth", "send hi"},
				Expect: [][]postcond.Check{bt, nil}, TaskType: "settings"}},
			replans: []activities.PlanDecision{
				{Status: activities.PlanReplanned, Plan: []string{"send hi"}},
				{Status: activities.PlanDone, Response: "Bluetooth is on and hi is sent"},
			},
			scripts: map[string][]autoglm.Action{
				"turn on bluetooth": {tap(500, 212), finish("Bluetooth on")},
				"send hi":           {tap(500, 900), finish("Sent hi")},
				look:                {tap(500, 400), finish(lookSees)},
			},
			hides:  map[string][]string{"Sent hi": {"Bluetooth"}, "Nothing found": {"Bluetooth"}},
			undoes: map[string][]string{"Bluetooth shows off": {"Bluetooth"}},
		}
	}
	f := world("Bluetooth is on")
	r := runGoal(t, newEnv(t, f), GoalInput{Goal: "turn on bluetooth, then send hi", Device: "emu-1"})
	if r.Status != GoalDone || len(r.Todos) != 3 || !r.Todos[2].Look || r.Todos[2].Text != look {
		t.Fatalf("goal %s (%s), todos %+v: want done after a third todo that looks again", r.Status, r.Reason, r.Todos)
	}
	if !strings.HasPrefix(look, `Look again, changing nothing, whether the "Bluetooth" switch is on`) {
		t.Errorf("look text %q", look)
	}
	if len(f.replanInputs) != 2 {
		t.Errorf("replans %d: the goal ends on the done given before the look, without a third replan", len(f.replanInputs))
	}
	for _, s := range f.steps {
		if lookStep := strings.HasSuffix(s.WorkflowID, "/todo-3"); s.In.LookOnly != lookStep {
			t.Errorf("step of %s has LookOnly %t", s.WorkflowID, s.In.LookOnly)
		}
	}
	// The look sees Bluetooth off: the goal fails naming it.
	r = runGoal(t, newEnv(t, world("Bluetooth shows off")), GoalInput{Goal: "turn on bluetooth, then send hi", Device: "emu-1"})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, `"Bluetooth"`) || !strings.Contains(r.Reason, "todo 3") {
		t.Fatalf("look saw it off: goal %s (%s), want failed naming Bluetooth and todo 3", r.Status, r.Reason)
	}
	// The look never gets to a screen that shows it: not done either.
	r = runGoal(t, newEnv(t, world("Nothing found")), GoalInput{Goal: "turn on bluetooth, then send hi", Device: "emu-1"})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "did not show again") {
		t.Fatalf("look saw nothing: goal %s (%s), want failed: not seen again", r.Status, r.Reason)
	}
}

// A state the last todo set, or one a later todo's screen showed, needs
// no look.
func TestUnseenStatesAreOnlyThoseALaterTodoLeftUnseen(t *testing.T) {
	on := true
	c := postcond.Check{Kind: postcond.Switch, Label: "Wi-Fi", On: &on}
	var e established
	e.took(1, TodoResult{Status: TodoDone, Verified: true, Checks: []postcond.Result{{Check: c, Held: true}}})
	if u := e.unseen(); len(u) != 0 {
		t.Fatalf("set by the last todo: unseen %+v", u)
	}
	e.took(2, TodoResult{Status: TodoDone, Rechecked: []postcond.Result{{Check: c, Held: true}}})
	if u := e.unseen(); len(u) != 0 {
		t.Fatalf("shown by todo 2: unseen %+v", u)
	}
	e.took(3, TodoResult{Status: TodoDone})
	if u := e.unseen(); len(u) != 1 {
		t.Fatalf("todo 3 did not show it: unseen %+v", u)
	}
	e.looked(4, TodoResult{Status: TodoDone, Rechecked: []postcond.Result{{Check: c, Held: true}}})
	if u := e.unseen(); len(u) != 0 {
		t.Fatalf("looked at by todo 4: unseen %+v", u)
	}
	// An item gone: no recheck speaks of it on a screen without it, and
	// the look verified done on its postcondition saw it gone.
	gone := postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}
	e.took(5, TodoResult{Status: TodoDone, Verified: true, Checks: []postcond.Result{{Check: gone, Held: true}}})
	e.took(6, TodoResult{Status: TodoDone})
	if u := e.unseen(); len(u) != 2 {
		t.Fatalf("todo 6 showed neither: unseen %+v", u)
	}
	e.looked(7, TodoResult{Status: TodoDone, Verified: true, Checks: []postcond.Result{{Check: gone, Held: true}}})
	if u := e.unseen(); len(u) != 1 || u[0].Check.Kind != postcond.Switch {
		t.Fatalf("the look saw Trip gone: unseen %+v", u)
	}
	e.looked(8, TodoResult{Status: TodoFailed, Checks: []postcond.Result{{Check: c, Held: true}}})
	if u := e.unseen(); len(u) != 1 {
		t.Fatalf("a look not verified done saw nothing: unseen %+v", u)
	}
}

// A look todo that starts on the home screen and ends in Settings goes
// back home after its verdict, so "…, then go back to the home screen"
// still holds (ChangeLookReturns); one that ends where it started sends
// nothing more.
func TestALookTodoGoesBackWhereItStarted(t *testing.T) {
	on := true
	bt := []postcond.Check{{Kind: postcond.Switch, Label: "Bluetooth", On: &on}}
	look := lookText(establishedState{Check: bt[0], By: 1})
	world := func(lookStart string) *fakeWorld {
		f := &fakeWorld{
			plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{"turn on bluetooth", "go home"},
				Expect: [][]postcond.Check{bt, nil}, TaskType: "settings"}},
			replans: []activities.PlanDecision{
				{Status: activities.PlanReplanned, Plan: []string{"go home"}},
				{Status: activities.PlanDone, Response: "Bluetooth is on, home screen shown"},
			},
			scripts: map[string][]autoglm.Action{
				"turn on bluetooth": {tap(500, 212), finish("Bluetooth on")},
				"go home":           {{Name: autoglm.ActionHome}, finish("Home")},
				look:                {tap(500, 400), finish("Bluetooth is on")},
			},
			hides: map[string][]string{"Home": {"Bluetooth"}},
		}
		f.appOf = func(id string, in activities.StepInput) (string, string) {
			if strings.HasSuffix(id, "/todo-3") && in.Act == nil && in.Think && len(in.PreviousAction) == 0 {
				return lookStart, map[string]string{"Launcher": "com.android.launcher3", "Settings": "com.android.settings"}[lookStart]
			}
			return "Settings", "com.android.settings"
		}
		return f
	}
	f := world("Launcher")
	r := runGoal(t, newEnv(t, f), GoalInput{Goal: "turn on bluetooth, then go home", Device: "emu-1"})
	if r.Status != GoalDone || len(r.Todos) != 3 {
		t.Fatalf("goal %s (%s), todos %+v", r.Status, r.Reason, r.Todos)
	}
	last := f.steps[len(f.steps)-1]
	if !strings.HasSuffix(last.WorkflowID, "/todo-3") || last.In.Act == nil || last.In.Act.Name != autoglm.ActionHome || last.In.Think {
		t.Fatalf("last step %s %+v: want the look todo's Home, with no think", last.WorkflowID, last.In.Act)
	}
	f = world("Settings")
	if r := runGoal(t, newEnv(t, f), GoalInput{Goal: "turn on bluetooth, then go home", Device: "emu-1"}); r.Status != GoalDone {
		t.Fatalf("goal %s (%s)", r.Status, r.Reason)
	}
	if last := f.steps[len(f.steps)-1]; last.In.Act != nil && last.In.Act.Name == autoglm.ActionHome && strings.HasSuffix(last.WorkflowID, "/todo-3") {
		t.Fatalf("a look that ended where it started sent Home")
	}
}
