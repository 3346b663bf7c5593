package progress

import (
	"slices"
	"strings"
	"testing"
)

// TestDiffSaysAReplanKeptThePlan: a replan that answers the remaining
// todos as they were changes no todo line, so the plain view prints a line
// of its own; a replan that changed the plan prints the plan instead.
func TestDiffSaysAReplanKeptThePlan(t *testing.T) {
	before := Snapshot{GoalID: "g", Phase: "running", Replans: 0, Todos: []Todo{
		{Text: "Open Settings", Status: "done", Steps: 3}, {Text: "Turn on Wi-Fi", Status: "pending"}}}
	kept := before
	kept.Replans, kept.ReplanKept = 1, true
	lines := Diff(&before, kept)
	if !slices.Contains(lines, "[g] replanned: plan unchanged (1 todo left)") {
		t.Errorf("a kept plan printed %q, want the unchanged line", lines)
	}
	if again := Diff(&kept, kept); len(again) != 0 {
		t.Errorf("the same snapshot again printed %q", again)
	}
	changed := before
	changed.Replans = 1
	changed.Todos = []Todo{{Text: "Open Settings", Status: "done", Steps: 3}, {Text: "Open Wi-Fi settings", Status: "pending"}}
	for _, l := range Diff(&before, changed) {
		if strings.Contains(l, "unchanged") {
			t.Errorf("a changed plan printed %q", l)
		}
	}
}

// A todo's end and the replan that answered it reach a poll together: the
// unchanged line comes after the todo's done line, as it happened.
func TestUnchangedReplanFollowsTheTodoItAnswered(t *testing.T) {
	before := Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{
		{Text: "Send Alice a message", Status: "running", Steps: 4}, {Text: "Turn on Bluetooth", Status: "pending"}}}
	after := Snapshot{GoalID: "g", Phase: "running", Replans: 1, ReplanKept: true, Todos: []Todo{
		{Text: "Send Alice a message", Status: "done", Steps: 5, Result: "Sent"}, {Text: "Turn on Bluetooth", Status: "pending"}}}
	lines := Diff(&before, after)
	done := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "[g] todo 1 done") })
	kept := slices.Index(lines, "[g] replanned: plan unchanged (1 todo left)")
	if done < 0 || kept < 0 || kept < done {
		t.Errorf("lines %q: want the todo's done line, then the unchanged replan", lines)
	}
}

// The next todo starts in the same poll: the replan comes between the end
// it answered and that start, and the running todo counts as left.
func TestUnchangedReplanComesBeforeTheNextTodoStarts(t *testing.T) {
	before := Snapshot{GoalID: "g", Phase: "running", Todos: []Todo{
		{Text: "Send Alice a message", Status: "running", Steps: 4}, {Text: "Turn on Bluetooth", Status: "pending"}}}
	after := Snapshot{GoalID: "g", Phase: "running", Replans: 1, ReplanKept: true, Todos: []Todo{
		{Text: "Send Alice a message", Status: "done", Steps: 5, Result: "Sent"}, {Text: "Turn on Bluetooth", Status: "running"}}}
	lines := Diff(&before, after)
	want := []string{"[g] todo 1 done: Send Alice a message (5 steps) → Sent", "[g] replanned: plan unchanged (1 todo left)", "[g] todo 2 running: Turn on Bluetooth"}
	if !slices.Equal(lines, want) {
		t.Errorf("lines %q, want %q", lines, want)
	}
}
