package device

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

func TestParseKeyguard(t *testing.T) {
	for _, c := range []struct {
		name, out           string
		showing, secure, ok bool
	}{
		{"delegate", "    KeyguardServiceDelegate\n      showing=true\n      showingAndNotOccluded=true\n      secure=true\n", true, true, true},
		{"delegate unlocked", "      showing=false\n      secure=true\n", false, true, true},
		{"monitor only", "      KeyguardStateMonitor\n        mIsShowing=true\n", true, false, true},
		{"old flag", "  mShowingLockscreen=true mShowingDream=false\n", true, false, true},
		{"status bar flag", "    isStatusBarKeyguard=false\n", false, false, true},
		{"nothing", "WINDOW MANAGER POLICY STATE\n", false, false, false},
	} {
		showing, secure, ok := parseKeyguard(c.out)
		if showing != c.showing || secure != c.secure || ok != c.ok {
			t.Errorf("%s: showing %t secure %t ok %t, want %t %t %t", c.name, showing, secure, ok, c.showing, c.secure, c.ok)
		}
	}
}

// TestUnlockOverRealADB wakes and unlocks simulated phones through the
// real adb server: a dark PIN-locked one with the right PIN, a swipe-only
// keyguard, and the locks it cannot pass, whose errors never hold the PIN.
func TestUnlockOverRealADB(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	opts := Options{Settle: SettlePolicy{Mode: SettleNone}}

	st := startStackWith(t, phonesim.Life{PIN: "4827", Manual: true})
	d := New(st.client, st.serial, opts).(*adbDevice)
	st.phone.Lock()
	if ls, err := d.LockState(ctx); err != nil || ls.ScreenOn || !ls.Keyguard || !ls.Secure {
		t.Fatalf("lock state of a dark PIN-locked phone: %+v, %v", ls, err)
	}
	if _, err := d.Unlock(ctx, ""); !isLock(err, LockNoPIN) || strings.Contains(err.Error(), "4827") {
		t.Fatalf("Unlock without a PIN: %v", err)
	}
	if _, err := d.Unlock(ctx, "1111"); !isLock(err, LockWrongPIN) || strings.Contains(err.Error(), "1111") {
		t.Fatalf("Unlock with a wrong PIN: %v", err)
	}
	if n := st.phone.State().WrongPINs; n != 1 {
		t.Fatalf("the phone saw %d wrong PINs, want 1", n)
	}
	changed, err := d.Unlock(ctx, "4827")
	if err != nil || !changed {
		t.Fatalf("Unlock with the PIN: changed %t, %v", changed, err)
	}
	if s := st.phone.State(); s.Locked || !s.Awake {
		t.Fatalf("after Unlock: locked %t awake %t", s.Locked, s.Awake)
	}
	if changed, err := d.Unlock(ctx, "4827"); err != nil || changed {
		t.Fatalf("Unlock of an unlocked phone: changed %t, %v", changed, err)
	}
	for _, in := range st.phone.State().InputLog {
		if strings.Contains(strings.Join(in.Args, " "), "4827") {
			t.Fatalf("the phone's input log holds the PIN: %+v", in)
		}
	}

	swipe := startStackWith(t, phonesim.Life{ScreenTimeout: time.Hour, Manual: true})
	sd := New(swipe.client, swipe.serial, opts)
	swipe.phone.Lock()
	if _, err := sd.(*adbDevice).Unlock(ctx, ""); err != nil || swipe.phone.State().Locked {
		t.Fatalf("Unlock of a swipe keyguard: %v, locked %t", err, swipe.phone.State().Locked)
	}

	pat := startStackWith(t, phonesim.Life{Pattern: true, Manual: true})
	pat.phone.Lock()
	if _, err := New(pat.client, pat.serial, opts).(*adbDevice).Unlock(ctx, "4827"); !isLock(err, LockPattern) {
		t.Fatalf("Unlock of a pattern lock: %v", err)
	}
}

func isLock(err error, kind string) bool {
	var le *LockedError
	return errors.As(err, &le) && le.Kind == kind
}

func FuzzParseKeyguard(f *testing.F) {
	f.Add("    KeyguardServiceDelegate\n      showing=true\n      secure=true\n")
	f.Add("mShowingLockscreen=false mShowingDream=false mDreamingLockscreen=true mTopIsFullscreen=false")
	f.Add("isStatusBarKeyguard=true\nmForceStatusBarFromKeyguard=true")
	f.Fuzz(func(t *testing.T, s string) {
		showing, secure, ok := parseKeyguard(s)
		if !ok && showing {
			t.Fatalf("parseKeyguard(%q): showing without any keyguard field", s)
		}
		if secure && !strings.Contains(s, "secure=true") {
			t.Fatalf("parseKeyguard(%q): secure without secure=true", s)
		}
	})
}
