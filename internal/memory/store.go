package memory

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrNotFound is wrapped when an ID names no fact.
var ErrNotFound = errors.New("no such fact")

// MaxPerScope bounds the facts kept per scope: learning one more drops
// the one learned longest ago.
const MaxPerScope = 50

// Store is a directory of facts, one JSON file per fact named by its ID,
// written through a temporary file renamed into place so a reader never
// sees half a fact. One host: a fleet whose planner activities run on
// several workers gives them the same directory (docs/design.md §8).
type Store struct {
	dir string
	mu  sync.Mutex // serialises this process's writes
	now func() time.Time
}

// Open returns the store in dir, creating it.
func Open(dir string) (*Store, error) {
	if strings.TrimSpace(dir) == "" {
		return nil, errors.New("memory store: empty directory: set memory.path or data_dir in the config")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("memory store: create %s: %w", dir, err)
	}
	return &Store{dir: dir, now: time.Now}, nil
}

// Dir is the store's directory.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(id string) string { return filepath.Join(s.dir, id+".json") }

// validID keeps IDs to the shape idOf writes, so a name typed on the
// command line cannot reach outside the directory.
func validID(id string) bool {
	if !strings.HasPrefix(id, "m-") || len(id) != 14 {
		return false
	}
	return strings.Trim(id[2:], "0123456789abcdef") == ""
}

// Learn keeps f (from FromAnswer or FromVerified), or counts it seen
// again, taught by goal. A fact that may hold a secret is refused.
func (s *Store) Learn(f Fact, goal string) error {
	if f.ID == "" || f.Scope == "" || f.Text == "" {
		return errors.New("memory store: a fact needs an ID, a scope and a text: build it with FromAnswer or FromVerified")
	}
	if f.Answer != "" && Secret(f.Question, f.Answer) {
		return errors.New("memory store: refusing a fact that may hold a secret")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, err := s.Get(f.ID); err == nil {
		f.Seen = old.Seen
		if goal != "" && old.Goal == goal {
			f.Seen-- // the same goal telling it again is not a new sighting
		}
	}
	f.Seen++
	f.Goal, f.Learned = goal, s.now().UTC()
	if err := s.write(f); err != nil {
		return err
	}
	return s.trim(f.Scope)
}

func (s *Store) write(f Fact) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".fact-*")
	if err != nil {
		return fmt.Errorf("memory store: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("memory store: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("memory store: %w", err)
	}
	if err := os.Rename(tmp.Name(), s.path(f.ID)); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("memory store: %w", err)
	}
	return nil
}

// trim drops the oldest facts of scope past MaxPerScope.
func (s *Store) trim(scope string) error {
	fs, err := s.List(scope)
	if err != nil || len(fs) <= MaxPerScope {
		return err
	}
	for _, f := range fs[MaxPerScope:] {
		if err := os.Remove(s.path(f.ID)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("memory store: %w", err)
		}
	}
	return nil
}

// Get reads one fact.
func (s *Store) Get(id string) (Fact, error) {
	if !validID(id) {
		return Fact{}, fmt.Errorf("%w %q: fact IDs look like m-0123456789ab (see `starter memory list`)", ErrNotFound, id)
	}
	data, err := os.ReadFile(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return Fact{}, fmt.Errorf("%w %q in %s (see `starter memory list`)", ErrNotFound, id, s.dir)
	}
	if err != nil {
		return Fact{}, fmt.Errorf("memory store: %w", err)
	}
	var f Fact
	if err := json.Unmarshal(data, &f); err != nil {
		return Fact{}, fmt.Errorf("memory store: %s is not a fact (%v): delete it with `starter memory delete %s`", s.path(id), err, id)
	}
	return f, nil
}

// List returns the facts of scope ("" = every scope), the newest first.
// Files that do not parse are skipped and named in the error.
func (s *Store) List(scope string) ([]Fact, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("memory store: %w", err)
	}
	var out []Fact
	var bad []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !validID(id) {
			continue
		}
		f, err := s.Get(id)
		if err != nil {
			bad = append(bad, e.Name())
			continue
		}
		if scope == "" || f.Scope == scope {
			out = append(out, f)
		}
	}
	slices.SortStableFunc(out, func(a, b Fact) int {
		if c := b.Learned.Compare(a.Learned); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if len(bad) > 0 {
		return out, fmt.Errorf("memory store: %s unreadable: delete them with `starter memory delete`", strings.Join(bad, ", "))
	}
	return out, nil
}

// Recall returns the texts of the newest n facts of the scopes, for a
// planner request: the scopes in the order given, each newest first. An
// answer that was a message's words (Dictated), stored by an older
// version, is not shown.
func (s *Store) Recall(n int, scopes ...string) ([]string, error) {
	var out []string
	for _, sc := range scopes {
		fs, err := s.List(sc)
		for _, f := range fs {
			if f.Source == SourceAnswer && Dictated(f.Question) {
				// Kept before Dictated existed: a message's words, not a fact.
				continue
			}
			if len(out) == n {
				return out, err
			}
			out = append(out, f.Text)
		}
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// Delete removes one fact.
func (s *Store) Delete(id string) error {
	if _, err := s.Get(id); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.Remove(s.path(id)); err != nil {
		return fmt.Errorf("memory store: %w", err)
	}
	return nil
}

// Clear removes every fact of scope ("" = all) and says how many.
func (s *Store) Clear(scope string) (int, error) {
	fs, err := s.List(scope)
	if err != nil && len(fs) == 0 {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, f := range fs {
		if err := os.Remove(s.path(f.ID)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return n, fmt.Errorf("memory store: %w", err)
		}
		n++
	}
	return n, nil
}
