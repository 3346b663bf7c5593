package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
)

// Times of day said in words (docs/design.md §9): "quarter past seven",
// "half past six pm", "quarter to eight", "ten to nine", "seven o'clock",
// "seven thirty", "七点一刻", "八点半", "晚上九点三刻", "六点四十五" (the
// minutes need no 分). The planner writes
// them as HH:MM in the todo and its checks, so the executor and the check
// see one time. A bare hour is read as a morning time, as "7:30" is.

const rdNumWords = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2}`

// rdWordTimePattern is every time in words this file reads.
const rdWordTimePattern = `(?i)\b(?:(?:a\s+)?quarter|half|(?:` + rdNumWords + `|twenty|twenty[\s-]five)(?:\s+minutes?)?)\s+(?:past|after|to|before|till)\s+(?:` + rdNumWords + `)\b(?:\s*o'?clock)?(?:\s*[ap]\.?\s*m\.?|\s+in\s+the\s+(?:morning|afternoon|evening)|\s+(?:tonight|at\s+night))?` +
	`|\b(?:` + rdNumWords + `)\s+o'?clock\b(?:\s*[ap]\.?\s*m\.?|\s+in\s+the\s+(?:morning|afternoon|evening)|\s+(?:tonight|at\s+night))?` +
	`|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:oh\s+five|fifteen|thirty|forty[\s-]five|twenty|ten|forty|fifty)\b(?:\s*[ap]\.?\s*m\.?|\s+in\s+the\s+(?:morning|afternoon|evening)|\s+(?:tonight|at\s+night))?` +
	`|(?:早上|上午|中午|下午|晚上|凌晨|傍晚)?[零一二两三四五六七八九十\d]{1,3}\s*点\s*(?:半|一刻|三刻|[零一二三四五六七八九十\d]{1,3}\s*分?|钟)`

var (
	rdWordTimeRe = regexp.MustCompile(rdWordTimePattern)
	// rdZhBareHourRe is "七点" with a word for the time of day before it or
	// an alarm after it ("晚上七点", "七点的闹钟"), never "快一点".
	rdZhBareHourRe = regexp.MustCompile(`(早上|上午|中午|下午|晚上|凌晨|傍晚)([零一二两三四五六七八九十\d]{1,3})\s*点|([零一二两三四五六七八九十\d]{1,3})\s*点(?:的)?闹钟`)
	rdEnTimeRe     = regexp.MustCompile(`(?i)^(?:(a\s+)?(quarter)|(half)|(` + rdNumWords + `|twenty|twenty[\s-]five)(?:\s+minutes?)?)\s+(past|after|to|before|till)\s+(` + rdNumWords + `)`)
	rdClockRe      = regexp.MustCompile(`(?i)^(` + rdNumWords + `)\s+o'?clock`)
	rdSpokenRe     = regexp.MustCompile(`(?i)^(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(oh\s+five|fifteen|thirty|forty[\s-]five|twenty|ten|forty|fifty)`)
	rdZhClockRe    = regexp.MustCompile(`^(早上|上午|中午|下午|晚上|凌晨|傍晚)?([零一二两三四五六七八九十\d]{1,3})\s*点\s*(半|一刻|三刻|([零一二三四五六七八九十\d]{1,3})\s*分?|钟)?`)
	rdPmWordRe     = regexp.MustCompile(`(?i)p\.?\s*m\.?$|afternoon$|evening$|tonight$|at\s+night$`)
	rdAmWordRe     = regexp.MustCompile(`(?i)a\.?\s*m\.?$`)
)

// wordNumber reads "seven", "twenty-five", "7", "七", "十二"; -1 for none.
func wordNumber(w string) int {
	w = strings.ToLower(strings.Join(strings.FieldsFunc(w, func(r rune) bool { return r == ' ' || r == '-' }), " "))
	en := map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
		"eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "twenty five": 25, "thirty": 30, "forty": 40, "forty five": 45, "fifty": 50, "oh five": 5}
	if n, ok := en[w]; ok {
		return n
	}
	if n, err := strconv.Atoi(w); err == nil {
		return n
	}
	zh := map[rune]int{'零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	rs := []rune(w)
	switch {
	case len(rs) == 1 && rs[0] == '十':
		return 10
	case len(rs) == 1:
		if n, ok := zh[rs[0]]; ok {
			return n
		}
	case len(rs) == 2 && rs[0] == '零':
		// "七点零五": the minutes with their leading zero.
		if n, ok := zh[rs[1]]; ok {
			return n
		}
	case len(rs) == 2 && rs[0] == '十':
		if n, ok := zh[rs[1]]; ok {
			return 10 + n
		}
	case len(rs) == 2 && rs[1] == '十':
		if n, ok := zh[rs[0]]; ok {
			return 10 * n
		}
	case len(rs) == 3 && rs[1] == '十':
		a, ok1 := zh[rs[0]]
		b, ok2 := zh[rs[2]]
		if ok1 && ok2 {
			return 10*a + b
		}
	}
	return -1
}

// wordTime reads a time of day said in words as "HH:MM"; ok is false for
// a clause with none.
func wordTime(c string) (string, bool) {
	loc := rdWordTimeRe.FindStringIndex(c)
	said := ""
	if loc != nil {
		said = c[loc[0]:loc[1]]
	} else if m := rdZhBareHourRe.FindString(c); m != "" {
		said = m
	} else {
		return "", false
	}
	h, m := -1, 0
	switch {
	case rdEnTimeRe.MatchString(said):
		x := rdEnTimeRe.FindStringSubmatch(said)
		h = wordNumber(x[6])
		switch {
		case x[2] != "":
			m = 15
		case x[3] != "":
			m = 30
		default:
			m = wordNumber(x[4])
		}
		if d := strings.ToLower(x[5]); d == "to" || d == "before" || d == "till" {
			if x[3] != "" || m <= 0 || m >= 60 {
				return "", false // "half to seven" is no time
			}
			h, m = h-1, 60-m
			if h == 0 {
				h = 12
			}
		}
	case rdClockRe.MatchString(said):
		h = wordNumber(rdClockRe.FindStringSubmatch(said)[1])
	case rdSpokenRe.MatchString(said):
		x := rdSpokenRe.FindStringSubmatch(said)
		h, m = wordNumber(x[1]), wordNumber(x[2])
	default:
		x := rdZhClockRe.FindStringSubmatch(said)
		if x == nil {
			return "", false
		}
		h = wordNumber(x[2])
		switch {
		case x[3] == "半":
			m = 30
		case x[3] == "一刻":
			m = 15
		case x[3] == "三刻":
			m = 45
		case x[4] != "":
			m = wordNumber(x[4])
		}
		if (x[1] == "下午" || x[1] == "晚上" || x[1] == "傍晚") && h < 12 {
			h += 12
		}
		if x[1] == "中午" && h < 6 {
			h += 12
		}
	}
	if h < 0 || m < 0 {
		return "", false
	}
	// The two patterns end the time and never both match.
	if rdPmWordRe.MatchString(said) {
		h = clocktime.Hour24(h, "pm")
	} else if rdAmWordRe.MatchString(said) {
		h = clocktime.Hour24(h, "am")
	}
	if h > 23 || m > 59 {
		return "", false
	}
	return fmt.Sprintf("%02d:%02d", h, m), true
}
