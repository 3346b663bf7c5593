package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// dialogPhone is a formPhone whose system dialog is the system's window
// in front, and whose negative button closes it.
type dialogPhone struct{ *formPhone }

func (p dialogPhone) CurrentApp(ctx context.Context) (device.App, error) {
	p.fmu.Lock()
	dialog := p.dialog
	p.fmu.Unlock()
	if dialog {
		return device.App{Package: "android"}, nil
	}
	return p.formPhone.CurrentApp(ctx)
}

func (p dialogPhone) Tap(ctx context.Context, x, y int) error {
	if err := p.formPhone.Tap(ctx, x, y); err != nil {
		return err
	}
	p.fmu.Lock()
	defer p.fmu.Unlock()
	if p.dialog && x >= 132 && x <= 520 && y >= 1360 && y <= 1500 {
		p.dialog = false
	}
	return nil
}

type sysDialogPool struct{ p dialogPhone }

func (f sysDialogPool) Get(context.Context, string) (device.Device, error) { return f.p, nil }
func (f sysDialogPool) List(context.Context) ([]device.Info, error) {
	return []device.Info{{Serial: "fake-1", State: "device"}}, nil
}

// A tap on a system dialog's button that reached the phone, its record
// lost with the worker, and the same dialog shown again by the phone
// before the retry looks: the screen is as it was, but the phone shows
// such windows by itself, so that is no sign the tap did nothing. It is
// not sent again; the next think looks (docs/design.md#exactly-once-device-actions).
func TestActOnceTapOnASystemDialogShownAgainIsNotSentTwice(t *testing.T) {
	a, fp := newJournalled(t)
	p := dialogPhone{fp}
	a.Devices = sysDialogPool{p}
	fp.dialog = true
	before := observeTree(t, a)
	if before.AppPackage != "android" {
		t.Fatalf("the dialog's screen shows %q in front, want android", before.AppPackage)
	}
	noThanks := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{300, 600}}
	if _, _, crashed := stepAct(t, a, noThanks, "g/t/r/5", before, true); !crashed {
		t.Fatal("the fault hook did not run")
	}
	if fp.dialog || len(fp.got()) != 1 {
		t.Fatalf("the first try: dialog %v, inputs %v; want the dialog closed by one tap", fp.dialog, fp.got())
	}
	fp.dialog = true // the phone shows the same warning again
	res, err, _ := stepAct(t, a, noThanks, "g/t/r/5", before, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := fp.got(); len(got) != 1 {
		t.Fatalf("inputs %v after the retry (result %+v): the one tap reached the phone twice", got, res.Act)
	}
	if !strings.HasPrefix(res.Act.Result, ActUnknown) || !strings.Contains(res.Act.Result, "by itself") {
		t.Fatalf("the retry = %+v, want the outcome unknown, saying the phone shows such windows by itself", res.Act)
	}

	// A Back on the dialog the same way: sent again it would leave the
	// app under the dialog.
	before = observeTree(t, a)
	back := autoglm.Action{Name: autoglm.ActionBack}
	stepAct(t, a, back, "g/t/r/6", before, true)
	res, err, _ = stepAct(t, a, back, "g/t/r/6", before, false)
	if err != nil || !strings.HasPrefix(res.Act.Result, ActUnknown) || len(fp.got()) != 2 {
		t.Fatalf("Back retried on the same dialog = %+v, %v, inputs %v; want it unknown, sent once", res.Act, err, fp.got())
	}
}
