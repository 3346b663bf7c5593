package promptmem

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T) *Memory {
	t.Helper()
	m, err := Open(filepath.Join(t.TempDir(), "mem", "prompts.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRecordAndGet(t *testing.T) {
	m := open(t)
	fixed := time.Date(2026, 11, 22, 3, 0, 0, 0, time.UTC)
	m.now = func() time.Time { return fixed }

	if _, ok, err := m.Get("messaging"); err != nil || ok {
		t.Fatalf("Get on empty = ok %v, err %v", ok, err)
	}
	if err := m.Record("messaging", true, "You send chat messages."); err != nil {
		t.Fatal(err)
	}
	if err := m.Record("messaging", false, ""); err != nil {
		t.Fatal(err)
	}
	if err := m.Record("messaging", true, ""); err != nil {
		t.Fatal(err)
	}
	e, ok, err := m.Get("messaging")
	if err != nil || !ok {
		t.Fatalf("Get = ok %v err %v", ok, err)
	}
	if e.Runs != 3 || math.Abs(e.SuccessRate-2.0/3.0) > 1e-12 {
		t.Fatalf("entry = %+v, want runs 3, rate 2/3", e)
	}
	if e.SystemPrompt != "You send chat messages." {
		t.Fatalf("prompt = %q, empty prompt must not replace it", e.SystemPrompt)
	}
	if !e.LastUpdated.Equal(fixed) {
		t.Fatalf("last_updated = %v", e.LastUpdated)
	}
	if err := m.Record("messaging", true, "Better prompt."); err != nil {
		t.Fatal(err)
	}
	if e, _, _ = m.Get("messaging"); e.SystemPrompt != "Better prompt." || e.Runs != 4 || e.SuccessRate != 0.75 {
		t.Fatalf("after 4th record: %+v", e)
	}
}

// The file has exactly the shape of docs/design.md §2.
func TestFileShape(t *testing.T) {
	m := open(t)
	m.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	if err := m.Record("settings", true, "p"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(m.Path())
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]map[string]map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	got := raw["task_types"]["settings"]
	want := map[string]any{"system_prompt": "p", "last_updated": "2026-01-02T03:04:05Z", "success_rate": 1.0, "runs": 1.0}
	if len(raw) != 1 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("file = %s", data)
	}
}

func TestReadsExistingFileAndSeesOtherWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	seed := `{"task_types": {"shopping": {"system_prompt": "Buy carefully.", "last_updated": "2026-05-01T00:00:00Z", "success_rate": 0.5, "runs": 4}}}`
	if err := os.WriteFile(path, []byte(seed), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Open(path)
	e, ok, err := a.Get("shopping")
	if err != nil || !ok || e.Runs != 4 || e.SystemPrompt != "Buy carefully." {
		t.Fatalf("Get = %+v %v %v", e, ok, err)
	}
	if err := b.Record("shopping", true, ""); err != nil {
		t.Fatal(err)
	}
	if e, _, _ = a.Get("shopping"); e.Runs != 5 || e.SuccessRate != 0.6 {
		t.Fatalf("a does not see b's write: %+v", e)
	}
}

func TestCorruptFileIsAnErrorNamingPath(t *testing.T) {
	for name, content := range map[string]string{
		"truncated":  `{"task_types": {"x": {"runs": 1`,
		"wrong type": `{"task_types": {"x": {"runs": "one"}}}`,
		"array":      `[1,2,3]`,
		"other keys": `{"prompts": {}}`,
		"trailing":   `{"task_types": {}} {}`,
		"bad rate":   `{"task_types": {"x": {"success_rate": 7, "runs": 1}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "p.json")
			_ = os.WriteFile(path, []byte(content), 0o644)
			if _, err := Open(path); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Fatalf("Open err = %v, want ErrCorrupt naming %s", err, path)
			}
			m := &Memory{path: path, now: time.Now}
			if err := m.Record("x", true, "p"); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Record err = %v, want ErrCorrupt", err)
			}
			if after, _ := os.ReadFile(path); string(after) != content {
				t.Fatalf("corrupt file was rewritten: %q", after)
			}
		})
	}
}

func TestEmptyFileAndEmptyObject(t *testing.T) {
	for _, content := range []string{"", "  \n", "{}", `{"task_types": null}`} {
		path := filepath.Join(t.TempDir(), "p.json")
		_ = os.WriteFile(path, []byte(content), 0o644)
		m, err := Open(path)
		if err != nil {
			t.Fatalf("Open(%q): %v", content, err)
		}
		if err := m.Record("t", false, ""); err != nil {
			t.Fatal(err)
		}
		if e, ok, _ := m.Get("t"); !ok || e.Runs != 1 || e.SuccessRate != 0 {
			t.Fatalf("%q: %+v", content, e)
		}
	}
}

func TestEmptyTaskTypeRejected(t *testing.T) {
	m := open(t)
	if err := m.Record(" ", true, ""); err == nil {
		t.Fatal("empty task type accepted")
	}
}

func TestUpdateCustom(t *testing.T) {
	m := open(t)
	when := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := m.Update("t", func(e *Entry) { e.SystemPrompt = "x"; e.LastUpdated = when }); err != nil {
		t.Fatal(err)
	}
	if e, _, _ := m.Get("t"); !e.LastUpdated.Equal(when) || e.SystemPrompt != "x" || e.Runs != 0 {
		t.Fatalf("%+v", e)
	}
	if err := m.Update("t", func(e *Entry) { e.SuccessRate = 2 }); err == nil {
		t.Fatal("invalid entry stored")
	}
	if err := m.Update("t", nil); err == nil {
		t.Fatal("nil update accepted")
	}
}

func TestConcurrentGoroutines(t *testing.T) {
	m := open(t)
	const n = 40
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Separate handles, as separate workers would have.
			h, err := Open(m.Path())
			if err != nil {
				t.Error(err)
				return
			}
			if err := h.Record("shared", i%4 == 0, ""); err != nil {
				t.Error(err)
			}
			if err := h.Record(fmt.Sprintf("own-%d", i), true, "p"); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	all, err := m.All()
	if err != nil {
		t.Fatal(err)
	}
	if e := all["shared"]; e.Runs != n || math.Abs(e.SuccessRate-0.25) > 1e-9 {
		t.Fatalf("shared = %+v, want %d runs at 0.25 (lost updates?)", e, n)
	}
	if len(all) != n+1 {
		t.Fatalf("%d task types, want %d", len(all), n+1)
	}
}

const (
	envChildPath = "PROMPTMEM_TEST_CHILD_PATH"
	envChildID   = "PROMPTMEM_TEST_CHILD_ID"
	childRecords = 25
)

// TestHelperChildProcess is the body of each child process of
// TestConcurrentProcesses; it does nothing in a normal test run.
func TestHelperChildProcess(t *testing.T) {
	path := os.Getenv(envChildPath)
	if path == "" {
		t.Skip("helper for TestConcurrentProcesses")
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := strconv.Atoi(os.Getenv(envChildID))
	for i := range childRecords {
		if err := m.Record("shared", true, ""); err != nil {
			t.Fatal(err)
		}
		if err := m.Record(fmt.Sprintf("proc-%d", id), i%2 == 0, fmt.Sprintf("prompt %d", i)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	m := open(t)
	const procs = 4
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for p := range procs {
		cmd := exec.Command(exe, "-test.run=^TestHelperChildProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), envChildPath+"="+m.Path(), envChildID+"="+strconv.Itoa(p))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child %d: %v\n%s", p, err, out)
			}
		}()
	}
	wg.Wait()
	all, err := m.All()
	if err != nil {
		t.Fatal(err)
	}
	if e := all["shared"]; e.Runs != procs*childRecords || e.SuccessRate != 1 {
		t.Fatalf("shared = %+v, want %d runs (updates lost across processes)", e, procs*childRecords)
	}
	for p := range procs {
		e := all[fmt.Sprintf("proc-%d", p)]
		if e.Runs != childRecords || math.Abs(e.SuccessRate-13.0/25.0) > 1e-9 || e.SystemPrompt != "prompt 24" {
			t.Fatalf("proc-%d = %+v", p, e)
		}
	}
	// No temp files left in the directory.
	ents, _ := os.ReadDir(filepath.Dir(m.Path()))
	for _, d := range ents {
		if strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("leftover %s", d.Name())
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"task_types": {"a": {"system_prompt": "p", "last_updated": "2026-01-01T00:00:00Z", "success_rate": 0.5, "runs": 2}}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"task_types": null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := decode("fuzz.json", data)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("error %v does not wrap ErrCorrupt", err)
			}
			return
		}
		if file.TaskTypes == nil {
			t.Fatal("nil map on success")
		}
		for _, e := range file.TaskTypes {
			if e.Runs < 0 || e.SuccessRate < 0 || e.SuccessRate > 1 {
				t.Fatalf("accepted invalid entry %+v", e)
			}
		}
	})
}
