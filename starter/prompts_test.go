package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/promptmem"
)

func TestPromptsCommands(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prompt_memory.json")
	m, err := promptmem.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	const key = "send {1} a message saying {2}"
	for _, ok := range []bool{true, false, false, false} {
		if _, _, err := m.RecordRun(key, promptmem.Outcome{Success: ok, Todo: `Send Bob a message saying "x"`, Reason: "not in the thread"}, promptmem.Policy{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Propose(key, 1, "After each tap, check the new screen.", "3 failures in a row"); err != nil {
		t.Fatal(err)
	}
	cli := func(args ...string) (string, int) {
		return execCLI(t, nil, "", []*cobra.Command{newPromptsCmd()}, append(append([]string{"prompts"}, args...), "--data-dir", dir)...)
	}
	out, code := cli("list")
	if code != 0 || !strings.Contains(out, key) || !strings.Contains(out, "v2 (trial)") || !strings.Contains(out, "1/4 (25%)") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	out, code = cli("show", key)
	if code != 0 || !strings.Contains(out, "v1 (kept) runs 1/4 (25%)") || !strings.Contains(out, "| After each tap, check the new screen.") ||
		!strings.Contains(out, "rewrote v1: 3 failures in a row") || !strings.Contains(out, "not done: Send Bob") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	out, code = cli("show", key, "v2", "--json")
	if code != 0 || !strings.Contains(out, `"text": "After each tap, check the new screen."`) || strings.Contains(out, `"n": 1`) {
		t.Fatalf("show v2 --json: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"show", "no such type"}, {"rollback", "no such type", "v1"}, {"rollback", key, "v9"}} {
		if out, code = cli(args...); code != exitNotFound || !strings.Contains(out, "starter prompts") {
			t.Errorf("%v: exit %d, want %d naming the fix\n%s", args, code, exitNotFound, out)
		}
	}
	if out, code = cli("rollback", key, "two"); code == 0 || !strings.Contains(out, "such as v2") {
		t.Errorf("rollback to a bad version: exit %d\n%s", code, out)
	}
	out, code = cli("rollback", key, "v1")
	if code != 0 || !strings.Contains(out, "v1 of") {
		t.Fatalf("rollback: exit %d\n%s", code, out)
	}
	// Durable: a fresh handle on the file reads v1 in force, v2 rolled back.
	m2, err := promptmem.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	g, _, _ := m2.Guidance(key)
	if v2, _ := g.Version(2); g.InForce != 1 || v2.Status != promptmem.StatusRolledBack {
		t.Fatalf("after rollback: %+v", g)
	}
	out, code = execCLI(t, nil, "", []*cobra.Command{newPromptsCmd()}, "prompts", "--help")
	if code != 0 || !strings.Contains(out, "Advice for this kind of task:") || !strings.Contains(out, "rollback") {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
}
