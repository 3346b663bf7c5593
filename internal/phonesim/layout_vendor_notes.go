package phonesim

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The MIUI and One UI skins' Notes (docs/phones.md#skins): Xiaomi's 便签
// and Samsung Notes on the same notes the classic Notes and Keep show,
// the most recently edited at the top (keepOrder). Both save a note as
// its editor is left, as Keep does; 便签 saves it by its 完成编辑 mark
// too. The package stays the simulator's Notes package (the app table
// knows one); the ids are the vendor apps' own where a source shows them.
//
// 便签's editor follows a real uiautomator dump of it
// (avito-miui-notes-editor-ru.xml in testdata/real, SOURCES.md there), and
// Samsung Notes' list a real dump too (uiviewer-samsung-notes-list.xml);
// no dump of 便签's list or Samsung Notes' editor was found. The rest
// follows what public test code drives real phones by, and carries no id
// no source shows:
//   - 便签 (com.miui.notes): the list's content_add button, an ImageView
//     described "点击创建文字，长按录入语音，松手完成录音并创建，手指上滑取消录音"
//     (an app-agent prompt set's recorded MIUI Notes screen, and Appium
//     page objects that tap com.miui.notes:id/content_add). The editor
//     as the dump shows it (kram1k/android_avito_parsing @ 52775af0af4c :
//     hierarchy.xml, MIUI Notes in Russian): the header's home, undo,
//     redo and done ImageViews, described and not written, undo and redo
//     disabled while there is nothing to take back; the note_title and
//     rich_editor EditTexts one under the other in ll_note_edit, inside
//     edit_content and the editor_panel ScrollView, with no date or count
//     between them while the note is edited; the editor_mode_toolbar2 row
//     of tools (audio, gallery, check, edit_theme, rich_text). Its words
//     are the Chinese ones the prompt set records: 返回, 撤销, 恢复,
//     完成编辑, the title's hint 标题, the tools' 录音, 添加图片, 任务列表
//     (主题 and 文字样式 translate the dump's theme and text-style tools),
//     and the date and 字 count a saved note shows for reading. A note is
//     deleted by a long press on its row's time, 删除, then 删除 again to
//     confirm (a UiAutomator MTBF case,
//     com.carl.tc.xiaomi.notes.AddOpenDelete). Leaving by 返回 keeps the
//     note (the same case types into rich_editor and taps home). The
//     body's hint is the start of the prompt the real editor shows,
//     开始书写.
//   - Samsung Notes' list (com.samsung.android.app.notes):
//     bbrozyna/android-uiviewer @ b2607b5a2214 : dump.xml
//     (testdata/real/uiviewer-samsung-notes-list.xml): the app bar, the
//     cards and the fab described Create (layoutOneUINotes).
//   - Samsung Notes' editor: its Navigate up, and leaving it saving the
//     note ("Samsung autosaves"), as a uiautomator2 exporter of Samsung
//     Notes and Appium scripts drive it. The editor's More options menu
//     deletes the note (Delete), as the app's menu does; the fields' ids
//     are not shown in any source and are left out.

const (
	miuiNotesTitle   = "便签"
	miuiNewNoteDesc  = "点击创建文字，长按录入语音，松手完成录音并创建，手指上滑取消录音"
	miuiTitleHint    = "标题"
	miuiBodyHint     = "开始书写"
	miuiDoneDesc     = "完成编辑"
	miuiDelete       = "删除"
	miuiCancel       = "取消"
	oneuiNotesTitle  = "All notes"
	oneuiNewNoteDesc = "Create"
	oneuiTitleHint   = "Title"
	oneuiMoreDesc    = "More options"
	oneuiDelete      = "Delete"
)

// noteKeys are the ids under which a skin's note editor keeps the
// title and the text (saveNote reads them).
func noteKeys(s Skin) (title, body string) {
	switch s {
	case SkinMIUI:
		return "note_title", "rich_editor"
	case SkinOneUI:
		return "oneui_title", "oneui_body"
	}
	return "editable_title", "edit_note_text"
}

// SavesNotesOnLeaving reports whether the skin's Notes keeps a note as
// its editor is left (Keep, 便签, Samsung Notes); the classic Notes keeps
// one only by its Save.
func (s Skin) SavesNotesOnLeaving() bool {
	return s == SkinPixel || s == SkinMIUI || s == SkinOneUI
}

// vendorNotes lays out Notes on a vendor skin; ok is false on the
// others.
func (p *Phone) vendorNotes(b *builder) bool {
	switch p.cfg.Skin {
	case SkinMIUI:
		if b.v.page == pageEditor {
			p.layoutMIUINoteEditor(b)
		} else {
			p.layoutMIUINotes(b)
		}
	case SkinOneUI:
		if b.v.page == pageEditor {
			p.layoutOneUINoteEditor(b)
		} else {
			p.layoutOneUINotes(b)
		}
	default:
		return false
	}
	b.s.hints = true
	return true
}

// openNoteEditor pushes the editor of note i, its fields holding it.
func (p *Phone) openNoteEditor(i int) {
	n := p.st.Notes[i]
	e := newView(pkgNotes, pageEditor, n.Title)
	e.index = i
	tk, bk := noteKeys(p.cfg.Skin)
	e.fields[tk], e.fields[bk] = n.Title, n.Body
	p.push(e)
}

// miuiClock is a time as MIUI writes it: "下午6:14".
func miuiClock(hhmm string) string {
	var h, m int
	fmt.Sscanf(hhmm, "%d:%d", &h, &m)
	half := "上午"
	if h >= 12 {
		half = "下午"
	}
	if h = h % 12; h == 0 {
		h = 12
	}
	return fmt.Sprintf("%s%d:%02d", half, h, m)
}

// layoutMIUINotes is 便签's list: the title, a row per note (its title,
// the start of its text, its time), content_add at the bottom right. A
// long press on a row selects it: the bar says how many are chosen and
// the bottom bar offers 删除, which asks before it deletes.
func (p *Phone) layoutMIUINotes(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	when := miuiClock(p.clockText())
	selected := v.held - 1
	if selected >= len(p.st.Notes) {
		selected, v.held = -1, 0
	}
	if selected >= 0 {
		b.add(widget{kind: kButton, class: "android.widget.Button", text: miuiCancel, clickable: true,
			full: uitree.Bounds{X1: 24, Y1: statusBarH + 20, X2: 220, Y2: contentTop - 20}, tap: func() { v.held = 0 }})
		b.add(widget{kind: kAppBar, text: "已选择1项", id: "action_bar_title", full: uitree.Bounds{X1: 240, Y1: statusBarH, X2: w - 240, Y2: contentTop}})
	} else {
		b.add(widget{kind: kAppBar, text: miuiNotesTitle, id: "action_bar_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	}
	const noteH = 240
	li := b.list(contentTop, h-bottomBarH)
	for _, i := range p.st.keepOrder() {
		n := p.st.Notes[i]
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, checkable: selected >= 0, checked: i == selected,
			tap: func() {
				if v.held == 0 {
					p.openNoteEditor(i)
				}
			},
			hold: func() { v.held = i + 1 }}, 24, 12, w-24, noteH-12)
		if n.Title != "" {
			b.item(widget{kind: kText, text: n.Title, depth: 3}, 72, 36, w-72, 110)
		}
		if n.Body != "" {
			b.item(widget{kind: kSubText, text: snippet(n.Body), depth: 3}, 72, 110, w-72, 170)
		}
		b.item(widget{kind: kSubText, text: when, id: "time", depth: 3}, 72, 170, w-72, noteH-24)
		b.y += noteH
	}
	b.endList(li)
	if selected >= 0 {
		bar := h - bottomBarH
		b.add(widget{kind: kButton, class: "android.widget.TextView", text: miuiDelete, clickable: true,
			full: uitree.Bounds{X1: w/2 - 160, Y1: bar + 60, X2: w/2 + 160, Y2: bar + 240}, tap: func() { v.menu = true }})
		if v.menu {
			p.miuiDeleteDialog(b, selected)
		}
		return
	}
	b.add(widget{kind: kButton, class: "android.widget.ImageView", desc: miuiNewNoteDesc, id: "content_add", clickable: true, color: 0xf9ab00,
		full: uitree.Bounds{X1: w - 228, Y1: h - bottomBarH + 60, X2: w - 48, Y2: h - bottomBarH + 240},
		tap:  func() { p.push(newView(pkgNotes, pageEditor, "")) }})
}

// miuiDeleteDialog is 便签's confirmation: the question, 取消 and 删除.
func (p *Phone) miuiDeleteDialog(b *builder, i int) {
	v, w, h := b.v, b.s.w, b.s.h
	card := uitree.Bounds{X1: 24, Y1: h - 620, X2: w - 24, Y2: h - 40}
	b.dialog(card)
	b.add(widget{kind: kText, text: "确定删除所选便签吗？", id: "android:id/message", depth: 2,
		full: uitree.Bounds{X1: card.X1 + 72, Y1: card.Y1 + 80, X2: card.X2 - 72, Y2: card.Y1 + 240}})
	y := card.Y2 - 220
	b.add(widget{kind: kButton, class: "android.widget.Button", text: miuiCancel, id: "android:id/button2", clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X1 + 48, Y1: y, X2: w/2 - 24, Y2: y + 150}, tap: func() { v.menu, v.held = false, 0 }})
	b.add(widget{kind: kButton, class: "android.widget.Button", text: miuiDelete, id: "android:id/button1", clickable: true, depth: 2,
		full: uitree.Bounds{X1: w/2 + 24, Y1: y, X2: card.X2 - 48, Y2: y + 150}, tap: func() {
			v.menu, v.held = false, 0
			p.removeNote(i)
		}})
}

// layoutMIUINoteEditor is 便签's editor, shaped as
// avito-miui-notes-editor-ru.xml shows it: the header's 返回 (home) at the
// left and 撤销, 恢复 and 完成编辑 (undo, redo, done: ImageViews with only a
// description) at the right, 撤销 and 恢复 disabled while there is nothing
// to undo or redo; the editor_panel ScrollView holding the note_title
// EditText and the rich_editor EditText right under it; the
// editor_mode_toolbar2 row of ImageViews at the bottom. 完成编辑 keeps the
// note and closes the keyboard; 返回 keeps it and leaves. A saved note
// shows for reading, 分享 and 更多 in the bar and its date and count of
// characters under the title (the editing dump shows neither), until a
// field is tapped.
func (p *Phone) layoutMIUINoteEditor(b *builder) {
	v, w := b.v, b.s.w
	tk, bk := noteKeys(SkinMIUI)
	reading := v.index >= 0 && v.focus == ""
	// The header: 99-unit icons, as the dump's, centred in the bar.
	iy := statusBarH + (appBarH-99)/2
	icon := func(x int) uitree.Bounds { return uitree.Bounds{X1: x, Y1: iy, X2: x + 99, Y2: iy + 99} }
	b.add(widget{kind: kFrame, class: "android.widget.LinearLayout", id: "header", full: uitree.Bounds{X1: 28, Y1: statusBarH, X2: w - 28, Y2: contentTop}})
	b.add(widget{kind: kUp, class: "android.widget.ImageView", desc: "返回", id: "home", clickable: true, depth: 2, full: icon(64), tap: p.back})
	type ctl struct {
		id, desc string
		off      bool
		tap      func()
	}
	bar := []ctl{
		{"undo", "撤销", len(v.undo) == 0, func() { v.stepBack(false) }},
		{"redo", "恢复", len(v.redo) == 0, func() { v.stepBack(true) }},
		{"done", miuiDoneDesc, false, func() {
			p.saveNote(v)
			v.focus = ""
		}},
	}
	if reading {
		// A saved note opens for reading; a tap on a field edits it.
		bar = []ctl{{"share", "分享", false, func() {}}, {"more", "更多", false, func() {}}}
	}
	x0 := w - 64 - len(bar)*129 + 30 // the dump's 99-unit icons 30 apart, 64 from the edge
	b.add(widget{kind: kFrame, class: "android.widget.FrameLayout", depth: 2, full: uitree.Bounds{X1: x0, Y1: iy, X2: w - 64, Y2: iy + 99}})
	b.add(widget{kind: kFrame, class: "android.widget.LinearLayout", depth: 3, full: uitree.Bounds{X1: x0, Y1: iy, X2: w - 64, Y2: iy + 99}})
	for i, d := range bar {
		tap := d.tap
		if d.off {
			tap = nil
		}
		b.add(widget{kind: kGlyph, class: "android.widget.ImageView", desc: d.desc, id: d.id, clickable: true, disabled: d.off, depth: 4,
			full: icon(x0 + i*129), tap: tap})
	}
	// The fields: the title and, 28 units under it, the text, 80 in from
	// either side.
	tools := b.s.h - keyboardH - 172
	panel := uitree.Bounds{X1: 0, Y1: contentTop, X2: w, Y2: tools}
	b.add(widget{kind: kFrame, class: "android.widget.ScrollView", id: "editor_panel", full: panel})
	b.add(widget{kind: kFrame, class: "android.widget.LinearLayout", id: "edit_content", clickable: true, depth: 2, full: panel,
		tap: func() { v.focus = bk }})
	b.add(widget{kind: kFrame, class: "android.widget.LinearLayout", id: "ll_note_edit", depth: 3, full: uitree.Bounds{X1: 0, Y1: contentTop, X2: w, Y2: tools - 82}})
	title := uitree.Bounds{X1: 80, Y1: contentTop, X2: w - 80, Y2: contentTop + 81}
	noteField(b, tk, tk, miuiTitleHint, title)
	b.s.widgets[len(b.s.widgets)-1].depth = 4
	top := title.Y2 + 28
	if reading {
		count := utf8.RuneCountInString(v.fields[tk] + v.fields[bk])
		b.add(widget{kind: kSubText, text: p.miuiDate(), depth: 4, full: uitree.Bounds{X1: 80, Y1: top, X2: w/2 + 100, Y2: top + 60}})
		b.add(widget{kind: kSubText, text: fmt.Sprintf("%d字", count), depth: 4, full: uitree.Bounds{X1: w/2 + 120, Y1: top, X2: w - 80, Y2: top + 60}})
		top += 80
	}
	noteField(b, bk, bk, miuiBodyHint, uitree.Bounds{X1: 80, Y1: top, X2: w - 80, Y2: tools - 82})
	b.s.widgets[len(b.s.widgets)-1].depth = 4
	// The tool row: voice, picture, checklist, theme, text style.
	group := uitree.Bounds{X1: 0, Y1: tools, X2: w, Y2: tools + 172}
	b.add(widget{kind: kFrame, class: "android.view.ViewGroup", id: "editor_mode_tool_group", full: group})
	b.add(widget{kind: kFrame, class: "android.widget.RelativeLayout", depth: 2, full: group})
	b.add(widget{kind: kFrame, class: "android.widget.LinearLayout", id: "editor_mode_toolbar2", depth: 3, full: group})
	for i, t := range []struct{ id, desc string }{{"audio", "录音"}, {"gallery", "添加图片"}, {"check", "任务列表"}, {"edit_theme", "主题"}, {"rich_text", "文字样式"}} {
		x := i * w / 5
		b.add(widget{kind: kGlyph, class: "android.widget.ImageView", desc: t.desc, id: t.id, clickable: true, depth: 4,
			full: uitree.Bounds{X1: x, Y1: tools, X2: x + w/5, Y2: tools + 172}, tap: func() {}})
	}
}

// miuiDate is the editor's date line: "12月4日 下午6:14".
func (p *Phone) miuiDate() string {
	now := p.life.now
	return fmt.Sprintf("%d月%d日 %s", int(now.Month()), now.Day(), miuiClock(p.clockText()))
}

// layoutOneUINotes is Samsung Notes' All notes as
// uiviewer-samsung-notes-list.xml shows it: the app bar's title (All
// notes) over the count of notes, the toolbar (Drawer, All notes again,
// Search, More options), recyclerview_memolist holding a card per note,
// and the fab described Create. A card is root_cardview_parent >
// root_cardview (clickable, described by the note's words) > cardview
// holding the note's text in inflate_content, each line of it opening
// with U+200E (a left-to-right mark), and modified_time below it. A
// note's title, which the dump's notes lack, sits above the text in a
// TextView titled title, and leads the card's description.
func (p *Phone) layoutOneUINotes(b *builder) {
	w, h := b.s.w, b.s.h
	n := len(p.st.Notes)
	count := fmt.Sprintf("%d notes", n)
	if n == 1 {
		count = "1 note"
	}
	top := statusBarH
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "appbar_layout", full: uitree.Bounds{X2: w, Y1: top, Y2: top + 420}})
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "collapsing_app_bar", depth: 2, full: uitree.Bounds{X2: w, Y1: top, Y2: top + 420}})
	b.add(widget{kind: kBigText, text: oneuiNotesTitle, id: "collpasing_app_bar_extended_title", depth: 3, full: uitree.Bounds{X2: w, Y1: top + 20, Y2: top + 180}})
	b.add(widget{kind: kSubText, text: count, id: "collpasing_app_bar_extended_sub_title", depth: 3, full: uitree.Bounds{X1: w/2 - 80, Y1: top + 180, X2: w/2 + 160, Y2: top + 240}})
	bar := uitree.Bounds{X2: w, Y1: top + 252, Y2: top + 420}
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "toolbar", depth: 3, full: bar})
	b.add(widget{kind: kIcon, class: "android.widget.ImageButton", desc: "Drawer", clickable: true, depth: 4,
		full: uitree.Bounds{X1: 0, Y1: bar.Y1, X2: 147, Y2: bar.Y2}, tap: func() {}})
	b.add(widget{kind: kText, text: oneuiNotesTitle, depth: 4, full: uitree.Bounds{X1: 147, Y1: bar.Y1 + 37, X2: 480, Y2: bar.Y2 - 37}})
	b.add(widget{kind: kHidden, class: "androidx.appcompat.widget.LinearLayoutCompat", depth: 4, full: uitree.Bounds{X1: w - 251, Y1: bar.Y1, X2: w, Y2: bar.Y2}})
	b.add(widget{kind: kHidden, class: "android.widget.Button", desc: "Search", id: "action_search", clickable: true, depth: 5,
		full: uitree.Bounds{X1: w - 251, Y1: bar.Y1, X2: w - 124, Y2: bar.Y2}, tap: func() {}})
	b.add(widget{kind: kHidden, class: "android.widget.ImageView", desc: oneuiMoreDesc, id: "action_more", clickable: true, depth: 5,
		full: uitree.Bounds{X1: w - 124, Y1: bar.Y1, X2: w, Y2: bar.Y2}, tap: func() {}})
	const cardH = 420
	when := time12(p.clockText())
	li := b.list(bar.Y2+32, h-bottomBarH+200)
	b.s.widgets[li].id = "recyclerview_memolist"
	for _, i := range p.st.keepOrder() {
		n := p.st.Notes[i]
		var lines []string
		if n.Body != "" {
			lines = strings.Split(snippet(n.Body), "\n")
		}
		desc := strings.Join(lines, "\n")
		if n.Title != "" {
			desc = strings.TrimSuffix(n.Title+"\n"+desc, "\n")
		}
		b.item(widget{kind: kHidden, class: "android.widget.RelativeLayout", id: "root_cardview_parent"}, 0, 0, w, cardH)
		b.item(widget{kind: kRow, class: "android.widget.FrameLayout", id: "root_cardview", desc: desc, clickable: true, depth: 3,
			tap: func() { p.openNoteEditor(i) }}, 0, 0, w, cardH-37)
		b.item(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "cardview", depth: 4}, 63, 53, w-63, cardH-90)
		y := 53
		if n.Title != "" {
			b.item(widget{kind: kText, text: n.Title, id: "title", depth: 5}, 123, y, w-63, y+60)
			y += 60
		}
		if len(lines) > 0 {
			marked := make([]string, len(lines))
			for k, l := range lines {
				marked[k] = "\u200e" + l
			}
			b.item(widget{kind: kSubText, text: strings.Join(marked, "\n"), id: "inflate_content", depth: 5}, 123, y, w-63, y+52*min(len(lines), 3))
		}
		b.item(widget{kind: kSubText, text: when, id: "modified_time", depth: 5}, 123, cardH-143, w-63, cardH-104)
		b.y += cardH
	}
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.ImageButton", desc: oneuiNewNoteDesc, id: "fab", clickable: true, color: 0xf9ab00,
		full: uitree.Bounds{X1: w - 210, Y1: h - bottomBarH + 40, X2: w - 63, Y2: h - bottomBarH + 187},
		tap:  func() { p.push(newView(pkgNotes, pageEditor, "")) }})
}

// layoutOneUINoteEditor is Samsung Notes' editor: Navigate up, More
// options (its menu deletes the note), the title field and the text.
// Leaving it keeps the note.
func (p *Phone) layoutOneUINoteEditor(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	tk, bk := noteKeys(SkinOneUI)
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	b.add(widget{kind: kIcon, class: "android.widget.ImageView", desc: oneuiMoreDesc, clickable: true,
		full: uitree.Bounds{X1: w - 144, Y1: statusBarH + 20, X2: w - 24, Y2: contentTop - 20}, tap: func() { v.menu = true }})
	noteField(b, tk, "", oneuiTitleHint, uitree.Bounds{X1: 48, Y1: contentTop + 20, X2: w - 48, Y2: contentTop + 160})
	noteField(b, bk, "", "", uitree.Bounds{X1: 48, Y1: contentTop + 180, X2: w - 48, Y2: h - bottomBarH - 40})
	if !v.menu {
		return
	}
	b.add(widget{kind: kScrim, class: "android.view.View", clickable: true, full: uitree.Bounds{X2: w, Y2: h}, tap: func() { v.menu = false }})
	items := []struct {
		text string
		tap  func()
	}{
		{oneuiDelete, func() { p.deleteNote(v) }},
		{"Share", func() { v.menu = false }},
		{"Save as file", func() { v.menu = false }},
	}
	top := statusBarH + 40
	b.add(widget{kind: kDialog, class: "android.widget.ListView", full: uitree.Bounds{X1: w - 560, Y1: top, X2: w - 24, Y2: top + len(items)*150}})
	for i, it := range items {
		y := top + i*150
		b.add(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, depth: 2, tap: it.tap,
			full: uitree.Bounds{X1: w - 560, Y1: y, X2: w - 24, Y2: y + 150}})
		b.add(widget{kind: kText, text: it.text, id: "title", depth: 3, full: uitree.Bounds{X1: w - 520, Y1: y + 40, X2: w - 64, Y2: y + 110}})
	}
}

// noteField is a note editor's field kept under key and reported under
// id (none where no source shows it): an EditText that reports its hint
// as its text while empty, as Android 14 does.
func noteField(b *builder, key, id, hint string, at uitree.Bounds) {
	v := b.v
	text := v.fields[key]
	shown := text
	if shown == "" {
		shown = hint
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: shown, hint: hint, id: id, value: text,
		clickable: true, focused: v.focus == key, full: at, tap: func() { v.focus = key }})
}

// removeNote deletes note i.
func (p *Phone) removeNote(i int) {
	if i >= 0 && i < len(p.st.Notes) {
		p.st.Notes = append(p.st.Notes[:i], p.st.Notes[i+1:]...)
		p.st.droppedNote(i)
	}
}
