package waits

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

var units = []struct {
	names []string
	d     time.Duration
}{
	{[]string{"milliseconds", "millisecond", "ms", "毫秒"}, time.Millisecond},
	{[]string{"seconds", "second", "secs", "sec", "s", "秒钟", "秒"}, time.Second},
	{[]string{"minutes", "minute", "mins", "min", "m", "分钟", "分"}, time.Minute},
	{[]string{"hours", "hour", "hrs", "hr", "h", "个小时", "个钟头", "小时", "钟头"}, time.Hour},
	{[]string{"days", "day", "d", "天"}, 24 * time.Hour},
}

// readDuration reads a duration at the start of s: Go syntax ("1h30m"),
// one or more "<number> <unit>" parts joined by spaces, commas or "and"
// ("1 hour and 20 minutes", "an hour and a half"), or Chinese ("20分钟",
// "1小时20分钟", "半小时", "一个半小时"). n is how much of s it used; an error
// with n == len(s) means the whole of s looked like a duration but was not
// one (a unit missing).
func readDuration(s string) (time.Duration, int, error) {
	if end := strings.IndexAny(s, " ,，"); true {
		head := s
		if end >= 0 {
			head = s[:end]
		}
		if d, err := time.ParseDuration(head); err == nil && strings.ContainsAny(head, "hms") {
			return d, len(head), nil
		}
	}
	var total time.Duration
	used := 0
	for {
		rest := s[used:]
		skip := 0
		if used > 0 {
			skip = len(rest) - len(strings.TrimLeft(rest, " ,"))
			r2 := rest[skip:]
			if strings.HasPrefix(r2, "and ") {
				skip += 4
			}
			rest = rest[skip:]
		}
		// "an hour and a half", "一个半小时"
		if used > 0 && (strings.HasPrefix(rest, "a half") || strings.HasPrefix(rest, "half")) && total > 0 {
			n := len("half")
			if strings.HasPrefix(rest, "a half") {
				n = len("a half")
			}
			total += lastUnit(s[:used]) / 2
			used += skip + n
			continue
		}
		if strings.HasPrefix(rest, "半") && !strings.HasPrefix(rest, "半小时") && !strings.HasPrefix(rest, "半个") && used > 0 {
			total += lastUnit(s[:used]) / 2
			used += skip + len("半")
			continue
		}
		v, n, ok := readNumber(rest)
		if !ok && strings.HasPrefix(rest, "半") {
			v, n, ok = 0.5, len("半"), true
		}
		if !ok {
			break
		}
		after := rest[n:]
		trim := strings.TrimLeft(after, " ")
		// "一个半小时": 1 + half an hour
		if strings.HasPrefix(trim, "个半") {
			v += 0.5
			trim = trim[len("个半"):]
		} else if strings.HasPrefix(trim, "个") && !strings.HasPrefix(trim, "个小时") && !strings.HasPrefix(trim, "个钟头") {
			trim = trim[len("个"):]
		}
		u, un := unitAt(trim)
		if un == 0 {
			if used == 0 && strings.TrimSpace(rest[n:]) == "" && len(rest) == len(s) {
				return 0, len(s), fmt.Errorf("%q has no unit: say seconds, minutes or hours", strings.TrimSpace(s))
			}
			break
		}
		total += time.Duration(v * float64(u))
		used += skip + n + (len(after) - len(trim)) + un
	}
	if used == 0 {
		return 0, 0, errors.New("no duration")
	}
	return total, used, nil
}

// lastUnit is the unit of the last part read ("an hour and a half": hour).
func lastUnit(s string) time.Duration {
	best, at := time.Duration(0), -1
	for _, u := range units {
		for _, name := range u.names {
			if i := strings.LastIndex(s, name); i > at && i+len(name) == len(strings.TrimRight(s, " ,")) {
				best, at = u.d, i
			}
		}
	}
	return best
}

// unitAt reads a unit at the start of s; a Latin unit must end at a word
// boundary ("m" but not "meet").
func unitAt(s string) (time.Duration, int) {
	bestD, bestN := time.Duration(0), 0
	for _, u := range units {
		for _, name := range u.names {
			if !strings.HasPrefix(s, name) || len(name) <= bestN {
				continue
			}
			if c := name[0]; c < 0x80 {
				if len(s) > len(name) && isLetter(s[len(name)]) {
					continue
				}
			}
			bestD, bestN = u.d, len(name)
		}
	}
	return bestD, bestN
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
