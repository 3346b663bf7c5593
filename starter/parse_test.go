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
	err = cmd.RunE(cmd, nil)
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
