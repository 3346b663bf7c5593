package activities

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// namedPhone is a form phone listed under serial whose ro.serialno is id.
type namedPhone struct {
	*formPhone
	serial, id string
}

func (p namedPhone) Serial() string                           { return p.serial }
func (p namedPhone) Identity(context.Context) (string, error) { return p.id, nil }

type namedPool struct{ p namedPhone }

func (f namedPool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f namedPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: f.p.serial, State: "device"}}, nil
}

// The journal follows the phone's identity, not its serial
// (docs/design.md §4): an action whose result was recorded while the
// phone was listed as emulator-5554 is not sent again when it is retried
// under another serial, and another phone listed as emulator-5554 (another
// identity) has a journal of its own, so the same action ID is new there.
func TestJournalFollowsThePhonesIdentity(t *testing.T) {
	a, _ := newJournalled(t)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	run := func(p namedPhone, id string) {
		t.Helper()
		a.Devices = namedPool{p}
		if _, err := a.Step(context.Background(), StepInput{Serial: p.serial, Task: "t", Act: &tap, ActionID: id}); err != nil {
			t.Fatal(err)
		}
	}
	phoneA := namedPhone{newFormPhone(), "emulator-5554", "R58M123ABC"}
	run(phoneA, "todo/run/2")
	phoneA.serial = "192.168.1.7:5555" // the same phone, connected over the network
	run(phoneA, "todo/run/2")
	if n := len(phoneA.got()); n != 1 {
		t.Fatalf("the phone got %d taps under one action ID across two serials, want 1: %v", n, phoneA.got())
	}
	phoneB := namedPhone{newFormPhone(), "emulator-5554", "R58M999XYZ"}
	run(phoneB, "todo/run/2")
	if n := len(phoneB.got()); n != 1 {
		t.Fatalf("another phone under the same serial got %d taps, want its own 1", n)
	}
	for _, f := range []string{"R58M123ABC.jsonl", "R58M999XYZ.jsonl"} {
		if _, err := os.Stat(filepath.Join(a.Journal.Dir(), f)); err != nil {
			t.Errorf("journal file %s: %v", f, err)
		}
	}
}

// A journal kept under the serial by an earlier release becomes the
// identity's, so an intent written before the upgrade is found.
func TestJournalKeptUnderTheSerialIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	old, err := OpenJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := old.phone("emulator-5554")
	unlock, err := p.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	err = p.write(journalRecord{ID: "x/1", Intent: &ActionIntent{Action: autoglm.Action{Name: autoglm.ActionBack}}, Token: 7})
	if err == nil {
		err = p.write(journalRecord{ID: "x/1", Applied: &ActResult{Result: "ok"}})
	}
	unlock()
	if err != nil {
		t.Fatal(err)
	}
	j, _ := OpenJournal(dir)
	q := j.phoneOf("R58M123ABC", "emulator-5554")
	unlock, err = q.lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	e, ok, err := q.get("x/1")
	if err != nil || !ok || e.Applied == nil || q.token != 7 {
		t.Fatalf("entry %+v %v %v, token %d: want the serial's journal read under the identity", e, ok, err, q.token)
	}
}
