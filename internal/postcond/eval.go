package postcond

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Screen is one observed screen: the app in front and its UI tree.
type Screen struct {
	App        string
	AppPackage string
	Elements   []uitree.Element
}

// Observed is what a todo left to check: its final screen, every screen it
// observed (for reads), the executor's finish message (the answer of a
// read) and the todo's own words (a read's question, whose words are never
// its answer).
type Observed struct {
	Final    Screen
	Seen     []Screen
	Answer   string
	Question string
}

// Result is one check's outcome.
type Result struct {
	Check    Check  `json:"check"`
	Held     bool   `json:"held"`
	Evidence string `json:"evidence"`
}

// Eval checks every postcondition on what the todo left; no model is
// asked. The todo is done only when every result held.
func Eval(cs []Check, o Observed) []Result {
	out := make([]Result, 0, len(cs))
	for _, c := range cs {
		held, ev := evalOne(c, o)
		out = append(out, Result{Check: c, Held: held, Evidence: ev})
	}
	return out
}

// AllHeld reports whether every result held (and there was one).
func AllHeld(rs []Result) bool {
	for _, r := range rs {
		if !r.Held {
			return false
		}
	}
	return len(rs) > 0
}

// Summary writes the results in one line: the failed checks first.
func Summary(rs []Result) string {
	var failed, held []string
	for _, r := range rs {
		if r.Held {
			held = append(held, r.Evidence)
		} else {
			failed = append(failed, fmt.Sprintf("%s: %s", r.Check, r.Evidence))
		}
	}
	if len(failed) > 0 {
		return "postcondition failed: " + strings.Join(failed, "; ")
	}
	return "postconditions held: " + strings.Join(held, "; ")
}

func evalOne(c Check, o Observed) (bool, string) {
	s := o.Final
	switch c.Kind {
	case AppInFront:
		return appInFront(c.App, s)
	case ElementExists:
		// What a field holds is typed, not saved: a title typed in an
		// editor left open is not the saved record the check stands for
		// (docs/design.md §9). field_holds is the check for a field.
		if e := find(shownNotTyped(s.Elements), c.Text); e != nil {
			return true, fmt.Sprintf("%q is shown", label(*e))
		}
		return false, fmt.Sprintf("no element shows %q", c.Text)
	case ElementAbsent:
		if e := find(s.Elements, c.Text); e != nil {
			return false, fmt.Sprintf("%q is still shown", label(*e))
		}
		return true, fmt.Sprintf("nothing shows %q", c.Text)
	case Switch:
		want := c.On != nil && *c.On
		for _, e := range s.Elements {
			// Labelled exactly, or a row's switch whose label starts with
			// it ("07:30" labels the switch of "07:30 Gym").
			if e.Checkable && (same(e.Text, c.Label) || same(e.Desc, c.Label) ||
				strings.HasPrefix(norm(e.Desc), norm(c.Label)+" ") || strings.HasPrefix(norm(e.Text), norm(c.Label)+" ")) {
				if e.Checked == want {
					return true, fmt.Sprintf("the %q switch is %s", c.Label, onOff(e.Checked))
				}
				return false, fmt.Sprintf("the %q switch is %s", c.Label, onOff(e.Checked))
			}
		}
		return false, fmt.Sprintf("no switch labelled %q is on the final screen", c.Label)
	case FieldHolds:
		e, v := FieldValue(s.Elements, c.Field)
		if e == nil {
			return false, fmt.Sprintf("no field %q is on the final screen", c.Field)
		}
		if holds(v, c.Value) {
			return true, fmt.Sprintf("field %q holds %q", c.Field, v)
		}
		return false, fmt.Sprintf("field %q holds %q, not %q", c.Field, v, c.Value)
	case RowShows:
		rows := rowsWith(s.Elements, c.Row)
		if len(rows) == 0 {
			return false, fmt.Sprintf("no row shows %q", c.Row)
		}
		for _, r := range rows {
			if holds(r, c.Shows) {
				return true, fmt.Sprintf("the row %q shows %q", r, c.Shows)
			}
		}
		return false, fmt.Sprintf("the row %q does not show %q", rows[0], c.Shows)
	case LastSent:
		title := Title(s.Elements)
		if title == "" || !sameName(title, c.Conversation) {
			return false, fmt.Sprintf("the final screen is not the conversation with %q (title %q)", c.Conversation, title)
		}
		last := LastOutgoing(s.Elements)
		if last == "" {
			return false, fmt.Sprintf("the conversation with %q shows no sent message", title)
		}
		if SameMessage(last, c.Contains) {
			return true, fmt.Sprintf("the last message sent to %q is %q", title, last)
		}
		return false, fmt.Sprintf("the last message sent to %q is %q, not %q", title, last, c.Contains)
	case AnswerSeen:
		if c.Type == TypeState {
			return answerState(c, o)
		}
		return answerSeen(c, o)
	}
	return false, "unknown check " + c.Kind
}

func appInFront(app string, s Screen) (bool, string) {
	inFront := fmt.Sprintf("%s (%s) is in front", firstNonEmpty(s.App, s.AppPackage), s.AppPackage)
	if same(app, s.App) || same(app, s.AppPackage) {
		return true, inFront
	}
	if pkgs, ok := device.LookupApp(app); ok {
		for _, p := range pkgs {
			if p == s.AppPackage {
				return true, inFront
			}
		}
	}
	return false, fmt.Sprintf("%s is not in front: %s", app, inFront)
}

func label(e uitree.Element) string { return firstNonEmpty(e.Text, e.Desc) }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func norm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func same(a, b string) bool { return a != "" && norm(a) == norm(b) }

// sameName matches a person's name as a screen titles it: equal, or the
// name the first name of the title ("Alice" names "Alice Chen"), never
// the reverse ("Mom and Bob" is not the conversation "Mom").
func sameName(title, name string) bool {
	title, name = norm(title), norm(name)
	return title == name || strings.HasPrefix(title, name+" ")
}

// find returns the first element whose text or description contains x.
// shownNotTyped is the elements that are not input fields.
func shownNotTyped(es []uitree.Element) []uitree.Element {
	out := make([]uitree.Element, 0, len(es))
	for _, e := range es {
		if e.ShortClass() != "EditText" {
			out = append(out, e)
		}
	}
	return out
}

func find(es []uitree.Element, x string) *uitree.Element {
	for i, e := range es {
		if Shows(e, x) {
			return &es[i]
		}
	}
	return nil
}

// Shows reports whether an element's text or description shows x the way
// element_exists means it: x as a whole word or phrase, so a note titled
// "n1" is not taken for one titled "n10".
func Shows(e uitree.Element, x string) bool {
	return x != "" && (containsWord(norm(e.Text), norm(x)) || containsWord(norm(e.Desc), norm(x)))
}

// ShowsRow reports whether one element shows a row_shows check whole: its
// text or description names the row and holds what the row must show
// ("07:30 Gym" on an alarm's switch). A probe past the screen's edge looks
// for such an element, since it sees one element at a time.
func ShowsRow(e uitree.Element, row, shows string) bool {
	for _, t := range []string{e.Text, e.Desc} {
		if containsWord(norm(t), norm(row)) && holds(t, shows) {
			return true
		}
	}
	return false
}

// containsWord reports whether s contains x with no letter or digit
// joined to it on either side (text without spaces between words, such
// as Chinese, matches anywhere).
func containsWord(s, x string) bool {
	if x == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(s[off:], x)
		if i < 0 {
			return false
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(x):])
		first, _ := utf8.DecodeRuneInString(x)
		last, _ := utf8.DecodeLastRuneInString(x)
		if (i == 0 || !joins(before, first)) && (i+len(x) == len(s) || !joins(last, after)) {
			return true
		}
		off = i + 1
	}
}

// joins reports whether two adjacent runes belong to one word: both
// letters or digits of a script that separates words with spaces.
func joins(a, b rune) bool {
	word := func(r rune) bool {
		return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !unicode.Is(unicode.Han, r) &&
			!unicode.Is(unicode.Hiragana, r) && !unicode.Is(unicode.Katakana, r) && !unicode.Is(unicode.Hangul, r)
	}
	return word(a) && word(b)
}

var numRe = regexp.MustCompile(`\d+(?:[.,]\d+)?`)

// holds reports whether shown text holds the wanted value: as a whole
// number where the value is one ("30%" does not hold "3%"), else as text.
func holds(shown, want string) bool {
	s, w := norm(shown), norm(want)
	if w == "" {
		return false
	}
	if numRe.MatchString(w) {
		i := strings.Index(s, w)
		for i >= 0 {
			before := i == 0 || !isDigit(s[i-1])
			end := i + len(w)
			after := end >= len(s) || !isDigit(s[end])
			if before && after {
				return true
			}
			j := strings.Index(s[i+1:], w)
			if j < 0 {
				break
			}
			i += 1 + j
		}
		return false
	}
	return strings.Contains(s, w)
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// FieldValue finds the field named name — an input whose hint, description
// or resource ID names it, or a text that starts with the name ("Brightness
// 30%") — and returns it with its value.
func FieldValue(es []uitree.Element, name string) (*uitree.Element, string) {
	n := norm(name)
	for i, e := range es {
		id := norm(strings.ReplaceAll(e.ShortID(), "_", " "))
		if e.ShortClass() == "EditText" && (norm(e.Desc) == n || strings.Contains(id, n) || strings.HasPrefix(norm(e.Desc), n)) {
			v := fieldText(e) // an empty field shows its hint
			if same(v, name) {
				v = ""
			}
			return &es[i], v
		}
	}
	want := strings.ToLower(strings.TrimSpace(name))
	for i, e := range es {
		t := strings.TrimSpace(e.Text)
		if e.ShortClass() != "Button" && len(t) > len(want) && strings.HasPrefix(strings.ToLower(t), want) {
			return &es[i], strings.TrimSpace(strings.TrimLeft(t[len(want):], ":： "))
		}
	}
	return nil, ""
}

// rowsWith returns the text of every list row that contains x: an
// element's text, joined with the texts beside it on the same line.
func rowsWith(es []uitree.Element, x string) []string {
	var out []string
	for _, e := range es {
		if !strings.Contains(norm(e.Text), norm(x)) && !strings.Contains(norm(e.Desc), norm(x)) {
			continue
		}
		row := label(e)
		for _, o := range es {
			if o == e || o.Text == "" || o.Bounds.Y1 >= e.Bounds.Y2 || o.Bounds.Y2 <= e.Bounds.Y1 || o.ShortClass() == "Button" {
				continue
			}
			if o.Bounds.Y2-o.Bounds.Y1 > 3*(e.Bounds.Y2-e.Bounds.Y1)+1 {
				continue // a container, not a neighbour
			}
			row += " " + o.Text
		}
		out = append(out, row)
	}
	return out
}

// Title is the screen's title: the text of an element whose resource ID
// is a title, else "".
func Title(es []uitree.Element) string {
	for _, e := range es {
		id := e.ShortID()
		if (id == "title" || strings.HasSuffix(id, "_title") || strings.HasSuffix(id, "toolbar_title")) && e.ShortClass() != "EditText" && e.Text != "" {
			return e.Text
		}
	}
	return ""
}

// LastOutgoing is the last message bubble the phone marks as sent: the
// lowest element whose description starts with "Sent" or whose resource ID
// names an outgoing message.
func LastOutgoing(es []uitree.Element) string {
	last, y := "", -1
	for _, e := range es {
		id := strings.ToLower(e.ShortID())
		if (strings.HasPrefix(strings.ToLower(e.Desc), "sent") || strings.Contains(id, "outgoing")) && e.Text != "" && e.Bounds.Y1 >= y {
			last, y = e.Text, e.Bounds.Y1
		}
	}
	return last
}

var placeholderRe = regexp.MustCompile(`(?i)\{[^{}]*\}|\bwhat (?:was|you) read\b|\bthe (?:time|value|number|result) (?:read|found)\b|\bwith the result\b|\bthe result of (?:the )?(?:previous|last)\b|<[a-z_ ]+>|上一步的结果|读到的`)

// Unresolved reports text that stands for a value instead of holding one:
// "{result}", "… with what was read", "<number>".
func Unresolved(s string) bool { return placeholderRe.MatchString(s) }
