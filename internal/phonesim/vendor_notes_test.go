package phonesim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The vendor skins' Notes and Contacts (layout_vendor_notes.go,
// layout_vendor_contacts.go) against the ids and labels public test code
// drives 便签 and Samsung Notes by: where a note's title and text sit, the
// control that keeps it, how it is deleted, and a contact's name and
// number.

// longPressOn presses an element as adb does: a swipe that stays put.
func longPressOn(t *testing.T, p *Phone, where string, match func(uitree.Element) bool) {
	t.Helper()
	es := simDump(t, p)
	x, y := es[find(t, es, where, match)].Bounds.Center()
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 800", x, y, x, y))
}

func noteTitled(st State, title string) (Note, bool) {
	for _, n := range st.Notes {
		if n.Title == title {
			return n, true
		}
	}
	return Note{}, false
}

func TestMIUINotesListAndEditor(t *testing.T) {
	p := New(Config{Skin: SkinMIUI})
	tapOn(t, p, "便签")
	es := simDump(t, p)
	find(t, es, "the title", func(e uitree.Element) bool { return e.Text == "便签" && e.ShortID() == "action_bar_title" })
	par := uitree.Parents(es)
	ti := find(t, es, "the note's title", byText("Shopping list"))
	tm := find(t, es, "the note's time", byShortID("time"))
	if row := es[par[ti]]; !row.Clickable || par[tm] != par[ti] {
		t.Fatalf("the title and time are not one clickable row's: %+v", row)
	}
	add := es[find(t, es, "content_add", byShortID("content_add"))]
	if add.ShortClass() != "ImageView" || !strings.HasPrefix(add.Desc, "点击创建文字") || add.Bounds.X1 < p.lw/2 {
		t.Fatalf("the new-note button is %+v", add)
	}
	tapWhere(t, p, "content_add", byShortID("content_add"))
	es = simDump(t, p)
	for id, hint := range map[string]string{"note_title": "标题", "rich_editor": "开始书写"} {
		f := es[find(t, es, id, byShortID(id))]
		if f.ShortClass() != "EditText" || f.Hint != hint || f.Text != hint {
			t.Fatalf("the empty %s field is %+v", id, f)
		}
	}
	for id, desc := range map[string]string{"home": "返回", "done": "完成编辑", "undo": "撤销"} {
		if e := es[find(t, es, id, byShortID(id))]; e.Desc != desc || !e.Clickable {
			t.Fatalf("%s is %+v", id, e)
		}
	}
	for _, e := range es {
		if strings.HasSuffix(e.Text, "字") {
			t.Fatalf("the editing editor shows a count of characters, %q; the real one does not", e.Text)
		}
	}
	tapWhere(t, p, "the title field", byShortID("note_title"))
	typeADB(t, p, "周末")
	tapWhere(t, p, "the body field", byShortID("rich_editor"))
	typeADB(t, p, "买菜")
	// 完成编辑 keeps the note and stays in the editor.
	tapWhere(t, p, "完成编辑", byDesc("完成编辑"))
	if n, ok := noteTitled(p.State(), "周末"); !ok || n.Body != "买菜" {
		t.Fatalf("完成编辑 kept %+v", p.State().Notes)
	}
	if s := p.State().Screen; s.Page != pageEditor {
		t.Fatalf("完成编辑 left the editor for %+v", s)
	}
	es = simDump(t, p)
	if i, ok := postcond.BackSaves("新建笔记周末", es, postcond.DefaultCommitLabels); !ok || es[i].Desc != "返回" {
		t.Fatalf("a Back from the filled 便签 editor is not judged as its 返回 keeping the note (%d, %v)", i, ok)
	}
	// 返回 keeps a change too, and the list shows the note at the top.
	tapWhere(t, p, "the body field", byShortID("rich_editor"))
	typeADB(t, p, "和水果")
	tapWhere(t, p, "返回", byDesc("返回"))
	if n, _ := noteTitled(p.State(), "周末"); n.Body != "买菜和水果" {
		t.Fatalf("返回 kept %+v", p.State().Notes)
	}
	es = simDump(t, p)
	first := es[find(t, es, "the first row", func(e uitree.Element) bool { return e.Clickable && e.ShortClass() == "LinearLayout" })+1]
	if first.Text != "周末" {
		t.Fatalf("the list starts with %q, not the note just edited", first.Text)
	}
}

func TestMIUINotesDeleteByLongPress(t *testing.T) {
	p := New(Config{Skin: SkinMIUI})
	launch(t, p, pkgNotes)
	before := len(p.State().Notes)
	// A plain tap opens the note; a long press selects it.
	longPressOn(t, p, "the note's time", func(e uitree.Element) bool { return e.ShortID() == "time" })
	es := simDump(t, p)
	find(t, es, "the selection's title", byText("已选择1项"))
	var checked []string
	for i, e := range es {
		if e.Checked {
			checked = append(checked, es[i+1].Text)
		}
	}
	if len(checked) != 1 {
		t.Fatalf("rows checked after the long press: %q", checked)
	}
	tapWhere(t, p, "删除", byText("删除"))
	es = simDump(t, p)
	find(t, es, "the question", func(e uitree.Element) bool { return strings.HasPrefix(e.Text, "确定删除") })
	if len(p.State().Notes) != before {
		t.Fatal("the note went before the deletion was confirmed")
	}
	tapWhere(t, p, "the confirming 删除", byShortID("button1"))
	if _, ok := noteTitled(p.State(), checked[0]); ok || len(p.State().Notes) != before-1 {
		t.Fatalf("after 删除 the notes are %+v", p.State().Notes)
	}
	es = simDump(t, p)
	find(t, es, "the list again", byShortID("content_add"))
	if !SkinMIUI.DeletesNotes() {
		t.Fatal("DeletesNotes says 便签 cannot delete")
	}
}

func TestOneUINotesSaveOnLeavingAndDelete(t *testing.T) {
	p := New(Config{Skin: SkinOneUI})
	launch(t, p, pkgNotes)
	es := simDump(t, p)
	par := uitree.Parents(es)
	ti := find(t, es, "the card's title", func(e uitree.Element) bool { return e.ShortID() == "title" && e.Text == "Shopping list" })
	card := ancestor(es, par, ti, clickable)
	if card < 0 || es[card].ShortID() != "root_cardview" || es[card].Desc != "Shopping list\nMilk, eggs, bread" {
		t.Fatalf("the title is not a card's: %+v", es[par[ti]])
	}
	xi := find(t, es, "the text", byText("\u200eMilk, eggs, bread"))
	if ancestor(es, par, xi, clickable) != card || es[xi].Bounds.Y1 < es[ti].Bounds.Y2 {
		t.Fatal("the text is not below the title in the same card")
	}
	find(t, es, "All notes", byText("All notes"))
	tapWhere(t, p, "the fab", byShortID("fab"))
	es = simDump(t, p)
	var fields []uitree.Element
	for _, e := range es {
		if e.IsField() {
			fields = append(fields, e)
		}
	}
	if len(fields) != 2 || fields[0].Hint != "Title" || fields[0].Bounds.Y2 > fields[1].Bounds.Y1 {
		t.Fatalf("the editor's fields are %+v", fields)
	}
	for _, e := range es {
		if e.Clickable && postcond.IsCommit(e, postcond.DefaultCommitLabels) {
			t.Fatalf("Samsung Notes' editor shows a commit control %+v: it saves on leaving", e)
		}
	}
	tapWhere(t, p, "the title field", func(e uitree.Element) bool { return e.IsField() && e.Hint == "Title" })
	typeADB(t, p, "Trip")
	x, y := fields[1].Bounds.Center()
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	typeADB(t, p, "Passport")
	es = simDump(t, p)
	if _, ok := postcond.BackSaves("note Trip: Passport", es, postcond.DefaultCommitLabels); !ok {
		t.Fatal("a Back from the filled editor is not judged as keeping the note")
	}
	sh(t, p, "input keyevent KEYCODE_BACK")
	if n, ok := noteTitled(p.State(), "Trip"); !ok || n.Body != "Passport" {
		t.Fatalf("Back kept %+v", p.State().Notes)
	}
	tapWhere(t, p, "the Trip card", byText("Trip"))
	tapWhere(t, p, "More options", byDesc("More options"))
	tapWhere(t, p, "Delete", byText("Delete"))
	if _, ok := noteTitled(p.State(), "Trip"); ok {
		t.Fatalf("Delete left %+v", p.State().Notes)
	}
	if s := p.State().Screen; s.Page == pageEditor {
		t.Fatalf("Delete left the editor open: %+v", s)
	}
}

func TestVendorNotesListScrolls(t *testing.T) {
	for _, skin := range []Skin{SkinMIUI, SkinOneUI} {
		p := New(Config{Skin: skin})
		for i := range 12 {
			p.st.Notes = append(p.st.Notes, Note{Title: fmt.Sprintf("Note %02d", i), Body: "x"})
		}
		launch(t, p, pkgNotes)
		es := simDump(t, p)
		if _, ok := findElement(p, "Shopping list"); ok {
			t.Fatalf("%s: the oldest note shows with 12 newer above it", skin)
		}
		list := es[find(t, es, "the list", func(e uitree.Element) bool { return e.Scrollable })]
		for range 10 {
			sh(t, p, fmt.Sprintf("input swipe 540 %d 540 %d", list.Bounds.Y2-100, list.Bounds.Y1+100))
		}
		if _, ok := findElement(p, "Shopping list"); !ok {
			t.Fatalf("%s: scrolling down does not reach the oldest note", skin)
		}
		if len(p.State().Notes) != len(Initial().Notes)+12 {
			t.Fatalf("%s: scrolling changed the notes", skin)
		}
	}
}

func TestVendorContacts(t *testing.T) {
	for _, c := range []struct {
		skin              Skin
		title, kind, send string
	}{{SkinMIUI, "联系人", "手机", "发送信息"}, {SkinOneUI, "Contacts", "Mobile", "Message"}} {
		p := New(Config{Skin: c.skin})
		launch(t, p, pkgContacts)
		es := simDump(t, p)
		find(t, es, "the title", byText(c.title))
		par := uitree.Parents(es)
		ni := find(t, es, "Bob Li", byText("Bob Li"))
		if row := es[par[ni]]; !row.Clickable || es[ni].Clickable {
			t.Fatalf("%s: the name is not inside a clickable row: %+v", c.skin, row)
		}
		find(t, es, "the letter header", byText("B"))
		tapWhere(t, p, "Bob Li", byText("Bob Li"))
		if s := p.State().Screen; s.Page != pageDetail || s.Detail != "Bob Li" {
			t.Fatalf("%s: the row opened %+v", c.skin, s)
		}
		es = simDump(t, p)
		num := es[find(t, es, "the number", byText("+1 555 0102"))]
		kind := es[find(t, es, "the number's type", byText(c.kind))]
		if kind.Bounds.Y1 < num.Bounds.Y2 {
			t.Fatalf("%s: the type is not below the number", c.skin)
		}
		name := es[find(t, es, "the name", byText("Bob Li"))]
		if name.Bounds.Y2 > num.Bounds.Y1 {
			t.Fatalf("%s: the name is not above the number", c.skin)
		}
		tapWhere(t, p, c.send, func(e uitree.Element) bool { return e.Text == c.send || e.Desc == c.send })
		if s := p.State().Screen; s.App != "Messages" || s.Detail != "Bob Li" {
			t.Fatalf("%s: %s opened %+v", c.skin, c.send, s)
		}
	}
}
