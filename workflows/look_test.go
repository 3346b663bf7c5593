package workflows

import (
	"encoding/json"
	"strings"
	"testing"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// lookSecret stands for a secret the person wrote into a todo's text.
const lookSecret = "Zq7lookSecret"

// lookWorld is a goal whose first todo, in app (name, package), sets
// check with a text that holds lookSecret, and whose second todo, in
// Messages, shows nothing of it; once the replanner says done, the goal
// looks again at it.
func lookWorld(first string, check postcond.Check, app, pkg string) *fakeWorld {
	label := check.Label
	if label == "" {
		label = check.Text
	}
	f := &fakeWorld{
		plans: []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{first, "send hi"},
			Expect: [][]postcond.Check{{check}, nil}}},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{"send hi"}},
			{Status: activities.PlanDone, Response: "done"},
		},
		scripts: map[string][]autoglm.Action{
			first:     {tap(500, 212), finish("Did it: " + label)},
			"send hi": {tap(500, 900), finish("Sent hi")},
		},
		hides: map[string][]string{"Sent hi": {label}},
	}
	f.appOf = func(id string, _ activities.StepInput) (string, string) {
		if strings.HasSuffix(id, "/todo-2") {
			return "Messages", "com.google.android.apps.messaging"
		}
		return app, pkg
	}
	return f
}

// lookInputs runs the goal of f and returns its result with everything
// its look todo (todo 3) was given or sent, as JSON: the child
// workflow's input, its Steps' and Verifies' inputs and the goal's hook
// events about it. The goal's text holds lookSecret too, as a person's
// goal that gives a password does.
func lookInputs(t *testing.T, f *fakeWorld, setup func(*testsuite.TestWorkflowEnvironment)) (GoalResult, []string) {
	t.Helper()
	env := newEnv(t, f)
	if setup != nil {
		setup(env)
	}
	var got []string
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(b))
	}
	env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, args converter.EncodedValues) {
		if !strings.HasSuffix(info.WorkflowExecution.ID, "/todo-3") {
			return
		}
		var in TodoInput
		if err := args.Get(&in); err != nil {
			t.Errorf("the look's input: %v", err)
		}
		add(in)
	})
	r := runGoal(t, env, GoalInput{Goal: "Do it all with " + lookSecret, Device: "emu-1"})
	if len(r.Todos) != 3 || !r.Todos[2].Look {
		t.Fatalf("goal %s (%s), todos %+v: want a third todo that looks", r.Status, r.Reason, r.Todos)
	}
	look := r.Todos[2].Text
	add(r.Todos[2])
	for _, s := range f.steps {
		if strings.HasSuffix(s.WorkflowID, "/todo-3") {
			add(s.In)
		}
	}
	for _, v := range f.verifies {
		if v.Task == look {
			add(v)
		}
	}
	for _, h := range f.hooked {
		if h.Todo == 3 {
			// The goal's own text in its events is the person's.
			h.Goal = ""
			add(h)
		}
	}
	return r, got
}

// A look at an item gone or at an alarm names the app the earlier todo
// worked in and the check's own words, never that todo's text: a secret
// the person wrote into it reaches no input, activity or event of the
// look (docs/design.md §9, A todo that only looks, ChangeLookNamesApp).
func TestALookCarriesNoTextOfTheEarlierTodo(t *testing.T) {
	on := true
	for _, c := range []struct {
		name, first string
		check       postcond.Check
		app, pkg    string
		want        string
	}{
		{"a note deleted", "Sign in with the password " + lookSecret + ", then delete the note Trip",
			postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}, "Notes", "com.example.notes",
			`Look again, changing nothing, whether "Trip" is gone from Notes: open the screen that lists it, then finish.`},
		{"an alarm made", "Create an alarm at 07:30 named " + lookSecret,
			postcond.Check{Kind: postcond.Switch, Label: "07:30", On: &on, Any: true}, "时钟", "com.google.android.deskclock",
			`Look again, changing nothing, whether a "07:30" switch is on in Clock: open the screen that shows it, then finish.`},
	} {
		r, got := lookInputs(t, lookWorld(c.first, c.check, c.app, c.pkg), nil)
		if r.Status != GoalDone || r.Todos[2].Text != c.want {
			t.Errorf("%s: goal %s (%s), look %q, want done after %q", c.name, r.Status, r.Reason, r.Todos[2].Text, c.want)
		}
		if len(got) < 4 {
			t.Errorf("%s: only %d records of the look: %v", c.name, len(got), got)
		}
		for _, g := range got {
			if strings.Contains(g, lookSecret) {
				t.Errorf("%s: the look carries the earlier todo's secret: %s", c.name, g)
			}
		}
		if !strings.Contains(r.Todos[0].Text, lookSecret) {
			t.Errorf("%s: the person's own todo lost its text: %q", c.name, r.Todos[0].Text)
		}
	}
}

// A goal that recorded no ChangeLookNamesApp marker writes its looks as
// before, quoting the earlier todo, so its history replays.
func TestALookBeforeItNamedTheAppQuotesTheTodo(t *testing.T) {
	r, _ := lookInputs(t, lookWorld("Delete the note Trip", postcond.Check{Kind: postcond.ElementAbsent, Text: "Trip"}, "Notes", "com.example.notes"),
		func(env *testsuite.TestWorkflowEnvironment) {
			env.OnGetVersion(ChangeLookNamesApp, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
		})
	want := `Look again, changing nothing, whether "Trip" is gone (todo 1 did: Delete the note Trip): open the screen that lists it, then finish.`
	if r.Todos[2].Text != want {
		t.Errorf("look %q, want %q", r.Todos[2].Text, want)
	}
}

// The app a todo worked in is its final screen's, by the table's name for
// the package, or the latest other app its screens showed when it ended on
// the home screen or under the system UI.
func TestWorkedInIsTheAppTheTodoLeft(t *testing.T) {
	notes := activities.Observation{App: "便签", AppPackage: "com.miui.notes"}
	home := activities.Observation{App: "System Home", AppPackage: "com.miui.home"}
	shade := activities.Observation{App: "System UI", AppPackage: "com.android.systemui"}
	other := activities.Observation{App: "Zoo", AppPackage: "org.example.zoo"}
	for _, c := range []struct {
		name  string
		final activities.Observation
		seen  []activities.Observation
		want  string
	}{
		{"its final screen", notes, nil, "Notes"},
		{"an app the table does not know", other, []activities.Observation{notes}, "Zoo"},
		{"ended on the home screen", home, []activities.Observation{other, notes, home}, "Notes"},
		{"ended under the shade", shade, []activities.Observation{notes, shade}, "Notes"},
		{"nothing but the home screen", home, []activities.Observation{home}, ""},
		{"no screen", activities.Observation{}, nil, ""},
	} {
		if got := workedIn(c.final, c.seen); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
