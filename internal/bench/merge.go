package bench

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// A report file is markdown in which `starter bench` owns the sections
// between <!-- bench:NAME --> and <!-- /bench:NAME --> (NAME one of
// Measurements) and nothing else. Text between <!-- kept: measured by
// <command> --> and <!-- /kept --> holds what other commands measured;
// it, the header and any text outside the markers are kept byte for byte.
// A file with no markers at all is refused, not merged: it was not written
// by `starter bench`, and nothing of it may be lost.

var (
	benchOpenRe  = regexp.MustCompile(`^<!-- bench:([a-z0-9-]+) -->$`)
	benchCloseRe = regexp.MustCompile(`^<!-- /bench:([a-z0-9-]+) -->$`)
	keptOpenRe   = regexp.MustCompile(`^<!-- kept(?:: .*)? -->$`)
	keptCloseRe  = regexp.MustCompile(`^<!-- /kept -->$`)
)

func openMarker(name string) string  { return "<!-- bench:" + name + " -->" }
func closeMarker(name string) string { return "<!-- /bench:" + name + " -->" }

// ErrNoMarkers is returned for a report file that has none of the markers.
var ErrNoMarkers = errors.New("has no <!-- bench:NAME --> or <!-- kept --> markers, so it was not written by `starter bench --report` " +
	"and merging into it could lose text: write the report to a new file, or mark the sections it measures with " +
	"<!-- bench:NAME --> … <!-- /bench:NAME --> and the rest with <!-- kept: measured by <command> --> … <!-- /kept -->")

// span is one marked block of a report file, by byte offsets: [start, end)
// covers both marker lines and their line ends.
type span struct {
	name       string // the measurement; "" for a kept block
	start, end int
	line       int
}

// parseMarkers finds the marked blocks of a report file and checks that
// they are well formed: every block closed, none inside another, no
// measurement twice.
func parseMarkers(file []byte) ([]span, error) {
	var spans []span
	var open *span
	seen := map[string]int{}
	off := 0
	for i, raw := range bytes.SplitAfter(file, []byte("\n")) {
		line := strings.TrimRight(string(raw), "\r\n")
		n := i + 1
		switch {
		case benchOpenRe.MatchString(line), keptOpenRe.MatchString(line):
			name := ""
			if m := benchOpenRe.FindStringSubmatch(line); m != nil {
				name = m[1]
			}
			if open != nil {
				return nil, fmt.Errorf("line %d: %q opens a section inside the one opened at line %d: close that one first", n, line, open.line)
			}
			if name != "" {
				if at, dup := seen[name]; dup {
					return nil, fmt.Errorf("line %d: a second section %q (the first is at line %d): keep one", n, name, at)
				}
				seen[name] = n
			}
			open = &span{name: name, start: off, line: n}
		case benchCloseRe.MatchString(line), keptCloseRe.MatchString(line):
			name := ""
			if m := benchCloseRe.FindStringSubmatch(line); m != nil {
				name = m[1]
			}
			if open == nil || open.name != name {
				return nil, fmt.Errorf("line %d: %q closes no section opened before it", n, line)
			}
			open.end = off + len(raw)
			spans = append(spans, *open)
			open = nil
		}
		off += len(raw)
	}
	if open != nil {
		return nil, fmt.Errorf("line %d: the section it opens is never closed", open.line)
	}
	return spans, nil
}

// CheckReportFile tells whether a report can be merged into file, before
// any measurement runs: nil when it can.
func CheckReportFile(file []byte) error {
	spans, err := parseMarkers(file)
	if err != nil {
		return err
	}
	if len(spans) == 0 {
		return ErrNoMarkers
	}
	return nil
}

// Merge writes the report's measured sections into an existing report
// file: each section replaces the block of the same measurement, and one
// the file lacks is added after the file's last measured block (or before
// its first kept block, or at its end). Everything else stays byte for
// byte. A measurement that did not finish replaces nothing: the file keeps
// its older figures, and the run's errors say what failed.
func (r Report) Merge(file []byte) ([]byte, error) {
	spans, err := parseMarkers(file)
	if err != nil {
		return nil, err
	}
	if len(spans) == 0 {
		return nil, ErrNoMarkers
	}
	blocks := map[string]string{}
	var added []string
	for _, s := range r.Sections {
		if s.Err != "" {
			continue
		}
		blocks[s.Name] = r.Block(s)
		found := false
		for _, sp := range spans {
			found = found || sp.name == s.Name
		}
		if !found {
			added = append(added, s.Name)
		}
	}
	insertAt, before := len(file), false // before: the added blocks go before the text at insertAt
	lastBench, firstKept := -1, -1
	for _, sp := range spans {
		if sp.name != "" {
			lastBench = sp.end
		} else if firstKept < 0 {
			firstKept = sp.start
		}
	}
	switch {
	case lastBench >= 0:
		insertAt = lastBench
	case firstKept >= 0:
		insertAt, before = firstKept, true
	}
	var out bytes.Buffer
	inserted := false
	insert := func() {
		if inserted {
			return
		}
		inserted = true
		for _, name := range added {
			if before {
				out.WriteString(blocks[name] + "\n")
				continue
			}
			if out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
				out.WriteString("\n")
			}
			out.WriteString("\n" + blocks[name])
		}
	}
	off := 0
	for _, sp := range spans {
		out.Write(file[off:sp.start])
		if before && insertAt == sp.start {
			insert()
		}
		if b, ok := blocks[sp.name]; ok && sp.name != "" {
			out.WriteString(b)
		} else {
			out.Write(file[sp.start:sp.end])
		}
		off = sp.end
		if !before && insertAt == sp.end {
			insert()
		}
	}
	out.Write(file[off:])
	insert()
	return out.Bytes(), nil
}
