package modelserver

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// sensitiveReason returns the approval message for a tap on l, or "".
func sensitiveReason(l uitree.Listed) string {
	lower := strings.ToLower(l.Text + " " + l.Desc)
	switch {
	case strings.EqualFold(l.Text, "Sign in"):
		return "Signing in to the bank app needs your approval"
	case strings.Contains(lower, "pay"):
		return fmt.Sprintf("Tapping %q makes a payment: approval needed", l.Text)
	case strings.Contains(lower, "delete") || strings.Contains(lower, "删除"):
		return fmt.Sprintf("Tapping %q deletes data: approval needed", l.Text)
	case strings.Contains(lower, "transfer"):
		return fmt.Sprintf("Tapping %q transfers money: approval needed", l.Text)
	}
	return ""
}

// refusedPrefix opens an action result the system's look before a commit
// refused (docs/design.md §9).
const refusedPrefix = "refused"

// maxScrolls bounds how often the persona swipes looking for an element
// before it goes back.
const maxScrolls = 5

// solver decides one step for one todo on the current screen, using the
// actions taken so far for that todo.
type solver struct {
	obs  observation
	hist []act // actions of this todo (or of this clause in single-loop mode)
	// naive: the persona does not repair its own mistakes (Config.Naive).
	naive bool
}

func (c *solver) isErr() bool {
	r := strings.ToLower(strings.TrimSpace(c.obs.PrevResult))
	switch {
	case r == "" || r == "ok" || r == "already applied" || strings.HasPrefix(r, "user answered"):
		return false
	case strings.HasPrefix(r, "ok ") || strings.HasPrefix(r, "ok,") || strings.HasPrefix(r, "ok:"):
		return false
	}
	return true
}

// noted reports whether a note of the request contains phrase (any case).
func (c *solver) noted(phrase string) bool {
	for _, n := range c.obs.Notes {
		if strings.Contains(strings.ToLower(n), phrase) {
			return true
		}
	}
	return false
}

func (c *solver) prev() (act, bool) {
	if c.obs.PrevAction != "" {
		return parseAct(c.obs.PrevAction)
	}
	if len(c.hist) > 0 {
		return c.hist[len(c.hist)-1], true
	}
	return act{}, false
}

// prevTapAt reports whether the previous action tapped l and worked.
func (c *solver) prevTapAt(l *uitree.Listed) bool {
	if l == nil || c.isErr() {
		return false
	}
	p, ok := c.prev()
	return ok && p.Name == "Tap" && p.Point != nil && abs(p.Point[0]-l.At[0]) <= 2 && abs(p.Point[1]-l.At[1]) <= 2
}

// nthIndex is the index in a list of count rows of the place n names (1
// for the first, -1 for the last), and whether the list has that place.
func nthIndex(n, count int) (int, bool) {
	i := n - 1
	if n == -1 {
		i = count - 1
	}
	return i, i >= 0 && i < count
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func (c *solver) typed(text string) bool {
	for _, a := range c.hist {
		if (a.Name == "Type" || a.Name == "Type_Name") && a.Text == text {
			return true
		}
	}
	return false
}

// tappedAfterTyping reports whether l was tapped after text was last
// typed: a banner flicked away since does not make the tap on Send any
// less the last thing done to the message.
func (c *solver) tappedAfterTyping(l *uitree.Listed, text string) bool {
	last := -1
	for i, a := range c.hist {
		if (a.Name == "Type" || a.Name == "Type_Name") && a.Text == text {
			last = i
		}
	}
	if last < 0 {
		return false
	}
	for _, a := range c.hist[last+1:] {
		if a.Name == "Tap" && a.Point != nil && abs(a.Point[0]-l.At[0]) <= 2 && abs(a.Point[1]-l.At[1]) <= 2 {
			return true
		}
	}
	return false
}

// sentIt reports whether this todo's tap on send is what sent text: a
// tap after it typed the text, or, when an earlier todo left the text in
// the field and this one only tapped Send, any tap on send.
func (c *solver) sentIt(send *uitree.Listed, text string) bool {
	if c.typed(text) {
		return c.prevIs("Tap") || c.tappedAfterTyping(send, text)
	}
	for _, a := range c.hist {
		if a.Name == "Tap" && a.Point != nil && abs(a.Point[0]-send.At[0]) <= 2 && abs(a.Point[1]-send.At[1]) <= 2 {
			return true
		}
	}
	return false
}

func (c *solver) tookOver() bool {
	if c.prevIs("Take_over") {
		return true
	}
	for _, a := range c.hist {
		if a.Name == "Take_over" {
			return true
		}
	}
	return false
}

// trailing counts the actions named name at the end of the history.
func (c *solver) trailing(name string) int {
	n := 0
	for i := len(c.hist) - 1; i >= 0 && c.hist[i].Name == name; i-- {
		n++
	}
	return n
}

func (c *solver) count(name string) int {
	n := 0
	for _, a := range c.hist {
		if a.Name == name {
			n++
		}
	}
	return n
}

// focused reports whether the field has the input focus: the dump says so,
// or the previous action tapped it.
func (c *solver) focused(l *uitree.Listed) bool { return l != nil && (l.Focused || c.prevTapAt(l)) }

func (c *solver) byID(id string) *uitree.Listed {
	for i := range c.obs.Elems {
		if c.obs.Elems[i].ID == id {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

func (c *solver) byText(text string) *uitree.Listed {
	for i := range c.obs.Elems {
		if strings.EqualFold(c.obs.Elems[i].Text, text) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

func (c *solver) byPrefix(prefix string) *uitree.Listed {
	for i := range c.obs.Elems {
		if strings.HasPrefix(strings.ToLower(c.obs.Elems[i].Text), strings.ToLower(prefix)) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

func (c *solver) byClass(class string) *uitree.Listed {
	for i := range c.obs.Elems {
		if c.obs.Elems[i].Class == class {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// placeholders are the texts the simulator's empty fields report (Android
// shows the hint as the text of an empty field).
var placeholders = map[string]string{"alarm_time": "Time", "alarm_label": "Label", "note_title": "Title", "note_body": "Body", "editable_title": "Title", "edit_note_text": "Note", "compose_message_text": "Text message",
	"embedded_text_editor": "短信", "message_edit_text": "Enter message"}

// value returns what a text field holds, "" for an empty field that shows
// its hint.
func value(l *uitree.Listed) string {
	if l == nil {
		return ""
	}
	if p, ok := placeholders[l.ID]; ok && l.Text == p {
		return ""
	}
	if p, ok := vendorPlaceholders[l.ID]; ok && l.Text == p && l.Class == "EditText" {
		return ""
	}
	return l.Text
}

// onSubpage reports a Settings page other than the main list (a section or
// About phone), where the switches are not.
func (c *solver) onSubpage() bool {
	return c.onAboutPage() || c.byText("Settings") == nil
}

// person finds the element naming a contact: exact text, first name of a
// full name ("Alice" → "Alice Chen"), or the description ("张三").
func (c *solver) person(name string, clickable bool) *uitree.Listed {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil
	}
	if l := c.personNamed(name, clickable); l != nil {
		return l
	}
	if alias, ok := nameAliases[strings.ToLower(name)]; ok {
		return c.personNamed(alias, clickable)
	}
	return nil
}

func (c *solver) personNamed(name string, clickable bool) *uitree.Listed {
	ln := strings.ToLower(name)
	match := []func(l uitree.Listed) bool{
		func(l uitree.Listed) bool { return strings.ToLower(l.Text) == ln || l.Desc == name },
		func(l uitree.Listed) bool { return strings.HasPrefix(strings.ToLower(l.Text), ln+" ") },
		func(l uitree.Listed) bool { return l.Text != "" && strings.HasPrefix(ln, strings.ToLower(l.Text)+" ") },
	}
	for _, m := range match {
		for i, l := range c.obs.Elems {
			if (!clickable || l.Clickable) && l.Class != "EditText" && m(l) {
				return &c.obs.Elems[i]
			}
		}
	}
	if !clickable {
		return nil
	}
	// A list whose rows hold their name in a child (Compose, AOSP
	// Contacts): the name itself, which a tap reaches the row through;
	// never a page's title.
	for _, m := range match {
		for i, l := range c.obs.Elems {
			if !l.Clickable && l.Class == "TextView" && !strings.HasSuffix(l.ID, "title") && l.Desc == "" && m(l) {
				return &c.obs.Elems[i]
			}
		}
	}
	return nil
}

// nameAliases pairs a contact's Chinese and Latin names.
var nameAliases = map[string]string{"张三": "Zhang San", "zhang san": "张三", "李四": "Li Si", "li si": "李四"}

// inApp reports whether app is in the foreground.
func (c *solver) inApp(app string) bool {
	if slices.Contains(packages[app], c.obs.Package) {
		return true
	}
	return c.obs.App != "" && strings.EqualFold(c.obs.App, app)
}

// ensureApp returns the step that brings app to the front, or ok=false if
// it is already there. A failed Launch is not repeated: the persona goes
// Home and taps the launcher icon instead.
func (c *solver) ensureApp(app string) (step, bool) {
	if app == "" || c.inApp(app) {
		return step{}, false
	}
	p, ok := c.prev()
	if ok && p.Name == "Launch" && c.isErr() {
		if c.inApp("Launcher") {
			if icon := c.appIcon(app); icon != nil && icon.Clickable {
				return tapAt(*icon, fmt.Sprintf("Launching %s failed (%s); I tap its icon on the home screen instead.", app, c.obs.PrevResult)), true
			}
			return finish(fmt.Sprintf("Could not open %s: %s", app, c.obs.PrevResult),
				fmt.Sprintf("Launching %s failed and there is no icon for it on the home screen.", app)), true
		}
		return home(fmt.Sprintf("Launching %s failed (%s); I go to the home screen to find its icon.", app, c.obs.PrevResult)), true
	}
	if c.inApp("Launcher") && c.count("Launch") > 0 {
		if icon := c.appIcon(app); icon != nil && icon.Clickable {
			return tapAt(*icon, fmt.Sprintf("I am on the home screen; I tap the %s icon.", app)), true
		}
	}
	return launch(app, fmt.Sprintf("The task happens in %s, which is not in the foreground, so I launch it.", app)), true
}

// appLabels are the names other launchers give an app: a Xiaomi phone's
// 设置, 短信, 联系人.
var appLabels = map[string][]string{"Settings": {"设置"}, "Clock": {"时钟"}, "Messages": {"短信", "信息"},
	"Contacts": {"联系人", "通讯录"}, "Notes": {"便签", "笔记"}}

// appIcon is the launcher icon of an app, under its name or a name
// another launcher gives it: the clickable element that writes the name
// or is described by it (MIUI's icon and One UI's icon_container are
// described frames whose name is written by a TextView inside, which takes
// no tap; MIUI's dock's icons write no name at all), else the element that
// writes it.
func (c *solver) appIcon(app string) *uitree.Listed {
	names := append([]string{app}, appLabels[app]...)
	for _, n := range names {
		for i, l := range c.obs.Elems {
			if l.Clickable && (strings.EqualFold(l.Text, n) || strings.EqualFold(l.Desc, n)) {
				return &c.obs.Elems[i]
			}
		}
	}
	for _, n := range names {
		if icon := c.byText(n); icon != nil {
			return icon
		}
	}
	return nil
}

// scroll looks for a missing element: a bounded number of swipes, then Back,
// then giving up.
func (c *solver) scroll(up bool, what string) step {
	switch {
	case c.count("Swipe") >= 2*maxScrolls:
		return finish(fmt.Sprintf("Could not find %s on the screen", what), fmt.Sprintf("I scrolled %d times without finding %s.", c.count("Swipe"), what))
	case c.trailing("Swipe") >= maxScrolls:
		return back(fmt.Sprintf("%s is not listed after %d swipes; I go back and try again from there.", what, maxScrolls))
	}
	return swipe(up, fmt.Sprintf("%s is not listed on this screen; I scroll to look for it.", what))
}

// fill is the step that puts want into a field: type it once the field
// has the focus (typeWhy), tap the field before (tapWhy); false once the
// field holds want.
func (c *solver) fill(field *uitree.Listed, want, typeWhy, tapWhy string) (step, bool) {
	switch {
	case !holds(field, want) && c.focused(field) && !c.prevIs("Type"):
		return typeText(want, typeWhy), true
	case !holds(field, want):
		return tapAt(*field, tapWhy), true
	}
	return step{}, false
}

// holds reports whether field shows want: its text, or, in a field that
// hides its text, a dot for each of want's characters.
func holds(field *uitree.Listed, want string) bool {
	v := value(field)
	if v == want {
		return true
	}
	n := utf8.RuneCountInString(want)
	return n > 0 && utf8.RuneCountInString(v) == n && strings.Trim(v, "•●*") == ""
}
