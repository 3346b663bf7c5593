package routines

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/routine"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestFleetSharesRoutines runs two phone hosts against one embedded
// server: each a worker process with its own data directory, ADB server
// and phone, both with routines_store set to one file:// bucket. A routine
// learned by a goal on host 1 replays on host 2 for another contact and
// text: host 2's goal makes at most 20% of the first goal's executor
// calls, and the replay of the shared routine is in its todo's history
// (docs/design.md §8).
func TestFleetSharesRoutines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the worker and runs goals on two worker processes")
	}
	// The build is bounded on its own: the first one after a dependency
	// changed compiles for minutes on a busy machine.
	bctx, bcancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer bcancel()
	bin, err := localstack.BuildWorker(bctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cfg := classicConfig()
	st, err := localstack.Start(ctx, localstack.Options{Config: &cfg, Phones: -1, ADB: localstack.BuiltinADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	shared := "file://" + filepath.Join(t.TempDir(), "routines")
	type host struct {
		*localstack.Host
		dir    string
		worker *localstack.Process
	}
	var hosts []host
	for range 2 {
		h, err := st.AddHost(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		h.Config.DataDir = dir
		h.Config.PromptMemoryPath = filepath.Join(dir, "prompt_memory.json")
		h.Config.RoutinesStore = shared
		w, err := localstack.NewProcess(bin, dir, h.Config)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = w.Stop() })
		hosts = append(hosts, host{Host: h, dir: dir, worker: w})
	}
	for _, h := range hosts {
		stacktest.WaitPolled(t, st, h.Serials[0], h.worker)
	}
	goal := func(h host, text string) (string, workflows.GoalResult) {
		t.Helper()
		id, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: text, Device: h.Serials[0],
			Options: workflows.GoalOptions{AutoApprove: true, Routines: true}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := st.Goals.Result(ctx, id)
		if err != nil {
			t.Fatalf("goal %s on %s: %v (worker log %s)", id, h.Serials[0], err, h.worker.LogFile())
		}
		if res.Status != workflows.GoalDone {
			t.Fatalf("goal %s on %s ended %s: %s", id, h.Serials[0], res.Status, res.Reason)
		}
		return id, res
	}
	sent := func(h host, to, text string) {
		t.Helper()
		got := h.Phones[0].State().MessagesSent
		if len(got) != 1 || got[0].To != to || got[0].Text != text {
			t.Fatalf("%s sent %+v, want exactly one %q to %s", h.Serials[0], got, text, to)
		}
	}

	_, first := goal(hosts[0], `Send Alice a message saying see you at 7`)
	sent(hosts[0], "Alice Chen", "see you at 7")
	store, err := routine.OpenURL(ctx, shared)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	rs, err := store.List()
	if err != nil || len(rs) != 1 || rs[0].Successes != 1 {
		t.Fatalf("shared routines after host 1's goal: %+v, %v; want one, learned once", rs, err)
	}
	learned := rs[0]

	id, second := goal(hosts[1], `Send Bob a message saying running late`)
	sent(hosts[1], "Bob Li", "running late")
	if 5*second.Usage.Executor.Calls > first.Usage.Executor.Calls || second.Usage.ReplayedSteps < 3 {
		t.Errorf("host 2's goal: %d executor calls (host 1's: %d), %d steps replayed: want at most 20%% of the calls and the routine replayed",
			second.Usage.Executor.Calls, first.Usage.Executor.Calls, second.Usage.ReplayedSteps)
	}
	// The replay is in history: FindRoutine's result names the shared
	// routine (an activity on the phone's queue when the todo runs on the
	// shared one, else a local activity's marker).
	found := false
	has := func(ps []*commonpb.Payload) {
		for _, p := range ps {
			if bytes.Contains(p.GetData(), []byte(`"id":"`+learned.ID+`"`)) && bytes.Contains(p.GetData(), []byte(`"steps":`)) {
				found = true
			}
		}
	}
	it := st.Client.GetWorkflowHistory(ctx, id+"/todo-1", "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		for _, ps := range ev.GetMarkerRecordedEventAttributes().GetDetails() {
			has(ps.GetPayloads())
		}
		has(ev.GetActivityTaskCompletedEventAttributes().GetResult().GetPayloads())
	}
	if !found {
		t.Errorf("no FindRoutine result naming %s in the history of %s/todo-1", learned.ID, id)
	}
	after, err := store.Get(learned.ID)
	if err != nil || after.Successes != 2 || after.Runs != 2 {
		t.Errorf("shared routine after host 2's replay: %+v, %v; want 2 successes", after, err)
	}
	// Neither host keeps routines of its own: both used the bucket.
	for i, h := range hosts {
		local, _ := filepath.Glob(filepath.Join(h.dir, "routines", "*.json"))
		if len(local) > 0 {
			t.Errorf("host %d wrote routines to its data dir: %v", i+1, local)
		}
	}
	if log, err := os.ReadFile(hosts[1].worker.LogFile()); err == nil && strings.Contains(string(log), "routines unreadable") {
		t.Errorf("host 2 could not read the shared routines; see %s", hosts[1].worker.LogFile())
	}
	t.Logf("host 1: %d executor calls; host 2: %d executor calls, %d steps replayed from %s",
		first.Usage.Executor.Calls, second.Usage.Executor.Calls, second.Usage.ReplayedSteps, learned.ID)
}
