package waits

import (
	"regexp"
	"strconv"
	"time"

	"github.com/phoneflow/phoneflow/internal/clocktime"
)

var (
	clockISO = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[ t](\d{1,2}):(\d{2})`)
	clockEN  = regexp.MustCompile(`^(?:(today|tomorrow|tonight) (?:at )?)?(?:(\d{1,2})(?::(\d{2}))?(?: ?(am|pm|a\.m\.|p\.m\.|o'clock|h))?|(noon|midnight))(?: (today|tomorrow|tonight))?`)
	clockZH  = regexp.MustCompile(`^(今天|明天|今晚|明早|明晚)?(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里)?([0-9一二两三四五六七八九十零〇]{1,3})(?:[点點时時](?:(半)|(一刻)|(三刻)|([0-9一二两三四五六七八九十零〇]{1,3})分?)?|:(\d{2}))`)
)

// readClock reads a time of day (or a date and time) at the start of s.
func readClock(s string) (Wait, int, bool) {
	if m := clockISO.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		h, _ := strconv.Atoi(m[4])
		mi, _ := strconv.Atoi(m[5])
		if mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 {
			return Wait{}, 0, false
		}
		return Wait{Date: time.Date(y, time.Month(mo), d, h, mi, 0, 0, time.UTC)}, len(m[0]), true
	}
	if w, n, ok := readClockEN(s); ok {
		return w, n, true
	}
	return readClockZH(s)
}

func readClockEN(s string) (Wait, int, bool) {
	if m := clockEN.FindStringSubmatchIndex(s); m != nil && m[1] > 0 {
		sub := func(i int) string {
			if m[2*i] < 0 {
				return ""
			}
			return s[m[2*i]:m[2*i+1]]
		}
		day, suffix := sub(1), sub(4)
		if sub(6) != "" {
			day = sub(6)
		}
		w := Wait{Clock: true}
		switch sub(5) {
		case "noon":
			w.Hour = 12
		case "midnight":
			w.Hour = 0
		default:
			h, _ := strconv.Atoi(sub(2))
			mi := 0
			if sub(3) != "" {
				mi, _ = strconv.Atoi(sub(3))
			}
			// A bare number is a clock time only with a colon, am/pm or
			// o'clock: "at 9 apps" is not 09:00.
			if sub(3) == "" && suffix == "" {
				if end := m[1]; end < len(s) && s[end] != ' ' && s[end] != ',' {
					return Wait{}, 0, false
				}
				if day == "" {
					return Wait{}, 0, false
				}
			}
			h = clocktime.Hour24(h, suffix)
			if day == "tonight" && h < 12 {
				h += 12
			}
			if h > 23 || mi > 59 || (suffix == "am" || suffix == "pm") && sub(2) != "" && mustAtoi(sub(2)) > 12 {
				return Wait{}, 0, false
			}
			w.Hour, w.Minute = h, mi
		}
		switch day {
		case "today", "tonight":
			w.Day = Today
		case "tomorrow":
			w.Day = Tomorrow
		}
		end := m[1]
		if end < len(s) && isLetter(s[end]) {
			return Wait{}, 0, false
		}
		return w, end, true
	}
	return Wait{}, 0, false
}

func readClockZH(s string) (Wait, int, bool) {
	if m := clockZH.FindStringSubmatch(s); m != nil {
		h, _, ok := readNumber(m[3])
		if !ok {
			return Wait{}, 0, false
		}
		w := Wait{Clock: true, Hour: int(h)}
		switch {
		case m[4] != "":
			w.Minute = 30
		case m[5] != "":
			w.Minute = 15
		case m[6] != "":
			w.Minute = 45
		case m[7] != "":
			mi, _, _ := readNumber(m[7])
			w.Minute = int(mi)
		case m[8] != "":
			w.Minute = mustAtoi(m[8])
		}
		switch m[2] {
		case "下午", "傍晚", "晚上", "夜里":
			if w.Hour < 12 {
				w.Hour += 12
			}
		case "中午":
			if w.Hour < 11 {
				w.Hour += 12
			}
		case "凌晨":
			if w.Hour == 12 {
				w.Hour = 0
			}
		}
		switch m[1] {
		case "今天":
			w.Day = Today
		case "今晚":
			w.Day = Today
			if w.Hour < 12 {
				w.Hour += 12
			}
		case "明天", "明早":
			w.Day = Tomorrow
		case "明晚":
			w.Day = Tomorrow
			if w.Hour < 12 {
				w.Hour += 12
			}
		}
		if w.Hour > 23 || w.Minute > 59 {
			return Wait{}, 0, false
		}
		// A bare digit with a colon but no hint ("9:30") is read by clockEN.
		return w, len(m[0]), true
	}
	return Wait{}, 0, false
}

func mustAtoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
