package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"path"
	"slices"
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
	// refuse, when set, refuses the writes it returns true for.
	refuse func(device.NotesWrite) bool
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
	if m.refuse != nil && m.refuse(w) {
		return nil, fmt.Errorf("%w: No space left on device", device.ErrNotesRefused)
	}
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
// from the action it runs (docs/design.md §4).
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

// notedForm is a form phone that keeps notes.
type notedForm struct {
	*formPhone
	*memNotes
}

type notedFormPool struct{ p notedForm }

func (f notedFormPool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f notedFormPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

// TestResultThePhoneMissedIsWrittenBack: a result the phone did not take
// (its write failed after the tap) is kept on the host, the Step still
// reports the tap, and the next retry writes it to the phone, where
// another host then finds it (docs/design.md §4).
func TestResultThePhoneMissedIsWrittenBack(t *testing.T) {
	a, form := newJournalled(t)
	notes := &memNotes{files: map[string]string{}}
	a.Devices = notedFormPool{notedForm{form, notes}}
	before := observeTree(t, a)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{400, 880}}
	notes.refuse = func(w device.NotesWrite) bool { return w.List == "" } // results, not intents
	res, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false)
	if err != nil || res.Act.Result != "ok" {
		t.Fatalf("tap = %+v, %v", res.Act, err)
	}
	var onPhone phoneEntry
	if json.Unmarshal([]byte(notes.files[phoneFile("g/t/r/1")]), &onPhone) != nil || onPhone.Intent == nil || onPhone.Applied != nil {
		t.Fatalf("the phone's entry = %+v, want the intent without its result", onPhone)
	}
	notes.refuse = nil
	if res, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false); err != nil || res.Act.Result != "ok" || len(form.got()) != 1 {
		t.Fatalf("retry = %+v, %v, inputs %v", res.Act, err, form.got())
	}
	if json.Unmarshal([]byte(notes.files[phoneFile("g/t/r/1")]), &onPhone) != nil || onPhone.Applied == nil || onPhone.Applied.Result != "ok" {
		t.Fatalf("the phone's entry after the retry = %+v, want its result", onPhone)
	}
	// Another host finds the result on the phone.
	b, _ := newJournalled(t)
	b.Devices, b.Blobs = a.Devices, a.Blobs
	if res, err, _ := stepAct(t, b, tap, "g/t/r/1", before, false); err != nil || res.Act.Result != "ok" || !slices.Equal(form.got(), []string{"tap 432 2112"}) {
		t.Fatalf("another host's retry = %+v, %v, inputs %v", res.Act, err, form.got())
	}
}
