package routine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// ErrNotFound is wrapped when a routine ID names no routine.
var ErrNotFound = errors.New("no such routine")

// Store is a directory of routines, one JSON file per routine named by its
// ID. Writes go through a temporary file renamed into place, under a lock
// file shared by every process on the host, so a reader never sees half a
// routine and two workers never lose each other's counts. One host only: a
// fleet shares routines by giving each host the same files (see
// docs/design.md §22).
type Store struct {
	dir string
}

// Open returns the store in dir, creating the directory.
func Open(dir string) (*Store, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, errors.New("routine store: empty directory: set data_dir in the config")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("routine store: create %s: %w", dir, err)
	}
	return &Store{dir: dir}, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(id string) string { return filepath.Join(s.dir, id+".json") }

// validID keeps IDs to the shape Key.ID writes, so a name typed on the
// command line cannot reach outside the directory.
func validID(id string) bool {
	if !strings.HasPrefix(id, "r-") || len(id) < 3 || len(id) > 40 {
		return false
	}
	for _, r := range id[2:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

// Get reads one routine.
func (s *Store) Get(id string) (Routine, error) {
	if !validID(id) {
		return Routine{}, fmt.Errorf("%w %q: routine IDs look like r-0123456789ab (see `starter routines list`)", ErrNotFound, id)
	}
	data, err := os.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Routine{}, fmt.Errorf("%w %q in %s (see `starter routines list`)", ErrNotFound, id, s.dir)
	}
	if err != nil {
		return Routine{}, fmt.Errorf("routine store: %w", err)
	}
	var r Routine
	if err := json.Unmarshal(data, &r); err != nil {
		return Routine{}, fmt.Errorf("routine store: %s is not a routine (%v): delete it with `starter routines delete %s`", s.path(id), err, id)
	}
	return r, nil
}

// List returns every routine, by template then ID. Files that do not parse
// are skipped and named in the error, with the routines that did.
func (s *Store) List() ([]Routine, error) {
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("routine store: %w", err)
	}
	var out []Routine
	var bad []string
	for _, e := range ents {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		r, err := s.Get(id)
		if err != nil {
			bad = append(bad, e.Name())
			continue
		}
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key.Template != out[j].Key.Template {
			return out[i].Key.Template < out[j].Key.Template
		}
		return out[i].ID < out[j].ID
	})
	if len(bad) > 0 {
		return out, fmt.Errorf("routine store: unreadable files in %s: %s", s.dir, strings.Join(bad, ", "))
	}
	return out, nil
}

// Delete removes a routine.
func (s *Store) Delete(id string) error {
	if _, err := s.Get(id); err != nil && errors.Is(err, ErrNotFound) {
		return err
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.Remove(s.path(id)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w %q in %s", ErrNotFound, id, s.dir)
		}
		return fmt.Errorf("routine store: %w", err)
	}
	return nil
}

// Match finds the routine a todo replays on a phone: among the routines
// for the app in front and the phone's model and resolution, the one whose
// template the todo fills (routine.Match). With none, note says why when
// there is something to say: the routine matched only on another phone, or
// the match was ambiguous.
func (s *Store) Match(todo string, phone Key) (Matched, bool, string, error) {
	all, err := s.List()
	if err != nil && len(all) == 0 {
		return Matched{}, false, "", err
	}
	var here, elsewhere []Routine
	for _, r := range all {
		if r.Key.App != phone.App {
			continue
		}
		if r.Key.Model == phone.Model && r.Key.Width == phone.Width && r.Key.Height == phone.Height {
			here = append(here, r)
		} else {
			elsewhere = append(elsewhere, r)
		}
	}
	m, ok, why := Match(todo, here)
	if ok || why != "" {
		return m, ok, why, nil
	}
	if o, found, _ := Match(todo, elsewhere); found {
		return Matched{}, false, fmt.Sprintf("routine %s was recorded on %s %s; this phone is %s %s: not used",
			o.Routine.ID, o.Routine.Key.Model, o.Routine.Key.Resolution(), phone.Model, phone.Resolution()), nil
	}
	return Matched{}, false, "", nil
}

// Outcome is how a todo ended, for Record.
type Outcome struct {
	Key     Key
	Task    Task
	Example string
	// Steps is the todo's trace (Build); recorded when Success.
	Steps   []Step
	Success bool
	// Replayed counts the steps the todo replayed from the key's routine;
	// a failure counts against the routine only when it replayed some.
	Replayed int
	Why      string
}

// Recorded says what Record did.
type Recorded struct {
	Routine Routine `json:"routine"`
	Created bool    `json:"created,omitempty"`
	Updated bool    `json:"updated,omitempty"` // steps replaced
	Dropped bool    `json:"dropped,omitempty"`
	Ignored bool    `json:"ignored,omitempty"` // a failure with no routine replayed
}

// Record folds a todo's outcome into the key's routine: a success creates
// it or replaces its steps with the todo's trace (which includes any steps
// the model took after a fallback) and counts a success; a failure after
// replaying counts against it, and the MaxFailures-th failure in a row
// drops it.
func (s *Store) Record(o Outcome, now time.Time) (Recorded, error) {
	unlock, err := s.lock()
	if err != nil {
		return Recorded{}, err
	}
	defer unlock()
	id := o.Key.ID()
	r, err := s.Get(id)
	exists := err == nil
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Recorded{}, err
	}
	var out Recorded
	switch {
	case o.Success:
		if !exists {
			r = Routine{ID: id, Key: o.Key, Created: now}
			out.Created = true
		}
		steps, changed := MergeSteps(r.Steps, o.Steps)
		out.Updated = exists && changed
		r.Example, r.Params, r.Steps = o.Example, o.Task.Params, steps
		r.Version = Version
		r.Successes++
		r.Runs++
		r.Failures, r.LastFailure = 0, ""
	case exists && o.Replayed > 0:
		r.Runs++
		r.Failures++
		r.LastFailure = o.Why
		if r.Failures >= MaxFailures {
			if err := os.Remove(s.path(id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return Recorded{}, fmt.Errorf("routine store: %w", err)
			}
			return Recorded{Routine: r, Dropped: true}, nil
		}
	default:
		return Recorded{Routine: r, Ignored: true}, nil
	}
	r.Updated = now
	out.Routine = r
	return out, s.write(r)
}

func sameSteps(a, b []Step) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func (s *Store) write(r Routine) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".tmp-"+r.ID+"-*")
	if err != nil {
		return fmt.Errorf("routine store: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("routine store: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("routine store: sync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("routine store: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path(r.ID)); err != nil {
		return fmt.Errorf("routine store: %w", err)
	}
	return nil
}

// lock takes the store's lock file, shared by every process on the host.
func (s *Store) lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(s.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("routine store: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("routine store: lock %s: %w", f.Name(), err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
