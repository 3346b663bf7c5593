package device

import (
	"context"
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// LockState is what a phone's power manager and window policy say about
// its screen and keyguard.
type LockState struct {
	ScreenOn bool
	Keyguard bool // the keyguard (or its bouncer) shows
	Secure   bool // it asks for a PIN, password or pattern
}

// Why a phone stays locked (LockedError.Kind).
const (
	LockNoPIN    = "no_pin"    // a PIN or password lock, and no PIN configured
	LockWrongPIN = "wrong_pin" // the configured PIN was not accepted
	LockPattern  = "pattern"   // a pattern lock: no typed input passes it
	LockStill    = "locked"    // the keyguard stayed after everything tried
)

// LockedError means Unlock could not get past the phone's lock screen; a
// person has to unlock it, or fix the configured PIN. Its text never
// holds the PIN.
type LockedError struct {
	Serial string
	Kind   string
}

func (e *LockedError) Error() string {
	switch e.Kind {
	case LockNoPIN:
		return fmt.Sprintf("phone %s is locked with a PIN or password and no unlock PIN is configured: set adb.unlock_pin (or PHONEFLOW_ADB_UNLOCK_PIN), or unlock it at the phone", e.Serial)
	case LockWrongPIN:
		return fmt.Sprintf("phone %s did not accept the configured unlock PIN (adb.unlock_pin): fix the setting and restart the worker, or unlock it at the phone; the PIN is not tried again, as phones lock out after a few wrong ones", e.Serial)
	case LockPattern:
		return fmt.Sprintf("phone %s is locked with a pattern, which cannot be entered over adb: unlock it at the phone, or switch its screen lock to a PIN", e.Serial)
	}
	return fmt.Sprintf("phone %s still shows its lock screen after waking it and dismissing the keyguard: unlock it at the phone", e.Serial)
}

// ValidPIN reports whether pin can be typed on a lock screen over adb:
// 4 to 16 letters or digits (`input text` takes them as they are).
func ValidPIN(pin string) bool {
	if len(pin) < 4 || len(pin) > 16 {
		return false
	}
	for _, r := range pin {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// LockState reads the screen's power and the keyguard's state in one
// shell round trip (`dumpsys power` and `dumpsys window policy`).
func (d *adbDevice) LockState(ctx context.Context) (LockState, error) {
	out, err := d.shell(ctx, "dumpsys power; dumpsys window policy")
	if err != nil {
		return LockState{}, fmt.Errorf("device %s: dumpsys power and window policy: %w", d.serial, err)
	}
	on, ok := parseScreenOn(out)
	if !ok {
		return LockState{}, fmt.Errorf("device %s: cannot tell the screen state from `dumpsys power` output %q", d.serial, clip(out))
	}
	st := LockState{ScreenOn: on}
	if st.Keyguard, st.Secure, ok = parseKeyguard(out); !ok {
		return st, fmt.Errorf("device %s: cannot tell whether the keyguard shows from `dumpsys window policy` output %q", d.serial, clip(out))
	}
	return st, nil
}

// parseKeyguard reads the window policy's keyguard state: showing and
// secure from its KeyguardServiceDelegate lines (Android 6+, Fire OS), the
// older mShowingLockscreen / mDreamingLockscreen flags (Android 5-7: a
// dreaming lock screen is a lock screen), isStatusBarKeyguard and the
// KeyguardStateMonitor's mIsShowing. Any of them saying it shows means it
// shows. ok is false when the output has none of them (Android 4's window
// policy): the state is unknown.
func parseKeyguard(out string) (showing, secure, ok bool) {
	vals := map[string]string{}
	for line := range strings.Lines(out) {
		for _, f := range strings.Fields(line) {
			if k, v, found := strings.Cut(f, "="); found {
				if _, seen := vals[k]; !seen {
					vals[k] = strings.TrimRight(v, ",")
				}
			}
		}
	}
	secure = vals["secure"] == "true"
	for _, k := range []string{"showing", "mShowingLockscreen", "mDreamingLockscreen", "isStatusBarKeyguard", "mIsShowing"} {
		if v, found := vals[k]; found {
			ok = true
			showing = showing || v == "true"
		}
	}
	return showing, secure, ok
}

// Unlock makes sure the phone is awake and unlocked, as its owner does
// when picking it up: the wake key, the keyguard dismissed (`wm
// dismiss-keyguard`, a swipe up where that is missing), and for a PIN or
// password lock pin typed on the bouncer and entered. It reports whether
// it changed anything. A lock it cannot pass is a *LockedError. The PIN is
// typed once per call and never appears in errors or logs.
func (d *adbDevice) Unlock(ctx context.Context, pin string) (bool, error) {
	st, err := d.LockState(ctx)
	if err != nil {
		return false, err
	}
	if st.ScreenOn && !st.Keyguard {
		return false, nil
	}
	if !st.ScreenOn {
		if err := d.input(ctx, "input keyevent KEYCODE_WAKEUP"); err != nil {
			return false, err
		}
		if !st.Keyguard {
			return true, nil
		}
	}
	if err := d.dismissKeyguard(ctx); err != nil {
		return true, err
	}
	if st, err = d.LockState(ctx); err != nil || !st.Keyguard {
		return true, err
	}
	if !st.Secure {
		return true, &LockedError{Serial: d.serial, Kind: LockStill}
	}
	if d.patternLock(ctx) {
		return true, &LockedError{Serial: d.serial, Kind: LockPattern}
	}
	if pin == "" {
		return true, &LockedError{Serial: d.serial, Kind: LockNoPIN}
	}
	if !ValidPIN(pin) {
		return true, fmt.Errorf("device %s: the configured unlock PIN cannot be typed: use 4 to 16 letters or digits in adb.unlock_pin", d.serial)
	}
	if err := d.enterPIN(ctx, pin); err != nil {
		return true, err
	}
	if st, err = d.LockState(ctx); err != nil || !st.Keyguard {
		return true, err
	}
	return true, &LockedError{Serial: d.serial, Kind: LockWrongPIN}
}

// dismissKeyguard asks the window manager to dismiss the keyguard; a
// phone without `wm dismiss-keyguard` (before Android 8) gets a swipe up.
func (d *adbDevice) dismissKeyguard(ctx context.Context) error {
	out, err := d.runInput(ctx, "wm dismiss-keyguard")
	if err != nil {
		return fmt.Errorf("device %s: wm dismiss-keyguard: %w", d.serial, err)
	}
	if !commandFailed(out) {
		_, err = d.Settle(ctx)
		return sent(err)
	}
	w, h, err := d.ScreenSize(ctx)
	if err != nil {
		return err
	}
	return d.Swipe(ctx, w/2, h*4/5, w/2, h/4, 0)
}

// patternLock reports whether the bouncer asks for a pattern, from its UI
// tree (the pattern view's id or class).
func (d *adbDevice) patternLock(ctx context.Context) bool {
	elems, err := d.UITree(ctx)
	if err != nil {
		return false
	}
	return hasPatternView(elems)
}

func hasPatternView(elems []uitree.Element) bool {
	for _, e := range elems {
		if strings.Contains(e.ResourceID, "lockPatternView") || strings.Contains(e.ResourceID, "keyguard_pattern_view") ||
			strings.HasSuffix(e.Class, "LockPatternView") {
			return true
		}
	}
	return false
}

// enterPIN types the PIN into the bouncer and presses Enter. Its errors
// name the step, never the command (which holds the PIN).
func (d *adbDevice) enterPIN(ctx context.Context, pin string) error {
	out, err := d.runInput(ctx, "input text "+pin+" && input keyevent 66")
	if err != nil {
		return fmt.Errorf("device %s: typing the unlock PIN: the connection to the phone failed: %w", d.serial, redactPIN(err, pin))
	}
	if commandFailed(out) {
		return fmt.Errorf("device %s: typing the unlock PIN failed: %s", d.serial, clip(strings.ReplaceAll(out, pin, "****")))
	}
	_, err = d.Settle(ctx)
	return sent(err)
}

// redactPIN is err with every occurrence of pin masked.
func redactPIN(err error, pin string) error {
	msg := err.Error()
	if !strings.Contains(msg, pin) {
		return err
	}
	return fmt.Errorf("%s", strings.ReplaceAll(msg, pin, "****"))
}
