package activities

import (
	"context"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// memNotes is a phone's notes in memory.
type memNotes struct {
	mu    sync.Mutex
	files map[string]string
}

func (m *memNotes) ReadNotes(_ context.Context, files []string, list string) (map[string]string, []string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	got := map[string]string{}
	for _, f := range files {
		if data, ok := m.files[f]; ok {
			got[f] = data
		}
	}
	return got, m.list(list), nil
}

func (m *memNotes) WriteNotes(_ context.Context, w device.NotesWrite) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for f, data := range w.Files {
		m.files[f] = data
	}
	for _, f := range w.Marks {
		m.files[f] = ""
	}
	for _, f := range w.Drop {
		delete(m.files, f)
	}
	return m.list(w.List), nil
}

func (m *memNotes) list(dir string) []string {
	var out []string
	for f := range m.files {
		if dir != "" && path.Dir(f) == dir {
			out = append(out, path.Base(f))
		}
	}
	return out
}

// TestPhoneCopyHidesTypedSecrets: text typed into a field that hides its
// text, or onto a secure screen, is not written on the phone, where the
// shell user can read it; a host that adopts the entry takes the text
// from the action it runs (docs/design.md §19).
func TestPhoneCopyHidesTypedSecrets(t *testing.T) {
	ctx := context.Background()
	notes := &memNotes{files: map[string]string{}}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	pin := "4711"
	typ := autoglm.Action{Name: autoglm.ActionType, Text: pin}
	for _, before := range []Evidence{{App: "com.bank", FocusedKey: "pin", FocusedPassword: true, Focused: &pin}, {App: "com.bank", Sensitive: true}} {
		j, err := OpenJournal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		p := j.phone("phone-1")
		unlock, err := p.lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pc := &phoneCopy{notes: notes, serial: "phone-1"}
		id := "goal/todo/run/3"
		intent := journalRecord{ID: id, At: now, Try: newTry(), Intent: &ActionIntent{Action: typ, Before: before}, Token: 5}
		if err := pc.put(ctx, p, intent); err != nil {
			t.Fatal(err)
		}
		if err := p.write(intent); err != nil {
			t.Fatal(err)
		}
		res := ActResult{Result: ActUncertain, Uncertain: "phoneflow cannot tell whether `" + autoglm.FormatAction(typ) + "` reached the phone"}
		if err := pc.put(ctx, p, journalRecord{ID: id, At: now, Applied: &res}); err != nil {
			t.Fatal(err)
		}
		unlock()
		for f, data := range notes.files {
			if strings.Contains(data, pin) {
				t.Fatalf("%s on the phone holds the typed secret: %s", f, data)
			}
		}

		// Another host adopts the entry, with the text of its own action.
		j2, err := OpenJournal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		pc2, kept, err := readPhone(ctx, notedPhone{newFakePhone(), notes}, []string{id})
		if err != nil || kept[id] == nil || !kept[id].Hidden || pc2.high != 5 {
			t.Fatalf("read back: %+v, %+v, %v", pc2, kept[id], err)
		}
		p2 := j2.phone("phone-1")
		if _, err := p2.adopt(kept[id], typ, now); err != nil {
			t.Fatal(err)
		}
		if e, ok, err := p2.get(id); err != nil || !ok || e.Intent.Action.Text != pin || e.Applied == nil || e.Try != intent.Try {
			t.Fatalf("adopted entry = %+v, %v, %v", e, ok, err)
		}
	}
}

// notedPhone is a fake phone that keeps notes.
type notedPhone struct {
	*fakePhone
	*memNotes
}
