package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A todo that only looks (docs/design.md §9, A todo that only looks) is one a
// goal runs before it ends done, to see again a state an earlier todo set:
// the persona opens the screen that shows the switch, or the list of the
// app the task names that would hold the item gone, and finishes saying
// what it sees. It never
// taps a switch and never types; the Step would refuse it if it did.

var (
	// lookRe is a look todo's task as the goal writes it: what it looks
	// at, then the app it lives in ("… is gone from Notes", "… is on in
	// Clock"), or, as goals wrote it before they named the app, what the
	// earlier todo did ("(todo 2 did: …)").
	lookRe = regexp.MustCompile(`(?is)^\s*look again, changing nothing, whether ((?:(?:the|a)\s+)?"(?:[^"\\]|\\.)*"\s+(?:switch is (?:on|off)|is gone))(?:\s+\(todo \d+ did: (.*)\))?(?:\s+(?:in|from)\s+(.+?))?: open the screen that (?:shows|lists) it, then finish\.?\s*$`)
	// lookSwitchRe and lookGoneRe are what it looks at: a switch's
	// state, or an item gone.
	lookSwitchRe = regexp.MustCompile(`(?is)^(?:the|a)\s+("(?:[^"\\]|\\.)*")\s+switch is (on|off)$`)
	lookGoneRe   = regexp.MustCompile(`(?is)^("(?:[^"\\]|\\.)*")\s+is gone$`)
	// clockLabelRe is a switch labelled by a time: an alarm's.
	clockLabelRe = regexp.MustCompile(`^\s*(\d{1,2})[:：](\d{2})\s*$`)
)

// lookTask is a parsed look todo.
type lookTask struct {
	Label string // the switch's label, or the item that is gone
	On    bool   // a switch: the state it should show
	Gone  bool   // an item gone, rather than a switch
	App   string // the app it lives in, "" when the task does not say
	Did   string // the earlier todo's text, in a task from before the app was named
}

// isLook reports a look todo's task.
func isLook(task string) bool { return lookRe.MatchString(task) }

// parseLook reads a look todo; false for another task.
func parseLook(task string) (lookTask, bool) {
	m := lookRe.FindStringSubmatch(task)
	if m == nil {
		return lookTask{}, false
	}
	l := lookTask{Did: strings.TrimSpace(m[2]), App: strings.TrimSpace(m[3])}
	if a, ok := apps[strings.ToLower(l.App)]; ok {
		l.App = a // a skin's name for it: 时钟, 笔记
	}
	what := strings.TrimSpace(m[1])
	var quoted string
	if s := lookSwitchRe.FindStringSubmatch(what); s != nil {
		quoted, l.On = s[1], strings.EqualFold(s[2], "on")
	} else if g := lookGoneRe.FindStringSubmatch(what); g != nil {
		quoted, l.Gone = g[1], true
	} else {
		return lookTask{}, false
	}
	label, err := strconv.Unquote(quoted)
	if err != nil {
		label = strings.Trim(quoted, `"`)
	}
	l.Label = strings.TrimSpace(label)
	return l, l.Label != ""
}

// lookSetting is the Settings switch a label names under any skin's name
// for it ("蓝牙", "WLAN", "Wi‑Fi", "Flight mode"), or "".
func lookSetting(label string) string {
	p := plain(strings.TrimSpace(label))
	for setting, names := range switchNames {
		for _, n := range append([]string{setting}, names...) {
			if p == plain(n) {
				return setting
			}
		}
	}
	switch p {
	case "wifi", "wi-fi", "无线", "无线网络", "wlan":
		return "Wi-Fi"
	case "airplane", "飞行模式":
		return "Airplane mode"
	}
	return ""
}

// look is the step of a look todo.
func (c *solver) look(l lookTask) step {
	if l.Gone {
		return c.lookGone(l)
	}
	if setting := lookSetting(l.Label); setting != "" {
		// Reading a switch opens the page that shows it on each skin and
		// taps nothing but the rows on the way.
		return c.read(intent{Kind: kindRead, What: setting, App: "Settings"})
	}
	if m := clockLabelRe.FindStringSubmatch(l.Label); m != nil {
		h, _ := strconv.Atoi(m[1])
		return c.readAlarm(intent{Kind: kindRead, App: "Clock", What: "alarm state", Time: fmt.Sprintf("%02d:%s", h, m[2])})
	}
	return c.lookSwitch(l)
}

// lookApp is the app a look happens in: the one its task names, else the
// one the earlier todo it quotes worked in, as the persona reads a todo,
// else fallback.
func lookApp(l lookTask, fallback string) string {
	if l.App != "" {
		return l.App
	}
	if did := l.Did; did != "" {
		if in := parseIntent(did); in.App != "" && in.App != "Launcher" {
			return in.App
		}
		if a := appIn(did); a != "" {
			return a
		}
	}
	return fallback
}

// lookSwitch looks for a switch the persona has no path to: in the app the
// task names (Settings when it does not say), by the words beside it,
// scrolling the list.
func (c *solver) lookSwitch(l lookTask) step {
	app := lookApp(l, "Settings")
	if st, ok := c.ensureApp(app); ok {
		return st
	}
	want := plain(l.Label)
	for _, ts := range titledSwitches(c.obs.Elems) {
		if ts.label == want {
			return finish(fmt.Sprintf("%s is %s", l.Label, onOff(ts.sw.Checked)), fmt.Sprintf("The switch beside %q shows the state.", l.Label))
		}
	}
	for _, e := range c.obs.Elems {
		if e.Checkable && plain(strings.TrimSpace(firstNonEmpty(e.Text, e.Desc))) == want {
			return finish(fmt.Sprintf("%s is %s", l.Label, onOff(e.Checked)), fmt.Sprintf("The %q switch shows the state.", l.Label))
		}
	}
	if c.count("Swipe") >= maxScrolls || c.allListed() {
		return finish(fmt.Sprintf("Could not find the %q switch", l.Label), fmt.Sprintf("No screen of %s I looked at shows it.", app))
	}
	return c.scroll(true, fmt.Sprintf("the %q switch", l.Label))
}

// lookGone opens the list of the app the task names and says whether the
// item is on it, scrolling the whole list before it says it is not.
func (c *solver) lookGone(l lookTask) step {
	app := lookApp(l, "")
	if app == "" {
		return finish(fmt.Sprintf("Could not look for %q: the task does not say which app listed it", l.Label), "The task names no app.")
	}
	if st, ok := c.ensureApp(app); ok {
		return st
	}
	if st, ok := c.toList(app); ok {
		return st
	}
	if e := c.listed(l.Label); e != nil {
		return finish(fmt.Sprintf("%q is still listed in %s", l.Label, app), fmt.Sprintf("The list shows %q.", e.Text))
	}
	if c.allListed() || c.trailing("Swipe") >= maxScrolls {
		return finish(fmt.Sprintf("%q is gone: %s does not list it", l.Label, app), fmt.Sprintf("I looked through the whole list of %s and %q is not on it.", app, l.Label))
	}
	return c.scroll(true, strconv.Quote(l.Label))
}

// toList is the step from an app's other screens to its list (a note's
// editor, a new alarm's page, a dialog), or false on the list.
func (c *solver) toList(app string) (step, bool) {
	switch app {
	case "Notes":
		if t, _ := c.noteFields(); t != nil || c.noteNewButton() == nil {
			return back("This is not the notes list; I go back to it without changing anything."), true
		}
	case "Clock":
		return c.alarmListStep()
	case "Messages":
		if c.messageField() != nil {
			return back("This is a conversation; I go back to the list of conversations."), true
		}
	}
	return step{}, false
}

// listed is the element of the list that shows item, never a field that
// holds its words.
func (c *solver) listed(item string) *uitree.Listed {
	want := strings.ToLower(strings.TrimSpace(item))
	for i, e := range c.obs.Elems {
		if e.Class == "EditText" {
			continue
		}
		for _, s := range []string{e.Text, e.Desc} {
			if strings.ToLower(strings.TrimSpace(s)) == want {
				return &c.obs.Elems[i]
			}
		}
	}
	return nil
}

// lookClaim is what the verifier judges of a look todo that looks at a
// Settings switch: the switch, under the name the skins share, in the
// state the todo names, as "Turn off Bluetooth" is judged; any other task
// as it is. A look for an item gone is judged by its words, which show no
// item: never done by the verifier's reading, only by the todo's
// postcondition.
func lookClaim(task string) string {
	l, ok := parseLook(task)
	if !ok || l.Gone {
		return task
	}
	if setting := lookSetting(l.Label); setting != "" {
		return fmt.Sprintf("Turn %s %s", onOff(l.On), setting)
	}
	return task
}
