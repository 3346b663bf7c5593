package waits

import (
	"errors"
	"fmt"
	"regexp"
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
