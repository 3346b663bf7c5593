package bench

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// Table is one table of a measurement's result.
type Table struct {
	Title  string
	Note   string // how it was measured, what the numbers mean
	Header []string
	Rows   [][]string
	// Findings are plain statements about the figures (bad ones included).
	Findings []string
}

// Section is one measurement of a run: its tables and when and under
// what load it was taken. It is the unit a report file replaces
// (<!-- bench:NAME --> … <!-- /bench:NAME -->, see Merge).
type Section struct {
	Name   string // one of Measurements
	Began  time.Time
	Load   string // load averages at its start and end, from /proc/loadavg
	Tables []Table
	Err    string // why the measurement did not finish, or ""
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
	Sections  []Section
	Errors    []string // measurements that could not be taken, and why
}

// Tables returns the tables of every section, in order.
func (r Report) Tables() []Table {
	var ts []Table
	for _, s := range r.Sections {
		ts = append(ts, s.Tables...)
	}
	return ts
}

// Headings are the section headings of the measurements, stable from run
// to run so that links into a report keep working.
var Headings = map[string]string{
	MeasureOverhead:   "Orchestration overhead",
	MeasureHistory:    "History cost",
	MeasureScale:      "Scale: phones on one worker",
	MeasureScreenshot: "Screenshot pipeline",
	MeasureSettle:     "Settle waiting against a fixed 1 s delay",
	MeasureRobustness: "Robustness of the agent loop at 20% and 50% wrong taps",
	MeasureCost:       "Cost per goal",
	MeasurePhoneWait:  "Waiting for the phone",
	MeasurePhoneCosts: "Seconds per step on a phone's costs",
	MeasureFanOut20:   "One fan-out over 20 phones against 20 goals by hand",
}

// OtherCommands says which measurements a report file holds that `starter
// bench` does not take, and how a file keeps them.
const OtherCommands = "Measured by other commands, not by `starter bench`: the evaluation sets (`starter eval`), the generated task " +
	"suite (`starter eval --suite generated`), the real-screen corpus (`go test ./internal/realscreens`), prompt optimisation " +
	"(`starter eval --suite prompt-opt`), the drills and the fault campaign (`go test ./internal/drill/...`), the soaks and " +
	"routines (`go test ./internal/eval`, `./internal/e2e/routines`), the cluster (`go test -tags bench ./internal/cluster`), " +
	"the journal on the phone (`go test -bench PhoneJournal ./activities`) and the fleet (`starter bench --fleet N`). " +
	"A report file keeps them between `<!-- kept: measured by <command> -->` and `<!-- /kept -->`; `starter bench --report` " +
	"replaces only the sections between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` it measured."

// Render writes the report as a new markdown file: a header, one section
// per measurement between its markers, the measurements that failed, and
// the line that says what other commands measure.
func (r Report) Render(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# phoneflow benchmarks\n\n")
	b.WriteString("What `starter bench` measured on this machine: each section says when, at which commit, on what machine and under " +
		"what load it was measured, and the command that measured it.\n\n")
	fmt.Fprintf(&b, "- Machine: %s\n", r.Machine.line())
	fmt.Fprintf(&b, "- Command: `%s`\n", r.Command)
	b.WriteString("- Rerun: `go run ./starter bench --report BENCHMARKS.md` (needs the `adb` binary; `--quick` for a short check, " +
		"`--only NAME` for one measurement: only its section is replaced)\n")
	for _, s := range r.Sections {
		if s.Err != "" && len(s.Tables) == 0 {
			continue
		}
		b.WriteString("\n")
		b.WriteString(r.Block(s))
	}
	if len(r.Errors) > 0 {
		b.WriteString("\n## Not measured\n\n")
		for _, e := range r.Errors {
			b.WriteString("- " + e + "\n")
		}
	}
	b.WriteString("\n" + OtherCommands + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// Block renders one measurement's section with its markers: the heading,
// the line that says when, where and how it was measured, then its tables
// (the first under the heading, the others under their own titles).
func (r Report) Block(s Section) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n## %s\n\n", openMarker(s.Name), heading(s.Name))
	b.WriteString(r.stamp(s) + "\n")
	for i, t := range s.Tables {
		if i > 0 || (t.Title != "" && t.Title != heading(s.Name)) {
			fmt.Fprintf(&b, "\n### %s\n", t.Title)
		}
		if t.Note != "" {
			b.WriteString("\n" + t.Note + "\n")
		}
		if len(t.Header) > 0 {
			b.WriteString("\n| " + strings.Join(t.Header, " | ") + " |\n")
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
	if s.Err != "" {
		fmt.Fprintf(&b, "\nNot finished: %s\n", s.Err)
	}
	b.WriteString(closeMarker(s.Name) + "\n")
	return b.String()
}

// stamp is the line under a section's heading: date, commit, machine,
// load, repetitions, stack and the command.
func (r Report) stamp(s Section) string {
	code := r.Code
	if code == "" {
		code = "an unrecorded commit (the binary carries no VCS stamp)"
	}
	store := "in-memory SQLite"
	if r.FileStore {
		store = "SQLite file, write-ahead log"
	}
	runs := fmt.Sprintf("%d runs", r.Runs)
	if r.Runs == 1 {
		runs = "1 run"
	}
	line := fmt.Sprintf("Measured %s at %s with `%s`; %s", s.Began.UTC().Format("2006-01-02 15:04 UTC"), code, r.Command, r.Machine.line())
	if s.Load != "" {
		line += "; load average (1/5/15 min) " + s.Load
	}
	return line + fmt.Sprintf("; %s, figures are median (min–max) unless said otherwise; embedded Temporal server (%s), offline model server "+
		"on loopback, simulated phones behind a private `adb` server, the worker in the same process.", runs, store)
}

func (m Machine) line() string {
	return fmt.Sprintf("%d CPUs (%s), %.1f GiB memory, %s, %s", m.CPUs, orNA(m.CPUModel), m.MemoryGB, m.OS, m.GoVer)
}

func heading(name string) string {
	if h, ok := Headings[name]; ok {
		return h
	}
	return name
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
		return "commit `" + rev + "` + uncommitted changes"
	}
	return "commit `" + rev + "`"
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
