package activities

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// lockedPhone is a fakePhone behind a PIN lock screen.
type lockedPhone struct {
	*fakePhone
	pin    string // the phone's PIN
	locked bool
	tried  []string
}

func (p *lockedPhone) Unlock(_ context.Context, pin string) (bool, error) {
	if !p.locked {
		return false, nil
	}
	if pin == "" {
		return true, &device.LockedError{Serial: p.Serial(), Kind: device.LockNoPIN}
	}
	p.tried = append(p.tried, pin)
	if pin != p.pin {
		return true, &device.LockedError{Serial: p.Serial(), Kind: device.LockWrongPIN}
	}
	p.locked = false
	return true, nil
}

type lockedPool struct{ p *lockedPhone }

func (f lockedPool) Get(ctx context.Context, serial string) (device.Device, error) {
	if _, err := (fakePool{f.p.fakePhone}).Get(ctx, serial); err != nil {
		return nil, err
	}
	return f.p, nil
}
func (f lockedPool) List(ctx context.Context) ([]device.Info, error) {
	return fakePool{f.p.fakePhone}.List(ctx)
}

// TestStepUnlocksBeforeItActs: a Step on a locked phone unlocks it with
// the configured PIN before its action lands; a PIN the phone refused is
// never typed again, and a lock that cannot be passed comes back as a
// question with nothing sent, no model called and no PIN in the result.
func TestStepUnlocksBeforeItActs(t *testing.T) {
	ctx := context.Background()
	a, fp, m := newActivities(t, tapAnswer)
	p := &lockedPhone{fakePhone: fp, pin: "4827", locked: true}
	a.Devices = lockedPool{p}
	a.Unlock = &Unlocker{PIN: "4827"}
	act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	res, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Act: &act, Think: true})
	if err != nil || res.Locked != "" || p.locked {
		t.Fatalf("Step on a phone with the right PIN: locked %t, result %q, %v", p.locked, res.Locked, err)
	}
	if len(p.got()) != 1 || res.Think == nil {
		t.Fatalf("after unlocking: inputs %v, think %v", p.got(), res.Think)
	}

	a, fp, m = newActivities(t, tapAnswer)
	p = &lockedPhone{fakePhone: fp, pin: "4827", locked: true}
	a.Devices = lockedPool{p}
	a.Unlock = &Unlocker{PIN: "1111"}
	for range 2 {
		res, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Act: &act, Think: true})
		if err != nil || !strings.HasPrefix(res.Locked, LockedQuestion) || !strings.Contains(res.Locked, "did not accept") {
			t.Fatalf("Step with a wrong PIN: %q, %v", res.Locked, err)
		}
		b, _ := json.Marshal(res)
		if strings.Contains(string(b), "1111") || strings.Contains(string(b), "4827") {
			t.Fatalf("a PIN in the Step's result: %s", b)
		}
	}
	if len(p.tried) != 1 || len(p.got()) != 0 || len(m.reqs) != 0 {
		t.Fatalf("wrong PIN: tried %d times, inputs %v, %d model calls; want 1, none, none", len(p.tried), p.got(), len(m.reqs))
	}

	a.Unlock = &Unlocker{}
	res, err = a.Step(ctx, StepInput{Serial: "fake-1", Task: "t", Think: true})
	if err != nil || !strings.Contains(res.Locked, "adb.unlock_pin") {
		t.Fatalf("Step with no PIN configured: %q, %v", res.Locked, err)
	}
}
