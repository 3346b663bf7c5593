package promptmem

import (
	"errors"
	"path/filepath"
	"testing"
)

func runs(t *testing.T, m *Memory, key string, p Policy, version int, outcomes ...bool) (bool, string) {
	t.Helper()
	var rewrite bool
	var note string
	for _, ok := range outcomes {
		var err error
		if rewrite, note, err = m.RecordRun(key, Outcome{Version: version, Success: ok, Todo: "send {1} a message"}, p); err != nil {
			t.Fatal(err)
		}
	}
	return rewrite, note
}

func TestWorseVersionIsRolledBack(t *testing.T) {
	m, err := Open(filepath.Join(t.TempDir(), "pm.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := Policy{FailureStreak: 3, Every: 10, TrialRuns: 5}
	const key = "send {1} a message saying {2}"
	if rewrite, _ := runs(t, m, key, p, 0, true, true, false, true, false, false, false); !rewrite {
		t.Fatal("three failures in a row did not ask for a rewrite")
	}
	// v1: 3 of 7 done. v2 does 1 of 5 on trial: worse, rolled back.
	if _, err := m.Propose(key, 1, "Check each tap.", "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Propose(key, 1, "Another.", "test"); err == nil {
		t.Fatal("a second rewrite while v2 is on trial was accepted")
	}
	if rewrite, note := runs(t, m, key, p, 2, false, false, true, false, false); rewrite || note != "v2 rolled back to v1" {
		t.Fatalf("after the trial: rewrite %v, note %q", rewrite, note)
	}
	g, _, _ := m.Guidance(key)
	if v, _ := g.Version(2); g.InForce != 1 || v.Status != StatusRolledBack || v.Runs != 5 {
		t.Fatalf("guidance = %+v", g)
	}
	// v3 does 3 of 5: not worse than v1's 3 of 7, kept.
	if _, err := m.Propose(key, 1, "Check each tap; go back when it missed.", "test"); err != nil {
		t.Fatal(err)
	}
	if _, note := runs(t, m, key, p, 3, true, false, true, false, true); note != "v3 kept" {
		t.Fatalf("note = %q", note)
	}
	// A late run of v1 counts for v1 and decides nothing for v3.
	if rewrite, note := runs(t, m, key, p, 1, false); rewrite || note != "" {
		t.Fatalf("late v1 run: %v %q", rewrite, note)
	}
	// The file is the record: a fresh handle reads the same.
	m2, err := Open(m.Path())
	if err != nil {
		t.Fatal(err)
	}
	g, _, _ = m2.Guidance(key)
	if cur := g.Current(); g.InForce != 3 || cur.Status != StatusKept || cur.Text != "Check each tap; go back when it missed." {
		t.Fatalf("reopened guidance = %+v", g)
	}
	if v1, _ := g.Version(1); v1.Runs != 8 {
		t.Fatalf("v1 runs = %d, want 8", v1.Runs)
	}
}

func TestEveryNRunsAsksForRewrite(t *testing.T) {
	m, err := Open(filepath.Join(t.TempDir(), "pm.json"))
	if err != nil {
		t.Fatal(err)
	}
	p := Policy{FailureStreak: 3, Every: 4, TrialRuns: 2}
	if rewrite, _ := runs(t, m, "k", p, 0, true, true, true); rewrite {
		t.Fatal("rewrite before the run count")
	}
	if rewrite, note := runs(t, m, "k", p, 0, true); !rewrite || note != "4 runs of v1" {
		t.Fatalf("4th run: %v %q", rewrite, note)
	}
}

func TestRollbackByHand(t *testing.T) {
	m, err := Open(filepath.Join(t.TempDir(), "pm.json"))
	if err != nil {
		t.Fatal(err)
	}
	runs(t, m, "k", Policy{}, 0, false)
	if _, err := m.Propose("k", 1, "line", "test"); err != nil {
		t.Fatal(err)
	}
	if err := m.Rollback("k", 9); !errors.Is(err, ErrNoVersion) {
		t.Fatalf("rollback to a missing version: %v", err)
	}
	if err := m.Rollback("nope", 1); !errors.Is(err, ErrNoVersion) {
		t.Fatalf("rollback of an unknown todo type: %v", err)
	}
	if err := m.Rollback("k", 1); err != nil {
		t.Fatal(err)
	}
	g, _, _ := m.Guidance("k")
	if v2, _ := g.Version(2); g.InForce != 1 || v2.Status != StatusRolledBack {
		t.Fatalf("after rollback: %+v", g)
	}
	if err := m.Rollback("k", 2); err != nil {
		t.Fatal(err)
	}
	if g, _, _ = m.Guidance("k"); g.InForce != 2 || g.Current().Status != StatusKept {
		t.Fatalf("rollback forward to v2: %+v", g)
	}
}
