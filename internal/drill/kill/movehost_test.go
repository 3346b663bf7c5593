package kill

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
)

// TestGoalMovesToAnotherHost: a message goal's worker (host 1, a data
// directory of its own) dies at its third device action, once right after
// the phone took it and once right after its intent was written, before
// the input; the goal moves on to a worker with another data directory
// (host 2), whose own journal knows nothing of the action. Host 2 finds the
// intent in the journal the phone keeps, decides it from the action's own
// evidence, and the goal ends done with its message sent once and no
// action reported applied that the phone's input log lacks
// (docs/design.md §4). The two hosts share the blob store through a link
// (blobs do not follow the phone, §5); their journals are apart.
func TestGoalMovesToAnotherHost(t *testing.T) {
	s := drilltest.StartStack(t, drill.Options{Phones: 2}, variantDescription)
	ctx := context.Background()
	dir := t.TempDir()
	bin, err := drill.BuildWorker(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, fault string }{
		{"after the phone took the action", config.FaultExitAfterActionEnv},
		{"between the intent and the input", config.FaultExitBeforeSendEnv},
	}
	for i, c := range cases {
		serial, phone := s.Serials[i], s.Phones[i]
		host := func(name string) (*drill.Process, string) {
			t.Helper()
			d := filepath.Join(dir, fmt.Sprintf("case%d-%s", i, name))
			cfg := s.Config
			cfg.DataDir = filepath.Join(d, "data")
			cfg.PromptMemoryPath = filepath.Join(d, "data", "prompt_memory.json")
			if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
				t.Fatal(err)
			}
			w, err := drill.NewProcess(bin, d, cfg)
			if err != nil {
				t.Fatal(err)
			}
			return w, cfg.DataDir
		}
		h1, data1 := host("host1")
		h2, data2 := host("host2")
		if err := os.MkdirAll(filepath.Join(data1, "blobs"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(data1, "blobs"), filepath.Join(data2, "blobs")); err != nil {
			t.Fatal(err)
		}
		h1.SetEnv(c.fault + "=3")
		if err := h1.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = h1.Stop() })
		waitServed(t, s, h1, serial)
		goal, text := drilltest.MessageGoal(i + 1)
		id := drilltest.StartGoal(t, s, goal, serial)
		deadline := time.Now().Add(killHookWait)
		for !h1.Exited() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: host 1 did not die at its third action within %s; see %s", c.name, killHookWait, h1.LogFile())
			}
			time.Sleep(100 * time.Millisecond)
		}
		_ = h1.Kill()
		if err := h2.Start(); err != nil {
			t.Fatal(err)
		}
		res := drilltest.WaitResult(t, s, id, killRecovery)
		drilltest.CheckDone(t, id, res)
		if !drilltest.CheckOneMessage(t, phone, text) {
			t.Logf("steps of %s/todo-1:\n%s", id, drilltest.StepTrail(s, id+"/todo-1"))
		}
		drilltest.CheckClaims(t, s, id, res, phone)
		_ = h2.Stop()
		log, _ := os.ReadFile(h2.LogFile())
		decided := 0
		for _, line := range strings.Split(string(log), "\n") {
			if strings.Contains(line, "action journal:") {
				decided++
				t.Logf("%s: host 2: %s", c.name, line)
			}
		}
		if decided == 0 {
			t.Errorf("%s: host 2 decided nothing from the phone's journal: the action host 1 left without a result was not found there (see %s)", c.name, h2.LogFile())
		}
		if local, _ := filepath.Glob(filepath.Join(data2, "actions", "*.jsonl")); len(local) == 0 {
			t.Errorf("%s: host 2 kept no journal of its own", c.name)
		}
	}
}
