package activities

import (
	"context"
	"errors"
	"testing"

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
