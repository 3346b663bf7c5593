package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// todoRuns lists the todo workflows that reached the phone, in order.
func todoRuns(f *fakeWorld) []string {
	var ids []string
	for _, s := range f.steps {
		if len(ids) == 0 || ids[len(ids)-1] != s.WorkflowID {
			ids = append(ids, s.WorkflowID)
		}
	}
	return ids
}

func TestTodoFailedTwiceTheSameWayIsNotRunAThirdTime(t *testing.T) {
	const todo = "open the wifi row"
	var script []autoglm.Action
	for range 6 {
		script = append(script, finish("the wifi row is open"))
	}
	// A planner that plans the failed todo again whatever it is told.
	f := &fakeWorld{stuck: true,
		scripts: map[string][]autoglm.Action{todo: script},
		refute:  map[string]string{"the wifi row is open": "no Wi-Fi row on the screen"},
		replanFn: func(activities.ReplanInput) activities.PlanDecision {
			return activities.PlanDecision{Status: activities.PlanReplanned, Plan: []string{todo}}
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "open the wifi row", Device: "emu-1", Options: GoalOptions{Plan: []string{todo}}})

	if got := todoRuns(f); !slices.Equal(got, []string{testGoalID + "/todo-1", testGoalID + "/todo-2"}) {
		t.Fatalf("todo runs = %v, want two", got)
	}
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "the planner planned it again") ||
		!strings.Contains(r.Reason, "no Wi-Fi row on the screen") {
		t.Fatalf("result = %+v", r)
	}
	// The replanner saw the repeated evidence right after the second
	// failure, and the refusal after it.
	if len(f.replanInputs) != 3 {
		t.Fatalf("replans = %d, want 3", len(f.replanInputs))
	}
	if d := f.replanInputs[0].Done; d[0].Repeated != "" {
		t.Fatalf("one failure marked repeated: %+v", d)
	}
	d := f.replanInputs[1].Done
	if d[1].Repeated == "" || !strings.Contains(d[1].Repeated, "failed 2 times in a row with the same evidence (no Wi-Fi row on the screen)") {
		t.Fatalf("second failure not marked repeated: %+v", d)
	}
	if d := f.replanInputs[2].Done; !strings.HasPrefix(d[2].Result, "not run again") || d[2].Steps != 0 {
		t.Fatalf("refused todo = %+v", d[2])
	}
	if got := todoStatuses(r); !slices.Equal(got, []string{TodoFailed, TodoFailed, TodoFailed, TodoFailed}) {
		t.Fatalf("todo statuses = %v", got)
	}
	// Two todo runs of one think each, and three replans: the refusals
	// cost no step of their own.
	if r.Steps != 5 {
		t.Fatalf("steps = %d, want 5", r.Steps)
	}
}

func TestTodoIsRunAgainWhenItsEvidenceChanged(t *testing.T) {
	const todo = "open the wifi row"
	f := &fakeWorld{stuck: true,
		scripts: map[string][]autoglm.Action{todo: {finish("a"), finish("b"), finish("c")}},
		refute:  map[string]string{"a": "no Wi-Fi row", "b": "the Bluetooth page is open", "c": "no Wi-Fi row"},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{todo}},
			{Status: activities.PlanReplanned, Plan: []string{todo}},
			{Status: activities.PlanDone, Response: "gave up"},
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "open the wifi row", Device: "emu-1", Options: GoalOptions{Plan: []string{todo}}})
	if got := todoRuns(f); len(got) != 3 {
		t.Fatalf("todo runs = %v, want three (the evidence differed each time)", got)
	}
	for _, d := range f.replanInputs {
		for _, x := range d.Done {
			if x.Repeated != "" {
				t.Fatalf("marked repeated: %+v", x)
			}
		}
	}
	if r.Status != GoalFailed || strings.Contains(r.Reason, "twice the same way") {
		t.Fatalf("result = %+v", r)
	}
}

func TestGoalReasonSaysTheTodoFailedTwiceTheSameWay(t *testing.T) {
	const todo = "open the wifi row"
	f := &fakeWorld{stuck: true,
		scripts: map[string][]autoglm.Action{todo: {finish("a"), finish("a")}, "turn on bluetooth": {finish("bluetooth on")}},
		refute:  map[string]string{"a": "no Wi-Fi row"},
		replans: []activities.PlanDecision{
			{Status: activities.PlanReplanned, Plan: []string{todo}},
			{Status: activities.PlanReplanned, Plan: []string{todo}},
			{Status: activities.PlanDone, Response: "Bluetooth is on; the Wi-Fi row is not there"},
		},
	}
	env := newEnv(t, f)
	r := runGoal(t, env, GoalInput{Goal: "turn on bluetooth and open the wifi row", Device: "emu-1", Options: GoalOptions{Plan: []string{"turn on bluetooth", todo}}})
	if got := todoRuns(f); len(got) != 3 {
		t.Fatalf("todo runs = %v", got)
	}
	if r.Status != GoalFailed || !strings.Contains(r.Reason, `"open the wifi row" failed twice the same way (not run again): no Wi-Fi row`) {
		t.Fatalf("result = %+v", r)
	}
}

func TestRepeatsNeedTheSameScreenAndNoCommit(t *testing.T) {
	fail := func(why, screen string, committed ...string) TodoResult {
		return TodoResult{Status: TodoFailed, Evidence: why, Screen: screen, Committed: committed}
	}
	cases := []struct {
		name string
		runs []TodoResult
		want bool // hopeless after the runs
	}{
		{"same evidence, same screen", []TodoResult{fail("no row", "s1"), fail("no  row", "s1")}, true},
		{"stuck twice", []TodoResult{{Status: TodoStuck, Result: "stuck after 2 corrections", Screen: "s1"}, {Status: TodoStuck, Result: "stuck after 2 corrections", Screen: "s1"}}, true},
		{"another screen", []TodoResult{fail("no row", "s1"), fail("no row", "s2")}, false},
		{"another evidence", []TodoResult{fail("no row", "s1"), fail("no button", "s1")}, false},
		{"a commit changed the phone", []TodoResult{fail("no row", "s1"), fail("no row", "s1", "Save")}, false},
		{"done in between", []TodoResult{fail("no row", "s1"), {Status: TodoDone}, fail("no row", "s1")}, false},
		{"once", []TodoResult{fail("no row", "s1")}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r repeats
			for _, tr := range c.runs {
				r.record("Open the  Wi-Fi row", tr)
			}
			why, _ := r.hopeless("open the wi-fi row")
			if (why != "") != c.want {
				t.Fatalf("hopeless = %q, want %v", why, c.want)
			}
		})
	}
}
