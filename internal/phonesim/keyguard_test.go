package phonesim

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestKeyguardPIN(t *testing.T) {
	p := New(Config{Life: Life{PIN: "4827", Manual: true}})
	launch(t, p, pkgNotes)
	sh(t, p, "input keyevent POWER")
	if st := p.State(); st.Awake || !st.Locked {
		t.Fatalf("POWER on a phone with a PIN: awake %t locked %t", st.Awake, st.Locked)
	}
	dark, _, _ := p.Screenshot()
	sh(t, p, "input keyevent WAKEUP")
	if out := sh(t, p, "dumpsys window policy"); !strings.Contains(out, "showing=true") || !strings.Contains(out, "secure=true") {
		t.Fatalf("dumpsys window policy on a PIN keyguard:\n%s", out)
	}
	sh(t, p, "input swipe 540 1900 540 700 300")
	if st := p.State(); !st.Locked || !st.Bouncer {
		t.Fatalf("a swipe up on a PIN keyguard: locked %t bouncer %t", st.Locked, st.Bouncer)
	}
	element(t, p, "keyguard_pin_view")
	if e := element(t, p, "keyguard_message_area"); e.Text != PromptPIN {
		t.Fatalf("bouncer prompt %q", e.Text)
	}
	pad, _, _ := p.Screenshot()
	if bytes.Equal(pad, dark) {
		t.Fatal("the PIN pad draws as the dark screen")
	}

	// A wrong PIN is rejected and said so; the entry is cleared.
	sh(t, p, "input text 1111")
	if e := element(t, p, "pinEntry"); e.Text != "••••" {
		t.Fatalf("PIN entry shows %q, want four dots", e.Text)
	}
	sh(t, p, "input keyevent 66")
	st := p.State()
	if !st.Locked || st.WrongPINs != 1 {
		t.Fatalf("after a wrong PIN: locked %t wrong %d", st.Locked, st.WrongPINs)
	}
	if e := element(t, p, "keyguard_message_area"); e.Text != PromptWrong {
		t.Fatalf("prompt after a wrong PIN %q", e.Text)
	}
	for _, in := range st.InputLog {
		if strings.Contains(strings.Join(in.Args, " "), "1111") {
			t.Fatalf("the input log keeps a typed PIN: %+v", in)
		}
	}

	// Taps on the pad: the right PIN unlocks back onto the app.
	for _, k := range []string{"key4", "key8", "key2", "key9", "delete_button", "key7", "key_enter"} {
		tapOn(t, p, k)
	}
	if st := p.State(); st.Locked || st.CurrentApp != p.pkg(pkgNotes) {
		t.Fatalf("after the right PIN: locked %t app %s", st.Locked, st.CurrentApp)
	}
	element(t, p, "New note")

	// wm dismiss-keyguard shows the bouncer too; Back goes back to the keyguard.
	sh(t, p, "input keyevent SLEEP")
	sh(t, p, "input keyevent WAKEUP")
	sh(t, p, "wm dismiss-keyguard")
	if !p.State().Bouncer {
		t.Fatal("wm dismiss-keyguard did not show the bouncer")
	}
	sh(t, p, "input keyevent 4")
	if st := p.State(); st.Bouncer || !st.Locked {
		t.Fatalf("Back on the bouncer: %+v", st)
	}
	element(t, p, KeyguardHint)
}

func TestKeyguardSwipeOnlyDismiss(t *testing.T) {
	p := New(Config{Life: Life{ScreenTimeout: time.Minute, Manual: true}})
	sh(t, p, "input keyevent SLEEP")
	sh(t, p, "input keyevent WAKEUP")
	if out := sh(t, p, "dumpsys window policy"); !strings.Contains(out, "showing=true") || !strings.Contains(out, "secure=false") {
		t.Fatalf("dumpsys window policy on a swipe keyguard:\n%s", out)
	}
	sh(t, p, "wm dismiss-keyguard")
	if st := p.State(); st.Locked {
		t.Fatal("wm dismiss-keyguard left a swipe-only keyguard locked")
	}
	if out := sh(t, p, "dumpsys window policy"); !strings.Contains(out, "showing=false") {
		t.Fatalf("dumpsys window policy after unlocking:\n%s", out)
	}
}

func TestKeyguardPattern(t *testing.T) {
	p := New(Config{Life: Life{Pattern: true, Manual: true}})
	sh(t, p, "input keyevent SLEEP")
	sh(t, p, "input keyevent WAKEUP")
	sh(t, p, "wm dismiss-keyguard")
	element(t, p, "lockPatternView")
	sh(t, p, "input text 1234")
	sh(t, p, "input keyevent 66")
	sh(t, p, "input swipe 300 1000 800 1500 500")
	if !p.State().Locked {
		t.Fatal("typed input or a swipe passed a pattern lock")
	}
	if out := sh(t, p, "simctl unlock"); !strings.Contains(out, "unlocked") || p.State().Locked {
		t.Fatalf("simctl unlock: %q", out)
	}
}

// TestSetScreenLock: a phone started without a lock gets a pattern lock
// later; POWER locks it, the swipe up shows the pattern bouncer, and once
// the lock is taken away again POWER only darkens the screen.
func TestSetScreenLock(t *testing.T) {
	p := New(Config{})
	p.SetScreenLock("", true)
	sh(t, p, "input keyevent POWER")
	if st := p.State(); st.Awake || !st.Locked {
		t.Fatalf("POWER with a pattern lock set: awake %t locked %t", st.Awake, st.Locked)
	}
	sh(t, p, "input keyevent WAKEUP")
	sh(t, p, "wm dismiss-keyguard")
	if e := element(t, p, "keyguard_message_area"); e.Text != PromptPattern {
		t.Fatalf("bouncer prompt %q, want the pattern's", e.Text)
	}
	p.Unlock()
	p.SetScreenLock("", false)
	sh(t, p, "input keyevent POWER")
	if st := p.State(); st.Awake || st.Locked {
		t.Fatalf("POWER with the lock taken away: awake %t locked %t", st.Awake, st.Locked)
	}
}
