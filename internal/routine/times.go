package routine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
)

// Time layouts a trajectory may type a time in. "H:04" is the 24-hour
// clock without a leading zero.
var timeLayouts = []string{"15:04", "H:04", "3:04 PM", "3:04 pm", "3:04PM", "3:04pm"}

// formatTime writes minutes after midnight in a layout of timeLayouts.
func formatTime(minutes int, layout string) string {
	h, m := minutes/60, minutes%60
	h12 := h % 12
	if h12 == 0 {
		h12 = 12
	}
	am := h < 12
	switch layout {
	case "15:04":
		return fmt.Sprintf("%02d:%02d", h, m)
	case "H:04":
		return fmt.Sprintf("%d:%02d", h, m)
	}
	suffix := "PM"
	if am {
		suffix = "AM"
	}
	if strings.HasSuffix(layout, "pm") {
		suffix = strings.ToLower(suffix)
	}
	sep := " "
	if !strings.Contains(layout, " ") {
		sep = ""
	}
	return fmt.Sprintf("%d:%02d%s%s", h12, m, sep, suffix)
}

// typedTime reports a typed text that is a time on a clock, with its
// layout: the first layout that writes it back the same.
func typedTime(s string) (string, int, bool) {
	minutes, ok := parseTime(s)
	if !ok || !strings.ContainsAny(s, ":") {
		return "", 0, false
	}
	for _, l := range timeLayouts {
		if formatTime(minutes, l) == s {
			return l, minutes, true
		}
	}
	return "", 0, false
}

var (
	enTimeRe = regexp.MustCompile(`(?i)(\d{1,2})(?:[:：.](\d{2}))?(?:\s*([ap])\.?\s?m\b\.?)?`)
	zhTimeRe = regexp.MustCompile(`(早上|上午|中午|下午|晚上|傍晚|凌晨)?\s*([0-9]{1,2}|[零一二两三四五六七八九十]{1,3})\s*(?:点|點|时|時)\s*(?:([0-9]{1,2}|[零一二三四五六七八九十]{1,3})\s*分?|(半)|(一刻)|(三刻))?`)
)

// timeSpan is a time written in a todo.
type timeSpan struct {
	start, end, minutes int
}

// findTimes finds the times written in s, English ("7", "7 am", "19:30",
// "7.30pm") and Chinese ("早上7点", "下午三点半"), with minutes after
// midnight.
func findTimes(s string) []timeSpan {
	var out []timeSpan
	taken := func(a, b int) bool {
		for _, t := range out {
			if a < t.end && t.start < b {
				return true
			}
		}
		return false
	}
	for _, m := range zhTimeRe.FindAllStringSubmatchIndex(s, -1) {
		if mins, ok := zhTime(s, m); ok {
			out = append(out, timeSpan{m[0], m[1], mins})
		}
	}
	for _, m := range enTimeRe.FindAllStringSubmatchIndex(s, -1) {
		if taken(m[0], m[1]) || !edges(s, m[0], m[1]) {
			continue
		}
		if mins, ok := enTime(s, m); ok {
			out = append(out, timeSpan{m[0], m[1], mins})
		}
	}
	return out
}

func group(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}

func enTime(s string, m []int) (int, bool) {
	h, _ := strconv.Atoi(group(s, m, 1))
	mm := 0
	if g := group(s, m, 2); g != "" {
		mm, _ = strconv.Atoi(g)
	}
	h = clocktime.Hour24(h, group(s, m, 3))
	if h > 23 || mm > 59 {
		return 0, false
	}
	return h*60 + mm, true
}

func zhTime(s string, m []int) (int, bool) {
	h, ok := zhNumber(group(s, m, 2))
	if !ok {
		return 0, false
	}
	mm := 0
	switch {
	case group(s, m, 3) != "":
		if mm, ok = zhNumber(group(s, m, 3)); !ok {
			return 0, false
		}
	case group(s, m, 4) != "":
		mm = 30
	case group(s, m, 5) != "":
		mm = 15
	case group(s, m, 6) != "":
		mm = 45
	}
	switch group(s, m, 1) {
	case "下午", "晚上", "傍晚":
		if h < 12 {
			h += 12
		}
	case "中午":
		if h < 6 {
			h += 12
		}
	case "凌晨", "早上", "上午":
		if h == 12 {
			h = 0
		}
	}
	if h > 23 || mm > 59 {
		return 0, false
	}
	return h*60 + mm, true
}

// zhNumber reads 0–59 in digits or Chinese numerals (七, 十二, 二十五).
func zhNumber(s string) (int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		return n, true
	}
	digits := map[rune]int{'零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	r := []rune(s)
	switch {
	case len(r) == 1 && r[0] == '十':
		return 10, true
	case len(r) == 1:
		d, ok := digits[r[0]]
		return d, ok
	case len(r) == 2 && r[0] == '十':
		d, ok := digits[r[1]]
		return 10 + d, ok
	case len(r) == 2 && r[1] == '十':
		d, ok := digits[r[0]]
		return d * 10, ok
	case len(r) == 3 && r[1] == '十':
		a, ok1 := digits[r[0]]
		b, ok2 := digits[r[2]]
		return a*10 + b, ok1 && ok2
	}
	return 0, false
}

// parseTime reads s as one time and nothing else.
func parseTime(s string) (int, bool) {
	s = strings.TrimSpace(s)
	ts := findTimes(s)
	if len(ts) != 1 || ts[0].start != 0 || ts[0].end != len(strings.TrimRight(s, ".")) && ts[0].end != len(s) {
		return 0, false
	}
	return ts[0].minutes, true
}
