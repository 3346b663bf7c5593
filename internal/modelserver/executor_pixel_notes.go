package modelserver

import (
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Pixel's Notes (the simulator's pixel skin, docs/phones.md#skins) is
// Google Keep: the list's cards (browse_text_note) show a note's title in
// index_note_title and the start of its text below, the list's button is
// an ImageButton described "New text note" (new_note_button), and the
// editor's editable_title and edit_note_text fields are kept as the
// editor is left, by its Navigate up or the system Back: there is no Save. A saved note's
// editor says when it was last edited (edit_date), a new one does not.
// The classic Notes is read by its words ("New note", "Edit note", Save);
// the helpers here read either.

// noteNewButton is the notes list's button that starts a note: the
// classic "New note", Keep's "New text note"; nil off the list.
func (c *solver) noteNewButton() *uitree.Listed {
	if b := c.byText("New note"); b != nil && c.byID("note_title") == nil {
		return b
	}
	if b := c.byID("new_note_button"); b != nil {
		return b
	}
	if b := c.byID("content_add"); b != nil { // 便签
		return b
	}
	if b := c.byID("fab"); b != nil && c.inApp("Notes") { // Samsung Notes
		return b
	}
	return nil
}

// noteFields are the editor's title and text fields, nil off an editor.
func (c *solver) noteFields() (title, body *uitree.Listed) {
	if t, b := c.byID("note_title"), c.byID("note_body"); t != nil && b != nil {
		return t, b
	}
	if t, b := c.byID("editable_title"), c.byID("edit_note_text"); t != nil && b != nil {
		return t, b
	}
	return c.vendorNoteFields()
}

// noteSave is what keeps the editor's note: the classic Save button,
// Keep's Navigate up.
func (c *solver) noteSave() *uitree.Listed {
	if s := c.byID("save_button"); s != nil {
		return s
	}
	if c.byID("editable_title") != nil {
		for i, l := range c.obs.Elems {
			if l.Desc == "Navigate up" && l.Clickable {
				return &c.obs.Elems[i]
			}
		}
		return nil
	}
	if t, _ := c.vendorNoteFields(); t != nil {
		return c.vendorNoteSave()
	}
	return c.byText("Save")
}

// saveNote keeps the editor's note by its save control (noteSave). On
// Keep, 便签 and Samsung Notes, where leaving the editor saves it, the
// persona leaves some notes by the system Back instead, as a real model
// often does: those whose title draws it (leavesByBack), so a todo always
// leaves the same way.
func (c *solver) saveNote(save *uitree.Listed, title, why string) step {
	if c.savesOnLeaving() && leavesByBack(title) {
		return back(strings.TrimSuffix(why, " I save it.") + " The app saves it as its editor is left; I press Back.")
	}
	return tapAt(*save, why)
}

// leavesByBack draws, from a note's title, whether the persona leaves
// Keep's editor by Back: about half the titles do.
func leavesByBack(title string) bool {
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(title))))
	return h.Sum32()%2 == 1
}

// editingSaved reports an editor opened on a saved note: the classic
// one titled "Edit note", Keep's showing when the note was edited.
func (c *solver) editingSaved() bool {
	if c.byID("editable_title") != nil {
		e := c.byID("edit_date")
		return e != nil && strings.HasPrefix(e.Text, "Edited")
	}
	if t, b := c.vendorNoteFields(); t != nil {
		return c.vendorEditingSaved(value(t), value(b))
	}
	return c.byText("Edit note") != nil
}

// keepRows are Keep's cards in list order, each by its title, or by its
// text where it has no title.
func (c *solver) keepRows() []*uitree.Listed {
	var out []*uitree.Listed
	card := false // inside a card that has no row yet
	for i, l := range c.obs.Elems {
		switch l.ID {
		case "browse_text_note":
			card = true
		case "index_note_title", "index_note_text_description":
			if card && l.Text != "" {
				out = append(out, &c.obs.Elems[i])
				card = false
			}
		}
	}
	return out
}

// kindNoteDelete is a todo that deletes a note by its title.
const kindNoteDelete = "note-delete"

// parseNoteDelete reads "Delete the note "X"": false for another todo.
func parseNoteDelete(t string, in *intent) bool {
	if !exDeleteRe.MatchString(t) {
		return false
	}
	m := exNoteTitleRe.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	in.Kind, in.App, in.Title = kindNoteDelete, "Notes", unquote(strings.TrimSpace(m[1]))
	return true
}

// deleteNote opens the note, opens the editor's More and taps Delete, on
// Keep; the classic Notes has no way to delete a note, and says so. It
// is done once the list no longer shows the note after Delete was tapped;
// a list that merely does not show it is scrolled, never taken for done.
func (c *solver) deleteNote(in intent) step {
	if st, ok := c.ensureApp("Notes"); ok {
		return st
	}
	if st, ok := c.miuiDeleteNote(in); ok {
		return st
	}
	vendorTitle, _ := c.vendorNoteFields()
	del := c.byText("Delete")
	if del != nil && (c.byText("Make a copy") != nil || c.byText("Save as file") != nil) {
		return tapAt(*del, fmt.Sprintf("The note's menu is open; I tap Delete to delete %q.", in.Title))
	}
	if c.byID("new_note_button") == nil && c.byID("editable_title") == nil && c.byID("fab") == nil && vendorTitle == nil && !c.miuiNoteEditor() {
		return finish("Cannot do it: this Notes app has no way to delete a note", "Neither the notes list nor the note's editor offers Delete.")
	}
	if titleF, _ := c.noteFields(); titleF != nil {
		if !c.editingSaved() || !strings.EqualFold(value(titleF), in.Title) {
			return back(fmt.Sprintf("This editor holds %q, not the note I should delete; I go back.", firstNonEmpty(value(titleF), "a new note")))
		}
		for i, l := range c.obs.Elems {
			if (l.Desc == "More" || l.Desc == "More options") && l.Clickable {
				return tapAt(c.obs.Elems[i], "The note is open; I open its More menu.")
			}
		}
		if c.miuiNoteEditor() {
			return back("便签 deletes a note from its list; I go back to it.")
		}
		return back("The editor has no More menu; I go back.")
	}
	if c.noteNewButton() == nil {
		return back("This is not the notes list; I go back.")
	}
	row, name := c.namedNote(in)
	if row == nil && c.tappedDelete() {
		return finish(fmt.Sprintf("Deleted the note %q", in.Title), "I tapped Delete in the note's menu and the editor closed onto the list.")
	}
	if row != nil {
		return tapAt(*row, fmt.Sprintf("I open %s to delete it.", name))
	}
	if c.allListed() || c.count("Swipe") >= maxScrolls {
		return finish(fmt.Sprintf("Cannot do it: there is no %s on this phone", name), "The notes list does not have it.")
	}
	return c.scroll(true, name)
}

// tappedDelete reports a tap of this todo on a Delete, known by the
// approval its message asked for.
func (c *solver) tappedDelete() bool {
	for _, a := range c.hist {
		if a.Name == "Tap" && strings.Contains(a.Message, "deletes data") {
			return true
		}
	}
	return false
}
