package activities

import (
	"context"
	"fmt"
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

// pruneCounter is a named phone keeping notes in memory that counts the
// prunes of its journal's old entries.
type pruneCounter struct {
	namedPhone
	*memNotes
	prunes int
}

func (p *pruneCounter) WriteNotes(ctx context.Context, w device.NotesWrite) ([]string, error) {
	if w.Prune != "" {
		p.prunes++
	}
	return p.memNotes.WriteNotes(ctx, w)
}

type prunePool struct{ p *pruneCounter }

func (f prunePool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f prunePool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: f.p.serial, State: "device"}}, nil
}

// A phone whose ro.serialno is not the serial it is reached by (every
// network phone) keeps one journal in the worker, found by its identity
// each time: its old entries are pruned every 256th intent, as designed
// (docs/design.md §4), not at every action, and the host's file is read
// once, not again for each action.
func TestJournalOfANetworkPhoneIsKeptByItsIdentity(t *testing.T) {
	a, _ := newJournalled(t)
	p := &pruneCounter{namedPhone: namedPhone{newFormPhone(), "192.168.1.7:5555", "R58M123ABC"}, memNotes: &memNotes{files: map[string]string{}}}
	a.Devices = prunePool{p}
	back := autoglm.Action{Name: autoglm.ActionBack}
	for i := range 20 {
		if _, err := a.Step(context.Background(), StepInput{Serial: p.serial, Task: "t", Act: &back, ActionID: fmt.Sprintf("todo/run/%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if p.prunes != 1 {
		t.Fatalf("20 intents pruned the phone's journal %d times, want once (every %d intents)", p.prunes, phonePruneEvery)
	}
	if a.Journal.phoneOf("R58M123ABC", p.serial) != a.Journal.phoneOf("R58M123ABC", "emulator-5554") || a.Journal.phoneOf("R58M123ABC", p.serial) != a.Journal.phone("R58M123ABC") {
		t.Fatal("the phone's journal is not one, whichever serial reaches it")
	}
}
