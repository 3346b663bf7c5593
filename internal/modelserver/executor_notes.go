package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The executor persona's work on notes that already exist: renaming one,
// and reading a note's title (by its place in the list) or its body.

var (
	exRenameRe    = regexp.MustCompile(`(?i)^(?:please\s+)?(?:rename|retitle)\s+(?:the\s+|my\s+)?note\s+["“']?(.+?)["”']?\s+(?:to|as|into)\s+["“']?(.+?)["”']?(?:,?\s+and\s+keep\s+its\s+\w+)?$`)
	exNoteTitleRe = regexp.MustCompile(`(?i)\bnote\s+(?:titled\s+|called\s+|named\s+)?["“']?(.+?)["”']?(?:\s+in\s+(?:the\s+)?Notes(?:\s+app)?)?$`)
	exOpenNoteRe  = regexp.MustCompile(`(?i)^(?:please\s+)?(?:open|show)\s+(?:me\s+)?(?:the\s+|my\s+)?note\s+["“']?(.+?)["”']?(?:\s+in\s+(?:the\s+)?Notes(?:\s+app)?)?$`)
	// exCheckHoldsRe is what an open todo says it looks for: "Open the
	// note "X" to check it holds "butter"". Opening is all it does.
	exCheckHoldsRe = regexp.MustCompile(`\s+to\s+check\s+it\s+holds\s+.*$`)
	exTitleWordRe  = regexp.MustCompile(`(?i)\b(?:title|called|named|name)\b|标题|名字`)
)

// parseNoteTodo reads a rename; false leaves the todo to parseNote.
func parseNoteTodo(t string, in *intent) bool {
	if parseNoteDelete(t, in) {
		return true
	}
	if m := exOpenNoteRe.FindStringSubmatch(exCheckHoldsRe.ReplaceAllString(t, "")); m != nil {
		in.Kind, in.App, in.Title = kindNoteOpen, "Notes", unquote(m[1])
		return true
	}
	m := exRenameRe.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	in.Kind, in.App, in.Title, in.NewTitle = kindNoteRename, "Notes", unquote(m[1]), unquote(m[2])
	return true
}

// parseNoteRead fills a read of a note's title or body: the note named by
// its title, or by its place in the list.
func parseNoteRead(t string, in *intent) {
	in.App, in.What = "Notes", "note body"
	if exTitleWordRe.MatchString(t) && !strings.Contains(strings.ToLower(t), "body") {
		in.What = "note title"
	}
	if in.Ord = exOrdinal(t); in.Ord == 0 && in.What == "note body" {
		if m := exNoteTitleRe.FindStringSubmatch(t); m != nil {
			in.Title = unquote(strings.TrimSpace(m[1]))
		}
	}
	if in.Ord == 0 && in.Title == "" {
		in.Ord = 1
	}
}

// noteRows are the rows of the notes list, in list order.
func (c *solver) noteRows() []*uitree.Listed {
	if c.byID("new_note_button") != nil {
		return c.keepRows()
	}
	if c.byID("content_add") != nil || c.byID("fab") != nil {
		return c.vendorNoteRows()
	}
	var out []*uitree.Listed
	for i, l := range c.obs.Elems {
		if l.Clickable && l.ID == "" && l.Text != "" && !strings.Contains(l.Class, "Button") && !strings.Contains(l.Class, "EditText") {
			out = append(out, &c.obs.Elems[i])
		}
	}
	return out
}

// namedNote finds the list row of the note a todo names.
func (c *solver) namedNote(in intent) (*uitree.Listed, string) {
	rows := c.noteRows()
	switch {
	case in.Title != "":
		for _, r := range rows {
			if strings.EqualFold(strings.TrimSpace(r.Text), in.Title) {
				return r, fmt.Sprintf("the note %q", in.Title)
			}
		}
		return nil, fmt.Sprintf("the note %q", in.Title)
	case in.Ord == -1 && len(rows) > 0:
		return rows[len(rows)-1], "the last note"
	case in.Ord > 0 && in.Ord <= len(rows):
		return rows[in.Ord-1], fmt.Sprintf("note number %d", in.Ord)
	}
	return nil, fmt.Sprintf("note number %d", in.Ord)
}

func (c *solver) readNote(in intent) step {
	if st, ok := c.ensureApp("Notes"); ok {
		return st
	}
	titleF, bodyF := c.noteFields()
	if titleF != nil && bodyF != nil {
		// The editor of the note opened for the read: its fields say it.
		opened := c.prevIs("Tap") && c.count("Tap") > 0
		if in.Title != "" && !strings.EqualFold(value(titleF), in.Title) || in.Title == "" && !opened {
			return back(fmt.Sprintf("This editor holds %q, not the note I should read; I go back.", value(titleF)))
		}
		if in.What == "note title" {
			return finish(value(titleF), fmt.Sprintf("The note's title field reads %q.", value(titleF)))
		}
		if value(bodyF) == "" {
			return finish(fmt.Sprintf("The note %q is empty", value(titleF)), "The body field is empty.")
		}
		return finish(value(bodyF), fmt.Sprintf("The body of the note %q reads %q.", value(titleF), value(bodyF)))
	}
	if c.noteNewButton() == nil {
		return back("This is not the notes list; I go back.")
	}
	row, name := c.namedNote(in)
	if row == nil {
		if c.allListed() || c.count("Swipe") >= maxScrolls {
			return finish(fmt.Sprintf("Cannot do it: there is no %s on this phone", name), "The notes list does not have it.")
		}
		return c.scroll(true, name)
	}
	if in.What == "note title" {
		return finish(row.Text, fmt.Sprintf("The row of %s reads %q.", name, row.Text))
	}
	return tapAt(*row, fmt.Sprintf("I open %s to read it.", name))
}

// renameNote opens the note, types the new title in place of the old one,
// keeps the body, and saves.
func (c *solver) renameNote(in intent) step {
	if in.Title == "" || in.NewTitle == "" {
		return finish("Cannot rename the note: the task does not say which note or its new title", "The task lacks a title.")
	}
	if st, ok := c.ensureApp("Notes"); ok {
		return st
	}
	if titleF, _ := c.noteFields(); titleF != nil {
		save := c.noteSave()
		if c.prevTapAt(save) {
			return finish(fmt.Sprintf("Renamed the note %q to %q", in.Title, in.NewTitle), "The note is saved under its new title.")
		}
		title := value(titleF)
		switch {
		case !c.editingSaved() || !strings.EqualFold(title, in.Title) && title != in.NewTitle:
			return back(fmt.Sprintf("This editor holds %q, not the note I should rename; I go back without changing it.", firstNonEmpty(title, "a new note")))
		case title != in.NewTitle && c.focused(titleF) && !c.prevIs("Type"):
			return typeText(in.NewTitle, "The title field has the focus; I type the new title.")
		case title != in.NewTitle:
			return tapAt(*titleF, "I tap the title field.")
		case save != nil:
			return c.saveNote(save, in.NewTitle, "The note has its new title; I save it.")
		}
		return back("The editor has no Save button; I go back.")
	}
	if c.noteNewButton() == nil {
		return back("This is not the notes list; I go back.")
	}
	if c.typed(in.NewTitle) && c.byText(in.NewTitle) != nil && c.byText(in.Title) == nil {
		return finish(fmt.Sprintf("Renamed the note %q to %q", in.Title, in.NewTitle), "The list shows the new title.")
	}
	if row, name := c.namedNote(in); row != nil {
		return tapAt(*row, fmt.Sprintf("I open %s.", name))
	} else if c.allListed() || c.count("Swipe") >= maxScrolls {
		return finish(fmt.Sprintf("Cannot do it: there is no %s on this phone", name), "The notes list does not have it.")
	}
	return c.scroll(true, fmt.Sprintf("the note %q", in.Title))
}

// openNote opens a note and leaves its editor on the screen, so what it
// holds can be seen.
func (c *solver) openNote(in intent) step {
	if st, ok := c.ensureApp("Notes"); ok {
		return st
	}
	if titleF, _ := c.noteFields(); titleF != nil {
		if c.editingSaved() && strings.EqualFold(value(titleF), in.Title) {
			return finish(fmt.Sprintf("The note %q is open", value(titleF)), "Its editor shows the title and body.")
		}
		return back(fmt.Sprintf("This editor holds %q, not the note I should open; I go back.", value(titleF)))
	}
	if c.noteNewButton() == nil {
		return back("This is not the notes list; I go back.")
	}
	if row, name := c.namedNote(in); row != nil {
		return tapAt(*row, fmt.Sprintf("I open %s.", name))
	} else if c.allListed() || c.count("Swipe") >= maxScrolls {
		return finish(fmt.Sprintf("Cannot do it: there is no %s on this phone", name), "The notes list does not have it.")
	}
	return c.scroll(true, fmt.Sprintf("the note %q", in.Title))
}

func (c *solver) note(in intent) step {
	if in.Title == "" && in.Body == "" {
		return finish("Cannot write the note: the task does not say what it should contain", "The task lacks the note's text.")
	}
	if st, ok := c.ensureApp("Notes"); ok {
		return st
	}
	titleF, bodyF := c.noteFields()
	if titleF != nil && bodyF != nil {
		save := c.noteSave()
		if c.prevTapAt(save) {
			return finish(fmt.Sprintf("Saved the note %q", firstNonEmpty(value(titleF), in.Title)), "The note is saved.")
		}
		title, body := value(titleF), value(bodyF)
		// A wrong tap may have opened another note: leave it untouched.
		existing := c.editingSaved()
		if existing && !strings.EqualFold(title, in.Title) || !existing && in.Edit {
			return back(fmt.Sprintf("This editor holds %q, not the note I need; I go back without changing it.", firstNonEmpty(title, "a new note")))
		}
		wantBody := in.Body
		if in.Append {
			wantBody = body
			if !strings.Contains(body, in.Body) {
				wantBody = strings.TrimSpace(body + " " + in.Body)
			}
		}
		switch {
		case !in.Edit && title != in.Title && c.focused(titleF) && !c.prevIs("Type"):
			return typeText(in.Title, "The title field has the focus; I type the title.")
		case !in.Edit && title != in.Title:
			return tapAt(*titleF, "I tap the title field.")
		case wantBody != "" && body != wantBody && c.focused(bodyF) && !c.prevIs("Type"):
			return typeText(wantBody, "The body field has the focus; I type the text.")
		case wantBody != "" && body != wantBody:
			return tapAt(*bodyF, "I tap the body field.")
		case save != nil:
			return c.saveNote(save, in.Title, "The note reads as wanted; I save it.")
		}
		return back("The editor has no Save button; I go back.")
	}
	if newBtn := c.noteNewButton(); newBtn != nil {
		row := c.byText(in.Title)
		if in.Edit && c.count("Type") > 0 && row != nil {
			return finish(fmt.Sprintf("Saved the note %q", in.Title), "The note is in the list.")
		}
		if !in.Edit && row == nil && c.typed(in.Title) && (in.Body == "" || c.typed(in.Body)) && c.prevIs("Tap") && !c.isErr() {
			// Saved from the editor just now: the list puts the new note
			// where the app keeps it, maybe below the rows on screen.
			return finish(fmt.Sprintf("Saved the note %q", in.Title), "I saved the note and the editor closed; the list may show it below the visible rows.")
		}
		if !in.Edit && row != nil && c.typed(in.Title) {
			if in.Body == "" || c.typed(in.Body) {
				return finish(fmt.Sprintf("Saved the note %q", in.Title), "The note is in the list.")
			}
			return tapAt(*row, fmt.Sprintf("The note %q was saved before its text was in; I open it again to finish it.", in.Title))
		}
		if in.Edit {
			if row := c.byText(in.Title); row != nil {
				return tapAt(*row, fmt.Sprintf("I open the note %q.", in.Title))
			}
			return c.scroll(true, "the note "+strconv.Quote(in.Title))
		}
		return tapAt(*newBtn, fmt.Sprintf("I tap %s.", firstNonEmpty(newBtn.Text, newBtn.Desc)))
	}
	return back("This is not the notes list; I go back.")
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
