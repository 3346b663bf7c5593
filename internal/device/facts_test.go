package device

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestFactsOverRealADB reads a simulated phone's facts through the real
// adb server: what `starter devices` and the planner are shown.
func TestFactsOverRealADB(t *testing.T) {
	s := startStack(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d := New(s.client, s.serial, Options{Settle: SettlePolicy{Mode: SettleNone}})
	f, err := d.(FactReader).Facts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if f.Model != "Pixel 7 (phonesim)" || f.Android != "14" || f.Width != 1080 || f.Height != 2400 {
		t.Errorf("facts = %+v, want the simulator's Pixel 7 (phonesim), Android 14, 1080x2400", f)
	}
	if f.Lock != LockKindNone {
		t.Errorf("an unlocked phone without a screen lock reads lock %q, want %q", f.Lock, LockKindNone)
	}
	for _, app := range []string{"Settings", "Messages", "Clock"} {
		if !slices.Contains(f.Apps, app) {
			t.Errorf("apps %v lack %s, which the simulator installs", f.Apps, app)
		}
	}
	if !slices.IsSorted(f.Apps) {
		t.Errorf("apps %v are not sorted", f.Apps)
	}

	s.phone.SetScreenLock("1234", false)
	f, err = d.(FactReader).Facts(ctx)
	if err != nil || f.Lock != LockKindSecure {
		t.Errorf("a phone with a PIN reads lock %q (%v), want %q", f.Lock, err, LockKindSecure)
	}
}

func TestLockKind(t *testing.T) {
	for _, tc := range []struct {
		st   LockState
		want string
	}{
		{LockState{ScreenOn: true}, LockKindNone},
		{LockState{Keyguard: true}, LockKindSwipe},
		{LockState{Keyguard: true, Secure: true}, LockKindSecure},
		{LockState{ScreenOn: true, Secure: true}, LockKindSecure}, // unlocked now, a PIN next time
	} {
		if got := lockKind(tc.st); got != tc.want {
			t.Errorf("lockKind(%+v) = %q, want %q", tc.st, got, tc.want)
		}
	}
}
