package device

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
)

// NotesDir is where phoneflow keeps records of its own on a phone, so that
// any host that reaches the phone reads them (docs/design.md §4):
// /data/local/tmp belongs to the shell user on every Android.
const NotesDir = "/data/local/tmp/phoneflow"

// Notes is a phone that keeps small files for phoneflow in its own storage,
// under NotesDir, each read or write one shell round trip.
type Notes interface {
	// ReadNotes returns the files named (paths under NotesDir; a file that
	// does not exist is left out) and the names in directory list.
	ReadNotes(ctx context.Context, files []string, list string) (got map[string]string, listed []string, err error)
	// WriteNotes replaces each file of w atomically, creates its marks,
	// removes its drops, and then lists w.List.
	WriteNotes(ctx context.Context, w NotesWrite) (listed []string, err error)
}

// NotesWrite is one write of notes; paths are under NotesDir.
type NotesWrite struct {
	// Files are replaced through a temporary file renamed over them. A
	// file's content is one line of text (no newline, no NUL).
	Files map[string]string
	// Marks are empty files created when missing.
	Marks []string
	// Drop are files removed.
	Drop []string
	// Prune removes the files under this directory not modified for
	// PruneDays days; "" prunes nothing.
	Prune     string
	PruneDays int
	// List is the directory listed after the write.
	List string
}

// ErrNotesRefused says the phone ran the command that keeps the notes and
// it failed: its storage cannot be written (full, read-only, or no access
// for the shell user), as opposed to a connection that broke.
var ErrNotesRefused = errors.New("the phone refused to write under " + NotesDir)

// ErrNoNotes is returned by a wrapper of a phone that keeps no notes (a
// test double, not an ADB phone).
var ErrNoNotes = errors.New("this phone keeps no notes")

// Markers the note commands print, so a stream cut short is never taken
// for files that are not there.
const (
	notesList    = "phoneflow:notes-list"
	notesEnd     = "phoneflow:notes-end"
	notesWritten = "phoneflow:notes-written"
	notesFile    = "phoneflow:notes-file "
)

// maxNoteChunk is how much of a file goes into one shell command: adbd
// and the shell take commands of a few tens of kilobytes everywhere.
const maxNoteChunk = 24 << 10

var _ Notes = (*adbDevice)(nil)

func (d *adbDevice) ReadNotes(ctx context.Context, files []string, list string) (map[string]string, []string, error) {
	var b strings.Builder
	for _, f := range files {
		p, err := notePath(f)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(&b, "echo %s; cat %s 2>/dev/null; ", shellQuote(notesFile+f), shellQuote(p))
	}
	if list != "" {
		p, err := notePath(list)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(&b, "echo %s; ls %s 2>/dev/null; ", notesList, shellQuote(p))
	}
	b.WriteString("echo " + notesEnd)
	out, err := d.shell(ctx, b.String())
	if err != nil {
		return nil, nil, fmt.Errorf("device %s: read %s: %w", d.serial, NotesDir, err)
	}
	if !strings.Contains(out, notesEnd) {
		return nil, nil, fmt.Errorf("device %s: read %s: the connection ended before the read finished", d.serial, NotesDir)
	}
	got, listed := parseNotes(out)
	return got, listed, nil
}

// parseNotes splits the output of a read into its files and its listing.
func parseNotes(out string) (map[string]string, []string) {
	got := map[string]string{}
	var listed []string
	cur, listing := "", false
	for _, line := range strings.Split(strings.ReplaceAll(out, "\r\n", "\n"), "\n") {
		switch {
		case line == notesEnd:
			return got, listed
		case line == notesList:
			cur, listing = "", true
		case strings.HasPrefix(line, notesFile):
			cur, listing = strings.TrimPrefix(line, notesFile), false
		case listing && line != "":
			listed = append(listed, line)
		case cur != "" && line != "":
			// One line per file: a second one is a file written by
			// something else; the first one counts.
			if _, ok := got[cur]; !ok {
				got[cur] = line
			}
		}
	}
	return got, listed
}

func (d *adbDevice) WriteNotes(ctx context.Context, w NotesWrite) ([]string, error) {
	// umask 077: the files are the shell user's only (apps cannot read
	// them); mkdir -p makes the directories the first time.
	pre := "umask 077"
	dirs := map[string]bool{}
	names := make([]string, 0, len(w.Files))
	for f := range w.Files {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range append(append([]string{}, names...), w.Marks...) {
		p, err := notePath(f)
		if err != nil {
			return nil, err
		}
		dirs[path.Dir(p)] = true
	}
	if len(dirs) > 0 {
		ds := make([]string, 0, len(dirs))
		for dir := range dirs {
			ds = append(ds, shellQuote(dir))
		}
		sort.Strings(ds)
		pre += " && mkdir -p " + strings.Join(ds, " ")
	}
	var steps []string
	for _, f := range names {
		p, _ := notePath(f)
		data := w.Files[f]
		if strings.ContainsAny(data, "\n\x00") {
			return nil, fmt.Errorf("note %s: its content must be one line", f)
		}
		tmp := path.Join(path.Dir(p), "."+path.Base(p)+".tmp")
		// A long file goes out in chunks, each a round trip of its own,
		// appended to the temporary file; the last one renames it.
		for first := true; ; first = false {
			chunk := data
			if len(chunk) > maxNoteChunk {
				chunk = chunk[:chunkEnd(chunk)]
			}
			data = data[len(chunk):]
			op := ">>"
			if first {
				op = ">"
			}
			if data == "" {
				steps = append(steps, fmt.Sprintf("printf '%%s\\n' %s %s %s && mv %s %s", shellQuote(chunk), op, shellQuote(tmp), shellQuote(tmp), shellQuote(p)))
				break
			}
			if _, err := d.runNotes(ctx, pre+" && "+fmt.Sprintf("printf '%%s' %s %s %s", shellQuote(chunk), op, shellQuote(tmp)), "", ""); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range w.Marks {
		p, _ := notePath(m)
		steps = append(steps, "touch "+shellQuote(p))
	}
	if len(w.Drop) > 0 {
		var ps []string
		for _, f := range w.Drop {
			p, err := notePath(f)
			if err != nil {
				return nil, err
			}
			ps = append(ps, shellQuote(p))
		}
		steps = append(steps, "rm -f "+strings.Join(ps, " "))
	}
	prune := ""
	if w.Prune != "" && w.PruneDays > 0 {
		p, err := notePath(w.Prune)
		if err != nil {
			return nil, err
		}
		// After the write's marker: a prune that fails leaves old files,
		// nothing else.
		prune = fmt.Sprintf("find %s -type f -mtime +%d -delete 2>/dev/null", shellQuote(p), w.PruneDays)
	}
	cmd := strings.Join(append([]string{pre}, steps...), " && ")
	return d.runNotes(ctx, cmd, prune, w.List)
}

// runNotes runs a write command (through the shell adbd runs every
// command with), then after, whether it failed or not, and lists dir; it
// tells a command the phone refused from a connection that broke.
func (d *adbDevice) runNotes(ctx context.Context, cmd, after, list string) ([]string, error) {
	full := cmd + " && echo " + notesWritten
	if after != "" {
		full += "; " + after
	}
	if list != "" {
		p, err := notePath(list)
		if err != nil {
			return nil, err
		}
		full += fmt.Sprintf("; echo %s; ls %s 2>/dev/null", notesList, shellQuote(p))
	}
	full += "; echo " + notesEnd
	out, err := d.shell(ctx, full)
	if err != nil {
		return nil, fmt.Errorf("device %s: write %s: %w", d.serial, NotesDir, err)
	}
	if !strings.Contains(out, notesEnd) {
		return nil, fmt.Errorf("device %s: write %s: the connection ended before the write finished", d.serial, NotesDir)
	}
	if !strings.Contains(out, notesWritten) {
		msg := strings.TrimSpace(out[:strings.Index(out, notesEnd)])
		if i := strings.Index(msg, notesList); i >= 0 {
			msg = strings.TrimSpace(msg[:i])
		}
		return nil, fmt.Errorf("device %s: %w: %s", d.serial, ErrNotesRefused, clip(msg))
	}
	_, listed := parseNotes(out[strings.Index(out, notesWritten):])
	return listed, nil
}

// chunkEnd is where the first chunk of s ends: at most maxNoteChunk
// bytes, on a rune boundary.
func chunkEnd(s string) int {
	n := maxNoteChunk
	for n > 0 && n < len(s) && s[n]&0xc0 == 0x80 {
		n--
	}
	return n
}

// notePath is the path on the phone of a note named rel.
func notePath(rel string) (string, error) {
	p := path.Clean("/" + rel)
	if rel == "" || p == "/" || strings.ContainsAny(rel, "\n\x00") {
		return "", fmt.Errorf("note %q: not a file under %s", rel, NotesDir)
	}
	return NotesDir + p, nil
}

// shellQuote quotes s for the phone's shell: in single quotes, each
// single quote in s closing the quotes, escaped, and opening them again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
