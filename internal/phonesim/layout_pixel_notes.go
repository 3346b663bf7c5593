package phonesim

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Notes (docs/phones.md#skins): Google Keep's list and
// text-note editor on the same notes the classic Notes shows. The ids are
// the ones public Appium tests against com.google.android.keep locate:
// new_note_button (an ImageButton described "New text note"),
// browse_text_note (a card) holding index_note_title and
// index_note_text_description, editable_title and edit_note_text (the
// editor's fields, hinted "Title" and "Note"), and the editor's
// ImageButton described "Navigate up"; leaving the editor saves the note,
// as Keep does. The editor's More opens a menu with Delete.

// Hints of Keep's editor fields, their text while empty.
const (
	keepTitleHint = "Title"
	keepNoteHint  = "Note"
)

// layoutPixelNotes lays out the page on top of Notes' stack.
func (p *Phone) layoutPixelNotes(b *builder) {
	if b.v.page == pageEditor {
		p.layoutKeepEditor(b)
		return
	}
	p.layoutKeepList(b)
}

// layoutKeepList is Keep's home: the search bar "Search your notes" with
// the drawer button, a card per note (its title, and the start of its text
// below) with the most recently edited at the top (keepOrder), and the
// "New text note" button at the bottom right.
func (p *Phone) layoutKeepList(b *builder) {
	w, h := b.s.w, b.s.h
	bar := uitree.Bounds{X1: 32, Y1: statusBarH + 20, X2: w - 32, Y2: contentTop - 10}
	b.add(widget{kind: kRow, class: "android.widget.FrameLayout", clickable: true, full: bar, tap: func() {}})
	b.add(widget{kind: kIcon, class: "android.widget.ImageButton", desc: "Open navigation drawer", clickable: true, depth: 2,
		full: uitree.Bounds{X1: bar.X1 + 10, Y1: bar.Y1 + 10, X2: bar.X1 + 130, Y2: bar.Y2 - 10}, tap: func() {}})
	b.add(widget{kind: kSubText, text: "Search your notes", depth: 2,
		full: uitree.Bounds{X1: bar.X1 + 160, Y1: bar.Y1 + 30, X2: bar.X2 - 40, Y2: bar.Y2 - 30}})
	const cardH = 260
	li := b.list(contentTop, h-bottomBarH)
	for _, i := range p.st.keepOrder() {
		n := p.st.Notes[i]
		b.item(widget{kind: kRow, class: "android.widget.FrameLayout", id: "browse_text_note", clickable: true, tap: func() {
			e := newView(pkgNotes, pageEditor, n.Title)
			e.index = i
			e.fields["editable_title"], e.fields["edit_note_text"] = n.Title, n.Body
			p.push(e)
		}}, 32, 16, w-32, cardH-16)
		if n.Title != "" {
			b.item(widget{kind: kText, text: n.Title, id: "index_note_title", depth: 3}, 80, 50, w-80, 130)
		}
		if n.Body != "" {
			b.item(widget{kind: kSubText, text: snippet(n.Body), id: "index_note_text_description", depth: 3}, 80, 140, w-80, cardH-50)
		}
		b.y += cardH
	}
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.ImageButton", id: "new_note_button", desc: "New text note", clickable: true, color: 0xf9ab00,
		full: uitree.Bounds{X1: w - 272, Y1: h - bottomBarH - 120, X2: w - 48, Y2: h - bottomBarH + 104},
		tap:  func() { p.push(newView(pkgNotes, pageEditor, "")) }})
}

// snippet is the start of a note's text as a card shows it: its first
// lines, cut at a word.
func snippet(body string) string {
	const most = 120
	if r := []rune(body); len(r) > most {
		cut := string(r[:most])
		if i := strings.LastIndexByte(cut, ' '); i > most/2 {
			cut = cut[:i]
		}
		return cut + "…"
	}
	return body
}

// layoutKeepEditor is Keep's text-note editor: Navigate up at the top
// left, the title and note fields showing their hints while empty, and a
// bottom bar with the time the note was last edited (a saved note only)
// and More, whose menu deletes the note.
func (p *Phone) layoutKeepEditor(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	for i, d := range []string{"Pin", "Reminder", "Archive"} {
		x := w - 3*144 + i*144
		b.add(widget{kind: kIcon, class: "android.widget.ImageButton", desc: d, clickable: true,
			full: uitree.Bounds{X1: x + 20, Y1: statusBarH + 20, X2: x + 124, Y2: contentTop - 20}, tap: func() {}})
	}
	noteField(b, "editable_title", "editable_title", keepTitleHint, uitree.Bounds{X1: 48, Y1: contentTop + 20, X2: w - 48, Y2: contentTop + 160})
	noteField(b, "edit_note_text", "edit_note_text", keepNoteHint, uitree.Bounds{X1: 48, Y1: contentTop + 180, X2: w - 48, Y2: h - bottomBarH - 40})
	bar := h - bottomBarH
	if v.index >= 0 {
		b.add(widget{kind: kSubText, text: "Edited " + time12(p.clockText()), id: "edit_date",
			full: uitree.Bounds{X1: w/2 - 220, Y1: bar + 90, X2: w/2 + 220, Y2: bar + 170}})
	}
	b.add(widget{kind: kIcon, class: "android.widget.ImageButton", desc: "More", clickable: true,
		full: uitree.Bounds{X1: w - 164, Y1: bar + 60, X2: w - 40, Y2: bar + 200}, tap: func() { v.menu = true }})
	if !v.menu {
		return
	}
	// The menu: a scrim closing it when tapped, and its rows.
	b.add(widget{kind: kScrim, class: "android.view.View", clickable: true, full: uitree.Bounds{X2: w, Y2: h}, tap: func() { v.menu = false }})
	items := []struct {
		text string
		tap  func()
	}{
		{"Delete", func() { p.deleteNote(v) }},
		{"Make a copy", func() { v.menu = false }},
		{"Send", func() { v.menu = false }},
		{"Labels", func() { v.menu = false }},
	}
	top := h - len(items)*150 - 40
	b.add(widget{kind: kDialog, class: "android.widget.FrameLayout", full: uitree.Bounds{X1: 0, Y1: top - 20, X2: w, Y2: h}})
	for i, it := range items {
		y := top + i*150
		b.add(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, depth: 2, tap: it.tap,
			full: uitree.Bounds{X1: 0, Y1: y, X2: w, Y2: y + 150}})
		b.add(widget{kind: kText, text: it.text, id: "title", depth: 3, full: uitree.Bounds{X1: 160, Y1: y + 40, X2: w - 48, Y2: y + 110}})
	}
}

// saveNote keeps what a Keep, 便签 or Samsung Notes editor holds: the note it opened, changed,
// or a new note when anything was written.
func (p *Phone) saveNote(v *view) {
	tk, bk := noteKeys(p.cfg.Skin)
	n := Note{Title: strings.TrimSpace(v.fields[tk]), Body: v.fields[bk]}
	switch {
	case v.index >= 0 && v.index < len(p.st.Notes):
		if p.st.Notes[v.index] != n {
			p.st.Notes[v.index] = n
			p.st.editedNote(v.index) // a note opened and left unchanged keeps its place
		}
	case n.Title != "" || n.Body != "":
		p.st.Notes = append(p.st.Notes, n)
		v.index = len(p.st.Notes) - 1
		p.st.editedNote(v.index)
	}
}

// deleteNote is the editor menu's Delete: the note opened is removed (a
// new one is dropped unsaved) and the editor closes onto the list.
func (p *Phone) deleteNote(v *view) {
	p.removeNote(v.index)
	if len(p.stack) > 1 && p.top() == v {
		p.stack = p.stack[:len(p.stack)-1]
	}
}
