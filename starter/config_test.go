package main

import (
	"bytes"
	"strings"
	"testing"
)

func runConfigCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newConfigCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

func TestConfigCmdPrintsSourcesAndMasksSecrets(t *testing.T) {
	const secret = "sk-do-not-print-me"
	t.Setenv("MODEL_API_KEY", secret)
	t.Setenv("PHONEFLOW_LIMITS_MAX_STEPS", "42")
	t.Chdir(t.TempDir()) // no phoneflow.yaml here
	t.Setenv("HOME", t.TempDir())
	out, err := runConfigCmd(t, "--namespace", "team")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`temporal.namespace: "team"`, "# flag:--namespace",
		"limits.max_steps: 42", "# env:PHONEFLOW_LIMITS_MAX_STEPS",
		`executor.api_key: "****"`, "# env:MODEL_API_KEY",
		`planner.api_key: ""`,
		`adb.address: "127.0.0.1:5037"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, secret) {
		t.Errorf("output shows the secret:\n%s", out)
	}
}

func TestConfigCmdBadValue(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PHONEFLOW_SETTLE_MODE", "sometimes")
	_, err := runConfigCmd(t)
	if err == nil || exitCode(err) != exitUsage {
		t.Fatalf("want a usage error, got %v", err)
	}
	if !strings.Contains(err.Error(), `settle.mode: "sometimes" is not allowed: one of settle, fixed, none`) {
		t.Errorf("message: %v", err)
	}
	t.Setenv("PHONEFLOW_SETTLE_MODE", "")
	_, err = runConfigCmd(t, "--max-steps", "abc")
	if err == nil || !strings.Contains(err.Error(), `limits.max_steps: "abc" is not an integer`) {
		t.Errorf("type error: %v", err)
	}
}
