package waits

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Max is the longest wait read: longer ones are refused as a likely typo.
const Max = 30 * 24 * time.Hour

// Day qualifiers of a time of day.
const (
	Next     = iota // the next time the clock shows it (today or tomorrow)
	Today           // today only: an error once it has passed
	Tomorrow        // tomorrow
)

// Wait is a wait read from text: a duration (For > 0) or a time of day
// (Clock true), or a date and time (Date set).
type Wait struct {
	For          time.Duration
	Clock        bool
	Hour, Minute int
	Day          int       // Next, Today or Tomorrow, for a time of day
	Date         time.Time // a given date and time (its zone is ignored: the user's applies)
}

// IsZero reports whether w says nothing.
func (w Wait) IsZero() bool { return w.For == 0 && !w.Clock && w.Date.IsZero() }

// String writes w the way a wait todo says it: "20m0s", "21:00",
// "tomorrow 07:30", "2026-11-20 21:00".
func (w Wait) String() string {
	switch {
	case w.For > 0:
		return w.For.String()
	case !w.Date.IsZero():
		return w.Date.Format("2006-01-02 15:04")
	case w.Clock:
		s := fmt.Sprintf("%02d:%02d", w.Hour, w.Minute)
		switch w.Day {
		case Today:
			s = "today " + s
		case Tomorrow:
			s = "tomorrow " + s
		}
		return s
	}
	return ""
}

// TodoText is the text of a todo that waits for w: "Wait 20m0s", "Wait
// until 21:00".
func (w Wait) TodoText() string {
	if w.For > 0 {
		return "Wait " + spell(w.For)
	}
	return "Wait until " + w.String()
}

// spell writes d in words: "20 minutes", "1 hour 30 minutes", "45 seconds".
func spell(d time.Duration) string {
	var parts []string
	add := func(n int64, unit string) {
		if n == 1 {
			parts = append(parts, "1 "+unit)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %ss", n, unit))
		}
	}
	add(int64(d/(24*time.Hour)), "day")
	add(int64(d%(24*time.Hour)/time.Hour), "hour")
	add(int64(d%time.Hour/time.Minute), "minute")
	add(int64(d%time.Minute/time.Second), "second")
	if len(parts) == 0 {
		return d.String()
	}
	return strings.Join(parts, " ")
}

// ErrPast is returned by Until for a time that has already passed.
var ErrPast = errors.New("the time has already passed")

// Until is the instant w ends when it starts at now, for a person in loc.
// A time of day with no day named is the next time the clock shows it (a
// wait "until 07:00" said at 22:00 ends tomorrow morning); "today" and a
// given date that have passed are ErrPast. Across a daylight-saving change
// the wall-clock time is kept.
func (w Wait) Until(now time.Time, loc *time.Location) (time.Time, error) {
	if loc == nil {
		loc = time.UTC
	}
	now = now.In(loc)
	switch {
	case w.For > 0:
		return now.Add(w.For), nil
	case !w.Date.IsZero():
		d := w.Date
		at := time.Date(d.Year(), d.Month(), d.Day(), d.Hour(), d.Minute(), 0, 0, loc)
		if !at.After(now) {
			return at, fmt.Errorf("%s (%s): %w", at.Format("2006-01-02 15:04 MST"), now.Sub(at).Round(time.Minute), ErrPast)
		}
		return at, nil
	case w.Clock:
		at := time.Date(now.Year(), now.Month(), now.Day(), w.Hour, w.Minute, 0, 0, loc)
		switch w.Day {
		case Tomorrow:
			return at.AddDate(0, 0, 1), nil
		case Today:
			if !at.After(now) {
				return at, fmt.Errorf("today %s (it is %s): %w", at.Format("15:04 MST"), now.Format("15:04"), ErrPast)
			}
			return at, nil
		}
		if !at.After(now) {
			at = time.Date(now.Year(), now.Month(), now.Day()+1, w.Hour, w.Minute, 0, 0, loc)
		}
		return at, nil
	}
	return now, errors.New("the wait names no time")
}

// Hint is how a readable wait looks, for error messages.
const Hint = `write it like "wait 20 minutes", "wait until 21:00", "in 2 hours …", "at 9pm …", "等待20分钟" or "晚上9点…"`

// Parse reads a whole phrase as a wait: a duration or a time of day, with
// an optional "until"/"at"/"for" in front.
func Parse(s string) (Wait, error) {
	t := normalize(s)
	t = strings.TrimSpace(trimLead(t, "until ", "till ", "til ", "to ", "at ", "for ", "by ", "到", "至", "直到"))
	if t == "" {
		return Wait{}, fmt.Errorf("wait %q names no time: %s", s, Hint)
	}
	if w, n, ok := readClock(t); ok && n == len(t) {
		return w, nil
	}
	if d, n, err := readDuration(t); err == nil && n == len(t) {
		return checkFor(s, d)
	} else if err != nil && n == len(t) {
		return Wait{}, fmt.Errorf("wait %q: %v", s, err)
	}
	return Wait{}, fmt.Errorf("cannot read the wait %q: %s", s, Hint)
}

func checkFor(s string, d time.Duration) (Wait, error) {
	switch {
	case d <= 0:
		return Wait{}, fmt.Errorf("wait %q is not a positive duration: %s", s, Hint)
	case d > Max:
		return Wait{}, fmt.Errorf("wait %q is longer than %s: use a schedule for waits that long", s, Max)
	}
	return Wait{For: d}, nil
}

var (
	todoEN = regexp.MustCompile(`^(?:please |then |and )?(?:wait|sleep|pause|hold on|do nothing)(?: for| until| till| til)?[ :]+(.+?)[ .!。]*$`)
	todoZH = regexp.MustCompile(`^(?:请|然后|再)?(?:等待|等候|等到|等)(.+?)(?:后|再说|之后|以后)?[ .!。]*$`)
)

// Todo reads a todo that is only a wait ("Wait 20 minutes", "wait until
// 21:00", "等待20分钟", "等到晚上9点"). ok is false when the todo is
// something else; err is set when it is a wait whose time cannot be read.
func Todo(text string) (w Wait, ok bool, err error) {
	t := normalize(text)
	m := todoEN.FindStringSubmatch(t)
	if m == nil {
		m = todoZH.FindStringSubmatch(t)
	}
	if m == nil {
		return Wait{}, false, nil
	}
	phrase := strings.TrimSpace(m[1])
	// "Wait for the page to load" is an ordinary todo, not a timed wait.
	if !looksTimed(phrase) {
		return Wait{}, false, nil
	}
	w, err = Parse(phrase)
	if err != nil && startsWithWait(phrase) {
		// "Wait 5 minutes, then open Settings" is a task that starts with
		// a wait, not a wait that cannot be read.
		return Wait{}, false, nil
	}
	return w, true, err
}

// startsWithWait reports whether p starts with a readable wait followed by
// more words.
func startsWithWait(p string) bool {
	p = strings.TrimSpace(trimLead(p, "until ", "till ", "til ", "to ", "at ", "for ", "by ", "到", "至", "直到"))
	if _, n, ok := readClock(p); ok && n < len(p) {
		return true
	}
	d, n, err := readDuration(p)
	return err == nil && d > 0 && n < len(p)
}

// looksTimed reports whether a phrase after "wait" is meant as a time:
// it starts with a digit, a number word, "until", "half", a clock word.
var timedStart = regexp.MustCompile(`^(?:until |till |til |to |for |at )?(?:\d|an? |one |two |three |four |five |six |seven |eight |nine |ten |fifteen |twenty |thirty |forty|fifty |sixty |ninety |half |quarter |noon|midnight|today |tomorrow |tonight |[一二两三四五六七八九十半零〇]|凌晨|早上|上午|中午|下午|晚上|今晚|今天|明天|明早)`)

func looksTimed(p string) bool { return timedStart.MatchString(p) }

var (
	leadAt    = regexp.MustCompile(`^(?:at|by) `)
	leadIn    = regexp.MustCompile(`^(?:in|after) `)
	leadWait  = regexp.MustCompile(`^(?:please )?(?:wait|sleep)(?: for)? `)
	leadUntil = regexp.MustCompile(`^(?:please )?wait (?:until|till|til) `)
	leadSep   = regexp.MustCompile(`^[ ,;:，、。]*(?:and then|then|and|after that|然后|再|就)?[ ,，]*`)
	zhAfter   = regexp.MustCompile(`^(?:过|等)?`)
)

// Lead splits a goal that starts with a wait: "at 21:00, open Settings",
// "in 20 minutes open Settings", "wait 20 minutes, then open Settings",
// "20分钟后打开设置", "晚上9点打开设置", "等20分钟再打开设置". It returns the
// wait and the rest of the goal in its original spelling; ok is false when
// the goal does not start with a wait or nothing follows it.
func Lead(goal string) (w Wait, rest string, ok bool) {
	g := strings.TrimSpace(goal)
	low := strings.ToLower(g)
	// English forms.
	for _, re := range []*regexp.Regexp{leadUntil, leadAt, leadIn, leadWait} {
		loc := re.FindStringIndex(low)
		if loc == nil {
			continue
		}
		body := low[loc[1]:]
		if re == leadUntil || re == leadAt {
			if cw, n, found := readClock(body); found {
				return finishLead(cw, g, loc[1]+n)
			}
			continue
		}
		if d, n, err := readDuration(body); err == nil && d > 0 && d <= Max {
			return finishLead(Wait{For: d}, g, loc[1]+n)
		}
	}
	// Chinese forms: "[过|等]20分钟[后|以后|之后]…", "晚上9点…", "明天早上7点…".
	start := len(zhAfter.FindString(g))
	body := g[start:]
	if d, n, err := readDuration(body); err == nil && d > 0 && d <= Max && n > 0 {
		rest := body[n:]
		after := false
		for _, suf := range []string{"以后", "之后", "后", "再"} {
			if strings.HasPrefix(rest, suf) {
				rest, after = rest[len(suf):], true
				break
			}
		}
		if after || start > 0 {
			return finishLead(Wait{For: d}, g, len(g)-len(rest))
		}
	}
	if cw, n, found := readClock(g); found && isZH(g[:n]) {
		return finishLead(cw, g, n)
	}
	return Wait{}, "", false
}

func finishLead(w Wait, g string, n int) (Wait, string, bool) {
	rest := g[n:]
	rest = rest[len(leadSep.FindString(strings.ToLower(rest))):]
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return Wait{}, "", false
	}
	return w, rest, true
}

func isZH(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// normalize lowercases, maps full-width digits and punctuation to ASCII and
// folds runs of spaces.
func normalize(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= '０' && r <= '９':
			r = '0' + (r - '０')
		case r == '：':
			r = ':'
		case r == '\t' || r == '\n':
			r = ' '
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func trimLead(s string, prefixes ...string) string {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return s[len(p):]
		}
	}
	return s
}

// Numbers.

var enNumbers = map[string]float64{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
	"forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90, "half an": 0.5, "half a": 0.5, "a half": 0.5,
	"a quarter of an": 0.25, "quarter of an": 0.25, "a couple of": 2, "a few": 3,
}

var zhDigits = map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}

// readNumber reads a number at the start of s: digits (with a decimal
// point), an English number word, or a Chinese numeral up to 99.
func readNumber(s string) (float64, int, bool) {
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.' && i > 0) {
		i++
	}
	if i > 0 {
		v, err := strconv.ParseFloat(strings.TrimSuffix(s[:i], "."), 64)
		if err == nil {
			return v, len(strings.TrimSuffix(s[:i], ".")), true
		}
	}
	best, bestN := 0.0, 0
	for w, v := range enNumbers {
		if strings.HasPrefix(s, w+" ") && len(w) > bestN {
			best, bestN = v, len(w)
		}
	}
	if bestN > 0 {
		return best, bestN, true
	}
	// Chinese: 五, 十, 十五, 二十, 二十五, 三〇.
	rs := []rune(s)
	n := 0
	for n < len(rs) && n < 3 {
		if _, ok := zhDigits[rs[n]]; !ok && rs[n] != '十' {
			break
		}
		n++
	}
	if n == 0 {
		return 0, 0, false
	}
	word := rs[:n]
	val := 0
	if i := indexRune(word, '十'); i >= 0 {
		tens, ones := 1, 0
		if i > 0 {
			tens = zhDigits[word[i-1]]
		}
		if i+1 < len(word) {
			ones = zhDigits[word[i+1]]
		}
		val = tens*10 + ones
		n = min(len(word), i+2)
	} else {
		for _, r := range word {
			val = val*10 + zhDigits[r]
		}
	}
	return float64(val), len(string(rs[:n])), true
}

func indexRune(rs []rune, r rune) int {
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return -1
}

// Durations.

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

// Times of day.

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
			switch suffix {
			case "am", "a.m.":
				if h == 12 {
					h = 0
				}
			case "pm", "p.m.":
				if h < 12 {
					h += 12
				}
			}
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
