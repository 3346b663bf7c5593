package device

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

var sizeRe = regexp.MustCompile(`(Physical|Override) size:\s*(\d+)x(\d+)`)

// parseWmSize reads `wm size` output; an override size wins over the
// physical one, as it is what apps draw at.
func parseWmSize(out string) (w, h int, err error) {
	found := false
	for _, m := range sizeRe.FindAllStringSubmatch(out, -1) {
		x, err1 := strconv.Atoi(m[2])
		y, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || x <= 0 || y <= 0 {
			continue
		}
		if m[1] == "Override" || !found {
			w, h, found = x, y, true
		}
		if m[1] == "Override" {
			break
		}
	}
	if !found {
		return 0, 0, fmt.Errorf("device: cannot read the screen size from `wm size` output %q", clip(out))
	}
	return w, h, nil
}

// parsePackages reads `pm list packages` output ("package:com.x" lines).
func parsePackages(out string) []string {
	var pkgs []string
	for line := range strings.Lines(out) {
		p, ok := strings.CutPrefix(strings.TrimSpace(line), "package:")
		if ok && p != "" {
			// `pm list packages -f` writes package:/path/base.apk=com.x
			if i := strings.LastIndexByte(p, '='); i >= 0 {
				p = p[i+1:]
			}
			pkgs = append(pkgs, p)
		}
	}
	return pkgs
}

// parseScreenOn reads `dumpsys power`: awake when mWakefulness=Awake or the
// display is on. It reports ok=false when the output says neither.
func parseScreenOn(out string) (on, ok bool) {
	if i := strings.Index(out, "mWakefulness="); i >= 0 {
		v := out[i+len("mWakefulness="):]
		return strings.HasPrefix(v, "Awake"), true
	}
	if i := strings.Index(out, "Display Power: state="); i >= 0 {
		v := out[i+len("Display Power: state="):]
		return strings.HasPrefix(v, "ON"), true
	}
	if strings.Contains(out, "mScreenOn=true") {
		return true, true
	}
	if strings.Contains(out, "mScreenOn=false") {
		return false, true
	}
	return false, false
}

// clip shortens command output for error messages.
func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
