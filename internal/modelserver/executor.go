package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// observation is what the last user message of an executor request says.
type observation struct {
	Task       string
	App        string // display name
	Package    string
	PrevAction string
	PrevResult string
	Sensitive  bool
	Notes      []string
	Elems      []uitree.Listed
}

var currentAppRe = regexp.MustCompile(`^(.*?)\s*\(([\w.]+)\)\s*$`)

// parseObservation reads the executor request text (shared formats).
func parseObservation(text string) observation {
	var o observation
	inNotes := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if inNotes {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				o.Notes = append(o.Notes, rest)
				continue
			}
			inNotes = false
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "Task":
			if o.Task == "" {
				o.Task = val
			}
		case "Current app":
			if m := currentAppRe.FindStringSubmatch(val); m != nil {
				o.App, o.Package = m[1], m[2]
			} else {
				o.App = val
			}
		case "Previous action":
			o.PrevAction = val
		case "Previous action result":
			o.PrevResult = val
		case "Screen":
			o.Sensitive = strings.HasPrefix(strings.ToLower(val), "sensitive")
		case "Notes":
			inNotes = true
		}
	}
	if o.Package == "" {
		if p, ok := packages[o.App]; ok {
			o.Package = p
		}
	}
	o.Elems = uitree.ParseList(text)
	if o.App == "" && o.Package == "" {
		o.App = inferApp(o.Elems)
		o.Package = packages[o.App]
	}
	return o
}

// appMarkers are resource ids and texts that only one simulator app shows,
// used when the request does not name the foreground app.
var appMarkers = []struct{ app, id, text string }{
	{"Settings", "wifi_switch", "About phone"},
	{"Settings", "brightness_value", "Android version: 14"},
	{"Messages", "compose_message_text", "Start chat"},
	{"Messages", "send_button", "New conversation"},
	{"Clock", "add_alarm", "Add alarm"},
	{"Clock", "alarm_time", "New alarm"},
	{"Notes", "new_note", "New note"},
	{"Notes", "note_title", "Edit note"},
	{"Contacts", "phone_number", "Contacts"},
	{"Bank", "", "Sign in"},
}

// inferApp guesses the foreground app from the element list: the launcher
// when several app icons are listed, else the app whose marker is on
// screen, else "".
func inferApp(elems []uitree.Listed) string {
	icons := 0
	for _, l := range elems {
		if _, ok := packages[l.Text]; ok && l.Clickable && l.Desc == l.Text {
			icons++
		}
	}
	if icons >= 3 {
		return "Launcher"
	}
	for _, m := range appMarkers {
		for _, l := range elems {
			if m.id != "" && l.ID == m.id || l.Text == m.text {
				return m.app
			}
		}
	}
	return ""
}

// act is one earlier executor action, read back from an assistant turn.
type act struct {
	Name    string
	App     string
	Text    string
	Message string
	Point   *[2]int
	Raw     string
}

var (
	actNameRe  = regexp.MustCompile(`do\(\s*action\s*=\s*"([^"]+)"`)
	actPointRe = regexp.MustCompile(`element\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]`)
	finishRe   = regexp.MustCompile(`finish\(\s*message\s*=`)
)

var fieldRes = map[string]*regexp.Regexp{}

func init() {
	for _, name := range []string{"app", "text", "message"} {
		fieldRes[name] = regexp.MustCompile(name + `\s*=\s*"((?:[^"\\]|\\.)*)"`)
	}
}

// strField reads a quoted argument (app, text or message) of an action.
func strField(s, name string) string {
	m := fieldRes[name].FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	if v, err := strconv.Unquote(`"` + m[1] + `"`); err == nil {
		return v
	}
	return m[1]
}

// parseAct reads the action of an answer or of a "Previous action" line.
func parseAct(s string) (act, bool) {
	if i := strings.Index(s, "<answer>"); i >= 0 {
		s = s[i+len("<answer>"):]
	}
	a := act{Raw: strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "</answer>"))}
	if m := actNameRe.FindStringSubmatch(s); m != nil {
		a.Name = m[1]
	} else if finishRe.MatchString(s) {
		a.Name = "finish"
	} else {
		return a, false
	}
	a.App, a.Text, a.Message = strField(s, "app"), strField(s, "text"), strField(s, "message")
	if m := actPointRe.FindStringSubmatch(s); m != nil {
		x, _ := strconv.Atoi(m[1])
		y, _ := strconv.Atoi(m[2])
		a.Point = &[2]int{x, y}
	}
	return a, true
}

// history returns the actions of the assistant turns before the last user
// message.
func history(msgs []message) []act {
	var out []act
	for _, m := range msgs {
		if m.Role != "assistant" {
			continue
		}
		if a, ok := parseAct(m.Text); ok {
			out = append(out, a)
		}
	}
	return out
}

// step is one decision of the persona.
type step struct {
	think  string
	action string
	finish bool   // the action is finish(...)
	result string // the finish message
}

func q(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func launch(app, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Launch", app=%s)`, q(app))}
}

func tapAt(l uitree.Listed, why string) step {
	a := fmt.Sprintf(`do(action="Tap", element=[%d,%d]`, l.At[0], l.At[1])
	if msg := sensitiveReason(l); msg != "" {
		a += ", message=" + q(msg)
	}
	return step{think: why, action: a + ")"}
}

func typeText(text, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Type", text=%s)`, q(text))}
}

func finish(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`finish(message=%s)`, q(msg)), finish: true, result: msg}
}

func waitFor(d time.Duration) step {
	return step{think: "The task says to wait " + d.String() + " first.", action: fmt.Sprintf(`do(action="Wait", duration=%s)`, q(d.String()))}
}

func back(why string) step { return step{think: why, action: `do(action="Back")`} }
func home(why string) step { return step{think: why, action: `do(action="Home")`} }

func note(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Note", message=%s)`, q(msg))}
}

func takeOver(msg, why string) step {
	return step{think: why, action: fmt.Sprintf(`do(action="Take_over", message=%s)`, q(msg))}
}

// Swipes on the 0-999 grid: "up" drags the content up to reveal what is
// below; "down" scrolls back towards the top.
func swipe(up bool, why string) step {
	if up {
		return step{think: why, action: `do(action="Swipe", start=[500,750], end=[500,250])`}
	}
	return step{think: why, action: `do(action="Swipe", start=[500,300], end=[500,800])`}
}

// sensitiveReason returns the approval message for a tap on l, or "".
func sensitiveReason(l uitree.Listed) string {
	lower := strings.ToLower(l.Text + " " + l.Desc)
	switch {
	case strings.EqualFold(l.Text, "Sign in"):
		return "Signing in to the bank app needs your approval"
	case strings.Contains(lower, "pay"):
		return fmt.Sprintf("Tapping %q makes a payment: approval needed", l.Text)
	case strings.Contains(lower, "delete"):
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
var placeholders = map[string]string{"alarm_time": "Time", "alarm_label": "Label", "note_title": "Title", "note_body": "Body"}

// value returns what a text field holds, "" for an empty field that shows
// its hint.
func value(l *uitree.Listed) string {
	if l == nil {
		return ""
	}
	if p, ok := placeholders[l.ID]; ok && l.Text == p {
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
	return nil
}

// nameAliases pairs a contact's Chinese and Latin names.
var nameAliases = map[string]string{"张三": "Zhang San", "zhang san": "张三", "李四": "Li Si", "li si": "李四"}

// inApp reports whether app is in the foreground.
func (c *solver) inApp(app string) bool {
	if p, ok := packages[app]; ok && c.obs.Package == p {
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
			if icon := c.byText(app); icon != nil && icon.Clickable {
				return tapAt(*icon, fmt.Sprintf("Launching %s failed (%s); I tap its icon on the home screen instead.", app, c.obs.PrevResult)), true
			}
			return finish(fmt.Sprintf("Could not open %s: %s", app, c.obs.PrevResult),
				fmt.Sprintf("Launching %s failed and there is no icon for it on the home screen.", app)), true
		}
		return home(fmt.Sprintf("Launching %s failed (%s); I go to the home screen to find its icon.", app, c.obs.PrevResult)), true
	}
	if c.inApp("Launcher") && c.count("Launch") > 0 {
		if icon := c.byText(app); icon != nil && icon.Clickable {
			return tapAt(*icon, fmt.Sprintf("I am on the home screen; I tap the %s icon.", app)), true
		}
	}
	return launch(app, fmt.Sprintf("The task happens in %s, which is not in the foreground, so I launch it.", app)), true
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

// solve decides the next step for one todo.
func (c *solver) solve(task string) step {
	if s, ok := c.systemWindow(); ok {
		return s
	}
	if d := c.byID("popup_dismiss"); d != nil {
		return tapAt(*d, "A pop-up covers the app; I dismiss it with "+q(d.Text)+" and go on.")
	}
	if why, ok := strings.CutPrefix(strings.TrimSpace(c.obs.PrevResult), refusedPrefix); ok {
		// The system looked before the commit: what it would make is
		// already on the phone, or this todo made it already.
		why = strings.TrimSpace(strings.TrimPrefix(why, ":"))
		if i := strings.Index(why, ". If "); i >= 0 {
			why = why[:i]
		}
		return finish("Already on the phone: "+why, "My last tap was refused because its effect is already there; the task is done.")
	}
	// A task that starts with a wait ("Wait 40 seconds, then turn on
	// Wi-Fi", or only "Wait 20 minutes"): wait once, then do the rest.
	if w, ok, err := waits.Todo(task); ok && err == nil && w.For > 0 {
		if c.count("Wait") == 0 {
			return waitFor(w.For)
		}
		return finish("Waited "+w.For.String(), "The wait is over.")
	}
	if w, rest, ok := waits.Lead(task); ok && w.For > 0 {
		if c.count("Wait") == 0 {
			return waitFor(w.For)
		}
		task = rest
	}
	if s, ok := c.contactsTask(task); ok {
		return s
	}
	if s, ok := c.messagesTask(task); ok {
		return s
	}
	in := parseIntent(task)
	var s step
	switch in.Kind {
	case kindOpen:
		s = c.open(in)
	case kindToggle:
		s = c.toggle(in)
	case kindBrightness:
		s = c.brightness(in)
	case kindMessage:
		s = c.message(in)
	case kindAlarm:
		s = c.alarm(in)
	case kindNote:
		s = c.note(in)
	case kindAlarmSwitch:
		s = c.alarmSwitch(in)
	case kindNoteRename:
		s = c.renameNote(in)
	case kindNoteOpen:
		s = c.openNote(in)
	case kindRead:
		s = c.read(in)
	case kindBank:
		s = c.bank(task)
	case kindTap:
		s = c.tapLabel(in)
	default:
		if name := namedApp(task, in.App); name != "" {
			return finish(fmt.Sprintf("Cannot do %q: there is no %s app on this phone", task, name),
				fmt.Sprintf("The task needs the %s app, which this phone does not have.", name))
		}
		if st, ok := c.ensureApp(in.App); ok {
			return st
		}
		s = finish(fmt.Sprintf("Cannot do %q: no app on this phone (%s) does it", task, strings.Join(simApps, ", ")),
			"This task is outside what the apps on this phone can do.")
	}
	if c.naive && !s.finish && c.count("Tap") > 0 && (recovery(s) || in.Kind == kindToggle) {
		// A naive executor trusts its last tap: it does not notice that
		// the tap missed, and reports the task done.
		return finish("Done: "+task, "My taps went through, so the task is done.")
	}
	if c.noted("finish now") && !s.finish {
		return finish(fmt.Sprintf("Stopped before %q was done: too many turns", task),
			"The system asks me to stop now; I report where I am.")
	}
	// Never repeat an action that just failed or that the system saw had no
	// effect: go back instead.
	if (c.isErr() || c.noted("stuck")) && !s.finish && s.action == strings.TrimSpace(c.obs.PrevAction) {
		if sug, ok := c.suggested(); ok && sug != s.action {
			return step{think: "I was told I am stuck and to try " + sug + " instead; I do that.", action: sug}
		}
		if s.action == `do(action="Back")` {
			return finish(fmt.Sprintf("Gave up: %s", c.obs.PrevResult), "Even going back failed; I stop here.")
		}
		return back(fmt.Sprintf("The previous action failed (%s); I go back and try another way instead of repeating it.", c.obs.PrevResult))
	}
	return s
}

// systemWindow gets past what the phone put over the app by itself, as a
// person would: a swipe up on the keyguard, the dismissing button of a
// system dialog, a flick up on a heads-up banner.
func (c *solver) systemWindow() (step, bool) {
	if c.byID("keyguard_indication_text") != nil {
		return step{think: "The phone is locked and shows its keyguard; I swipe up to unlock it.",
			action: `do(action="Swipe", start=[500,850], end=[500,300])`}, true
	}
	if t, no := c.byID("alertTitle"), c.byID("button2"); t != nil && no != nil {
		return tapAt(*no, fmt.Sprintf("A system dialog (%q) has the focus; I close it with %q and go on.", t.Text, no.Text)), true
	}
	if b := c.byID("expandableNotificationRow"); b != nil {
		return step{think: fmt.Sprintf("A notification from %s covers the top of the screen; I flick it away.", b.Text),
			action: fmt.Sprintf(`do(action="Swipe", start=[%d,%d], end=[%d,%d])`, b.At[0], b.At[1], b.At[0], max(b.At[1]-60, 0))}, true
	}
	return step{}, false
}

// recovery reports a step that undoes or searches: Back, Home, a swipe.
func recovery(s step) bool {
	return strings.Contains(s.action, `"Back"`) || strings.Contains(s.action, `"Home"`) || strings.Contains(s.action, `"Swipe"`)
}

var namedAppRe = regexp.MustCompile(`(?i)\b(?:in|on|with|using|from|via|open|launch)\s+(?:the\s+|my\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)\s+app\b|(?:在|用|打开)([\p{Han}A-Za-z]+?)(?:应用|App|app)`)

// namedApp returns an app the task names that the phone does not have
// ("in the travel app", "open WeChat"), or "".
func namedApp(task, app string) string {
	if m := missingApp(app); m != "" && m != "Launcher" {
		return m
	}
	if m := namedAppRe.FindStringSubmatch(task); m != nil {
		name := firstNonEmpty(m[1], m[2])
		if _, ok := packages[name]; ok {
			return ""
		}
		if a, ok := apps[strings.ToLower(name)]; ok && a != "" {
			return ""
		}
		return name
	}
	return ""
}

// allListed reports a screen whose whole list is visible (nothing scrolls),
// so what is not listed does not exist.
func (c *solver) allListed() bool {
	for _, l := range c.obs.Elems {
		if l.Scrollable {
			return false
		}
	}
	return len(c.obs.Elems) > 0
}

func (c *solver) open(in intent) step {
	if in.App == "Launcher" && !c.inApp("Launcher") {
		return home("The task asks for the home screen; I press Home.")
	}
	if st, ok := c.ensureApp(in.App); ok {
		return st
	}
	return finish(in.App+" is open", fmt.Sprintf("%s is in the foreground; the task is done.", in.App))
}

var switchIDs = map[string]string{"Wi-Fi": "wifi_switch", "Bluetooth": "bluetooth_switch", "Airplane mode": "airplane_switch"}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (c *solver) settingsSwitch(name string) *uitree.Listed {
	if l := c.byID(switchIDs[name]); l != nil {
		return l
	}
	if l := c.byText(name); l != nil && l.Checkable {
		return l
	}
	return nil
}

// leaveSubpage goes back from a Settings page that is not the main list.
func (c *solver) onAboutPage() bool {
	return c.byPrefix("Android version") != nil || c.byPrefix("Build number") != nil
}

func (c *solver) toggle(in intent) step {
	if st, ok := c.ensureApp("Settings"); ok {
		return st
	}
	sw := c.settingsSwitch(in.Setting)
	if sw == nil {
		if c.onSubpage() {
			return back("This is a Settings sub-page; the switches are on the main Settings list.")
		}
		return c.scroll(false, in.Setting)
	}
	if sw.Checked == in.On {
		return finish(fmt.Sprintf("%s is %s", in.Setting, onOff(in.On)),
			fmt.Sprintf("The %s switch is %s, as asked.", in.Setting, onOff(sw.Checked)))
	}
	return tapAt(*sw, fmt.Sprintf("The %s switch is %s; I tap its row to turn it %s.", in.Setting, onOff(sw.Checked), onOff(in.On)))
}

var pctRe = regexp.MustCompile(`(\d{1,3})\s*%`)

func (c *solver) brightness(in intent) step {
	if st, ok := c.ensureApp("Settings"); ok {
		return st
	}
	val := c.byID("brightness_value")
	if val == nil {
		val = c.byPrefix("Brightness ")
	}
	up, down := c.byID("brightness_up"), c.byID("brightness_down")
	if up == nil {
		up = c.byText("+")
	}
	if down == nil {
		down = c.byText("-")
	}
	if val == nil || up == nil || down == nil {
		if c.onSubpage() {
			return back("The brightness controls are on the main Settings list.")
		}
		return c.scroll(false, "the brightness controls")
	}
	m := pctRe.FindStringSubmatch(val.Text)
	if m == nil {
		return finish("Could not read the brightness from "+strconv.Quote(val.Text), "The brightness label has no percentage.")
	}
	pct, _ := strconv.Atoi(m[1])
	if in.Target >= 0 {
		switch {
		case pct == in.Target:
			return finish(fmt.Sprintf("Brightness is %d%%", pct), "The brightness is at the wanted level.")
		case pct < in.Target:
			return tapAt(*up, fmt.Sprintf("Brightness is %d%%, below %d%%; I tap +.", pct, in.Target))
		default:
			return tapAt(*down, fmt.Sprintf("Brightness is %d%%, above %d%%; I tap -.", pct, in.Target))
		}
	}
	btn, word := up, "up"
	if in.Step < 0 {
		btn, word = down, "down"
	}
	if c.prevTapAt(btn) || (in.Step > 0 && pct >= 100) || (in.Step < 0 && pct <= 0) {
		return finish(fmt.Sprintf("Brightness is %d%%", pct), fmt.Sprintf("Brightness went %s; it is now %d%%.", word, pct))
	}
	return tapAt(*btn, fmt.Sprintf("Brightness is %d%%; I tap %s once to turn it %s.", pct, btn.Text, word))
}

func (c *solver) message(in intent) step {
	if in.To == "" || in.Text == "" {
		return finish("Cannot send the message: the task does not say "+map[bool]string{true: "who to send it to", false: "what it should say"}[in.To == ""],
			"The task lacks a recipient or a text; the planner should ask the user.")
	}
	if st, ok := c.ensureApp("Messages"); ok {
		return st
	}
	compose := c.byID("compose_message_text")
	if compose == nil {
		compose = c.byClass("EditText")
	}
	if compose != nil {
		if c.person(in.To, false) == nil {
			return back(fmt.Sprintf("This conversation is not with %s; I go back to the list.", in.To))
		}
		send := c.byID("send_button")
		if send == nil {
			send = c.byText("Send")
		}
		if send == nil {
			return finish("Cannot send: no Send button on the conversation screen", "The conversation has no Send button.")
		}
		if c.prevTapAt(send) || (compose.Text == "" && c.byText(in.Text) != nil && c.sentIt(send, in.Text)) {
			return finish(fmt.Sprintf("Sent %q to %s", in.Text, in.To), "The message was sent and the field is empty again.")
		}
		if compose.Text == in.Text {
			return tapAt(*send, "The text is in the field; I tap Send.")
		}
		if c.focused(compose) && !c.prevIs("Type") {
			return typeText(in.Text, "The message field has the focus; I type the text.")
		}
		return tapAt(*compose, "I tap the message field to focus it.")
	}
	if row := c.person(in.To, true); row != nil {
		return tapAt(*row, fmt.Sprintf("%s is listed; I open the conversation.", row.Text))
	}
	if start := c.byText("Start chat"); start != nil {
		return tapAt(*start, fmt.Sprintf("There is no conversation with %s yet; I tap Start chat.", in.To))
	}
	if c.byText("New conversation") != nil && c.allListed() {
		return finish(fmt.Sprintf("Cannot send the message: there is no contact named %s on this phone", in.To),
			fmt.Sprintf("Every contact is listed and %s is not among them.", in.To))
	}
	return c.scroll(true, in.To)
}

func (c *solver) prevIs(name string) bool {
	p, ok := c.prev()
	return ok && p.Name == name
}

func (c *solver) alarm(in intent) step {
	if in.Time == "" {
		return finish("Cannot create the alarm: the task gives no time", "The task lacks a time; the planner should ask the user.")
	}
	if st, ok := c.ensureApp("Clock"); ok {
		return st
	}
	timeF := c.byID("alarm_time")
	if timeF != nil {
		labelF, save := c.byID("alarm_label"), c.byID("save_button")
		if save == nil {
			save = c.byText("Save")
		}
		switch {
		case value(timeF) != in.Time && c.focused(timeF) && !c.prevIs("Type"):
			return typeText(in.Time, "The time field has the focus; I type the time.")
		case value(timeF) != in.Time:
			return tapAt(*timeF, "I tap the time field to enter "+in.Time+".")
		case in.Label != "" && labelF != nil && value(labelF) != in.Label && c.focused(labelF) && !c.prevIs("Type"):
			return typeText(in.Label, "The label field has the focus; I type the label.")
		case in.Label != "" && labelF != nil && value(labelF) != in.Label:
			return tapAt(*labelF, "I tap the label field.")
		case save != nil:
			return tapAt(*save, "Time and label are filled in; I save the alarm.")
		}
		return back("The new alarm page has no Save button; I go back.")
	}
	if add := c.byText("Add alarm"); add != nil {
		saved := c.typed(in.Time) && (in.Label == "" || c.typed(in.Label)) && c.prevIs("Tap") && !c.isErr()
		if c.typed(in.Time) && c.alarmRow(in.Time, in.Label) != nil || saved {
			msg := "Alarm set for " + in.Time
			if in.Label != "" {
				msg += " (" + in.Label + ")"
			}
			return finish(msg, "The new alarm is in the list.")
		}
		return tapAt(*add, "I tap Add alarm to create a new alarm.")
	}
	return back("This is not the alarm list; I go back.")
}

func (c *solver) alarmRow(hhmm, label string) *uitree.Listed {
	for i, l := range c.obs.Elems {
		if strings.HasPrefix(l.Text, hhmm) && (label == "" || strings.Contains(l.Text, label)) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

func (c *solver) note(in intent) step {
	if in.Title == "" && in.Body == "" {
		return finish("Cannot write the note: the task does not say what it should contain", "The task lacks the note's text.")
	}
	if st, ok := c.ensureApp("Notes"); ok {
		return st
	}
	titleF, bodyF := c.byID("note_title"), c.byID("note_body")
	if titleF != nil && bodyF != nil {
		save := c.byID("save_button")
		if save == nil {
			save = c.byText("Save")
		}
		if c.prevTapAt(save) {
			return finish(fmt.Sprintf("Saved the note %q", firstNonEmpty(value(titleF), in.Title)), "The note is saved.")
		}
		title, body := value(titleF), value(bodyF)
		// A wrong tap may have opened another note: leave it untouched.
		existing := c.byText("Edit note") != nil
		if existing && !strings.EqualFold(title, in.Title) || !existing && in.Edit {
			return back(fmt.Sprintf("This editor holds %q, not the note I need; I go back without changing it.", firstNonEmpty(title, "a new note")))
		}
		wantBody := in.Body
		if in.Append {
			wantBody = body
			if !strings.Contains(body, in.Body) {
				wantBody = strings.TrimSpace(body + " " + in.Body)
			}
		}
		switch {
		case !in.Edit && title != in.Title && c.focused(titleF) && !c.prevIs("Type"):
			return typeText(in.Title, "The title field has the focus; I type the title.")
		case !in.Edit && title != in.Title:
			return tapAt(*titleF, "I tap the title field.")
		case wantBody != "" && body != wantBody && c.focused(bodyF) && !c.prevIs("Type"):
			return typeText(wantBody, "The body field has the focus; I type the text.")
		case wantBody != "" && body != wantBody:
			return tapAt(*bodyF, "I tap the body field.")
		case save != nil:
			return tapAt(*save, "The note reads as wanted; I save it.")
		}
		return back("The editor has no Save button; I go back.")
	}
	if newBtn := c.byText("New note"); newBtn != nil {
		row := c.byText(in.Title)
		if in.Edit && c.count("Type") > 0 && row != nil {
			return finish(fmt.Sprintf("Saved the note %q", in.Title), "The note is in the list.")
		}
		if !in.Edit && row == nil && c.typed(in.Title) && (in.Body == "" || c.typed(in.Body)) && c.prevIs("Tap") && !c.isErr() {
			// Saved from the editor just now: the list puts the new note
			// where the app keeps it, maybe below the rows on screen.
			return finish(fmt.Sprintf("Saved the note %q", in.Title), "I saved the note and the editor closed; the list may show it below the visible rows.")
		}
		if !in.Edit && row != nil && c.typed(in.Title) {
			if in.Body == "" || c.typed(in.Body) {
				return finish(fmt.Sprintf("Saved the note %q", in.Title), "The note is in the list.")
			}
			return tapAt(*row, fmt.Sprintf("The note %q was saved before its text was in; I open it again to finish it.", in.Title))
		}
		if in.Edit {
			if row := c.byText(in.Title); row != nil {
				return tapAt(*row, fmt.Sprintf("I open the note %q.", in.Title))
			}
			return c.scroll(true, "the note "+strconv.Quote(in.Title))
		}
		return tapAt(*newBtn, "I tap New note.")
	}
	return back("This is not the notes list; I go back.")
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var (
	clockRe = regexp.MustCompile(`^(\d{1,2}:\d{2})\b`)
	phoneRe = regexp.MustCompile(`^\+?[\d][\d\s()\-]{5,}$`)
)

func (c *solver) read(in intent) step {
	if st, ok := c.ensureApp(in.App); ok {
		return st
	}
	switch in.What {
	case "Android version", "Build number", "Model":
		if l := c.byPrefix(in.What + ":"); l != nil {
			return finish(l.Text, fmt.Sprintf("The About phone page shows %q.", l.Text))
		}
		if about := c.byText("About phone"); about != nil && about.Clickable {
			return tapAt(*about, "About phone is listed; I open it.")
		}
		if c.onSubpage() {
			return back("This page does not show " + in.What + "; I go back to the Settings list.")
		}
		return c.scroll(true, "About phone")
	case "alarm time", "alarm label", "alarm state":
		return c.readAlarm(in)
	case "note body", "note title":
		return c.readNote(in)
	case "first alarm":
		if c.byID("alarm_time") != nil {
			return back("This is the new alarm page; the alarms are on the list.")
		}
		for _, l := range c.obs.Elems {
			if m := clockRe.FindStringSubmatch(l.Text); m != nil {
				return finish(m[1], fmt.Sprintf("The first alarm row is %q.", l.Text))
			}
		}
		return finish("There are no alarms", "The alarm list is empty.")
	case "phone":
		if in.Contact == "" {
			return finish("Cannot read a phone number: the task does not say whose", "The task names no contact.")
		}
		if c.person(in.Contact, false) != nil {
			for _, l := range c.obs.Elems {
				if phoneRe.MatchString(strings.TrimSpace(l.Text)) {
					return finish(l.Text, fmt.Sprintf("%s's number is shown.", in.Contact))
				}
			}
		}
		if row := c.person(in.Contact, true); row != nil {
			return tapAt(*row, fmt.Sprintf("I open %s's contact page.", row.Text))
		}
		if c.byText("Message") != nil {
			return back("This is another contact's page; I go back to the list.")
		}
		if c.byText("Contacts") != nil && c.allListed() {
			return finish(fmt.Sprintf("Cannot read the number: there is no contact named %s on this phone", in.Contact),
				fmt.Sprintf("Every contact is listed and %s is not among them.", in.Contact))
		}
		return c.scroll(true, in.Contact)
	case "latest message":
		return c.readLatestMessage(in.Contact)
	case "brightness":
		if l := c.byID("brightness_value"); l != nil {
			return finish(l.Text, "The brightness row shows the value.")
		}
		if c.onSubpage() {
			return back("The brightness row is on the main Settings list.")
		}
		return c.scroll(false, "the brightness row")
	case "Wi-Fi", "Bluetooth", "Airplane mode":
		if sw := c.settingsSwitch(in.What); sw != nil {
			return finish(fmt.Sprintf("%s is %s", in.What, onOff(sw.Checked)), "The switch shows the state.")
		}
		if c.onSubpage() {
			return back("The switches are on the main Settings list.")
		}
		return c.scroll(false, in.What)
	}
	what := strings.ToLower(in.What)
	for _, l := range c.obs.Elems {
		if what != "" && l.Text != "" && (strings.Contains(strings.ToLower(l.Text), what) || strings.Contains(what, strings.ToLower(l.Text)) && len(l.Text) > 3) {
			return finish(l.Text, fmt.Sprintf("The screen shows %q.", l.Text))
		}
	}
	if c.count("Swipe") < maxScrolls && len(c.obs.Elems) > 0 {
		return c.scroll(true, in.What)
	}
	return finish(fmt.Sprintf("Could not find %s", in.What), "Nothing on the screen matches what I should read.")
}

// readLatestMessage opens the conversation with who and answers with the
// newest message they sent (the last bubble marked Received).
func (c *solver) readLatestMessage(who string) step {
	compose := c.byID("compose_message_text")
	if compose == nil {
		compose = c.byClass("EditText")
	}
	if compose != nil {
		if c.person(who, false) == nil {
			return back(fmt.Sprintf("This conversation is not with %s; I go back to the list.", who))
		}
		var last *uitree.Listed
		for i, l := range c.obs.Elems {
			if l.Desc == "Received" && l.Text != "" {
				last = &c.obs.Elems[i]
			}
		}
		if last == nil {
			return finish(fmt.Sprintf("%s has sent no messages in this conversation", who), "The conversation shows no received message.")
		}
		return finish(last.Text, fmt.Sprintf("The newest message from %s reads %q.", who, last.Text))
	}
	if row := c.person(who, true); row != nil {
		return tapAt(*row, fmt.Sprintf("%s is listed; I open the conversation.", row.Text))
	}
	if c.byText("New conversation") != nil && c.allListed() {
		return finish(fmt.Sprintf("Cannot read the message: there is no conversation with %s on this phone", who),
			fmt.Sprintf("Every conversation is listed and none is with %s.", who))
	}
	return c.scroll(true, who)
}

// bankPasswordRe and bankCodeRe read a bank task that brings its own
// secret: "Sign in to the Bank with the password hunter2", "Enter the
// code 482913 in the Bank app".
var (
	bankPasswordRe = regexp.MustCompile(`(?i)(?:password|密码)(?:\s+is)?[\s:：]*["'“]?([A-Za-z0-9!@#$%^&*._+-]+)`)
	bankCodeRe     = regexp.MustCompile(`(?:^|[^\d])(\d{4,8})(?:[^\d]|$)`)
)

func (c *solver) bank(task string) step {
	if st, ok := c.ensureApp("Bank"); ok {
		return st
	}
	if m := bankCodeRe.FindStringSubmatch(task); m != nil && c.byID("sms_code") != nil || c.byText("Signed in") != nil {
		return c.bankCode(m)
	}
	if m := bankPasswordRe.FindStringSubmatch(task); m != nil {
		return c.bankPassword(m[1])
	}
	if c.tookOver() {
		return finish("The user took over the bank app", "The user has handled the bank app themselves.")
	}
	if tapWordRe.MatchString(task) {
		if b := c.byText("Sign in"); b != nil && b.Clickable {
			return tapAt(*b, "I tap Sign in; this needs the user's approval.")
		}
		if p, ok := c.prev(); ok && p.Name == "Tap" && !c.isErr() {
			return finish("Tapped Sign in", "The Sign in button is gone: the bank asks for the password now.")
		}
	}
	return takeOver("Please sign in to the bank app yourself", "Banking needs the user's own credentials; I hand over to the user.")
}

func (c *solver) tapLabel(in intent) step {
	if st, ok := c.ensureApp(in.App); ok && in.App != "" {
		return st
	}
	// What can be tapped comes first: a page is often titled like the
	// button that opened it, and the title is not the button.
	find := func(tappable, exact bool) *uitree.Listed {
		for i, e := range c.obs.Elems {
			if tappable && !e.Clickable {
				continue
			}
			if strings.EqualFold(e.Text, in.TapTarget) || !exact && (strings.EqualFold(e.Desc, in.TapTarget) || strings.Contains(strings.ToLower(e.Text), strings.ToLower(in.TapTarget))) {
				return &c.obs.Elems[i]
			}
		}
		return nil
	}
	tapped := c.prevIs("Tap") && c.count("Tap") > 0 && !c.isErr()
	l := find(true, true)
	if l == nil {
		l = find(true, false)
	}
	if l == nil && tapped {
		return finish("Tapped "+in.TapTarget, "The tap went through: nothing I can tap is named so any more.")
	}
	if l == nil {
		l = find(false, false)
	}
	if l == nil {
		return c.scroll(true, strconv.Quote(in.TapTarget))
	}
	if c.prevTapAt(l) || tapped && find(true, true) == nil {
		return finish("Tapped "+in.TapTarget, "The tap went through.")
	}
	return tapAt(*l, fmt.Sprintf("I tap %q.", l.Text))
}

// donePrefix starts the Note a single-loop run writes when a clause is done.
const donePrefix = "Done "

// decide answers one executor request. A task of one clause is solved
// directly. A task of several clauses (single-loop mode) is worked through
// in order: each finished clause is recorded with a Note action
// "Done i/n: <result>" and the Notes found in the earlier turns say which
// clause is current and what the earlier ones returned.
func decide(msgs []message, naive bool) step {
	return decideMisreading(msgs, naive, nil)
}

// decideMisreading is decide with the task first passed through misread
// (nil: read as written).
func decideMisreading(msgs []message, naive bool, misread func(string) string) step {
	// The newest user message that states a task: a correction appended
	// after an unusable answer has none of its own.
	var last string
	n := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && (last == "" || strings.Contains(msgs[i].Text, "Task:")) {
			last, n = msgs[i].Text, i
			if strings.Contains(last, "Task:") {
				break
			}
		}
	}
	obs := parseObservation(last)
	hist := history(msgs[:n])
	if o, h, ok := glmRequest(msgs); ok {
		obs, hist = o, h
	}
	if misread != nil {
		obs.Task = misread(obs.Task)
	}
	return decideOn(obs, hist, naive)
}

// decideOn answers for an observation and the actions taken before it,
// whichever layout they were read from.
func decideOn(obs observation, hist []act, naive bool) step {
	if obs.Task == "" {
		return finish("No task given", "The request has no Task line, so there is nothing to do.")
	}
	clauses := SplitGoal(obs.Task)
	if len(clauses) <= 1 {
		c := &solver{obs: obs, hist: hist, naive: naive}
		return c.solve(obs.Task)
	}
	var results []string
	start := 0
	for i, a := range hist {
		if a.Name == "Note" && strings.HasPrefix(a.Message, donePrefix) {
			_, r, _ := strings.Cut(a.Message, ": ")
			results = append(results, r)
			start = i + 1
		}
	}
	// The workflow also keeps noted results among the request's notes
	// ("Noted: Done 1/2: 07:00"), which survive a reset of the history.
	if fromNotes := doneFromNotes(obs.Notes, len(clauses)); len(fromNotes) > len(results) {
		results, start = fromNotes, len(hist)
	}
	idx := len(results)
	if idx >= len(clauses) {
		return finish(strings.Join(results, "; "), "Every part of the goal is done.")
	}
	clause := clauses[idx]
	if idx > 0 && hasPlaceholder(clause) {
		clause = substitute(clause, results[idx-1])
	}
	c := &solver{obs: obs, hist: hist[start:], naive: naive}
	if p, ok := parseAct(c.obs.PrevAction); ok && p.Name == "Note" {
		// The Note closed the previous clause; it is not this clause's action.
		c.obs.PrevAction, c.obs.PrevResult = "", ""
	}
	s := c.solve(clause)
	s.think = fmt.Sprintf("Part %d of %d: %s. %s", idx+1, len(clauses), clause, s.think)
	if !s.finish {
		return s
	}
	if idx < len(clauses)-1 {
		return note(fmt.Sprintf("%s%d/%d: %s", donePrefix, idx+1, len(clauses), s.result), s.think+" This part is done; I note its result and go on.")
	}
	return finish(strings.Join(append(results, s.result), "; "), s.think+" That was the last part.")
}

var doneNoteRe = regexp.MustCompile(`Done (\d+)/(\d+): (.*)$`)

// doneFromNotes collects the results of finished clauses from notes such as
// "Noted: Done 1/2: 07:00", in clause order, stopping at the first gap.
func doneFromNotes(notes []string, n int) []string {
	byIdx := map[int]string{}
	for _, note := range notes {
		m := doneNoteRe.FindStringSubmatch(note)
		if m == nil || m[2] != strconv.Itoa(n) {
			continue
		}
		i, _ := strconv.Atoi(m[1])
		byIdx[i] = m[3]
	}
	var out []string
	for i := 1; ; i++ {
		r, ok := byIdx[i]
		if !ok {
			return out
		}
		out = append(out, r)
	}
}

func (s *Server) executorAnswer(msgs []message, f faults) string {
	if f.malformed {
		s.count(func(st *Stats) { st.Malformed++ })
		return malformedExecutor(f.variant)
	}
	var mis func(string) string
	if s.cfg.RateMisread > 0 {
		mis = func(task string) string {
			v, ok := misreads(s.cfg.Seed, s.cfg.RateMisread, task)
			if !ok {
				return task
			}
			if out := misread(task, v); out != task {
				s.count(func(st *Stats) { st.Misreads++ })
				return out
			}
			return task
		}
	}
	// A naive persona told by its guidance to check each tap does.
	st := decideMisreading(msgs, s.cfg.Naive && !heedsTapCheck(msgs), mis)
	answer := "<think>" + st.think + "</think><answer>" + st.action + "</answer>"
	if f.wrongTap {
		p := f.tap
		if a, ok := parseAct(st.action); ok && a.Point != nil && abs(a.Point[0]-p[0]) < 150 && abs(a.Point[1]-p[1]) < 80 {
			p[1] = (p[1]+400)%850 + 100 // keep it on screen but away from the right element
		}
		if wrong, ok := wrongTap(answer, p); ok {
			s.count(func(st *Stats) { st.WrongTaps++ })
			return wrong
		}
	}
	return answer
}

// Patterns used by the functions above.
var (
	tapWordRe = regexp.MustCompile(`(?i)\b(?:tap|click|press)\b`)
)

// bankPassword signs in with a password the task gives: Sign in, the
// password typed, Continue; done once the bank asks for its SMS code.
func (c *solver) bankPassword(pw string) step {
	if c.byID("sms_code") != nil {
		return finish("Signed in with the password; the bank sent a code by SMS", "The bank asks for the code it sent by SMS now.")
	}
	if b := c.byID("sign_in_button"); b != nil && b.Clickable {
		return tapAt(*b, "I tap Sign in; this needs the user's approval.")
	}
	field := c.byID("password")
	if field == nil {
		return takeOver("Please sign in to the bank app yourself", "I cannot find the bank's password field.")
	}
	switch {
	case value(field) != pw && c.focused(field) && !c.prevIs("Type"):
		return typeText(pw, "The password field has the focus; I type the password.")
	case value(field) != pw:
		return tapAt(*field, "I tap the password field.")
	}
	if b := c.byID("continue_button"); b != nil {
		return tapAt(*b, "The password is in; I tap Continue.")
	}
	return takeOver("Please sign in to the bank app yourself", "I cannot find the bank's Continue button.")
}

// bankCode enters the code the task gives on the bank's code page and
// verifies it; done once the bank shows the accounts.
func (c *solver) bankCode(m []string) step {
	if c.byText("Signed in") != nil {
		return finish("Signed in to the bank", "The bank shows the accounts: the code was accepted.")
	}
	if m == nil {
		return finish("Cannot enter the code: the task does not give it", "The task lacks the code.")
	}
	code, field := m[1], c.byID("sms_code")
	if c.byText("Wrong code") != nil && c.prevTapAt(c.byID("verify_button")) {
		return finish("The bank refused the code "+code, "The bank says the code is wrong.")
	}
	switch {
	case value(field) != code && c.focused(field) && !c.prevIs("Type"):
		return typeText(code, "The code field has the focus; I type the code from the SMS.")
	case value(field) != code:
		return tapAt(*field, "I tap the code field.")
	}
	if b := c.byID("verify_button"); b != nil {
		return tapAt(*b, "The code is in; I tap Verify.")
	}
	return finish("Cannot find the bank's Verify button", "The code page has no Verify button.")
}
