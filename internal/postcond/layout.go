package postcond

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// layout reads a UI tree the way a person reads the screen it draws
// (docs/design.md#verification-and-honest-status): which texts make one
// list row, which words label a switch that shows none of its own. Real
// apps nest a row's title, summary and switch in one container; the
// simulator and some older apps lay a row's elements side by side in the
// list itself, where a row is the band of one line.
type layout struct {
	es     []uitree.Element
	parent []int
	end    []int         // end[i]: just past es[i]'s last descendant
	rowMax int           // the tallest a row container may be
	screen uitree.Bounds // the window the tree draws
}

func newLayout(es []uitree.Element) *layout {
	l := &layout{es: es, parent: uitree.Parents(es), end: make([]int, len(es))}
	for i := range es {
		l.end[i] = uitree.SubtreeEnd(es, i)
	}
	l.screen = windowBounds(es, l.parent)
	l.rowMax = max(height(l.screen)/4, 1)
	return l
}

// windowBounds is the screen a tree draws: its largest top-level window.
// A dump of several windows (the status bar's first, then the app's or a
// dialog's) is as tall as the app's window, not the status bar's.
func windowBounds(es []uitree.Element, parent []int) uitree.Bounds {
	var best uitree.Bounds
	area := func(b uitree.Bounds) int { return max(b.X2-b.X1, 0) * max(b.Y2-b.Y1, 0) }
	for i, e := range es {
		if parent[i] < 0 && area(e.Bounds) > area(best) {
			best = e.Bounds
		}
	}
	if area(best) == 0 {
		for _, e := range es {
			best.X2, best.Y2 = max(best.X2, e.Bounds.X2), max(best.Y2, e.Bounds.Y2)
		}
	}
	return best
}

func (l *layout) inside(i, a int) bool { return i > a && i < l.end[a] }

func height(b uitree.Bounds) int { return b.Y2 - b.Y1 }

// mayBeRow reports whether an ancestor can be one row: not a scrolling
// list, and no taller than a quarter of the screen, a third for a row
// tapped as a whole (a tile grid, a form, a dialog is more than one row).
func (l *layout) mayBeRow(a int) bool {
	e := l.es[a]
	h := height(e.Bounds)
	if e.Scrollable || h <= 0 {
		return false
	}
	// A row tapped as a whole may be taller (a long summary on a short
	// landscape screen).
	return h <= l.rowMax || e.Clickable && h <= l.rowMax*4/3
}

// otherSwitch reports whether the subtree of a holds a switch that is not
// i, nor one of i's ancestors or descendants: a container of two switches
// is not one switch's row.
func (l *layout) otherSwitch(a, i int) bool {
	for j := a; j < l.end[a]; j++ {
		if j == i || l.inside(j, i) || l.inside(i, j) {
			continue
		}
		if l.isSwitch(j) {
			return true
		}
	}
	return false
}

// isSwitch reports whether es[i] is a switch: checkable; a switch's class
// that shows a state without saying it is checkable (vivo's Settings
// Switch, checkable=false with checked=true or a description 开启/关闭);
// or a tile whose own words end with its state ("Bluetooth, On", "蓝牙
// 已开启").
func (l *layout) isSwitch(i int) bool {
	e := l.es[i]
	if e.Checkable {
		return true
	}
	if ToggleClass(e) && (e.Checked || saysState(e)) {
		return true
	}
	if !e.Clickable {
		return false
	}
	for _, s := range []string{e.Text, e.Desc} {
		if lab, st := labelForm(s); lab != "" && st >= 0 {
			return true
		}
	}
	n, _ := tileName(e.Desc)
	return n != ""
}

// rowOf returns the elements of the row es[i] is in: the container around
// it that holds other texts (a preference's title with its summary below,
// a tile's label with its state), or, in a flat list, the texts beside it
// on the same line among its siblings; never another control's words (a
// button's, a neighbouring icon's). es[i] itself comes first.
func (l *layout) rowOf(i int) []int {
	out := []int{i}
	if l.end[i] > i+1 && l.mayBeRow(i) { // a row or a tile that holds its texts
		for j := i + 1; j < l.end[i]; j++ {
			if l.es[j].Text != "" || l.es[j].Desc != "" {
				out = append(out, j)
			}
		}
		if len(out) > 1 {
			return out
		}
	}
	// A control (a tab, an icon) is a row of its own: only its own words;
	// but an alarm's time is its card's title even where a tap on it
	// opens the time (Google Clock's digital_clock is clickable).
	for a := l.parent[i]; a >= 0 && (!l.control(i) || l.timeText(i)); a = l.parent[a] {
		if !l.mayBeRow(a) || l.otherRow(a, i) {
			break
		}
		var texts []int
		for j := a; j < l.end[a]; j++ {
			if j != i && !l.inside(j, i) && l.es[j].Text != "" && !l.control(j) {
				texts = append(texts, j)
			}
		}
		if len(texts) > 0 && l.onLine(i, texts) && l.parent[a] >= 0 {
			// A title's line (a notification's title with its time): the
			// row is the container around the line too, with the text
			// below it, unless that holds another row's title.
			if b := l.parent[a]; l.mayBeRow(b) && !l.otherRow(b, i) && !l.otherTitle(b, i) {
				var more []int
				for j := b; j < l.end[b]; j++ {
					if j != i && !l.inside(j, i) && l.es[j].Text != "" && !l.control(j) && !l.inside(j, a) && j != a {
						more = append(more, j)
					}
				}
				texts = append(texts, more...)
			}
		}
		if len(texts) > 0 {
			return append(out, texts...)
		}
	}
	// A flat list: the siblings on the same line.
	e := l.es[i]
	for j, o := range l.es {
		if j == i || l.parent[j] != l.parent[i] || o.Text == "" || l.control(j) || l.end[j] > j+1 || l.isSwitch(j) ||
			o.Bounds.Y1 >= e.Bounds.Y2 || o.Bounds.Y2 <= e.Bounds.Y1 {
			continue
		}
		if height(o.Bounds) > 3*height(e.Bounds)+1 {
			continue // a container, not a neighbour
		}
		out = append(out, j)
	}
	return out
}

// onLine reports whether every element of js is on es[i]'s line.
func (l *layout) onLine(i int, js []int) bool {
	e := l.es[i].Bounds
	for _, j := range js {
		if o := l.es[j].Bounds; o.Y1 >= e.Y2 || o.Y2 <= e.Y1 {
			return false
		}
	}
	return true
}

// otherTitle reports whether the subtree of a holds a text other than
// es[i] with es[i]'s resource ID: a second row's title, so a is a list.
func (l *layout) otherTitle(a, i int) bool {
	id := l.es[i].ResourceID
	for j := a; j < l.end[a]; j++ {
		if j != i && id != "" && l.es[j].ResourceID == id && l.es[j].Text != "" {
			return true
		}
	}
	return false
}

// timeText reports whether es[i] shows a clock time alone ("7:30 AM",
// "5:30\u200aPM").
func (l *layout) timeText(i int) bool {
	return wholeValue(TypeTime, strings.TrimSpace(l.es[i].Text)) != ""
}

// control reports whether es[j] is a control of its own, whose words are
// its label and not what a row shows: a button, an icon in a grid, a
// tab, a switch.
func (l *layout) control(j int) bool {
	e := l.es[j]
	return e.Clickable || e.ShortClass() == "Button" || l.isSwitch(j)
}

// otherRow reports whether the subtree of a holds a row of its own that
// es[i] is not in: a switch, unrelated to es[i], with words of its own (a
// neighbouring tile, a Compose toggle row). A row's own widget switch,
// which shows no words, is part of the row.
func (l *layout) otherRow(a, i int) bool {
	for j := a; j < l.end[a]; j++ {
		if j == i || l.inside(j, i) || l.inside(i, j) || !l.isSwitch(j) {
			continue
		}
		for k := j; k < l.end[j]; k++ {
			for _, w := range []string{l.es[k].Text, l.es[k].Desc} {
				// Not only its state ("关闭"), nor the time es[i] shows
				// (Google Clock describes an alarm's switch "5:30 AM
				// alarm": it is that card's own switch).
				if lab, _ := labelForm(w); lab != "" && !(l.timeText(i) && timedName(w, l.es[i].Text)) {
					return true
				}
			}
		}
	}
	return false
}

// switchLabels returns the words that label the switch es[i], by how
// near they are to it: its own text and description; the title of its row
// (the row container around it, or the line beside it in a flat list);
// the first text inside it (a Compose checkable row, a tile's label).
func (l *layout) switchLabels(i int) [3][]string {
	var out [3][]string
	e := l.es[i]
	for _, s := range []string{e.Text, e.Desc} {
		if lab, _ := labelForm(s); lab != "" {
			out[0] = append(out[0], s)
		}
	}
	if n, _ := tileName(e.Desc); n != "" && !e.Checkable {
		out[0] = append(out[0], n)
	}
	if n := stateTileName(e); n != "" {
		out[0] = append(out[0], n)
	}
	if t := l.rowTitle(i); t != "" {
		out[1] = append(out[1], t)
	}
	var first string
	for j := i + 1; j < l.end[i]; j++ {
		c := l.es[j]
		for _, s := range []string{c.Text, c.Desc} {
			if lab, _ := labelForm(s); lab != "" {
				id := c.ShortID()
				if id == "title" || id == "tile_label" || strings.HasSuffix(id, "_title") {
					out[2] = append(out[2], s)
				} else if first == "" {
					first = s
				}
			}
		}
	}
	if len(out[2]) == 0 && first != "" {
		out[2] = append(out[2], first)
	}
	return out
}

// rowTitle is the title of a switch's row: the text of the container
// around it that holds no other switch (the one with a title id, else the
// first), else the nearest text on its line among its siblings.
func (l *layout) rowTitle(i int) string {
	for a := l.parent[i]; a >= 0; a = l.parent[a] {
		if !l.mayBeRow(a) || l.otherSwitch(a, i) {
			break
		}
		title, first := "", ""
		var texts []string
		for j := a; j < l.end[a]; j++ {
			c := l.es[j]
			if j == i || l.inside(j, i) || c.Text == "" || c.IsField() {
				continue
			}
			if lab, _ := labelForm(c.Text); lab == "" {
				continue // a state word ("On"), not a title
			}
			id := c.ShortID()
			if title == "" && (id == "title" || id == "switch_text" || strings.HasSuffix(id, "_title") || strings.HasSuffix(id, "_label")) {
				title = c.Text
			}
			if first == "" {
				first = c.Text
			}
			texts = append(texts, c.Text)
		}
		for k, t := range texts {
			if k > 0 && wholeValue(TypeTime, strings.TrimSpace(t)) != "" {
				// A card whose name sits above its time (Google Clock's
				// label, as edit_label sits above the time of an
				// expanded card): the time titles it, with that name.
				if lab, _ := labelForm(texts[k-1]); lab != "" && !MarkWord(strings.TrimSpace(texts[k-1])) && wholeValue(TypeTime, strings.TrimSpace(texts[k-1])) == "" {
					return t + " " + texts[k-1]
				}
				break
			}
		}
		if title == "" || wholeValue(TypeTime, strings.TrimSpace(first)) != "" {
			// A row that starts with a time alone is an alarm's: the time
			// titles it, not a label id's text after it (DeskClock's
			// upcoming_instance_label, "Tomorrow").
			title = first
		}
		if title != "" {
			return timedTitle(title, texts)
		}
	}
	e := l.es[i]
	best, dist := "", -1
	for j, o := range l.es {
		// A plain text beside it: never a control or a container of its
		// own (a neighbouring tile in a grid).
		if j == i || l.parent[j] != l.parent[i] || o.Text == "" || o.IsField() || o.Checkable || o.Clickable ||
			o.ShortClass() == "Button" || l.end[j] > j+1 {
			continue
		}
		if cy := (o.Bounds.Y1 + o.Bounds.Y2) / 2; cy < e.Bounds.Y1 || cy >= e.Bounds.Y2 {
			continue
		}
		if lab, _ := labelForm(o.Text); lab == "" {
			continue
		}
		d := max(e.Bounds.X1-o.Bounds.X2, o.Bounds.X1-e.Bounds.X2, 0)
		if dist < 0 || d < dist {
			best, dist = o.Text, d
		}
	}
	return best
}

// switchState is the state a switch shows: its checked attribute, or the
// state word of a tile that is not checkable. sure is false when the two
// disagree (checked, but its words say off).
func (l *layout) switchState(i int) (on, sure bool) {
	e := l.es[i]
	said := -1
	for _, s := range []string{e.Text, e.Desc} {
		if _, st := labelForm(s); st >= 0 {
			said = st
		}
	}
	if n, st := tileName(e.Desc); said < 0 && n != "" {
		said = st
	}
	for j := i + 1; j < l.end[i] && said < 0; j++ {
		if lab, st := labelForm(l.es[j].Text); lab == "" && st >= 0 {
			said = st // a tile's state line ("On", "已关闭")
		}
	}
	if !e.Checkable {
		if e.Checked {
			// Checked without checkable (vivo's Settings Switch): the
			// widget says it is on, unless its words say off.
			return true, said != 0
		}
		return said == 1, said >= 0
	}
	return e.Checked, said < 0 || (said == 1) == e.Checked
}

// saysState reports whether an element's own text or description is, or
// ends with, a state word ("关闭", "Bluetooth, On").
func saysState(e uitree.Element) bool {
	for _, s := range []string{e.Text, e.Desc} {
		if _, st := labelForm(s); st >= 0 {
			return true
		}
	}
	return false
}

// stateTileName is the name of a tile whose own text is only its state
// word and whose description starts with its name, a detail after a
// comma (ColorOS's Quick Settings Switch: text "On", desc "Mobile data,
// Safaricom 4G"): "Mobile data". "" for any other element.
func stateTileName(e uitree.Element) string {
	if lab, st := labelForm(e.Text); lab != "" || st < 0 {
		return ""
	}
	name, _, ok := strings.Cut(strings.Map(func(r rune) rune {
		if r == '，' {
			return ','
		}
		return r
	}, e.Desc), ",")
	if !ok {
		return ""
	}
	if lab, _ := labelForm(name); lab != "" {
		return strings.TrimSpace(name)
	}
	return ""
}

// switchMatch is a switch a check's label names.
type switchMatch struct {
	i     int
	label string // the words that named it
}

// switchesLabelled returns the switches a label names, the nearest
// naming first: its own words, else its row's title, else its first
// inner text; and an alarm's row named by its time or its name alone
// ("07:30" or "Gym" for "07:30 Gym"). Only the nearest kind that names
// any switch counts.
func (l *layout) switchesLabelled(label string) []switchMatch {
	var tiers [4][]switchMatch
	for i := range l.es {
		if !l.isSwitch(i) {
			continue
		}
		labs := l.switchLabels(i)
		found := false
		for t, ls := range labs {
			for _, s := range ls {
				if sameLabel(s, label) || sameLabel(mainSwitchName(s), label) {
					tiers[t] = append(tiers[t], switchMatch{i, s})
					found = true
					break
				}
			}
			if found {
				break
			}
		}
		if found {
			continue
		}
	timed:
		for _, ls := range labs {
			for _, s := range ls {
				if timedName(s, label) {
					tiers[3] = append(tiers[3], switchMatch{i, s})
					break timed
				}
			}
		}
	}
	for _, t := range tiers {
		if len(t) > 0 {
			return t
		}
	}
	return nil
}

// mainSwitchName is what a page's main switch bar turns on: Settings
// writes it "Use Wi‑Fi", "Use Bluetooth", "Use wireless debugging"
// (SettingsLib's MainSwitchBar), "使用WLAN" in Chinese. "" for any other
// text.
func mainSwitchName(s string) string {
	t := strings.TrimSpace(s)
	if len(t) > 4 && strings.EqualFold(t[:4], "use ") {
		return strings.TrimSpace(t[4:])
	}
	if rest, ok := strings.CutPrefix(t, "使用"); ok && strings.TrimSpace(rest) != "" {
		return strings.TrimSpace(rest)
	}
	return ""
}

// timedName reports whether label names a row whose words are a clock
// time and a name ("07:30 Gym"), or a time alone ("7:30 AM", as a clock
// app titles an alarm's row): the time (compared as a time, so "7:30 AM"
// is "07:30") or the name alone.
func timedName(shown, label string) bool {
	s := norm(shown)
	m := timeValRe.FindStringSubmatchIndex(s)
	if m == nil || m[0] != 0 {
		return false
	}
	rest := strings.TrimSpace(s[m[1]:])
	if w, _, _ := strings.Cut(rest, " "); MarkWord(w) {
		rest = strings.TrimSpace(rest[len(w):]) // "8:30 下午 Gym": the mark belongs to the time
	}
	if lt := values(TypeTime, label); len(lt) == 1 && wholeValue(TypeTime, strings.TrimSpace(label)) != "" {
		st := values(TypeTime, s)
		return len(st) >= 1 && st[0] == lt[0]
	}
	// "07:30 Gym" names the row "7:30 AM Gym": the same time, then the
	// same name.
	if lm := timeValRe.FindStringSubmatchIndex(norm(label)); lm != nil && lm[0] == 0 {
		ln := norm(label)
		lt, st := values(TypeTime, ln[:lm[1]]), values(TypeTime, s[:m[1]])
		lrest := strings.TrimSpace(ln[lm[1]:])
		if w, _, _ := strings.Cut(lrest, " "); MarkWord(w) {
			lrest = strings.TrimSpace(lrest[len(w):])
		}
		return len(lt) == 1 && len(st) == 1 && lt[0] == st[0] && rest != "" && lrest != "" && sameLabel(rest, lrest)
	}
	return rest != "" && sameLabel(rest, label)
}

// timedTitle is an alarm row's title: a title that is only a clock time
// ("7:30 AM") with the row's next text, its name ("7:30 AM Gym"), so the
// alarm is named by either.
func timedTitle(title string, texts []string) string {
	if wholeValue(TypeTime, strings.TrimSpace(title)) == "" {
		return title
	}
	for i, t := range texts {
		if t != title || i+1 >= len(texts) {
			continue
		}
		next := texts[i+1]
		if MarkWord(next) {
			// The time's mark on its own line ("8:30", "下午") is the
			// time's, and the name follows it.
			title += " " + strings.TrimSpace(next)
			if i+2 >= len(texts) {
				break
			}
			next = texts[i+2]
		}
		if lab, _ := labelForm(next); lab != "" && wholeValue(TypeTime, strings.TrimSpace(next)) == "" {
			return title + " " + next
		}
		break
	}
	return title
}

// fieldTitle is the label of the input field es[i]: the text (not a
// control's) in the container around it that holds no other field, or "".
func (l *layout) fieldTitle(i int) string {
	for a := l.parent[i]; a >= 0; a = l.parent[a] {
		if !l.mayBeRow(a) {
			return ""
		}
		for j := a; j < l.end[a]; j++ {
			if j != i && l.es[j].IsField() {
				return ""
			}
		}
		for j := a; j < l.end[a]; j++ {
			if c := l.es[j]; j != i && !l.inside(j, i) && c.Text != "" && !l.control(j) {
				if lab, _ := labelForm(c.Text); lab != "" {
					return c.Text
				}
			}
		}
	}
	return ""
}
