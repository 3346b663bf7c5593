package promptmem

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Entry is what the memory holds for one task type.
type Entry struct {
	SystemPrompt string    `json:"system_prompt"`
	LastUpdated  time.Time `json:"last_updated"`
	SuccessRate  float64   `json:"success_rate"`
	Runs         int       `json:"runs"`
}

// File is the on-disk shape: {"task_types": {"<type>": Entry},
// "todo_types": {"<todo type>": Guidance}}.
type File struct {
	TaskTypes map[string]Entry `json:"task_types"`
	// TodoTypes holds the versioned executor guidance per todo type
	// (docs/design.md §2 Guards).
	TodoTypes map[string]Guidance `json:"todo_types,omitempty"`
}

// ErrCorrupt is wrapped when the file exists but cannot be understood.
var ErrCorrupt = errors.New("prompt memory file is corrupt")

// Memory is a handle on one prompt memory file. It holds no cached state;
// it is safe for concurrent use by goroutines and processes.
type Memory struct {
	path string
	now  func() time.Time
}

// Open returns the memory stored at path. The file need not exist yet (it
// is created on the first write), but its directory is created now and an
// existing file must parse.
func Open(path string) (*Memory, error) {
	if path == "" {
		return nil, errors.New("promptmem: empty path: set the prompt memory file in the config")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("promptmem: resolve %q: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		return nil, fmt.Errorf("promptmem: create directory for %s: %w", abs, err)
	}
	m := &Memory{path: abs, now: time.Now}
	if _, err := m.load(); err != nil {
		return nil, err
	}
	return m, nil
}

// Path returns the memory file's absolute path.
func (m *Memory) Path() string { return m.path }

func (m *Memory) lockPath() string { return m.path + ".lock" }

// load reads the file; a missing or empty file is an empty memory.
func (m *Memory) load() (File, error) {
	data, err := os.ReadFile(m.path)
	if errors.Is(err, fs.ErrNotExist) {
		return File{TaskTypes: map[string]Entry{}}, nil
	}
	if err != nil {
		return File{}, fmt.Errorf("promptmem: read %s: %w", m.path, err)
	}
	return decode(m.path, data)
}

func decode(path string, data []byte) (File, error) {
	var f File
	if len(bytes.TrimSpace(data)) == 0 {
		return File{TaskTypes: map[string]Entry{}}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("%w: %s: %v (fix or move the file away; it is never reset automatically)", ErrCorrupt, path, err)
	}
	if dec.More() {
		return File{}, fmt.Errorf("%w: %s: trailing data after the JSON object (fix or move the file away)", ErrCorrupt, path)
	}
	if f.TaskTypes == nil {
		// Accept {} and {"task_types": null}; refuse an object of some
		// other shape so it is never overwritten.
		var probe map[string]json.RawMessage
		err := json.Unmarshal(data, &probe)
		delete(probe, "task_types")
		delete(probe, "todo_types")
		if err != nil || len(probe) != 0 {
			return File{}, fmt.Errorf("%w: %s: want an object with a \"task_types\" key (fix or move the file away)", ErrCorrupt, path)
		}
		f.TaskTypes = map[string]Entry{}
	}
	for k, e := range f.TaskTypes {
		if e.Runs < 0 || e.SuccessRate < 0 || e.SuccessRate > 1 {
			return File{}, fmt.Errorf("%w: %s: task type %q has runs=%d success_rate=%v (want runs ≥ 0, 0 ≤ success_rate ≤ 1)", ErrCorrupt, path, k, e.Runs, e.SuccessRate)
		}
	}
	return f, nil
}

// All returns a fresh copy of every entry.
func (m *Memory) All() (map[string]Entry, error) {
	f, err := m.load()
	if err != nil {
		return nil, err
	}
	return f.TaskTypes, nil
}

// Get returns the entry for taskType, read fresh from the file.
func (m *Memory) Get(taskType string) (Entry, bool, error) {
	f, err := m.load()
	if err != nil {
		return Entry{}, false, err
	}
	e, ok := f.TaskTypes[taskType]
	return e, ok, nil
}

// Update applies fn to the entry of taskType (a zero Entry when absent)
// and writes the file, all under an exclusive lock shared with every other
// process using the same path. If fn returns without changing anything
// the entry is still written. LastUpdated is set to now unless fn set it.
func (m *Memory) Update(taskType string, fn func(*Entry)) error {
	if strings.TrimSpace(taskType) == "" {
		return errors.New("promptmem: empty task type: the planner must name a task type before its prompt can be stored")
	}
	if fn == nil {
		return errors.New("promptmem: Update needs a function that changes the entry")
	}
	return m.change(func(f *File) error {
		e := f.TaskTypes[taskType]
		before := e.LastUpdated
		fn(&e)
		if e.LastUpdated.Equal(before) {
			e.LastUpdated = m.now().UTC()
		}
		if e.Runs < 0 || e.SuccessRate < 0 || e.SuccessRate > 1 {
			return fmt.Errorf("promptmem: refusing to store task type %q with runs=%d success_rate=%v", taskType, e.Runs, e.SuccessRate)
		}
		f.TaskTypes[taskType] = e
		return nil
	})
}

// change applies fn to the file under its lock and writes it; nothing is
// written when fn fails.
func (m *Memory) change(fn func(*File) error) error {
	unlock, err := m.lock()
	if err != nil {
		return err
	}
	defer unlock()
	f, err := m.load()
	if err != nil {
		return err
	}
	if err := fn(&f); err != nil {
		return err
	}
	return m.write(f)
}

// Record counts one finished run of taskType: runs is incremented, the
// success rate becomes the running mean of all outcomes, and the stored
// prompt is replaced when prompt is non-empty.
func (m *Memory) Record(taskType string, success bool, prompt string) error {
	return m.Update(taskType, func(e *Entry) {
		x := 0.0
		if success {
			x = 1
		}
		e.Runs++
		e.SuccessRate += (x - e.SuccessRate) / float64(e.Runs)
		if prompt != "" {
			e.SystemPrompt = prompt
		}
	})
}

// lock takes an exclusive flock on the sibling lock file. The lock file is
// never removed: removing it would let two processes lock different inodes.
func (m *Memory) lock() (func(), error) {
	lf, err := os.OpenFile(m.lockPath(), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("promptmem: open lock file %s: %w", m.lockPath(), err)
	}
	for {
		err = syscall.Flock(int(lf.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = lf.Close()
		return nil, fmt.Errorf("promptmem: lock %s: %w", m.lockPath(), err)
	}
	return func() {
		_ = syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
		_ = lf.Close()
	}, nil
}

// write replaces the file atomically: readers see the old or the new
// content, never a torn write.
func (m *Memory) write(f File) error {
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("promptmem: encode: %w", err)
	}
	data = append(data, '\n')
	tmp, err := os.CreateTemp(filepath.Dir(m.path), "."+filepath.Base(m.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("promptmem: write %s: %w", m.path, err)
	}
	name := tmp.Name()
	if _, err := tmp.Write(data); err != nil {
		_ = tmp.Close()
		_ = os.Remove(name)
		return fmt.Errorf("promptmem: write %s: %w", m.path, err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		_ = os.Remove(name)
		return fmt.Errorf("promptmem: sync %s: %w", m.path, err)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("promptmem: close %s: %w", m.path, err)
	}
	if err := os.Chmod(name, 0o644); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("promptmem: chmod %s: %w", m.path, err)
	}
	if err := os.Rename(name, m.path); err != nil {
		_ = os.Remove(name)
		return fmt.Errorf("promptmem: replace %s: %w", m.path, err)
	}
	return nil
}
