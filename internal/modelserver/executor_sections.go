package modelserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A todo names a Settings page as AOSP titles it ("Tap Storage"); a
// phone's Settings may title it otherwise, in its vendor's words and its
// language: a Pixel's "Security & privacy", MIUI's 存储空间, One UI's
// "Sounds and vibration", or Storage a row of One UI's Device care. The
// persona knows those names as a model does (postcond.SectionNames, the
// names the planner's checks read the page by) and opens the page under
// any of them, from what the screen shows.

// sectionStep is the step towards the Settings page a tap todo names, and
// false when the target is no Settings page or the screen is not Settings.
func (c *solver) sectionStep(target string) (step, bool) {
	names := postcond.SectionNames(target)
	if names == nil || !c.inApp("Settings") {
		return step{}, false
	}
	named := func(s string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return plain(strings.TrimSpace(s)) == plain(n) })
	}
	if t := c.subpageTitle(); t != "" && named(t) {
		return finish("Tapped "+target, fmt.Sprintf("This page is titled %q, the phone's name for %s.", t, target)), true
	}
	if row := c.rowTitled(named); row != nil {
		if c.prevTapAt(row) {
			return finish(fmt.Sprintf("Could not open %s: tapping %q left the screen as it was", target, row.Text),
				fmt.Sprintf("I tapped %q and the page did not open.", row.Text)), true
		}
		return tapAt(*row, fmt.Sprintf("%q is this phone's name for %s; I open it.", row.Text, target)), true
	}
	if row, via := c.rowLeadingTo(named); row != nil {
		return tapAt(*row, fmt.Sprintf("No row is titled %s here, but %q lists %q: %s is inside it; I open it.", target, row.Text, via, target)), true
	}
	if c.subpageTitle() != "" {
		return back(fmt.Sprintf("This page (%q) is not %s and lists no row that leads there; I go back a page.", c.subpageTitle(), target)), true
	}
	return c.scroll(true, target), true // down the main list, from its top where Settings opens
}

// subpageTitle is the title of the Settings page on the screen when it is
// not the main list: a Pixel's or One UI's collapsing toolbar, MIUI's
// action bar, the classic page's title beside its Navigate up; "" on the
// main list.
func (c *solver) subpageTitle() string {
	if c.onSettingsHome() {
		return ""
	}
	if t := c.pageTitle(); t != "" {
		return t
	}
	for _, e := range c.obs.Elems {
		if e.Clickable && (e.Desc == "Navigate up" || e.Desc == "返回") {
			if t := c.byID("title"); t != nil && !t.Clickable {
				return t.Text
			}
		}
	}
	return ""
}

// rowTitled is a row on the screen whose title is a name, the page's own
// bar aside: a clickable one first.
func (c *solver) rowTitled(named func(string) bool) *uitree.Listed {
	title := c.subpageTitle()
	var found *uitree.Listed
	for i := range c.obs.Elems {
		e := &c.obs.Elems[i]
		if !named(e.Text) || title != "" && e.Text == title && !e.Clickable {
			continue
		}
		if e.Clickable {
			return e
		}
		if found == nil {
			found = e
		}
	}
	return found
}

// rowLeadingTo is a row whose summary lists a name as one of its parts
// (One UI's "Device care", "Storage  •  Memory  •  App protection"), with
// that part: the page is inside the row's.
func (c *solver) rowLeadingTo(named func(string) bool) (*uitree.Listed, string) {
	for i := range c.obs.Elems {
		s := &c.obs.Elems[i]
		if s.ID != "summary" {
			continue
		}
		for _, part := range strings.FieldsFunc(s.Text, func(r rune) bool { return r == '•' || r == ',' || r == '、' }) {
			if !named(part) {
				continue
			}
			for j := range c.obs.Elems {
				if t := &c.obs.Elems[j]; t.ID == "title" && c.summaryBelow(t) == s {
					return t, strings.TrimSpace(part)
				}
			}
		}
	}
	return nil, ""
}
