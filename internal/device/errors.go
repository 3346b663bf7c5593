package device

import (
	"errors"
	"fmt"
	"strings"
)

// ErrIMENotInstalled means the phone lacks the ADB Keyboard, which Type
// needs to enter arbitrary Unicode text.
var ErrIMENotInstalled = errors.New("ADB Keyboard (com.android.adbkeyboard) is not installed on the phone: " +
	"download ADBKeyboard.apk from https://github.com/senzhk/ADBKeyBoard/releases, install it with " +
	"`adb -s SERIAL install ADBKeyboard.apk`, then enable it with " +
	"`adb -s SERIAL shell ime enable com.android.adbkeyboard/.AdbIME`")

// ErrIMEBlocked means the phone refuses adb the switch to the ADB
// Keyboard: its `ime` commands fail with a SecurityException for
// WRITE_SECURE_SETTINGS, as ColorOS, MIUI and HyperOS phones do until a
// developer setting allows it.
var ErrIMEBlocked = errors.New("the phone refuses to switch its keyboard to the ADB Keyboard over adb " +
	"(SecurityException: WRITE_SECURE_SETTINGS): on the phone open Settings > Developer options and turn on " +
	"\"USB debugging (security settings)\" (on some ColorOS releases \"Disable permission monitoring\"), " +
	"then try again")

// ErrNotIdle means `uiautomator dump` found no idle state ("ERROR: could
// not get idle state."): the screen kept animating (a progress indicator,
// a video, a transition) through uiautomator's whole wait, so there is no
// UI tree of it. The screenshot still shows it; what needs the tree is
// not verified from it (docs/phones.md#a-phones-costs).
var ErrNotIdle = errors.New("uiautomator dump found no idle state (ERROR: could not get idle state.): " +
	"the screen kept animating through uiautomator's wait, so it has no UI tree; " +
	"act on the screenshot, or look again when the animation ends")

// NeedsPerson reports whether err is one only a person at the phone can
// fix (the ADB Keyboard missing, or a setting that blocks it): no model
// and no retry gets past it.
func NeedsPerson(err error) bool {
	return errors.Is(err, ErrIMENotInstalled) || errors.Is(err, ErrIMEBlocked)
}

// AppNotFoundError means Launch could not find the app on the phone.
// Suggestions holds close names the caller may have meant.
type AppNotFoundError struct {
	App         string
	Package     string // the package tried, when the name resolved to one
	Suggestions []string
}

func (e *AppNotFoundError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "app not found: %q", e.App)
	if e.Package != "" && e.Package != e.App {
		fmt.Fprintf(&b, " (%s is not installed)", e.Package)
	}
	if len(e.Suggestions) > 0 {
		fmt.Fprintf(&b, " (did you mean: %s)", strings.Join(e.Suggestions, ", "))
	}
	return b.String()
}

// NotAllowedError means a Pool refused a serial outside its allow list.
type NotAllowedError struct {
	Serial  string
	Allowed []string
}

func (e *NotAllowedError) Error() string {
	return fmt.Sprintf("device %q is not in the allowed devices (%s): add it to the allow list in the config to use it",
		e.Serial, strings.Join(e.Allowed, ", "))
}

// NotSentError wraps the error of an input that never reached the phone:
// it failed before the input command began (the ADB server or the phone
// refused or could not be reached, or a read the input depends on
// failed). Sending the input again cannot apply it twice
// (docs/design.md §4).
type NotSentError struct{ Err error }

func (e *NotSentError) Error() string { return e.Err.Error() }
func (e *NotSentError) Unwrap() error { return e.Err }

// SentError wraps an error that came after the input reached the phone
// and finished there: the wait for the screen to settle, or restoring the
// keyboard after typing. The input itself took place.
type SentError struct{ Err error }

func (e *SentError) Error() string { return e.Err.Error() }
func (e *SentError) Unwrap() error { return e.Err }

// NotSent reports whether err says the input never reached the phone.
func NotSent(err error) bool {
	var ns *NotSentError
	return errors.As(err, &ns)
}

// Sent reports whether err came after the input reached the phone.
func Sent(err error) bool {
	var s *SentError
	return errors.As(err, &s)
}

// notSent marks err as an error before the input began; nil stays nil.
func notSent(err error) error {
	if err == nil || NotSent(err) {
		return err
	}
	return &NotSentError{Err: err}
}

// maybeSent drops a not-sent mark from an error of a later command of an
// input whose first command reached the phone.
func maybeSent(err error) error {
	var ns *NotSentError
	if errors.As(err, &ns) {
		return ns.Err
	}
	return err
}

// sent marks an error that came after the input took place.
func sent(err error) error {
	if err == nil {
		return nil
	}
	return &SentError{Err: err}
}
