package campaign

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/drill"
)

// worker is the campaign's worker process. Two runs in three are armed
// with one of the kill drill's fault hooks: the worker kills itself on its
// Nth device action after the start, between the intent and the input or
// between the input and its journal record.
type worker struct {
	t      *testing.T
	p      *drill.Process
	rng    *rand.Rand
	armed  string // the hook kind of the running worker, or ""
	counts map[string]int
	// bin and cfg build the process a deploy starts; deploys counts them.
	bin, dir string
	cfg      config.Config
	deploys  int
	// other is the worker built from another commit (otherCommit) that a
	// deploy onto it runs until backAt, when the campaign rolls back onto
	// bin; onOther says it runs now.
	other, otherCommit string
	onOther            bool
	backAt             time.Time
	restarts           int // starts again after it exited unable to reach the server
}

// start starts the worker, armed with a hook drawn from the seed when arm.
func (w *worker) start(arm bool) error {
	w.armed = ""
	var env []string
	if arm {
		n := 1 + w.rng.Intn(2) // early: most runs are cut short by the next kill
		switch w.rng.Intn(3) {
		case 0:
			w.armed = kindKillIntent
			env = []string{fmt.Sprintf("%s=%d", config.FaultExitBeforeSendEnv, n)}
		case 1:
			w.armed = kindKillRecord
			env = []string{fmt.Sprintf("%s=%d", config.FaultExitAfterActionEnv, n)}
		}
	}
	w.p.SetEnv(env...)
	return w.p.Start()
}

// reap counts a worker that killed itself by its hook and starts it
// again; a worker that exited with no hook armed fails the campaign.
func (w *worker) reap() {
	if !w.p.Exited() {
		return
	}
	log, _ := os.ReadFile(w.p.LogFile())
	last := tail(string(log), 3)
	switch {
	case strings.Contains(last, "cannot reach Temporal"):
		// Started while the server was down, it said so and exited, as
		// it should: its supervisor starts it again.
		w.t.Logf("the worker started while the Temporal server was away and exited; starting it again")
		w.restarts++
	case w.armed == "":
		w.t.Fatalf("the worker exited with no fault armed; its log ends:\n%s", tail(string(log), 40))
	default:
		w.counts[w.armed]++
	}
	_ = w.p.Kill() // reaps it
	time.Sleep(time.Second)
	if err := w.start(true); err != nil {
		w.t.Fatal(err)
	}
}

// kill9 kills the worker with SIGKILL and starts it again.
func (w *worker) kill9() error {
	if err := w.p.Kill(); err != nil {
		return err
	}
	return w.start(true)
}

// deploy is a rolling restart mid-goal onto the same build: a new worker
// process starts and serves the phones beside the old one, then the old
// one stops (SIGTERM, its running activities given their graceful stop).
func (w *worker) deploy() error { return w.rollTo(w.bin) }

// deployOther is a deploy mid-goal onto the build of another commit, its
// workflow code this tree's (see pickOtherCommit): a rolling restart onto
// it, and back onto this build after a while drawn by the seed (rollBack).
func (w *worker) deployOther() error {
	if err := w.rollTo(w.other); err != nil {
		return err
	}
	w.onOther = true
	w.t.Logf("deployed the worker of %.12s", w.otherCommit)
	w.backAt = time.Now().Add(time.Duration(20+w.rng.Intn(40)) * time.Second)
	return nil
}

// rollBack rolls back onto this build once the other commit's worker has
// served its time (now, when force).
func (w *worker) rollBack(force bool) error {
	if !w.onOther || (!force && time.Now().Before(w.backAt)) {
		return nil
	}
	w.onOther = false
	served := w.p.LogFile()
	if err := w.rollTo(w.bin); err != nil {
		return err
	}
	if log, err := os.ReadFile(served); err == nil {
		w.t.Logf("rolled back from the worker of %.12s; its log has %d lines, %d of them about actions",
			w.otherCommit, strings.Count(string(log), "\n"), strings.Count(string(log), "action"))
	}
	return nil
}

// rollTo starts a worker process of bin beside the running one, lets both
// serve the phones for a moment, then stops the old one.
func (w *worker) rollTo(bin string) error {
	w.reap()
	w.deploys++
	dir := filepath.Join(w.dir, fmt.Sprintf("deploy-%d", w.deploys))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	np, err := drill.NewProcess(bin, dir, w.cfg)
	if err != nil {
		return err
	}
	if err := shortModelTimeouts(filepath.Join(dir, "worker.yaml")); err != nil {
		return err
	}
	old := w.p
	w.p = np
	if err := w.start(true); err != nil {
		return err
	}
	time.Sleep(5 * time.Second) // both serve the phones for a moment
	return old.Stop()
}

// restartClean ends the faults: the worker stops (SIGTERM) and starts
// with no hook.
func (w *worker) restartClean() error {
	if err := w.rollBack(true); err != nil {
		return err
	}
	w.reap()
	if err := w.p.Stop(); err != nil {
		return err
	}
	return w.start(false)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
