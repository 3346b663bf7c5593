package modelserver

import (
	"regexp"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
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
		o.Package = packageOf(o.App)
	}
	o.Elems = uitree.ParseList(text)
	for i := range o.Elems {
		o.Elems[i].Text, o.Elems[i].Desc = unmarked(o.Elems[i].Text), unmarked(o.Elems[i].Desc)
	}
	if o.App == "" && o.Package == "" {
		o.App = inferApp(o.Elems)
		o.Package = packageOf(o.App)
	}
	return o
}

// appMarkers are resource ids and texts that only one simulator app shows,
// used when the request does not name the foreground app.
var appMarkers = []struct{ app, id, text string }{
	{"Settings", "wifi_switch", "About phone"},
	{"Settings", "brightness_value", "Android version: 14"},
	// A Pixel's Settings: the main list's title and search bar, a
	// subpage's collapsing toolbar or main switch bar (Settings' own ids,
	// as hubfam-settings-wireless-debugging.xml and
	// siteblocker-settings-developer-options.xml show them).
	{"Settings", "homepage_title", "Search Settings"},
	{"Settings", "collapsing_toolbar", ""},
	{"Settings", "switch_bar", ""},
	{"Messages", "compose_message_text", "Start chat"},
	{"Messages", "send_button", "New conversation"},
	// MIUI 短信's and Samsung Messages' fields and lists.
	{"Messages", "embedded_text_editor", ""},
	{"Messages", "message_edit_text", ""},
	{"Messages", "action_compose_new", ""},
	{"Messages", "list_avatar_name", "Conversations"},
	{"Clock", "add_alarm", "Add alarm"},
	{"Clock", "alarm_time", "New alarm"},
	{"Clock", "digital_clock", ""}, // a Pixel's Google Clock list, its time picker's
	{"Clock", "alarm_recycler_view", ""},
	{"Notes", "new_note", "New note"},
	{"Notes", "note_title", "Edit note"},
	{"Notes", "new_note_button", ""}, // Google Keep's list, its editor's
	{"Notes", "editable_title", ""},
	{"Contacts", "phone_number", "Contacts"},
	{"Bank", "", "Sign in"},
}

// appName reports an app's name, or a name another launcher gives it
// (appLabels: 设置, 短信).
func appName(s string) bool {
	if _, ok := packages[s]; ok {
		return true
	}
	for _, ls := range appLabels {
		if slices.Contains(ls, s) {
			return true
		}
	}
	return false
}

// inferApp guesses the foreground app from the element list: the launcher
// when several app icons are listed, else the app whose marker is on
// screen, else "".
func inferApp(elems []uitree.Listed) string {
	icons := 0
	for _, l := range elems {
		// An icon writes the app's name and is described by it, or is
		// described by it with the name written inside (MIUI's icon, One
		// UI's clickable icon_container, rentacar-samsung-launcher-home.xml).
		if appName(l.Desc) && l.Clickable && (l.Text == l.Desc || l.Text == "") {
			icons++
		}
	}
	if icons >= 3 {
		return "Launcher"
	}
	for _, m := range appMarkers {
		for _, l := range elems {
			if m.id != "" && l.ID == m.id || m.text != "" && l.Text == m.text {
				return m.app
			}
		}
	}
	return ""
}

// unmarked is s without the invisible direction marks real apps wrap
// words in: Samsung Notes opens each line of a card with U+200E, Samsung
// Messages isolates a number with U+2068 and U+2069
// (internal/phonesim/testdata/real/SOURCES.md). A person reading the
// screen does not see them.
func unmarked(s string) string {
	if !strings.ContainsFunc(s, directionMark) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if directionMark(r) {
			return -1
		}
		return r
	}, s)
}

func directionMark(r rune) bool {
	return r == '\u200e' || r == '\u200f' || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
}
