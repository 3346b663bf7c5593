package main

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
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

// The demo refuses the flags whose settings its own parts replace, saying
// what it uses instead, and its help lists only the flags it honours, with
// the defaults it uses.
func TestDemoRefusesFlagsItReplaces(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"demo", "--executor-base-url", "http://127.0.0.1:1/v1"}, "serves its offline models itself"},
		{[]string{"demo", "--executor-model", "autoglm-phone-9b"}, "offline-executor"},
		{[]string{"demo", "--planner-model", "gpt-x"}, "offline-planner"},
		{[]string{"demo", "--connect", "10.0.0.2:5555"}, "docs/phones.md"},
		{[]string{"demo", "--adb-address", "127.0.0.1:5037"}, "--builtin-adb"},
		{[]string{"demo", "--allow-device", "emulator-5554"}, "only its own simulated phone"},
		{[]string{"demo", "--temporal-address", "10.0.0.1:7233"}, "--temporal-port"},
		{[]string{"demo", "--tls"}, "without TLS"},
	} {
		out, code := execCLI(t, nil, "", []*cobra.Command{newDemoCmd()}, c.args...)
		if code != exitUsage || !strings.Contains(out, "--"+strings.TrimPrefix(c.args[1], "--")+":") || !strings.Contains(out, c.want) {
			t.Errorf("%q: exit %d, want 2 and a message naming the flag and %q\n%s", c.args, code, c.want, out)
		}
	}
	out, code := execCLI(t, nil, "", []*cobra.Command{newDemoCmd()}, "demo", "--help")
	if code != 0 {
		t.Fatalf("demo --help: exit %d\n%s", code, out)
	}
	for _, unfit := range []string{"--executor-base-url", "--executor-model", "--planner-base-url", "--connect", "--adb-address", "--allow-device", "--temporal-address", "--tls"} {
		if strings.Contains(out, unfit+" ") {
			t.Errorf("demo --help lists %s, which the demo does not take:\n%s", unfit, out)
		}
	}
	for _, want := range []string{"--temporal-port", "--temporal-ui-port", `(default ".phoneflow/demo")`, `(default "warn")`} {
		if !strings.Contains(out, want) {
			t.Errorf("demo --help lacks %s:\n%s", want, out)
		}
	}
}

// A model named by the environment (or the file) does not switch the
// demo's offline executor to another request layout; the demo says so.
func TestDemoKeepsTheOfflineProfile(t *testing.T) {
	t.Setenv("PHONEFLOW_EXECUTOR_MODEL", "autoglm-phone-9b")
	cmd := newDemoCmd()
	cfg, note, err := loadDemoConfig(cmd.Flags())
	if err != nil {
		t.Fatal(err)
	}
	def, _, err := config.Load(config.LoadOptions{Env: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Executor.Model != config.DefaultExecutorModel || cfg.Executor.Protocol != def.Executor.Protocol || cfg.Executor.Lang != def.Executor.Lang {
		t.Errorf("executor = %s/%s/%s, want the offline one %s/%s/%s", cfg.Executor.Model, cfg.Executor.Protocol, cfg.Executor.Lang,
			def.Executor.Model, def.Executor.Protocol, def.Executor.Lang)
	}
	if !strings.Contains(note, `executor.model "autoglm-phone-9b"`) || !strings.Contains(note, "PHONEFLOW_EXECUTOR_MODEL") {
		t.Errorf("note = %q, want it to name the model it does not use and where it came from", note)
	}
}
