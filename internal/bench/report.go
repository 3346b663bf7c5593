package bench

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// Table is one measurement's result.
type Table struct {
	Title  string
	Note   string // how it was measured, what the numbers mean
	Header []string
	Rows   [][]string
	// Findings are plain statements about the figures (bad ones included).
	Findings []string
}

// Report is a whole benchmark run.
type Report struct {
	Machine Machine
	Date    time.Time
	Command string
	Load    string // load averages at start and end, from /proc/loadavg
	Runs    int
	Code    string // the commit the binary was built from
	// FileStore: the embedded server's store was a SQLite file, not memory.
	FileStore bool
	Tables    []Table
	Errors    []string // measurements that could not be taken, and why
}

// Render writes the report as markdown.
func (r Report) Render(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# phoneflow benchmarks\n\n")
	fmt.Fprintf(&b, "- Date: %s\n", r.Date.UTC().Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "- Machine: %d CPUs (%s), %.1f GiB memory, %s, %s\n", r.Machine.CPUs, orNA(r.Machine.CPUModel), r.Machine.MemoryGB, r.Machine.OS, r.Machine.GoVer)
	if r.Load != "" {
		fmt.Fprintf(&b, "- Load average (1/5/15 min): %s\n", r.Load)
	}
	fmt.Fprintf(&b, "- Repetitions per measurement: %d; figures are median (min–max) unless said otherwise\n", r.Runs)
	fmt.Fprintf(&b, "- Command: `%s`\n", r.Command)
	b.WriteString("- Rerun: `go run ./starter bench --report BENCHMARKS.md` (needs the `adb` binary; `--quick` for a short check, `--only NAME` for one measurement)\n")
	if r.Code != "" {
		fmt.Fprintf(&b, "- Code: %s\n", r.Code)
	}
	store := "in-memory SQLite"
	if r.FileStore {
		store = "SQLite file, write-ahead log"
	}
	fmt.Fprintf(&b, "- Stack: embedded Temporal server (%s) in this process, offline model server over HTTP on loopback, simulated phones behind a private `adb` server, the worker in this process\n", store)
	for _, t := range r.Tables {
		fmt.Fprintf(&b, "\n## %s\n\n", t.Title)
		if t.Note != "" {
			b.WriteString(t.Note + "\n\n")
		}
		if len(t.Header) > 0 {
			b.WriteString("| " + strings.Join(t.Header, " | ") + " |\n")
			b.WriteString("|" + strings.Repeat(" --- |", len(t.Header)) + "\n")
			for _, row := range t.Rows {
				cells := make([]string, len(t.Header))
				copy(cells, row)
				for i, c := range cells {
					cells[i] = strings.ReplaceAll(c, "|", `\|`)
				}
				b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
			}
		}
		if len(t.Findings) > 0 {
			b.WriteString("\n")
			for _, f := range t.Findings {
				b.WriteString("- " + f + "\n")
			}
		}
	}
	if len(r.Errors) > 0 {
		b.WriteString("\n## Not measured\n\n")
		for _, e := range r.Errors {
			b.WriteString("- " + e + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNA(s string) string {
	if s == "" {
		return "model unknown"
	}
	return s
}

// BuildCommit names the VCS revision the running binary was built from,
// with "+ uncommitted changes" when the tree was modified, or "".
func BuildCommit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified == "true" {
		return "commit " + rev + " + uncommitted changes"
	}
	return "commit " + rev
}

// LoadAvg returns the first three fields of /proc/loadavg, or "".
func LoadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
