package device

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Lock kinds a phone reports in Facts.Lock.
const (
	LockKindNone   = "none"   // no keyguard: the phone opens with the power key
	LockKindSwipe  = "swipe"  // a keyguard that a swipe dismisses
	LockKindSecure = "secure" // a PIN, password or pattern
	// LockKindUnknown: the window policy did not say (the phone is
	// not assumed open).
	LockKindUnknown = "unknown"
)

// Facts are what a worker reads from a phone for the fleet to see
// (docs/design.md#phone-fleet): never a secret, never the screen.
type Facts struct {
	Model   string `json:"model,omitempty"`   // ro.product.model
	Android string `json:"android,omitempty"` // ro.build.version.release
	Width   int    `json:"width,omitempty"`   // `wm size`
	Height  int    `json:"height,omitempty"`
	Lock    string `json:"lock,omitempty"` // LockKind*
	// Apps are the installed apps the built-in app table names, by
	// their display names, sorted: the apps goals are written about.
	Apps []string `json:"apps,omitempty"`
}

// FactReader is a phone that can tell its Facts.
type FactReader interface {
	Facts(ctx context.Context) (Facts, error)
}

var _ FactReader = (*adbDevice)(nil)

// Facts reads the phone's model, release, screen size, lock kind and apps
// of interest. A part that cannot be read stays empty (the lock
// LockKindUnknown); only a phone that answers nothing is an error.
func (d *adbDevice) Facts(ctx context.Context) (Facts, error) {
	out, err := d.shell(ctx, "getprop ro.product.model; getprop ro.build.version.release")
	if err != nil {
		return Facts{}, fmt.Errorf("device %s: read its model and release (getprop): %w", d.serial, err)
	}
	lines := strings.Split(strings.TrimRight(out, "\r\n"), "\n")
	for len(lines) < 2 {
		lines = append(lines, "")
	}
	f := Facts{Model: cleanProp(lines[0]), Android: cleanProp(lines[1]), Lock: LockKindUnknown}
	if w, h, err := d.ScreenSize(ctx); err == nil {
		f.Width, f.Height = w, h
	}
	if st, err := d.LockState(ctx); err == nil {
		f.Lock = lockKind(st)
	}
	if pkgs, err := d.packages(ctx, true); err == nil {
		f.Apps = appsOfInterest(pkgs)
	}
	return f, nil
}

// cleanProp is a getprop line, "" when the shell said it failed.
func cleanProp(s string) string {
	s = strings.TrimSpace(s)
	if commandFailed(s) {
		return ""
	}
	return s
}

// lockKind names the lock from the window policy: its secure flag is
// reported whether or not the keyguard shows now.
func lockKind(st LockState) string {
	switch {
	case st.Secure:
		return LockKindSecure
	case st.Keyguard:
		return LockKindSwipe
	}
	return LockKindNone
}

// appsOfInterest are the display names of the packages the app table
// knows, sorted, each once.
func appsOfInterest(pkgs []string) []string {
	var out []string
	for _, p := range pkgs {
		if n := AppName(p); n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
