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
	// Unread, when set, says why the screen's UI tree could not be read
	// (uiautomator found no idle state): a check that reads the tree
	// then does not hold, since an empty tree shows nothing either way
	// (docs/design.md#verification-and-honest-status).
	Unread string
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

// Result is one check's outcome. Used are the elements of the final
// screen it was decided from (the switch and the title beside it, the
// row, the field), so a person can see what was read.
type Result struct {
	Check    Check            `json:"check"`
	Held     bool             `json:"held"`
	Evidence string           `json:"evidence"`
	Used     []uitree.Element `json:"used,omitempty"`
}

// Eval checks every postcondition on what the todo left; no model is
// asked. The todo is done only when every result held.
func Eval(cs []Check, o Observed) []Result {
	out := make([]Result, 0, len(cs))
	for _, c := range cs {
		held, ev, used := evalOne(c, o)
		out = append(out, Result{Check: c, Held: held, Evidence: ev, Used: used})
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

func evalOne(c Check, o Observed) (bool, string, []uitree.Element) {
	s := o.Final
	if s.Unread != "" && c.Kind != AppInFront && c.Kind != AnswerSeen {
		// The app in front is dumpsys's, an answer is checked on the
		// screens the todo read: neither needs the final tree.
		return false, fmt.Sprintf("not verified: the final screen's UI tree could not be read (%s)", s.Unread), nil
	}
	switch c.Kind {
	case AppInFront:
		held, ev := appInFront(c.App, s)
		return held, ev, nil
	case ElementExists:
		// What a field holds is typed, not saved: a title typed in an
		// editor left open is not the saved record the check stands for
		// (docs/design.md §9). field_holds is the check for a field.
		if e := findPage(shownNotTyped(WithMarks(s.Elements)), s, c.Text); e != nil {
			return true, fmt.Sprintf("%q is shown", label(*e)), []uitree.Element{*e}
		}
		if e := hintAlias(s.Elements, c.Text); e != nil {
			return true, fmt.Sprintf("the field %q is shown", e.Hint), []uitree.Element{*e}
		}
		for _, a := range shownAliases[norm(c.Text)] {
			if e := find(shownNotTyped(s.Elements), a); e != nil {
				return true, fmt.Sprintf("%q is shown", label(*e)), []uitree.Element{*e}
			}
		}
		return false, fmt.Sprintf("no element shows %q", c.Text), nil
	case ElementAbsent:
		if e := findShown(WithMarks(s.Elements), s, c.Text); e != nil {
			return false, fmt.Sprintf("%q is still shown", label(*e)), []uitree.Element{*e}
		}
		if picked, shown := PickerTime(s.Elements); picked != "" && sameTime(picked, c.Text) {
			// A time picker set to the time is that alarm's page, open:
			// the alarm is on the screen, its digits on wheels or a dial.
			return false, fmt.Sprintf("a time picker shows %s", shown), nil
		}
		return true, fmt.Sprintf("nothing shows %q", c.Text), nil
	case Switch:
		return switchHolds(c, s.Elements)
	case FieldHolds:
		e, v := FieldValue(s.Elements, c.Field)
		if e == nil {
			return false, fmt.Sprintf("no field %q is on the final screen", c.Field), nil
		}
		used := []uitree.Element{*e}
		if holds(v, c.Value) {
			return true, fmt.Sprintf("field %q holds %q", c.Field, v), used
		}
		return false, fmt.Sprintf("field %q holds %q, not %q", c.Field, v, c.Value), used
	case RowShows:
		rows := rowsWith(s.Elements, c.Row)
		if len(rows) == 0 {
			return false, fmt.Sprintf("no row shows %q", c.Row), nil
		}
		for _, r := range rows {
			if rowHolds(r.text, c.Shows) {
				return true, fmt.Sprintf("the row %q shows %q", r.text, c.Shows), r.elems
			}
		}
		return false, fmt.Sprintf("the row %q does not show %q", rows[0].text, c.Shows), rows[0].elems
	case LastSent:
		title := Title(s.Elements)
		if title == "" || !sameName(title, c.Conversation) {
			return false, fmt.Sprintf("the final screen is not the conversation with %q (title %q)", c.Conversation, title), nil
		}
		last, bubble := lastOutgoing(s.Elements)
		if last == "" {
			return false, fmt.Sprintf("the conversation with %q shows no sent message", title), nil
		}
		used := []uitree.Element{bubble}
		if SameMessage(last, c.Contains) {
			return true, fmt.Sprintf("the last message sent to %q is %q", title, last), used
		}
		return false, fmt.Sprintf("the last message sent to %q is %q, not %q", title, last, c.Contains), used
	case AnswerSeen:
		if c.Type == TypeState {
			held, ev := answerState(c, o)
			return held, ev, nil
		}
		held, ev := answerSeen(c, o)
		return held, ev, nil
	}
	return false, "unknown check " + c.Kind, nil
}

// switchHolds: the switch the label names is in the wanted state. When
// the label names several switches (the nearest kind of naming only) they
// must all show it; a switch whose checked attribute and words disagree
// holds nothing.
func switchHolds(c Check, es []uitree.Element) (bool, string, []uitree.Element) {
	want := c.On != nil && *c.On
	l := newLayout(es)
	ms := l.switchesLabelled(c.Label)
	if len(ms) == 0 && c.Any {
		// The item's row may be past the list's edge, where the check on
		// its text looks; what this check refuses is a row in sight that
		// shows the other state.
		return true, fmt.Sprintf("no switch labelled %q is on the final screen to show it %s", c.Label, onOff(!want)), nil
	}
	if len(ms) == 0 {
		return false, fmt.Sprintf("no switch labelled %q is on the final screen", c.Label), nil
	}
	var used []uitree.Element
	for _, m := range ms {
		used = append(used, es[m.i])
	}
	if c.Any {
		for _, m := range ms {
			if on, sure := l.switchState(m.i); sure && on == want {
				return true, fmt.Sprintf("a %q switch (%q) is %s", c.Label, m.label, onOff(on)), []uitree.Element{es[m.i]}
			}
		}
		return false, fmt.Sprintf("no switch labelled %q is %s (%d labelled so)", c.Label, onOff(want), len(ms)), used
	}
	first, _ := l.switchState(ms[0].i)
	for _, m := range ms {
		on, sure := l.switchState(m.i)
		if !sure {
			return false, fmt.Sprintf("the %q switch is checked=%t but its words say otherwise: its state is not sure", m.label, es[m.i].Checked), used
		}
		if on != first {
			return false, fmt.Sprintf("%d switches are labelled %q and they do not all show one state", len(ms), c.Label), used
		}
	}
	named := fmt.Sprintf("the %q switch", c.Label)
	if !sameLabel(ms[0].label, c.Label) {
		named = fmt.Sprintf("the %q switch (%q)", c.Label, ms[0].label)
	}
	return first == want, fmt.Sprintf("%s is %s", named, onOff(first)), used
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

// sameName matches a person's name as a screen titles it: equal, or the
// name the first name of the title ("Alice" names "Alice Chen"), never
// the reverse ("Mom and Bob" is not the conversation "Mom").
func sameName(title, name string) bool {
	title, name = norm(title), norm(name)
	return title == name || strings.HasPrefix(title, name+" ")
}

// shownNotTyped is the elements a person can see, with what was typed
// into input fields left out (a field keeps its description and hint): an element the tree gives no area ([0,0][0,0], a row
// cut off at the list's edge, a label the lock screen hides) shows
// nothing, in a tree whose elements have bounds at all.
func shownNotTyped(es []uitree.Element) []uitree.Element {
	out := make([]uitree.Element, 0, len(es))
	sized := false
	for _, e := range es {
		sized = sized || hasArea(e.Bounds)
	}
	for _, e := range es {
		if !hasArea(e.Bounds) && sized {
			continue
		}
		if e.IsField() {
			// A field's text is what was typed into it; its description
			// and its hint (an empty field shows its hint as its text) are
			// the app's words, shown: a conversation's "Text message" box.
			if e.Text != e.Hint {
				e.Text = ""
			}
			if e.Text == "" && e.Desc == "" {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

func hasArea(b uitree.Bounds) bool { return b.X2 > b.X1 && b.Y2 > b.Y1 }

// find returns the first element whose text or description contains x.

func find(es []uitree.Element, x string) *uitree.Element {
	for i, e := range es {
		if Shows(e, x) {
			return &es[i]
		}
	}
	return nil
}

// WithMarks is es with a clock time that a 12-hour clock writes apart
// from its morning or afternoon mark ("9:30" and then "下午" or "PM" beside
// it, as MIUI's and One UI's alarm rows do) read with that mark: the
// time's text becomes "9:30 PM", so it shows 21:30 and not 09:30.
func WithMarks(es []uitree.Element) []uitree.Element {
	parent := uitree.Parents(es)
	var out []uitree.Element
	for i, e := range es {
		if i+1 >= len(es) || parent[i+1] != parent[i] || !MarkWord(es[i+1].Text) || wholeValue(TypeTime, strings.TrimSpace(e.Text)) == "" ||
			timeValRe.FindStringSubmatch(e.Text)[3] != "" {
			continue
		}
		if out == nil {
			out = append([]uitree.Element(nil), es...)
		}
		mark := "AM"
		if v := values(TypeTime, e.Text+" "+es[i+1].Text); len(v) == 1 && v[0] >= "12" || strings.EqualFold(strings.TrimSpace(es[i+1].Text), "pm") {
			mark = "PM"
		}
		if h := atoi(strings.SplitN(strings.TrimSpace(e.Text), ":", 2)[0]); h == 0 || h > 12 {
			continue // a 24-hour time with a word beside it
		}
		out[i].Text = strings.TrimSpace(e.Text) + " " + mark
	}
	if out == nil {
		return es
	}
	return out
}

// Shows reports whether an element's text or description shows x the way
// element_exists means it: x as a whole word or phrase, so a note titled
// "n1" is not taken for one titled "n10".
// A time shows as the same time written by a 12-hour clock ("7:30 AM"
// shows "07:30").
func Shows(e uitree.Element, x string) bool {
	return x != "" && (containsWord(norm(e.Text), norm(x)) || containsWord(norm(e.Desc), norm(x)) || sameTime(e.Text, x))
}

// sameTime reports whether shown and x are each a clock time alone, the
// same time.
func sameTime(shown, x string) bool {
	w := wholeValue(TypeTime, strings.TrimSpace(x))
	return w != "" && wholeValue(TypeTime, strings.TrimSpace(shown)) == w
}

// ShowsRow reports whether one element shows a row_shows check whole: its
// text or description names the row and holds what the row must show
// ("07:30 Gym" on an alarm's switch). A probe past the screen's edge looks
// for such an element, since it sees one element at a time.
func ShowsRow(e uitree.Element, row, shows string) bool {
	for _, t := range []string{e.Text, e.Desc} {
		if containsWord(norm(t), norm(row)) && rowHolds(t, shows) {
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

// isWord reports whether s is one word of letters ("level"), no number.
func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// FieldValue finds the field named name — an input (any EditText
// subclass) whose hint, description or resource ID names it, or one that
// shows the name as its text, its hint while it is empty, or whose label
// is the name (a form's text beside or above the field, in a container of
// that field alone); else a preference titled by the name or the name and
// a word ("Brightness level"), whose value is its summary below; else a
// text that starts with the name ("Brightness
// 30%") — and returns it with its value ("" for a field that shows only
// its hint). A name no element shows is tried again by the other words
// apps use for that field (fieldAliases).
func FieldValue(es []uitree.Element, name string) (*uitree.Element, string) {
	if e, v := fieldNamed(es, name); e != nil {
		return e, v
	}
	for _, a := range fieldAliases[norm(name)] {
		for i, e := range es {
			if e.IsField() && (sameLabel(e.Hint, a) || sameLabel(e.Desc, a)) {
				v := fieldText(e)
				if same(v, a) {
					v = ""
				}
				return &es[i], v
			}
		}
	}
	if norm(name) == "body" {
		if i := textBelowTitle(es); i >= 0 {
			return &es[i], fieldText(es[i])
		}
	}
	return nil, ""
}

// fieldAliases are other apps' words for a field a check names: a note's
// text is the classic Notes' "Body", Google Keep's "Note" (the hint of
// its edit_note_text) and 便签's 开始书写 (its rich_editor's). An alias
// names a field by its hint or description only, never by an id or a
// text that merely starts with it.
var fieldAliases = map[string][]string{"body": {"Note", "开始书写"}}

// shownAliases are the words MIUI shows where a check names what the
// other looks show: 便签's list is titled 便签, not "Notes"; a page's way
// up is described 返回, not "Navigate up".
var shownAliases = map[string][]string{"notes": {"便签"}, "navigate up": {"返回"}}

// titleHints are the hints of a note editor's title field.
var titleHints = []string{"Title", "标题"}

// textBelowTitle is the index of a note editor's text field where no
// hint names it (Samsung Notes'): the one field below the field hinted
// as the title, on a screen of those two fields; -1 when there is none.
func textBelowTitle(es []uitree.Element) int {
	var fs []int
	for i, e := range es {
		if e.IsField() {
			fs = append(fs, i)
		}
	}
	if len(fs) >= 2 && richEditor(es, fs) {
		return fs[1]
	}
	if len(fs) != 2 {
		return -1
	}
	t, b := es[fs[0]], es[fs[1]]
	for _, h := range titleHints {
		if sameLabel(t.Hint, h) && b.Hint == "" && b.Bounds.Y1 >= t.Bounds.Y2 {
			return fs[1]
		}
	}
	return -1
}

// richEditor reports a note editor drawn in a WebView whose paragraphs
// are fields without hints, the first one the note's title line (ColorOS
// Notes': an EditText holding only "\n" above the body's): every field is
// inside a WebView, none has a hint, and the second starts below the top
// of the first. The body is then the second field, never the title line.
func richEditor(es []uitree.Element, fs []int) bool {
	parent := uitree.Parents(es)
	for _, i := range fs {
		if es[i].Hint != "" {
			return false
		}
		web := false
		for a := parent[i]; a >= 0 && !web; a = parent[a] {
			web = strings.HasSuffix(es[a].ShortClass(), "WebView")
		}
		if !web {
			return false
		}
	}
	return es[fs[1]].Bounds.Y1 > es[fs[0]].Bounds.Y1
}

// hintAliases are other apps' hints for a field a check names by Google
// Messages' hint: Samsung Messages' "Enter message", MIUI 短信's 短信.
// Only a field's hint counts, never a title that says the same word (the
// 短信 list's title).
var hintAliases = map[string][]string{"text message": {"Enter message", "短信"}}

// hintAlias is the field whose hint is another app's word for text.
func hintAlias(es []uitree.Element, text string) *uitree.Element {
	for _, a := range hintAliases[norm(text)] {
		for i, e := range es {
			if e.IsField() && hasArea(e.Bounds) && sameLabel(e.Hint, a) {
				return &es[i]
			}
		}
	}
	return nil
}

func fieldNamed(es []uitree.Element, name string) (*uitree.Element, string) {
	n := norm(name)
	for i, e := range es {
		id := norm(strings.ReplaceAll(e.ShortID(), "_", " "))
		if e.IsField() && (sameLabel(e.Desc, name) || sameLabel(e.Hint, name) || strings.Contains(id, n) || strings.HasPrefix(norm(e.Desc), n)) {
			v := fieldText(e) // an empty field shows its hint
			if same(v, name) {
				v = ""
			}
			return &es[i], v
		}
	}
	for i, e := range es {
		if e.IsField() && e.Hint == "" && (sameLabel(e.Text, name) || promptFor(e.Text, name)) {
			return &es[i], "" // the name it shows is its hint: it is empty
		}
	}
	l := newLayout(es)
	for i, e := range es {
		if e.IsField() && sameLabel(l.fieldTitle(i), name) {
			return &es[i], fieldText(e) // a form's label beside or above its field
		}
	}
	want := strings.ToLower(strings.TrimSpace(name))
	for i, e := range es {
		// A preference titled by the name, or by the name and a word
		// ("Brightness level"), shows its value as the summary below.
		t := strings.ToLower(strings.TrimSpace(e.Text))
		rest, named := strings.CutPrefix(t, want+" ")
		if !sameLabel(e.Text, name) && !(named && isWord(rest)) || e.ShortClass() == "Button" {
			continue
		}
		if row := l.rowOf(i); len(row) == 2 && l.es[row[1]].Text != "" && l.es[row[1]].Bounds.Y1 >= e.Bounds.Y2-1 {
			return &es[row[1]], strings.TrimSpace(l.es[row[1]].Text)
		}
	}
	for i, e := range es {
		t := strings.TrimSpace(e.Text)
		if e.ShortClass() != "Button" && len(t) > len(want) && strings.HasPrefix(strings.ToLower(t), want) {
			return &es[i], strings.TrimSpace(strings.TrimLeft(t[len(want):], ":： "))
		}
	}
	return nil, ""
}

// prompts are the words a field's hint puts before the field's name
// ("请输入验证码", "Enter your email").
var prompts = []string{"请输入", "请填写", "请选择", "输入", "enter your ", "enter ", "type your ", "type "}

// promptFor reports whether a field's text is the hint that asks for
// name (an old dump with no hint attribute writes the hint as the text).
func promptFor(text, name string) bool {
	t := norm(text)
	for _, p := range prompts {
		if rest, ok := strings.CutPrefix(t, p); ok && sameLabel(rest, name) {
			return true
		}
	}
	return false
}

// row is one list row: its words joined, and the elements they are from.
type row struct {
	text  string
	elems []uitree.Element
}

// rowsWith returns every list row that an element naming x is in: an
// element whose label is x (after normalisation, a tile's state aside),
// else one whose text holds x as words; with the texts of its row
// (layout.rowOf: its container's, or its line's in a flat list).
func rowsWith(es []uitree.Element, x string) []row {
	var exact, words []int
	for i, e := range es {
		switch {
		case sameLabel(e.Text, x) || sameLabel(e.Desc, x) || sameTime(e.Text, x):
			exact = append(exact, i)
		case containsWord(norm(e.Text), norm(x)) || containsWord(norm(e.Desc), norm(x)):
			words = append(words, i)
		}
	}
	if len(exact) == 0 {
		exact = words
	}
	l := newLayout(es)
	var out []row
	for _, i := range exact {
		var r row
		for k, j := range l.rowOf(i) {
			t := es[j].Text
			if k == 0 {
				t = label(es[j])
			}
			if t == "" {
				continue
			}
			r.text = strings.TrimSpace(r.text + " " + t)
			r.elems = append(r.elems, es[j])
		}
		out = append(out, r)
	}
	return out
}

// rowHolds reports whether a row's words hold what it must show: a number
// whole, anything else as whole words ("On" is not in "Connected") that
// no negation comes just before ("Allowed" is not in "Not allowed", nor
// "连接" in "未连接").
func rowHolds(shown, want string) bool {
	if numRe.MatchString(norm(want)) {
		return holds(shown, want)
	}
	s, w := norm(shown), norm(want)
	if w == "" {
		return false
	}
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(w):])
		first, _ := utf8.DecodeRuneInString(w)
		last, _ := utf8.DecodeLastRuneInString(w)
		if (i == 0 || !joins(before, first)) && (i+len(w) == len(s) || !joins(last, after)) && !negated(s[:i], w) {
			return true
		}
		off = i + 1
	}
}

// negated reports whether the words before a match deny it.
func negated(before, want string) bool {
	b := strings.TrimRight(before, " ")
	for _, n := range []string{"not", "no", "non", "never", "don't", "isn't", "un"} {
		if strings.HasSuffix(b, " "+n) || b == n {
			return !strings.HasPrefix(want, n+" ")
		}
	}
	for _, n := range []string{"不", "未", "没有", "没", "无", "非"} {
		if strings.HasSuffix(b, n) {
			return !strings.HasPrefix(want, n)
		}
	}
	return false
}

var placeholderRe = regexp.MustCompile(`(?i)\{[^{}]*\}|\bwhat (?:was|you) read\b|\bthe (?:time|value|number|result) (?:read|found)\b|\bwith the result\b|\bthe result of (?:the )?(?:previous|last)\b|<[a-z_ ]+>|上一步的结果|读到的`)

// Unresolved reports text that stands for a value instead of holding one:
// "{result}", "… with what was read", "<number>".
func Unresolved(s string) bool { return placeholderRe.MatchString(s) }
