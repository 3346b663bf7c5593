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
