package device

import (
	"strings"
)

// SystemUIPackage is the package of Android's system UI: the notification
// shade, the status bar and the keyguard.
const SystemUIPackage = "com.android.systemui"

// SystemUIName is the name CurrentApp gives the system UI when one of its
// windows (the notification shade, the keyguard) has the focus.
const SystemUIName = "System UI"

// focus is what `dumpsys window` says is in front.
type focus struct {
	pkg      string
	activity string // the full class name; "" for a package-only window
	window   string // the system UI window that has the focus, when it does
}

// systemUIWindows are the titles of system UI windows that cover the app
// when they take the focus: the shade (NotificationShade since Android 10,
// which also draws the keyguard; StatusBar before, which takes the focus
// only when pulled down or as the keyguard; StatusBarExpanded on Android
// 4) and the keyguard's own windows of older releases. The app behind
// such a window is not what a person sees.
var systemUIWindows = map[string]bool{
	"NotificationShade": true, "StatusBar": true, "StatusBarExpanded": true,
	"NotificationPanel": true, "Keyguard": true, "KeyguardScrim": true,
}

// parseFocus finds what is in front in `dumpsys window` output. The first
// focused window (mCurrentFocus) that is an app's wins; a system UI window
// that covers the screen (the shade, the keyguard) is reported as the
// system UI, not as the app behind it; any other focused window (the
// keyboard, a popup, none) hands over to the focused app (mFocusedApp).
// With two displays (a flip phone's cover screen) there is one line of
// each per display. It reads every release since Android 4: windows with
// and without a user id, vivo's `Window{owner:hash u0 title type=1 }`,
// AppWindowToken wrappers and vendor fields after the activity.
func parseFocus(out string) (focus, bool) {
	var apps []focus
	for line := range strings.Lines(out) {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "mFocusedApp="); ok {
			if f, ok := activityRecord(v); ok {
				apps = append(apps, f)
			}
		}
	}
	var cover *focus
	for line := range strings.Lines(out) {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), "mCurrentFocus=")
		if !ok {
			continue
		}
		f, ok := focusedWindow(v)
		switch {
		case !ok || f.window == "" && f.pkg == "":
		case f.window == "" && f.pkg == SystemUIPackage && cover == nil:
			// A system UI activity (a cover screen's home) may be
			// another display's: an app's window on one wins.
			cover = &f
		default:
			return f, true
		}
	}
	f, ok := pickFocusedApp(apps)
	if cover != nil && (!ok || f.pkg == SystemUIPackage) {
		return *cover, true
	}
	return f, ok
}

// pickFocusedApp is the focused app of the main display: with two (a flip
// phone's cover screen lists the system UI's own home first), an app that
// is not the system UI's.
func pickFocusedApp(apps []focus) (focus, bool) {
	for _, f := range apps {
		if f.pkg != SystemUIPackage {
			return f, true
		}
	}
	if len(apps) > 0 {
		return apps[0], true
	}
	return focus{}, false
}

// focusedWindow reads a window token: `Window{hash u0 title}`, where the
// hash may carry the owner (`owner:hash`, vivo), the user id is missing
// before Android 4.2, and fields such as `paused=false` or `type=1` may
// follow the title. A title of pkg/activity is an app's window, a package
// alone a window of that package (a dialog); a system UI title is
// reported as such; anything else (the keyboard, a toast) reads as no
// app (ok with an empty focus).
func focusedWindow(v string) (focus, bool) {
	body, ok := braced(v, "Window{")
	if !ok {
		return focus{}, false
	}
	fields := strings.Fields(body)
	if len(fields) < 2 {
		return focus{}, false
	}
	owner := ""
	if o, _, found := strings.Cut(fields[0], ":"); found && looksLikePackage(o) {
		owner = o
	}
	fields = fields[1:]
	if isUserID(fields[0]) {
		fields = fields[1:]
	}
	var title []string
	for _, f := range fields {
		if strings.Contains(f, "=") {
			break
		}
		title = append(title, f)
	}
	if len(title) == 0 {
		return focus{}, false
	}
	if len(title) == 1 {
		if f, ok := component(title[0]); ok {
			return f, true
		}
		if looksLikePackage(title[0]) {
			return focus{pkg: title[0]}, true
		}
		if systemUIWindows[title[0]] {
			if owner == "" {
				owner = SystemUIPackage
			}
			return focus{pkg: owner, window: title[0]}, true
		}
	}
	return focus{}, true
}

// activityRecord reads the activity of an mFocusedApp value: an
// `ActivityRecord{hash u0 pkg/act t12}`, bare or inside an AppWindowToken,
// with or without a user id (`u0`, `u` on Android 4, none before 4.2) and
// with vendor fields after the activity (`pkg/act, isShadow:false`).
func activityRecord(v string) (focus, bool) {
	i := strings.Index(v, "ActivityRecord{")
	if i < 0 {
		return focus{}, false
	}
	body, ok := braced(v[i:], "ActivityRecord{")
	if !ok {
		return focus{}, false
	}
	for _, f := range strings.Fields(body) {
		if strings.Contains(f, "/") {
			return component(strings.TrimRight(f, ",;}"))
		}
	}
	return focus{}, false
}

// component reads pkg/activity, the activity short (".Main") or full.
func component(s string) (focus, bool) {
	pkg, act, ok := strings.Cut(s, "/")
	if !ok || !looksLikePackage(pkg) || act == "" || strings.ContainsAny(act, "/{}") {
		return focus{}, false
	}
	return focus{pkg: pkg, activity: expandActivity(pkg, act)}, true
}

// braced is what follows prefix at the start of s up to the first closing
// brace.
func braced(s, prefix string) (string, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok {
		return "", false
	}
	body, _, ok := strings.Cut(rest, "}")
	return body, ok
}

// isUserID reports whether f is a window's user field: u0, u10, or the
// bare "u" Android 4 writes in activity records.
func isUserID(f string) bool {
	if !strings.HasPrefix(f, "u") {
		return false
	}
	for _, r := range f[1:] {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func expandActivity(pkg, act string) string {
	if strings.HasPrefix(act, ".") {
		return pkg + act
	}
	return act
}
