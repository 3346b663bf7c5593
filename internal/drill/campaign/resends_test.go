package campaign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The journal's decisions to send an action again are read from the
// worker logs by action ID; its other decisions are not.
func TestResendsReadsTheJournalsSendAgainDecisions(t *testing.T) {
	dir := t.TempDir()
	log := `time=2026-12-02T04:36:19.870Z level=WARN msg="action journal: an action may have reached the phone but its result was not recorded; decided from its own evidence" WorkflowID=g/todo-2 id=g/todo-2/run/4 action=Tap verdict="not applied" why="the screen is as it was just before the input"
time=2026-12-02T04:37:32.103Z level=WARN msg="action journal: an action may have reached the phone but its result was not recorded; decided from its own evidence" id=g/todo-2/run/6 action=Tap verdict=unknown why="the screen changed"
time=2026-12-02T04:38:00.000Z level=WARN msg="action journal: a commit whose evidence was covered is judged before the next commit" id=g/todo-2/run/8 action=Tap verdict="not applied" why="x"
time=2026-12-02T04:38:01.000Z level=INFO msg="step" id=g/todo-2/run/4
`
	if err := os.WriteFile(filepath.Join(dir, "worker.log"), []byte(log), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "deploy-1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "deploy-1", "worker.log"), []byte(strings.SplitAfter(log, "\n")[0]), 0o600); err != nil {
		t.Fatal(err)
	}
	got := resends(dir)
	if len(got) != 1 || got["g/todo-2/run/4"] != 2 {
		t.Fatalf("resends = %v, want g/todo-2/run/4 twice (both logs)", got)
	}
	if u := union([]string{"a", "b"}, []string{"b", "c"}); len(u) != 3 || u[2] != "c" {
		t.Fatalf("union = %v", u)
	}
}
