package waits

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var offsetRe = regexp.MustCompile(`^(?:utc|gmt)?([+-])(\d{1,2})(?::?(\d{2}))?$`)

// Zone loads a time zone by name: an IANA name ("Asia/Shanghai"), "UTC",
// or a fixed offset ("+08:00", "UTC+8", "-0500"). The empty name is UTC.
func Zone(name string) (*time.Location, error) {
	n := strings.TrimSpace(name)
	if n == "" || strings.EqualFold(n, "utc") || strings.EqualFold(n, "gmt") || n == "Z" {
		return time.UTC, nil
	}
	if m := offsetRe.FindStringSubmatch(strings.ToLower(n)); m != nil {
		h, _ := strconv.Atoi(m[2])
		mi := 0
		if m[3] != "" {
			mi, _ = strconv.Atoi(m[3])
		}
		if h > 14 || mi > 59 {
			return nil, fmt.Errorf("time zone %q: offset out of range: use an offset from -12:00 to +14:00", name)
		}
		off := h*3600 + mi*60
		if m[1] == "-" {
			off = -off
		}
		return time.FixedZone(OffsetName(off), off), nil
	}
	loc, err := time.LoadLocation(n)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q: use an IANA name such as Asia/Shanghai or Europe/Berlin, or an offset such as +08:00", name)
	}
	return loc, nil
}

// OffsetName writes a UTC offset in seconds as "+08:00".
func OffsetName(off int) string {
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%c%02d:%02d", sign, off/3600, off%3600/60)
}

// LocalZone names this machine's time zone for a goal started here: the
// IANA name /etc/localtime links to when it agrees with Go's local zone
// now, else the local zone's current offset ("+08:00", which does not
// follow daylight saving).
func LocalZone(now time.Time) string {
	_, off := now.In(time.Local).Zone()
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if i := strings.Index(target, "zoneinfo/"); i >= 0 {
			name := target[i+len("zoneinfo/"):]
			if loc, err := time.LoadLocation(name); err == nil {
				if _, o := now.In(loc).Zone(); o == off {
					return name
				}
			}
		}
	}
	if off == 0 {
		return "UTC"
	}
	return OffsetName(off)
}
