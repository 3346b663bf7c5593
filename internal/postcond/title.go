package postcond

import (
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Title is the screen's title as a person reads it
// (docs/design.md#verification-and-honest-status), or "": the text of an element whose
// resource ID is a title (a dialog's alertTitle, a permission dialog's
// question, a conversation's contact name), at the top of the window or
// with no text of its window above it (a dialog, a bottom sheet), neither
// a control nor inside one, and outside any scrolling list (a list's rows,
// a notification, a card have titles of their own); else the text inside
// the app bar (a toolbar, action bar or top app bar container, as Compose
// apps with no IDs on their texts still name the container); else the
// description of an app-bar container that shows no text (a collapsing
// toolbar); else the largest text at the top of the window that is
// neither a control's nor a list's nor only a clock time or a number (the
// top bar of an app that names nothing, a caller's name above a call).
func Title(es []uitree.Element) string {
	l := newLayout(es)
	inList := func(i int) bool {
		for a := l.parent[i]; a >= 0; a = l.parent[a] {
			if es[a].Scrollable {
				return true
			}
		}
		return false
	}
	titled := func(e uitree.Element) bool {
		if e.IsField() || e.ShortClass() == "Button" || e.Bounds.X2 <= e.Bounds.X1 || e.Bounds.Y2 <= e.Bounds.Y1 {
			return false
		}
		lab, _ := labelForm(e.Text)
		return lab != ""
	}
	top := l.screen.Y1 + height(l.screen)/4 // a title is at the top: in the first quarter of the window
	inControl := func(i int) bool {         // a folder's or a card's title, tapped with it
		for a := l.parent[i]; a >= 0; a = l.parent[a] {
			if es[a].Clickable && l.mayBeRow(a) { // not a whole dialog tapped outside its buttons
				return true
			}
		}
		return false
	}
	// inButton: inside a control narrower than two thirds of the window
	// (a button, a tab, an icon), not a bar tapped as a whole.
	inButton := func(i int) bool {
		for a := l.parent[i]; a >= 0; a = l.parent[a] {
			if es[a].Clickable && l.mayBeRow(a) && 3*(es[a].Bounds.X2-es[a].Bounds.X1) < 2*(l.screen.X2-l.screen.X1) {
				return true
			}
		}
		return false
	}
	root := make([]int, len(es))
	for i := range es {
		root[i] = i
		if p := l.parent[i]; p >= 0 {
			root[i] = root[p]
		}
	}
	// nothingAbove: no text of es[i]'s window is above it (a dialog's or
	// a sheet's title, however far down the screen it opens).
	nothingAbove := func(i int) bool {
		for j, o := range es {
			if j != i && root[j] == root[i] && titled(o) && o.Bounds.Y2 <= es[i].Bounds.Y1 {
				return false
			}
		}
		return true
	}
	for i, e := range es {
		if !inControl(i) && titleID(e.ShortID()) && titled(e) && !e.Clickable && (!inList(i) && e.Bounds.Y1 < top || nothingAbove(i)) {
			return e.Text
		}
	}
	// A conversation's contact name: the header a person taps for the
	// contact's details, in the app bar or just below it; never a name
	// that heads each row of a list, scrolling or not (a conversation
	// list's conversation_name).
	ids := map[string]int{}
	for _, e := range es {
		ids[e.ResourceID]++
	}
	inListView := func(i int) bool {
		for a := l.parent[i]; a >= 0; a = l.parent[a] {
			if c := es[a].ShortClass(); strings.HasSuffix(c, "RecyclerView") || strings.HasSuffix(c, "ListView") || strings.HasSuffix(c, "GridView") {
				return true
			}
		}
		return false
	}
	for i, e := range es {
		if nameID(e.ShortID()) && titled(e) && !inList(i) && !inListView(i) && ids[e.ResourceID] == 1 && e.Bounds.Y1 < top {
			return e.Text
		}
	}
	for i, e := range es {
		if !titled(e) {
			continue
		}
		for a := l.parent[i]; a >= 0 && !es[a].Scrollable; a = l.parent[a] {
			if appBarID(es[a].ShortID()) && l.mayBeRow(a) {
				return e.Text
			}
		}
	}
	for i, e := range es {
		if appBarID(e.ShortID()) && e.Text == "" && e.Desc != "" && !e.Clickable && l.mayBeRow(i) {
			return e.Desc
		}
	}
	main := -1 // the app's window: the largest top-level one
	for i, e := range es {
		if l.parent[i] < 0 && e.Bounds == l.screen {
			main = i
			break
		}
	}
	best := -1
	for i, e := range es {
		// A card's text in a list, tapped with the card, names the card
		// (Keep's first note near the top of a short list), not the screen.
		// A text tapped on its own is a control's, unless it spans the
		// window as a header does (vivo's Settings title, tapped to
		// scroll its page back up).
		if root[i] != main || !titled(e) || inButton(i) || inControl(i) && inListView(i) || inList(i) || inStatus(l, i) || e.Clickable && !wideHeader(l, e) || e.Bounds.Y1 >= l.screen.Y1+height(l.screen)/5 || !wordsOnly(e.Text) {
			continue
		}
		if best < 0 || height(e.Bounds) > height(es[best].Bounds) {
			best = i
		}
	}
	if best >= 0 {
		return es[best].Text
	}
	return ""
}

// wideHeader reports a text that spans at least nine tenths of the
// window's width: a header, not a button or a tab.
func wideHeader(l *layout, e uitree.Element) bool {
	return 10*(e.Bounds.X2-e.Bounds.X1) >= 9*(l.screen.X2-l.screen.X1)
}

// titleID reports whether a resource ID names a title: "title",
// "alertTitle", "toolbar_title", "page_title_view", and the question a
// permission dialog asks; never a subtitle or a tab's title.
func titleID(id string) bool {
	id = strings.ToLower(id)
	if strings.Contains(id, "subtitle") || strings.Contains(id, "tab") {
		return false
	}
	return strings.HasSuffix(id, "title") || strings.Contains(id, "_title_") || id == "permission_message"
}

// statusID reports whether a resource ID names the phone's status shown
// at the top of a lock screen or a shade (its carrier, clock, date,
// battery), which titles nothing.
func statusID(id string) bool {
	id = strings.ToLower(id)
	for _, w := range []string{"status", "carrier", "operator", "clock", "date", "week", "time", "battery", "weather", "speed", "signal"} {
		if strings.Contains(id, w) {
			return true
		}
	}
	return false
}

// nameID reports whether a resource ID names the person a screen is
// with: a conversation's contact, a chat's other attendee, a caller.
func nameID(id string) bool {
	id = strings.ToLower(id)
	if !strings.HasSuffix(id, "name") {
		return false
	}
	for _, w := range []string{"contact", "attendee", "conversation", "caller", "recipient", "participant", "peer", "chat"} {
		if strings.Contains(id, w) {
			return true
		}
	}
	return false
}

// inStatus reports whether es[i] or a container around it shows the
// phone's status (a status bar's icons, its clock, a network speed).
func inStatus(l *layout, i int) bool {
	for a := i; a >= 0; a = l.parent[a] {
		if statusID(l.es[a].ShortID()) {
			return true
		}
	}
	return false
}

// wordsOnly reports whether a text has words, not only a clock time, a
// date's digits or a number (a call's timer, a counter).
func wordsOnly(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return wholeValue(TypeTime, strings.TrimSpace(s)) == ""
		}
	}
	return false
}

// appBarID reports whether a resource ID names a screen's app bar.
func appBarID(id string) bool {
	id = strings.ToLower(id)
	for _, x := range []string{"toolbar", "action_bar", "actionbar", "app_bar", "appbar", "title_row", "titlecontainer", "title_container", "title_bar", "titlebar"} {
		if strings.Contains(id, x) {
			return true
		}
	}
	return false
}
