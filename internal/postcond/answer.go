package postcond

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/clocktime"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

var (
	timeValRe   = regexp.MustCompile(`(?i)\b([01]?\d|2[0-3])[:：.]([0-5]\d)(?:\s*([ap])\.?m\.?)?\b`)
	phoneValRe  = regexp.MustCompile(`\+?\d[\d\s\-().]{5,}\d`)
	labelRe     = regexp.MustCompile(`\pL`)
	numberValRe = regexp.MustCompile(`-?\d+(?:[.,]\d+)?\s*%?`)
	// zhSpokenClockRe is a time as a Chinese clock widget describes it,
	// "下午2点27分" (MIUI's home screen): read as "下午2:27".
	zhSpokenClockRe = regexp.MustCompile(`\b([01]?\d|2[0-3])点([0-5]\d)分`)
)

// values returns the values of a type that a text holds, normalised so a
// message and a screen compare ("7:05 PM" and "19:05" are one time).
func values(typ, text string) []string {
	var out []string
	text = strings.Map(foldRune, text) // "100\u00a0%" is "100 %"
	if typ == TypeTime {
		text = zhSpokenClockRe.ReplaceAllString(clockColon(text), "$1:$2")
	}
	switch typ {
	case TypeTime:
		for _, m := range timeValRe.FindAllStringSubmatchIndex(text, -1) {
			mark := ""
			if m[6] >= 0 {
				mark = text[m[6]:m[7]]
			} else {
				mark = zhMark(text[:m[0]], text[m[1]:])
			}
			h := clocktime.Hour24(atoi(text[m[2]:m[3]]), mark)
			out = append(out, fmt.Sprintf("%02d:%s", h, text[m[4]:m[5]]))
		}
	case TypePhone:
		for _, m := range phoneValRe.FindAllString(text, -1) {
			d := digits(m)
			if len(d) >= 7 {
				out = append(out, d)
			}
		}
	case TypeNumber:
		for _, m := range numberValRe.FindAllString(text, -1) {
			out = append(out, strings.ReplaceAll(strings.ReplaceAll(m, " ", ""), ",", "."))
		}
	}
	return out
}

// zhMarks are the words a Chinese 12-hour clock writes before a time, or
// after it on its own line (MIUI's alarm rows: "8:30" then "下午"), and
// the half of the day each means.
var zhMarks = []struct{ word, mark string }{
	{"上午", "a"}, {"早上", "a"}, {"凌晨", "a"}, {"下午", "p"}, {"晚上", "p"}, {"傍晚", "p"},
}

// zhMark is the morning or afternoon mark written right before a time
// (before) or right after it (after), "" for none. 中午 is noon's hour: 12
// stays 12 and 1 is 13, as "p" reads them.
func zhMark(before, after string) string {
	b, a := strings.TrimSpace(before), strings.TrimSpace(after)
	for _, z := range zhMarks {
		if strings.HasSuffix(b, z.word) || strings.HasPrefix(a, z.word) {
			return z.mark
		}
	}
	if strings.HasSuffix(b, "中午") || strings.HasPrefix(a, "中午") {
		return "p"
	}
	return ""
}

// MarkWord reports a text that is only a 12-hour clock's morning or
// afternoon mark: "AM", "p.m.", "上午", "下午".
func MarkWord(s string) bool {
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(s), ".", ""))
	switch t {
	case "am", "pm", "中午":
		return true
	}
	for _, z := range zhMarks {
		if t == z.word {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}

func digits(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// clockColon reads the colon a clock's font draws from a private-use
// character between two digits ("3\uEE0134", as a lock screen's clock
// writes 3:34) as a colon.
func clockColon(text string) string {
	rs := []rune(text)
	for i := 1; i+1 < len(rs); i++ {
		if unicode.Is(unicode.Co, rs[i]) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1]) {
			rs[i] = ':'
		}
	}
	return string(rs)
}

// screenValues lists, in screen order, the values of a type the screen
// shows, each with the element it is in: its text, else the description
// that says what it shows (a lock screen's clock, a launcher icon's
// "WhatsApp, 15 notifications"); and a clock drawn as its hour, colon
// and minutes side by side, read as one time.
func screenValues(typ string, es []uitree.Element) (vals, in []string) {
	parent := uitree.Parents(es)
	said := map[int]map[string]bool{} // per row, the values it said
	for i, e := range es {
		if e.IsField() || e.ShortClass() == "Button" {
			continue
		}
		vs, from := values(typ, e.Text), e.Text
		if len(vs) == 0 && !same(e.Desc, e.Text) {
			vs, from = values(typ, e.Desc), e.Desc
		}
		if len(vs) == 0 && typ == TypeTime && e.Text == "" {
			var parts []string
			for j := i + 1; j < len(es) && j < uitree.SubtreeEnd(es, i); j++ {
				if parent[j] == i {
					parts = append(parts, strings.TrimSpace(es[j].Text))
				}
			}
			if joined := strings.Join(parts, ""); len(parts) > 1 && wholeValue(TypeTime, joined) != "" {
				vs, from = values(typ, joined), joined
			}
		}
		// A row says its value once however many of its elements say it:
		// Google Clock's card shows its time in the time's text and
		// description, the arrow's ("Expand 7:00 AM alarm") and the
		// switch's ("7:00 AM alarm").
		row := -1
		for a := parent[i]; a >= 0; a = parent[a] {
			if es[a].Clickable {
				row = a
				break
			}
		}
		for _, v := range vs {
			if row >= 0 {
				if said[row][v] {
					continue
				}
				if said[row] == nil {
					said[row] = map[string]bool{}
				}
				said[row][v] = true
			}
			vals, in = append(vals, v), append(in, from)
		}
	}
	return vals, in
}

// answerSeen: the executor's answer holds a value of the check's type that
// a screen of the todo showed (with an ordinal, the n-th such value on
// that screen). A value no screen showed is not an answer.
func answerSeen(c Check, o Observed) (bool, string) {
	full := strings.TrimSpace(o.Answer)
	if full == "" {
		return false, "the executor gave no answer"
	}
	// An answer that repeats the question ("Done: Check who +1 555 0101
	// is: Contacts.") is judged on what it adds to it: a value the
	// question already holds is not what it asks for.
	ans := withoutQuestion(full, o.Question)
	asked := map[string]bool{}
	for _, v := range values(c.Type, o.Question) {
		asked[v] = true
	}
	screens := append(append([]Screen(nil), o.Seen...), o.Final)
	if c.Type == TypeLabel {
		if !labelRe.MatchString(timeValRe.ReplaceAllString(ans, "")) {
			return false, fmt.Sprintf("the answer %q is a time or a number, not a label", clip(full, 120))
		}
		return labelSeen(ans, o.Question, screens, c.Ordinal)
	}
	got := values(c.Type, ans)
	if len(got) == 0 {
		return false, fmt.Sprintf("the answer %q holds no %s", clip(full, 120), c.Type)
	}
	for _, s := range screens {
		vals, in := screenValues(c.Type, s.Elements)
		for i, v := range vals {
			if c.Ordinal > 0 && i != c.Ordinal-1 || c.Ordinal == Last && i != len(vals)-1 {
				continue
			}
			for _, g := range got {
				if g == v && !asked[g] {
					return true, fmt.Sprintf("the answer %s is shown as %q", g, in[i])
				}
			}
		}
	}
	if c.Ordinal > 0 {
		return false, fmt.Sprintf("the answer %q is not the %s #%d any screen of the todo showed", clip(ans, 120), c.Type, c.Ordinal)
	}
	if c.Ordinal == Last {
		return false, fmt.Sprintf("the answer %q is not the last %s any screen of the todo showed", clip(ans, 120), c.Type)
	}
	return false, fmt.Sprintf("the answer %q is not a %s any screen of the todo showed", clip(ans, 120), c.Type)
}

// labelSeen: the answer quotes a text (not a button's, nor the name of an
// app or of an app's screen, nor words of the question) that a screen
// showed; with an ordinal, the n-th (or last) such text of a list row.
func labelSeen(ans, question string, screens []Screen, ordinal int) (bool, string) {
	a, q := norm(ans), norm(question)
	best := ""
	for _, s := range screens {
		es := answerable(s)
		if ordinal != 0 {
			es = nth(s.Elements, es, ordinal)
		}
		for _, e := range es {
			t := norm(e.Text)
			if q != "" && strings.Contains(q, t) {
				continue // the question names it: not what it asks for
			}
			if (strings.Contains(a, t) || strings.Contains(t, a) && len([]rune(a)) >= 3) && len(t) > len(best) {
				best = e.Text
			}
		}
	}
	if ordinal == 0 {
		for _, e := range savedFields(screens) {
			t := norm(fieldText(e))
			if q != "" && strings.Contains(q, t) {
				continue
			}
			if (strings.Contains(a, t) || strings.Contains(t, a) && len([]rune(a)) >= 3) && len(t) > len(best) {
				best = fieldText(e)
			}
		}
	}
	if best != "" {
		return true, fmt.Sprintf("the answer quotes %q, shown on a screen", best)
	}
	return false, fmt.Sprintf("the answer %q quotes nothing a screen of the todo showed", clip(ans, 120))
}

// answerable are the elements of a screen whose text can be an answer:
// not buttons, fields, an app's name (the app in front, an icon on the
// home screen) or the name of an app's top screen.
func answerable(s Screen) []uitree.Element {
	top := ""
	if !hasUp(s.Elements) {
		top = norm(Title(s.Elements))
	}
	var out []uitree.Element
	for _, e := range s.Elements {
		t := norm(e.Text)
		if len([]rune(t)) < 2 || e.ShortClass() == "Button" || e.IsField() || t == norm(s.App) || t == top || IsAppName(e.Text) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// IsAppName reports whether a text is the name of an app (docs/design.md
// §9): what a launcher icon or an app's top screen shows, never a value
// a question asks for.
func IsAppName(text string) bool {
	_, ok := device.LookupApp(strings.TrimSpace(text))
	return ok && strings.TrimSpace(text) != ""
}

// hasUp reports whether a screen has an up (back) control: a page inside
// an app, whose title names a record, not the app's top screen.
func hasUp(es []uitree.Element) bool {
	for _, e := range es {
		if same(e.Desc, "Navigate up") {
			return true
		}
	}
	return false
}

// withoutQuestion removes from an answer the question it repeats.
func withoutQuestion(ans, question string) string {
	q := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(question), ".?？。!！"))
	if len([]rune(q)) < 3 {
		return ans
	}
	a := strings.ToLower(ans)
	return strings.Replace(a, strings.ToLower(q), " ", 1)
}

// nth keeps of es the elements inside the n-th clickable row of a
// screen's list (the last for Last); a screen with no such row keeps
// nothing.
func nth(all, es []uitree.Element, n int) []uitree.Element {
	// A screen with a list counts the rows in it, not the buttons and
	// tabs around it (DeskClock's fab and its tab bar).
	// A list's rows are the elements of its subtree (a fab floating over
	// it is not one).
	inList := make([]bool, len(all))
	lists := false
	for i, e := range all {
		if c := e.ShortClass(); e.Scrollable || c == "RecyclerView" || c == "ListView" || c == "ScrollView" {
			lists = true
			for j := i + 1; j < len(all) && all[j].Depth > e.Depth; j++ {
				inList[j] = true
			}
		}
	}
	var rows []uitree.Element
	for i, e := range all {
		if !e.Clickable || e.ShortClass() == "Button" || e.IsField() || lists && !inList[i] {
			continue
		}
		if k := len(rows) - 1; k >= 0 && within(e.Bounds, rows[k].Bounds) {
			continue // a control of the row tapped as a whole (an alarm's switch, its arrow)
		}
		rows = append(rows, e)
	}
	i := n - 1
	if n == Last {
		i = len(rows) - 1
	}
	if i < 0 || i >= len(rows) {
		return nil
	}
	// The row is the band the n-th control spans: a list row tapped as a
	// whole, or the switch at the end of a row whose text is beside it.
	var out []uitree.Element
	for _, e := range es {
		if y := (e.Bounds.Y1 + e.Bounds.Y2) / 2; y >= rows[i].Bounds.Y1 && y < rows[i].Bounds.Y2 {
			out = append(out, e)
		}
	}
	return out
}

// within reports whether b lies inside a.
func within(b, a uitree.Bounds) bool {
	return b.X1 >= a.X1 && b.Y1 >= a.Y1 && b.X2 <= a.X2 && b.Y2 <= a.Y2
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// Quotes reports whether text quotes an element of the screen (its text or
// description, at least three characters), and which: a model verifier's
// evidence must point at something the final screen shows.
func Quotes(text string, es []uitree.Element) (string, bool) {
	t := norm(text)
	best := ""
	for _, e := range es {
		for _, x := range []string{e.Text, e.Desc} {
			n := norm(x)
			if len([]rune(n)) >= 3 && strings.Contains(t, n) && len(n) > len(best) {
				best = x
			}
		}
	}
	return best, best != ""
}

// ClockTime is the one clock time text shows and nothing else but it
// ("7:00 AM", "07:00", "19:05"), as "HH:MM" on 24 hours; "" otherwise.
func ClockTime(text string) string { return wholeValue(TypeTime, text) }
