package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// A command's help lists the flags it uses, not every setting of the
// worker.
func TestHelpListsOnlyUsedFlags(t *testing.T) {
	for _, c := range []struct {
		args        []string
		want, unfit []string
	}{
		{[]string{"status", "--help"}, []string{"--temporal-address", "--namespace", "--tls", "--follow"}, []string{"--planner-base-url", "--settle", "--data-dir", "--codec-address", "--max-steps"}},
		{[]string{"approve", "--help"}, []string{"--temporal-address", "--note"}, []string{"--executor-model", "--allow-device", "--log-format"}},
		{[]string{"run", "--help"}, []string{"--temporal-address", "--max-steps", "--auto-approve", "--adb-address", "--device"}, []string{"--planner-base-url", "--settle", "--data-dir", "--log-level"}},
		{[]string{"schedule", "list", "--help"}, []string{"--temporal-address"}, []string{"--executor-base-url", "--max-steps"}},
		{[]string{"models", "check", "--help"}, []string{"--planner-base-url", "--executor-model"}, []string{"--temporal-address", "--settle"}},
	} {
		out, code := execCLI(t, nil, "", []*cobra.Command{newStatusCmd(), newRunCmd(), newScheduleCmd(), newModelsCmd(), newSignalCmds()[1]}, c.args...)
		if code != 0 {
			t.Fatalf("%q: exit %d\n%s", c.args, code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%q: help lacks %s", c.args, w)
			}
		}
		for _, u := range c.unfit {
			if strings.Contains(out, u+" ") {
				t.Errorf("%q: help lists %s, which the command does not use", c.args, u)
			}
		}
	}
}
