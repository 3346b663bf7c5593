package workflows

import (
	"slices"
	"testing"
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
	got := g.priorCommits("Send Mom a message: on my way")
	if !slices.Equal(got, []string{"messaging|Send|on my way"}) {
		t.Fatalf("prior commits = %q", got)
	}
	if p := g.priorCommits("Turn off Wi-Fi"); len(p) != 0 {
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
