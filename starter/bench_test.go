package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/bench"
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

// TestBenchRefusesAReportFileItCannotMerge: a --report file without the
// section markers is refused before anything is measured, and left as it
// was.
func TestBenchRefusesAReportFileItCannotMerge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "NOTES.md")
	const text = "# my notes\n\n## 1. Overhead\n\nfigures\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := execCLI(t, nil, "", []*cobra.Command{newBenchCmd()}, "bench", "--only", "settle", "--report", path)
	if code != exitUsage || !strings.Contains(out, "write the report to a new file") || strings.Contains(out, "bench: settle") {
		t.Errorf("exit %d, want 2 with the fix named and nothing measured:\n%s", code, out)
	}
	if b, _ := os.ReadFile(path); string(b) != text {
		t.Errorf("the refused file changed:\n%s", b)
	}
	out, code = execCLI(t, nil, "", []*cobra.Command{newBenchCmd()}, "bench", "--fleet", "2", "--report", path)
	if code != exitUsage || !strings.Contains(out, "--fleet prints its table to stdout") {
		t.Errorf("--fleet with --report: exit %d, want 2:\n%s", code, out)
	}
}

// TestBenchWritesOrMergesTheReportFile: a new file gets the whole report;
// an existing one only the measured section, its kept text byte for byte.
func TestBenchWritesOrMergesTheReportFile(t *testing.T) {
	rep := &bench.Report{Command: "go run ./starter bench --only settle", Runs: 1, Sections: []bench.Section{{
		Name: bench.MeasureSettle, Began: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC),
		Tables: []bench.Table{{Title: bench.Headings[bench.MeasureSettle], Header: []string{"mode"}, Rows: [][]string{{"settle"}}}},
	}}}
	dir := t.TempDir()
	fresh := filepath.Join(dir, "NEW.md")
	if err := writeReport(fresh, nil, rep); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(fresh)
	if !strings.Contains(string(b), "<!-- bench:settle -->") || !strings.Contains(string(b), "Measured by other commands") {
		t.Errorf("new report:\n%s", b)
	}
	kept := "<!-- kept: measured by go run ./starter eval -->\n## Evals\n\n| a |\n|---|\n| 1 |\n<!-- /kept -->\n"
	file := "# phoneflow benchmarks\n\n<!-- bench:settle -->\nold\n<!-- /bench:settle -->\n\n" + kept
	old := filepath.Join(dir, "BENCHMARKS.md")
	if err := os.WriteFile(old, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	existing, err := readReportFile(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeReport(old, existing, rep); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(old)
	if strings.Contains(string(b), "\nold\n") || !strings.HasSuffix(string(b), "\n\n"+kept) || !strings.Contains(string(b), "| settle |") {
		t.Errorf("merged report:\n%s", b)
	}
	if st, _ := os.Stat(old); st.Mode().Perm() != 0o600 {
		t.Errorf("merged file mode %v, want the old file's 0600", st.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("files left beside the report: %v", entries)
	}
}

func TestBenchHelpSaysHowTheReportIsMerged(t *testing.T) {
	long := newBenchCmd().Long
	for _, want := range []string{"<!-- bench:NAME -->", "<!-- kept: measured by <command> -->", "is refused", "phone-wait"} {
		if !strings.Contains(long, want) {
			t.Errorf("bench --help lacks %q", want)
		}
	}
}
