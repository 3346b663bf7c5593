package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// runParseCmd runs the parse command's RunE on stdin and returns its output.
func runParseCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := newParseCmd()
	var out, errOut bytes.Buffer
	cmd.SetIn(strings.NewReader(stdin))
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	err = cmd.RunE(cmd, cmd.Flags().Args())
	return out.String(), errOut.String(), err
}

func TestParseCommandExecutor(t *testing.T) {
	out, errOut, err := runParseCmd(t, `<think>Tap the <b>Wi-Fi</b> switch.</think><answer>do(action="Tap", element=[500,300])</answer>`)
	if err != nil || errOut != "" {
		t.Fatalf("err=%v stderr=%q", err, errOut)
	}
	if want := `{"thinking":"Tap the <b>Wi-Fi</b> switch.","action":{"name":"Tap","element":[500,300]}}` + "\n"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	if strings.Count(out, "\n") != 1 {
		t.Errorf("output is not one line: %q", out)
	}
	out, _, err = runParseCmd(t, "```\ndo（action=“Launch”，app=“微信”）\n```")
	var got map[string]any
	if err != nil || json.Unmarshal([]byte(out), &got) != nil || got["action"].(map[string]any)["app"] != "微信" {
		t.Errorf("fullwidth variant: out=%q err=%v", out, err)
	}
}

func TestParseCommandRejects(t *testing.T) {
	for in, reason := range map[string]string{
		"I think the task is done.":           "no action found",
		`do(action="Tap", element=[x,y])`:     "placeholder",
		`do(action="Tap", element=[50,2000])`: "outside 0-999",
	} {
		out, errOut, err := runParseCmd(t, in)
		if exitCode(err) != exitFailure || out != "" {
			t.Errorf("%q: exit %d, stdout %q; want exit 1 and no output", in, exitCode(err), out)
		}
		if !strings.HasPrefix(errOut, "parse error: ") || !strings.Contains(errOut, reason) {
			t.Errorf("%q: stderr = %q, want the reason %q", in, errOut, reason)
		}
	}
	_, _, err := runParseCmd(t, "  \n")
	var ue usageError
	if !errors.As(err, &ue) {
		t.Errorf("empty stdin: %v, want a usage error", err)
	}
}

func TestParseCommandPlanner(t *testing.T) {
	out, _, err := runParseCmd(t, "```json\n{\"status\":\"planned\",\"plan\":[\"Turn on Wi-Fi\"],\"task_type\":\"toggle_setting\"}\n```", "--planner", "plan")
	if err != nil || out != `{"status":"planned","plan":["Turn on Wi-Fi"],"task_type":"toggle_setting"}`+"\n" {
		t.Errorf("plan: out=%q err=%v", out, err)
	}
	_, errOut, err := runParseCmd(t, `{"status":"replanned","plan":[]}`, "--planner", "replan")
	if exitCode(err) != exitFailure || !strings.Contains(errOut, "plan is empty") {
		t.Errorf("empty replan: err=%v stderr=%q", err, errOut)
	}
	if _, _, err := runParseCmd(t, "{}", "--planner", "later"); exitCode(err) != exitUsage {
		t.Errorf("bad phase: exit %d, want %d", exitCode(err), exitUsage)
	}
}

// TestParseProtocols reads one answer of each family under its protocol,
// and names the family under another.
func TestParseProtocols(t *testing.T) {
	for _, c := range []struct {
		answer string
		args   []string
		want   string
	}{
		{"Thought: open it\nAction: click(start_box='(546,1204)')", []string{"--protocol", "uitars"}, `"element":[500,500]`},
		{"Action: click(start_box='<|box_start|>(500,300)<|box_end|>')", []string{"--protocol", "uitars", "--coordinates", "relative"}, `"element":[500,300]`},
		{"<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": \"open\", \"text\": \"Settings\"}}\n</tool_call>", []string{"--protocol", "mobile_use"}, `"app":"Settings"`},
		{`{"name": "tap", "arguments": "{\"x\": 500, \"y\": 300}"}`, []string{"--protocol", "tools"}, `"element":[500,300]`},
		{`{"tool_calls": [{"type": "function", "function": {"name": "back", "arguments": "{}"}}]}`, []string{"--protocol", "tools"}, `"name":"Back"`},
		{`do(action="Back")`, []string{"--protocol", "phoneflow"}, `"name":"Back"`},
	} {
		out, errOut, err := runParseCmd(t, c.answer, c.args...)
		if err != nil || !strings.Contains(out, c.want) {
			t.Errorf("%v %q: %q %q %v, want %s", c.args, c.answer, out, errOut, err, c.want)
		}
	}
	_, errOut, err := runParseCmd(t, "Thought: x\nAction: press_back()")
	if exitCode(err) != exitFailure || !strings.Contains(errOut, "executor.protocol: uitars") {
		t.Errorf("a UI-TARS answer under autoglm: %q %v", errOut, err)
	}
	for _, args := range [][]string{{"--protocol", "glm"}, {"--coordinates", "px"}, {"--screen", "big"}} {
		if _, _, err := runParseCmd(t, "x", args...); exitCode(err) != exitUsage {
			t.Errorf("%v: %v, want exit %d", args, err, exitUsage)
		}
	}
}

// TestParseAnswerAsArgument reads the answer from the argument.
func TestParseAnswerAsArgument(t *testing.T) {
	out, _, err := runParseCmd(t, "", `do(action="Home")`)
	if err != nil || !strings.Contains(out, `"name":"Home"`) {
		t.Fatalf("%q %v", out, err)
	}
}
