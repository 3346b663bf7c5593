package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// darkPhone is a fakePhone whose screen is off until woken: its UI tree
// cannot be read then, as on a phone whose screen timed out.
type darkPhone struct {
	*fakePhone
	off   bool
	wakes int
}

func (p *darkPhone) ScreenOn(context.Context) (bool, error) { return !p.off, nil }

func (p *darkPhone) Wake(context.Context) error {
	p.wakes++
	p.off = false
	return nil
}

func (p *darkPhone) UITree(ctx context.Context) ([]uitree.Element, error) {
	if p.off {
		return nil, errors.New("ERROR: null root node returned by UiTestAutomationBridge.")
	}
	return p.fakePhone.UITree(ctx)
}

type darkPool struct{ p *darkPhone }

func (f darkPool) Get(ctx context.Context, serial string) (device.Device, error) {
	if _, err := (fakePool{f.p.fakePhone}).Get(ctx, serial); err != nil {
		return nil, err
	}
	return f.p, nil
}
func (f darkPool) List(ctx context.Context) ([]device.Info, error) {
	return fakePool{f.p.fakePhone}.List(ctx)
}

// TestObserveWakesADarkScreen: a phone whose screen went off is woken
// before it is observed, so the executor sees what a person picking it up
// sees (a keyguard, the app), and a lit screen is never woken.
func TestObserveWakesADarkScreen(t *testing.T) {
	a, fp, _ := newActivities(t)
	p := &darkPhone{fakePhone: fp, off: true}
	a.Devices = darkPool{p}
	obs, err := a.Observe(context.Background(), ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.wakes != 1 || obs.TreeRef == "" {
		t.Fatalf("dark screen: %d wakes, tree ref %q; want one wake and a tree", p.wakes, obs.TreeRef)
	}
	if _, err := a.Observe(context.Background(), ObserveInput{Serial: "fake-1", UITree: true}); err != nil || p.wakes != 1 {
		t.Fatalf("a lit screen was woken again (%d wakes, err %v)", p.wakes, err)
	}
}

// TestTouchOnAScreenThatWentOffIsNotSent: the screen timed out after the
// executor decided on it. The tap is not sent to the dark screen (where
// it would do nothing, or be taken by the keyguard, while the todo counted
// it), nothing is journalled, and the Step's look wakes the phone for the
// executor to decide again (docs/design.md §4, §15).
func TestTouchOnAScreenThatWentOffIsNotSent(t *testing.T) {
	a, fp, _ := newActivities(t)
	p := &darkPhone{fakePhone: fp}
	a.Devices = darkPool{p}
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a.Journal = j
	before := observeTree(t, a)
	p.off = true
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 900}}
	res, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false)
	if err != nil {
		t.Fatal(err)
	}
	if res.Act == nil || !strings.HasPrefix(res.Act.Result, "not sent") || taps(fp.got()) != 0 {
		t.Fatalf("a tap on a dark screen: %+v, inputs %v", res.Act, fp.got())
	}
	if p.wakes != 1 || res.Screen.TreeRef == "" {
		t.Fatalf("the Step's look after it: %d wakes, tree ref %q; want one wake and a tree", p.wakes, res.Screen.TreeRef)
	}
	if _, ok, err := a.Journal.Lookup(context.Background(), "fake-1", "g/t/r/1"); err != nil || ok {
		t.Fatalf("the journal holds the unsent tap: %v, %v", ok, err)
	}
	// Decided again on the lit screen, the same action ID is sent.
	res, err, _ = stepAct(t, a, tap, "g/t/r/1", res.Screen, false)
	if err != nil || res.Act == nil || res.Act.Result != "ok" || taps(fp.got()) != 1 {
		t.Fatalf("the tap decided again: %+v, %v, inputs %v", res.Act, err, fp.got())
	}
}
