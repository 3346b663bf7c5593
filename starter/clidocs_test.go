package main

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// undocumented returns the names of root's commands that page never shows
// as `starter NAME` or `starter NAME …`.
func undocumented(root *cobra.Command, page string) []string {
	var out []string
	for _, c := range root.Commands() {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			continue
		}
		if !strings.Contains(page, "`starter "+c.Name()+"`") && !strings.Contains(page, "`starter "+c.Name()+" ") {
			out = append(out, c.Name())
		}
	}
	return out
}

// TestCLIPageListsEveryCommand keeps the command list of docs/cli.md in step
// with the starter's commands.
func TestCLIPageListsEveryCommand(t *testing.T) {
	b, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatalf("read docs/cli.md: %v", err)
	}
	if len(rootCmd.Commands()) < 10 {
		t.Fatalf("the starter has only %d commands registered; the check would prove nothing", len(rootCmd.Commands()))
	}
	for _, name := range undocumented(rootCmd, string(b)) {
		t.Errorf("docs/cli.md does not list `starter %s`: add it to the table of commands by job", name)
	}
}

// TestCLIPageCheckCatchesAMissingCommand makes sure the check above fails on
// a command the page leaves out.
func TestCLIPageCheckCatchesAMissingCommand(t *testing.T) {
	root := &cobra.Command{Use: "starter"}
	root.AddCommand(&cobra.Command{Use: "run GOAL"}, &cobra.Command{Use: "schedule"}, &cobra.Command{Use: "frob"})
	got := undocumented(root, "| `starter run` | `starter schedule create`, `list` |")
	if !slices.Equal(got, []string{"frob"}) {
		t.Errorf("undocumented = %q, want [frob]", got)
	}
}
