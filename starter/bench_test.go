package main

import (
	"testing"

	"github.com/spf13/cobra"
)

func TestBenchArgumentErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "extra"},
		{"bench", "--runs", "0"},
		{"bench", "--only", "speed"},
		{"bench", "--runs", "many"},
	} {
		out, code := execCLI(t, nil, "", []*cobra.Command{newBenchCmd()}, args...)
		if code != exitUsage {
			t.Errorf("%q: exit %d, want 2\n%s", args, code, out)
		}
	}
}

func TestBenchCommandLine(t *testing.T) {
	for _, c := range []struct {
		f       benchFlags
		runs    int
		runsSet bool
		want    string
	}{
		{benchFlags{report: "BENCHMARKS.md"}, 5, false, "go run ./starter bench --report BENCHMARKS.md"},
		{benchFlags{quick: true}, 1, false, "go run ./starter bench --quick"},
		{benchFlags{only: "scale"}, 3, true, "go run ./starter bench --runs 3 --only scale"},
	} {
		if got := benchCommand(c.f, c.runs, c.runsSet); got != c.want {
			t.Errorf("benchCommand(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
}
