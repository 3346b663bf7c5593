package modelserver

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Notes and Contacts on a Xiaomi or Samsung phone (the simulator's miui
// and oneui skins, docs/phones.md#skins), read from what they show:
//   - 便签: the list's content_add button, a row's title or text above its
//     time; the editor's note_title and rich_editor fields (hinted 标题
//     and 开始书写), its 完成编辑 mark and 返回, which both keep the note;
//     a saved note opens for reading (分享 in the bar) until a field is
//     tapped; a note is deleted by a long press on its row, 删除, and 删除
//     again to confirm.
//   - Samsung Notes: the list's cards (root_cardview, described by the
//     note's words, its text's lines opening with U+200E) and its fab; the
//     editor's two fields, the title first (hinted Title), kept as the
//     editor is left by Navigate up or Back; More options' Delete.
//   - 联系人 and Samsung Contacts: rows that hold a contact's name, and a
//     contact's page whose first text is the name, a text the number,
//     and a 发送信息 or Message button.

// vendorPlaceholders are the hints the vendor editors' fields show while
// empty, by id ("" for Samsung Notes' title, which shows none).
var vendorPlaceholders = map[string]string{"note_title": "标题", "rich_editor": "开始书写", "": "Title"}

// miuiNoteEditor reports 便签's editor on the screen.
func (c *solver) miuiNoteEditor() bool { return c.byID("rich_editor") != nil }

// descControl is the clickable element described d, nil when none is.
func (c *solver) descControl(d string) *uitree.Listed {
	for i, l := range c.obs.Elems {
		if l.Desc == d && l.Clickable {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// vendorNoteFields are a vendor editor's title and text fields: 便签's
// note_title and rich_editor, or Samsung Notes' two fields (which carry
// no ids), the title first.
func (c *solver) vendorNoteFields() (title, body *uitree.Listed) {
	if t, b := c.byID("note_title"), c.byID("rich_editor"); t != nil && b != nil {
		return t, b
	}
	var fs []*uitree.Listed
	for i, l := range c.obs.Elems {
		if l.Class == "EditText" {
			if l.ID != "" {
				return nil, nil // the classic Notes' or Keep's, read by their ids
			}
			fs = append(fs, &c.obs.Elems[i])
		}
	}
	if len(fs) == 2 && c.descControl("Navigate up") != nil && c.inApp("Notes") {
		return fs[0], fs[1]
	}
	return nil, nil
}

// vendorNoteSave is what keeps a vendor editor's note: 便签's 完成编辑
// while it edits, else its 返回; Samsung Notes' Navigate up.
func (c *solver) vendorNoteSave() *uitree.Listed {
	if c.miuiNoteEditor() {
		if d := c.descControl("完成编辑"); d != nil {
			return d
		}
		return c.descControl("返回")
	}
	return c.descControl("Navigate up")
}

// savesOnLeaving reports an editor that keeps its note as it is left:
// Keep's, 便签's, Samsung Notes'.
func (c *solver) savesOnLeaving() bool {
	if c.byID("editable_title") != nil || c.miuiNoteEditor() {
		return true
	}
	t, _ := c.vendorNoteFields()
	return t != nil
}

// vendorEditingSaved reports a vendor editor opened on a saved note: it
// holds words this todo did not type (neither app says when a note was
// edited in a way that tells a new note from a saved one).
func (c *solver) vendorEditingSaved(title, body string) bool {
	return title != "" && !c.typed(title) || body != "" && !c.typed(body)
}

// vendorNoteRows are the rows of 便签's list or Samsung Notes' cards in
// list order, each by the first text inside it (its title, or its text
// where it has none). A row is a clickable layout showing no words of its
// own; Samsung's card is described by the note's words.
func (c *solver) vendorNoteRows() []*uitree.Listed {
	var out []*uitree.Listed
	row := false
	for i, l := range c.obs.Elems {
		switch {
		case l.Clickable && l.Text == "" && strings.HasSuffix(l.Class, "Layout"):
			row = true
		case row && l.Text != "":
			out = append(out, &c.obs.Elems[i])
			row = false
		}
	}
	return out
}

// miuiDeleteNote deletes a note on 便签: a long press on its row selects
// it, 删除 asks, 删除 confirms. ok is false off 便签's list.
func (c *solver) miuiDeleteNote(in intent) (step, bool) {
	if q := c.byPrefix("确定删除"); q != nil {
		if del := c.byText("删除"); del != nil {
			return tapAt(*del, fmt.Sprintf("便签 asks to confirm; I tap 删除 to delete %q.", in.Title)), true
		}
	}
	if c.byPrefix("已选择") != nil {
		for i, l := range c.obs.Elems {
			if !l.Checked || i+1 >= len(c.obs.Elems) {
				continue
			}
			if !strings.EqualFold(strings.TrimSpace(c.obs.Elems[i+1].Text), in.Title) {
				return back(fmt.Sprintf("The note selected is %q, not %q; I leave the selection.", c.obs.Elems[i+1].Text, in.Title)), true
			}
			if del := c.byText("删除"); del != nil {
				return tapAt(*del, fmt.Sprintf("%q is selected; I tap 删除.", in.Title)), true
			}
		}
		return back("Nothing I want is selected; I leave the selection."), true
	}
	if c.byID("content_add") == nil {
		return step{}, false
	}
	row, name := c.namedNote(in)
	if row == nil && c.tappedDelete() {
		return finish(fmt.Sprintf("Deleted the note %q", in.Title), "I confirmed 删除 and the list no longer shows the note."), true
	}
	if row != nil {
		return longPress(*row, fmt.Sprintf("I press and hold %s to select it.", name)), true
	}
	if c.allListed() || c.count("Swipe") >= maxScrolls {
		return finish(fmt.Sprintf("Cannot do it: there is no %s on this phone", name), "The notes list does not have it."), true
	}
	return c.scroll(true, name), true
}

// cardNumberRe is a phone number as a contact's page shows it.
var cardNumberRe = regexp.MustCompile(`^\+?[\d][\d\s\-()]{5,}\d$`)

// vendorContactCard is the name and number a vendor contact page shows:
// its first text is the name, a text the number, and it offers 发送信息
// or Message.
func (c *solver) vendorContactCard() (name, number string, ok bool) {
	if !c.inApp("Contacts") || c.descControl("发送信息") == nil && c.byText("Message") == nil {
		return "", "", false
	}
	for _, l := range c.obs.Elems {
		switch {
		case l.Text == "":
		case cardNumberRe.MatchString(strings.TrimSpace(l.Text)):
			if number == "" {
				number = l.Text
			}
		case name == "":
			name = l.Text
		}
	}
	return name, number, name != "" && number != ""
}

// vendorContactRows are the names in a vendor Contacts list, each the
// first text inside a clickable row (a letter header is not a name).
func (c *solver) vendorContactRows() []uitree.Listed {
	var rows []uitree.Listed
	row := false
	for _, l := range c.obs.Elems {
		switch {
		case l.Clickable && l.Text == "" && l.Desc == "":
			row = true
		case row && l.Text != "":
			if utf8.RuneCountInString(l.Text) > 1 {
				rows = append(rows, l)
			}
			row = false
		}
	}
	return rows
}
