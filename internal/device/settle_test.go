package device

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSettleWaitsForStableScreen(t *testing.T) {
	f, _, d := setup(t, Options{})
	// The screen keeps changing for the first 4 captures after the input.
	f.set(func(f *fakePhone) { f.changeAfterProbes = 4 })
	d.probeRaw = 1 // one capture per probe, so the count below is exact
	if err := d.Tap(tctx(t), 1, 1); err != nil {
		t.Fatal(err)
	}
	st := d.LastSettle()
	if !st.Settled || st.Captures != 5 {
		t.Errorf("settle %+v; want settled after 5 captures (4 changing, the 5th equal to the 4th)", st)
	}
}

func TestSettleGivesUpAtMax(t *testing.T) {
	f, _, d := setup(t, Options{Settle: SettlePolicy{Mode: SettleWait, Interval: time.Millisecond, Max: 50 * time.Millisecond}})
	f.set(func(f *fakePhone) { f.changeAfterProbes = 1 << 30 })
	if err := d.Back(tctx(t)); err != nil {
		t.Fatal(err)
	}
	if st := d.LastSettle(); st.Settled || st.Captures < 1 {
		t.Errorf("settle %+v; want captures taken and not settled", st)
	}
}

func TestSettleWaitsForDelayedChange(t *testing.T) {
	// The app redraws 150 ms after the input; settle must not take the old
	// screen, seen twice before the redraw, for the settled one.
	f, _, d := setup(t, Options{Settle: SettlePolicy{Mode: SettleWait, Interval: 10 * time.Millisecond, Max: 3 * time.Second, ChangeWait: time.Second}})
	if _, err := d.Settle(tctx(t)); err != nil { // learn the current screen
		t.Fatal(err)
	}
	f.set(func(f *fakePhone) { f.delayed = 150 * time.Millisecond })
	if err := d.Tap(tctx(t), 1, 1); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	frame, pending := f.frame, !f.delayUntil.IsZero()
	f.mu.Unlock()
	if pending || frame != 1 {
		t.Errorf("settle returned before the delayed redraw (frame %d, pending %v)", frame, pending)
	}
}

func TestSettleProbeChoice(t *testing.T) {
	f, _, d := setup(t, Options{})
	f.set(func(f *fakePhone) { f.noRaw = true })
	if err := d.Tap(tctx(t), 1, 1); err != nil {
		t.Fatal(err)
	}
	if d.probeRaw != -1 || f.pngCalls < 2 {
		t.Errorf("without raw screencap: probeRaw %d, png captures %d; want PNG probing", d.probeRaw, f.pngCalls)
	}
	f, _, d = setup(t, Options{})
	f.set(func(f *fakePhone) { f.secure = "empty" })
	if err := d.Tap(tctx(t), 1, 1); err != nil {
		t.Fatal(err)
	}
	if d.probeRaw != 0 {
		t.Errorf("on a secure screen the probe was chosen (%d) from empty captures", d.probeRaw)
	}
	f.set(func(f *fakePhone) { f.secure = "" })
	if err := d.Tap(tctx(t), 1, 1); err != nil {
		t.Fatal(err)
	}
	if d.probeRaw == 0 {
		t.Error("no probe chosen once captures worked")
	}
}

func TestSettleModes(t *testing.T) {
	var seen []SettleStats
	for _, mode := range []string{SettleNone, SettleFixed} {
		f, _, d := setup(t, Options{Settle: SettlePolicy{Mode: mode, Fixed: 20 * time.Millisecond}, OnSettle: func(s SettleStats) { seen = append(seen, s) }})
		if err := d.Home(tctx(t)); err != nil {
			t.Fatal(err)
		}
		if st := d.LastSettle(); st.Mode != mode || st.Captures != 0 || !st.Settled || f.pngCalls != 0 {
			t.Errorf("%s: %+v, %d captures", mode, st, f.pngCalls)
		}
	}
	if len(seen) != 2 {
		t.Errorf("OnSettle called %d times, want 2", len(seen))
	}
	_, _, d := setup(t, Options{Settle: SettlePolicy{Mode: SettleFixed, Fixed: time.Hour}})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := d.Home(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("fixed settle past the deadline: %v", err)
	}
}

func TestSettlePolicyValidate(t *testing.T) {
	if err := DefaultSettle().Validate(); err != nil {
		t.Error(err)
	}
	for _, p := range []SettlePolicy{{Mode: "sleep"}, {Stable: 1}, {Max: -1}} {
		if p.Validate() == nil {
			t.Errorf("%+v validated", p)
		}
	}
}
