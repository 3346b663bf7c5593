package routine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// ErrNotFound is wrapped when a routine ID names no routine.
var ErrNotFound = errors.New("no such routine")

// errConflict is what a backend's conditional write returns when the
// routine changed since it was read: the caller reads again and retries.
var errConflict = errors.New("routine changed since it was read")

// backend holds one JSON routine per ID and updates it with a
// compare-and-swap: a write names the revision it was computed from, and
// fails with errConflict when another writer got there first
// (docs/design.md §8). The directory (dirBackend) and a bucket
// (bucketBackend) are the two.
type backend interface {
	// get reads a routine and its revision. A missing routine is
	// ErrNotFound, with the revision a write must name to create it.
	get(ctx context.Context, id string) (Routine, string, error)
	// all reads every routine; the names of objects that do not parse are
	// returned beside them.
	all(ctx context.Context) ([]Routine, []string, error)
	// put writes r over revision rev.
	put(ctx context.Context, r Routine, rev string) error
	// remove deletes the routine at revision rev.
	remove(ctx context.Context, id, rev string) error
	where() string
	close() error
}

// Store is where a host's routines live: a directory of the host (Open,
// the default) or a bucket every host of a fleet reaches (OpenURL). Every
// update is a read, a change and a conditional write, retried when another
// process or host wrote in between, so two workers learning or using the
// same routine at once never lose each other's runs.
type Store struct {
	b backend
}

// opTimeout bounds one store operation, so an unreachable bucket costs a
// todo its replay rather than its time.
const opTimeout = 30 * time.Second

// maxAttempts bounds the retries of one update under contention.
const maxAttempts = 20

func (s *Store) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), opTimeout)
}

// Dir is where the store is: its directory or its bucket URL.
func (s *Store) Dir() string { return s.b.where() }

// Close releases a bucket's connections.
func (s *Store) Close() error { return s.b.close() }

// validID keeps IDs to the shape Key.ID writes, so a name typed on the
// command line cannot reach outside the store.
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
	ctx, cancel := s.ctx()
	defer cancel()
	r, _, err := s.b.get(ctx, id)
	return r, err
}

// List returns every routine, by template then ID. Objects that do not
// parse are skipped and named in the error, with the routines that did.
func (s *Store) List() ([]Routine, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	out, bad, err := s.b.all(ctx)
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Key.Template != out[j].Key.Template {
			return out[i].Key.Template < out[j].Key.Template
		}
		return out[i].ID < out[j].ID
	})
	if len(bad) > 0 {
		return out, fmt.Errorf("routine store: unreadable routines in %s: %s", s.b.where(), strings.Join(bad, ", "))
	}
	return out, nil
}

// Delete removes a routine.
func (s *Store) Delete(id string) error {
	if !validID(id) {
		return fmt.Errorf("%w %q: routine IDs look like r-0123456789ab (see `starter routines list`)", ErrNotFound, id)
	}
	ctx, cancel := s.ctx()
	defer cancel()
	for range maxAttempts {
		_, rev, err := s.b.get(ctx, id)
		if err != nil {
			return err
		}
		if err := s.b.remove(ctx, id, rev); !errors.Is(err, errConflict) {
			return err
		}
	}
	return fmt.Errorf("routine store: %s changed %d times while it was being deleted: try again", id, maxAttempts)
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
// drops it. When another worker updated the routine in between, the
// outcome is folded into its version instead.
func (s *Store) Record(o Outcome, now time.Time) (Recorded, error) {
	ctx, cancel := s.ctx()
	defer cancel()
	id := o.Key.ID()
	for range maxAttempts {
		r, rev, err := s.b.get(ctx, id)
		exists := err == nil
		if err != nil && !errors.Is(err, ErrNotFound) {
			return Recorded{}, err
		}
		out, drop, write := fold(&r, exists, o, id, now)
		switch {
		case !write:
			return out, nil
		case drop:
			err = s.b.remove(ctx, id, rev)
		default:
			err = s.b.put(ctx, r, rev)
		}
		if !errors.Is(err, errConflict) {
			return out, err
		}
	}
	return Recorded{}, fmt.Errorf("routine store: %s changed %d times while this outcome was recorded: it is lost; the next run records again", id, maxAttempts)
}

// fold applies an outcome to the routine read (r, when exists): what
// Record reports, and whether to drop or write it.
func fold(r *Routine, exists bool, o Outcome, id string, now time.Time) (out Recorded, drop, write bool) {
	switch {
	case o.Success:
		if !exists {
			*r = Routine{ID: id, Key: o.Key, Created: now}
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
			return Recorded{Routine: *r, Dropped: true}, true, true
		}
	default:
		return Recorded{Routine: *r, Ignored: true}, false, false
	}
	r.Updated = now
	out.Routine = *r
	return out, false, true
}

func sameSteps(a, b []Step) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func encode(r Routine) ([]byte, error) {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

func decodeRoutine(data []byte) (Routine, error) {
	var r Routine
	err := json.Unmarshal(data, &r)
	return r, err
}
