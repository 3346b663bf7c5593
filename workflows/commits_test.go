package workflows

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// A todo run again after a failed verification gets the commits its
// earlier runs applied, so the Step refuses them a second time; the same
// words in a todo for another person are not its commits.
func TestRunAgainGetsTheCommitsItsEarlierRunsApplied(t *testing.T) {
	g := &goalRun{st: GoalState{Todos: []TodoState{
		{Text: "Send Mom a message: on my way", Status: TodoFailed, CommitKeys: []string{"messaging|Send|on my way"}},
		{Text: "Send Bob a message: on my way", Status: TodoDone, CommitKeys: []string{"messaging|Send|on my way#bob"}},
		{Text: "Send Mom a message: on my way", Status: TodoPending},
	}}}
	got := g.sameTodoCommits("Send Mom a message: on my way")
	if !slices.Equal(got, []string{"messaging|Send|on my way"}) {
		t.Fatalf("prior commits = %q", got)
	}
	if p := g.sameTodoCommits("Turn off Wi-Fi"); len(p) != 0 {
		t.Fatalf("a todo never run has prior commits %q", p)
	}
	var keys []string
	for range maxCommitsKept + 3 {
		keys = mergeKeys(keys, []string{string(rune('a' + len(keys)))})
	}
	if len(keys) != maxCommitsKept || slices.Contains(mergeKeys(nil, []string{"x", "x"}), "y") || len(mergeKeys(nil, []string{"x", "x"})) != 1 {
		t.Fatalf("merged keys %q", keys)
	}
}

// A todo whose alarm its verification did not see (the row past the
// list's edge) fails; the replanner writes the alarm again in other words.
// The new todo gets the failed one's commits as its own earlier runs', so
// its Step refuses the same OK, and the phone gets one alarm
// (ChangePriorCommitsOfTheItem).
func TestAReplannedTodoForTheSameAlarmDoesNotCommitItAgain(t *testing.T) {
	ok := tap(540, 1700)
	key := "com.google.android.deskclock|OK|time 08:30"
	first, second := "Create an alarm at 08:30", "Set an alarm for 8:30 AM"
	f := &fakeWorld{
		plans:      []activities.PlanDecision{{Status: activities.PlanPlanned, Plan: []string{first}, TaskType: "alarm"}},
		replans:    []activities.PlanDecision{{Status: activities.PlanReplanned, Plan: []string{second}}, {Status: activities.PlanDone, Response: "set"}},
		scripts:    map[string][]autoglm.Action{first: {ok, finish("alarm set")}, second: {ok, finish("the alarm is there")}},
		commitKeys: map[string]string{actionKey(ok): key},
		refute:     map[string]string{"alarm set": "the list shows no alarm at 08:30"},
	}
	runGoal(t, newEnv(t, f), GoalInput{Goal: "Wake me at 8:30", Device: "emu-1"})
	if f.sent[key] != 1 {
		t.Fatalf("the alarm's OK was sent %d times, want once; log:\n%s", f.sent[key], strings.Join(f.log, "\n"))
	}
}

// Only the commits of earlier todos that create the same item and were
// not verified done count; a message's never do.
func TestItemCommitsAreThoseOfTheSameItemNotVerified(t *testing.T) {
	g := &goalRun{st: GoalState{Todos: []TodoState{
		{Text: "Create an alarm at 08:30", Status: TodoFailed, CommitKeys: []string{"clock|OK|time 08:30"}},
		{Text: "Create an alarm at 09:00", Status: TodoFailed, CommitKeys: []string{"clock|OK|time 09:00"}},
		{Text: "Add an alarm at 7:15 am", Status: TodoDone, Verified: true, CommitKeys: []string{"clock|OK|time 07:15"}},
		{Text: "Send Mom a message: on my way", Status: TodoFailed, CommitKeys: []string{"messaging|Send|on my way"}},
	}}}
	if got := g.itemCommits("Set an alarm for 8:30 AM"); !slices.Equal(got, []string{"clock|OK|time 08:30"}) {
		t.Errorf("item commits for 8:30 = %q", got)
	}
	if got := g.itemCommits("Create an alarm at 07:15"); len(got) != 0 {
		t.Errorf("a verified todo's commits count: %q", got)
	}
	if got := g.itemCommits("Text Mom saying on my way"); len(got) != 0 {
		t.Errorf("a message's commits count: %q", got)
	}
	if got := g.itemCommits("Turn off Wi-Fi"); len(got) != 0 {
		t.Errorf("a todo that creates no item gets %q", got)
	}
}
