package main

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

func TestDemoArgumentErrors(t *testing.T) {
	for _, args := range [][]string{
		{"demo", "extra"},
		{"demo", "--ask", "--goal", "x"},
		{"demo", "--temporal-port", "many"},
		{"demo", "--goal", ""}, // empty and blank goals are refused alike, before anything starts
		{"demo", "--goal", "   "},
	} {
		out, code := execCLI(t, nil, "", []*cobra.Command{newDemoCmd()}, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
}

func TestDemoJSONShape(t *testing.T) {
	rep := demoJSON("goal-1", "http://ui/x", workflows.GoalResult{Status: "failed", Steps: 3, Reason: "step limit",
		Usage: llm.RoleUsage{Planner: llm.Usage{Calls: 1, InputTokens: 10}, Executor: llm.Usage{Calls: 2, OutputTokens: 5}, ReplayedSteps: 1},
		Todos: []workflows.TodoState{{Index: 1, Text: "a", Status: "done", Steps: 3, Result: "r"}}}, phonesim.State{Serial: "s"})
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"workflow_id", "status", "todos", "steps", "result", "sim_state", "usage"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report lacks %q: %s", k, b)
		}
	}
	u := m["usage"].(map[string]any)
	if u["planner"].(map[string]any)["calls"] != 1.0 || u["executor"].(map[string]any)["output_tokens"] != 5.0 || u["replayed_steps"] != 1.0 {
		t.Errorf("usage = %v", u)
	}
	if m["result"] != "step limit" {
		t.Errorf("an unfinished goal's result should carry the reason: %s", b)
	}
	todo := m["todos"].([]any)[0].(map[string]any)
	if todo["text"] != "a" || todo["status"] != "done" || todo["steps"] != 3.0 || len(todo) != 3 {
		t.Errorf("todo = %v", todo)
	}
}

// TestDemoShowcaseEndToEnd runs the whole demo: embedded Temporal, the
// worker, the offline models and the simulated phone behind Debian's adb
// (when installed) and behind the built-in adb server.
func TestDemoShowcaseEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the embedded Temporal server; skipped with -short")
	}
	t.Run("builtin-adb", func(t *testing.T) { demoShowcase(t, "--builtin-adb") })
	t.Run("debian-adb", func(t *testing.T) {
		if _, err := exec.LookPath("adb"); err != nil {
			t.Skip("adb is not installed; the built-in adb server case covers the demo")
		}
		demoShowcase(t)
	})
}

func demoShowcase(t *testing.T, extra ...string) {
	dir := t.TempDir()
	port := stacktest.FreePortPair(t)
	args := append([]string{"demo", "--json", "--data-dir", dir, "--temporal-port", strconv.Itoa(port)}, extra...)
	out, code := execCLI(t, nil, "", []*cobra.Command{newDemoCmd()}, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	var rep demoReport
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &rep); err != nil {
		t.Fatalf("not one JSON object: %v\n%s", err, out)
	}
	if rep.Status != workflows.GoalDone || len(rep.Todos) != 3 || rep.Steps == 0 || !strings.HasPrefix(rep.WorkflowID, "goal-") {
		t.Fatalf("report = %+v", rep)
	}
	for _, td := range rep.Todos {
		if td.Status != workflows.TodoDone {
			t.Errorf("todo %q is %s", td.Text, td.Status)
		}
	}
	st := rep.SimState
	if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Alice Chen" || st.MessagesSent[0].Text != "07:00" || !st.Toggles.Bluetooth {
		t.Fatalf("phone state = %+v", st)
	}
	if !strings.Contains(rep.WebURL, "127.0.0.1:"+strconv.Itoa(port+1000)+"/namespaces/default/workflows/"+rep.WorkflowID) {
		t.Errorf("web url = %s", rep.WebURL)
	}
	t.Logf("showcase: %d steps, result %q", rep.Steps, rep.Result)
}
