package device

import (
	"fmt"
	"strconv"
	"strings"
)

// MinSDK is the oldest Android API level phoneflow drives: Android 5.0.
// Screenshots and UI dumps travel over adb's binary-safe exec service
// (Android 5.0), waking uses KEYCODE_WAKEUP (API 20), long presses and
// drags `input swipe` with a duration (Android 4.4), the screen size `wm
// size` (Android 4.3) and typing `settings get secure` (Android 4.2);
// focus lines name the user only since Android 4.2 (docs/phones.md).
const MinSDK = 21

// MinRelease is the Android release of MinSDK, for messages.
const MinRelease = "5.0"

// UnsupportedAndroidError means the phone runs an Android release older
// than MinSDK: phoneflow refuses it instead of misreading it.
type UnsupportedAndroidError struct {
	Serial  string
	SDK     int
	Release string // ro.build.version.release, "" when unknown
}

func (e *UnsupportedAndroidError) Error() string {
	rel := e.Release
	if rel == "" {
		rel = "?"
	}
	return fmt.Sprintf("phone %s runs Android %s (API %d); phoneflow needs Android %s (API %d) or newer, "+
		"whose adb can capture the screen and inject the inputs it uses: use a newer phone or emulator image",
		e.Serial, rel, e.SDK, MinRelease, MinSDK)
}

// checkSDK refuses a phone whose ro.build.version.sdk is below MinSDK. An
// SDK the phone does not tell (empty, or not a number) is not refused: a
// reader that cannot read the phone fails later with its own error.
func checkSDK(serial, sdk, release string) error {
	n, err := strconv.Atoi(strings.TrimSpace(sdk))
	if err != nil || n <= 0 || n >= MinSDK {
		return nil
	}
	return &UnsupportedAndroidError{Serial: serial, SDK: n, Release: strings.TrimSpace(release)}
}

// parseGetprop reads the full `getprop` listing: `[key]: [value]` lines.
func parseGetprop(out string) map[string]string {
	props := map[string]string{}
	for line := range strings.Lines(out) {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "]: [")
		if !ok || !strings.HasPrefix(k, "[") || !strings.HasSuffix(v, "]") {
			continue
		}
		props[k[1:]] = v[:len(v)-1]
	}
	return props
}
