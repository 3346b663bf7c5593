package postcond

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Title is the screen's title as a person reads it
// (docs/design.md#verification-and-honest-status), or "": the text of an element whose
// resource ID is a title, at the top of the window, neither a control nor
// inside one, and outside any scrolling list (a list's rows, a notification, a card
// have titles of their own); else the text inside the app bar (a toolbar,
// action bar or top app bar container, as Compose apps with no IDs on
// their texts still name the container); else the description of an
// app-bar container that shows no text (a collapsing toolbar).
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
			if es[a].Clickable {
				return true
			}
		}
		return false
	}
	for i, e := range es {
		id := e.ShortID()
		if !inControl(i) && (id == "title" || strings.HasSuffix(id, "_title") || strings.HasSuffix(id, "toolbar_title")) && titled(e) && !inList(i) &&
			!e.Clickable && e.Bounds.Y1 < top {
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
	return ""
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
