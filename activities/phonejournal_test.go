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
	for _, c := range []struct {
		before Evidence
		secure bool
	}{
		{Evidence{App: "com.bank", FocusedKey: "pin", FocusedPassword: true, Focused: &pin}, false},
		{Evidence{App: "com.bank", Sensitive: true}, false},
		// A FLAG_SECURE screen whose UI tree reads (FLAG_SECURE stops
		// screencap, not uiautomator): an SMS-code field that does not
		// hide its text.
		{Evidence{App: "com.bank", FocusedKey: "code", Focused: &pin, Tree: "t1"}, true},
	} {
		before := c.before
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
		intent := journalRecord{ID: id, At: now, Try: newTry(), Intent: &ActionIntent{Action: typ, Before: before, Secure: c.secure}, Token: 5}
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

// clockNotes is a phone keeping notes in memory with a clock of its own:
// each file's modification time is the phone's clock when it was written,
// and a prune (find -mtime +N) removes the files older than N days of that
// clock, as toybox does.
type clockNotes struct {
	*memNotes
	clock  time.Time // the phone's clock
	broken bool      // its clock cannot be read
	mtimes map[string]time.Time
	prunes []int
}

func (c *clockNotes) PhoneTime(context.Context) (time.Time, error) {
	if c.broken {
		return time.Time{}, fmt.Errorf("date: not found")
	}
	return c.clock, nil
}

func (c *clockNotes) WriteNotes(ctx context.Context, w device.NotesWrite) ([]string, error) {
	listed, err := c.memNotes.WriteNotes(ctx, w)
	for f := range w.Files {
		c.mtimes[f] = c.clock
	}
	if w.Prune != "" && w.PruneDays > 0 {
		c.prunes = append(c.prunes, w.PruneDays)
		for f, at := range c.mtimes {
			if strings.HasPrefix(f, w.Prune+"/") && c.clock.Sub(at) > time.Duration(w.PruneDays)*24*time.Hour {
				delete(c.files, f)
				delete(c.mtimes, f)
			}
		}
	}
	return listed, err
}

// A phone whose clock jumps forward prunes nothing younger than
// PhoneJournalDays of the host's time (docs/design.md §4): the prune's age
// counts the days the phone's clock is ahead of the host's.
func TestPhoneClockJumpPrunesNothingYoung(t *testing.T) {
	host := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	c := &clockNotes{memNotes: &memNotes{files: map[string]string{}}, clock: host, mtimes: map[string]time.Time{}}
	p := &phoneCopy{notes: c, serial: "fake-1"}
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pj := j.phone("fake-1")
	intent := func(id string, at time.Time) {
		t.Helper()
		pj.phoneWrites = 0 // a prune is due with this intent
		if err := p.put(context.Background(), pj, journalRecord{ID: id, At: at, Intent: &ActionIntent{Action: autoglm.Action{Name: autoglm.ActionBack}}}); err != nil {
			t.Fatal(err)
		}
	}
	intent("old", host.Add(-20*24*time.Hour))
	c.mtimes[phoneFile("old")] = host.Add(-20 * 24 * time.Hour)
	intent("yesterday", host.Add(-24*time.Hour))
	c.mtimes[phoneFile("yesterday")] = host.Add(-24 * time.Hour)
	// The phone's clock jumps 30 days ahead; the host's has not moved.
	c.clock = host.Add(30 * 24 * time.Hour)
	intent("now", host)
	if _, ok := c.files[phoneFile("yesterday")]; !ok {
		t.Fatalf("an entry one day old by the host's clock was pruned (prunes at %v days)", c.prunes)
	}
	if _, ok := c.files[phoneFile("now")]; !ok {
		t.Fatal("the new entry was pruned")
	}
	if got := c.prunes[len(c.prunes)-1]; got != PhoneJournalDays+30 {
		t.Fatalf("prune at %d days of the phone's clock, want %d", got, PhoneJournalDays+30)
	}
	// The host's clock catches up: the 20-day-old entry goes.
	c.clock = host.Add(30*24*time.Hour + time.Hour)
	intent("later", host.Add(30*24*time.Hour+time.Hour))
	if _, ok := c.files[phoneFile("old")]; ok {
		t.Fatal("an entry 50 days old by the host's clock was kept")
	}
	// A clock that cannot be read prunes nothing this time.
	c.broken = true
	n := len(c.prunes)
	intent("unread", host.Add(31*24*time.Hour))
	if len(c.prunes) != n {
		t.Fatalf("pruned with an unreadable clock: %v", c.prunes)
	}
}
