package phonesim

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Notes against the ids and hints public Appium tests
// find in Google Keep (layout_pixel_notes.go).

func byShortID(id string) func(uitree.Element) bool {
	return func(e uitree.Element) bool { return e.ShortID() == id }
}

func TestPixelNotesListIsKeeps(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgNotes)
	es := simDump(t, p)
	par := uitree.Parents(es)
	title := es[find(t, es, "index_note_title", byShortID("index_note_title"))]
	text := es[find(t, es, "index_note_text_description", byShortID("index_note_text_description"))]
	if title.Text != "Shopping list" || text.Text != "Milk, eggs, bread" {
		t.Fatalf("the card reads %q / %q", title.Text, text.Text)
	}
	ti, xi := find(t, es, "title", byShortID("index_note_title")), find(t, es, "text", byShortID("index_note_text_description"))
	card := es[par[ti]]
	if card.ShortID() != "browse_text_note" || !card.Clickable || par[xi] != par[ti] || text.Bounds.Y1 < title.Bounds.Y2 {
		t.Fatalf("title and snippet are not one card's, title above snippet: card %+v", card)
	}
	fab := es[find(t, es, "New text note", byDesc("New text note"))]
	if fab.ShortID() != "new_note_button" || fab.ShortClass() != "ImageButton" || fab.Text != "" {
		t.Fatalf("the FAB is %+v", fab)
	}
	if w, h := p.lw, p.lh; fab.Bounds.X1 < w/2 || fab.Bounds.Y1 < h*3/4 {
		t.Fatalf("the FAB sits at %+v, not at the bottom right", fab.Bounds)
	}
	find(t, es, "the search bar", byText("Search your notes"))
	for _, e := range es {
		if e.Text == "New note" || e.Text == "Save" {
			t.Fatalf("the classic Notes' %q shows under the Pixel skin", e.Text)
		}
	}
}

func TestPixelNotesEditorSavesOnLeaving(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgNotes)
	tapWhere(t, p, "New text note", byDesc("New text note"))
	es := simDump(t, p)
	for id, hint := range map[string]string{"editable_title": "Title", "edit_note_text": "Note"} {
		f := es[find(t, es, id, byShortID(id))]
		if f.ShortClass() != "EditText" || f.Hint != hint || f.Text != hint {
			t.Fatalf("the empty %s field is %+v", id, f)
		}
	}
	if p.State().Screen.Page != pageEditor {
		t.Fatalf("New text note opened %+v", p.State().Screen)
	}
	tapWhere(t, p, "the title field", byShortID("editable_title"))
	typeADB(t, p, "Trip")
	tapWhere(t, p, "the note field", byShortID("edit_note_text"))
	typeADB(t, p, "passport")
	tapUp(t, p)
	if n := p.State().Notes; len(n) != 2 || n[1] != (Note{Title: "Trip", Body: "passport"}) {
		t.Fatalf("after Navigate up the notes are %+v", n)
	}
	// An existing note changed and left with the system Back is saved too.
	tapWhere(t, p, "the Trip card", byText("Trip"))
	find(t, simDump(t, p), "the edit time", byShortID("edit_date"))
	tapWhere(t, p, "the title field", byShortID("editable_title"))
	replaceADB(t, p, "Travel")
	sh(t, p, "input keyevent KEYCODE_BACK") // the keyboard
	if p.State().Screen.Page == pageEditor {
		sh(t, p, "input keyevent KEYCODE_BACK")
	}
	if n := p.State().Notes; len(n) != 2 || n[1].Title != "Travel" || n[1].Body != "passport" {
		t.Fatalf("after Back the notes are %+v", n)
	}
	// Leaving a new note untouched saves nothing.
	tapWhere(t, p, "New text note", byDesc("New text note"))
	tapUp(t, p)
	if n := p.State().Notes; len(n) != 2 {
		t.Fatalf("an empty new note was kept: %+v", n)
	}
}

func TestPixelNotesDeleteFromMore(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgNotes)
	tapWhere(t, p, "the card", byText("Shopping list"))
	tapWhere(t, p, "More", byDesc("More"))
	tapWhere(t, p, "Delete", byText("Delete"))
	if n := p.State().Notes; len(n) != 0 {
		t.Fatalf("after Delete the notes are %+v", n)
	}
	if s := p.State().Screen; s.Page != pageList {
		t.Fatalf("Delete left the screen on %+v", s)
	}
	for _, e := range simDump(t, p) {
		if e.Text == "Shopping list" {
			t.Fatal("the deleted note's card is still listed")
		}
	}
}

func TestClassicNotesUnchangedBySkin(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgNotes)
	es := simDump(t, p)
	find(t, es, "New note", byText("New note"))
	for _, e := range es {
		if e.ShortID() == "new_note_button" || e.ShortID() == "browse_text_note" {
			t.Fatalf("Keep's %s shows on the classic skin", e.ShortID())
		}
	}
}

// keepCards are the titles of the cards Keep's list shows, top first.
func keepCards(t *testing.T, p *Phone) []string {
	t.Helper()
	var out []string
	for _, e := range simDump(t, p) {
		if e.ShortID() == "index_note_title" {
			out = append(out, e.Text)
		}
	}
	return out
}

// Keep lists the most recently edited note first: a new note and a note
// changed go to the top, a note opened and left unchanged keeps its
// place, and the notes the phone started with are listed latest made
// first. The phone's notes keep the order they were made in, and the
// classic Notes lists them so.
func TestPixelNotesListsTheNewestEditFirst(t *testing.T) {
	p := pixelPhone()
	p.Fill(Fill{Notes: 2})
	launch(t, p, pkgNotes)
	want := func(step string, cards ...string) {
		t.Helper()
		if got := keepCards(t, p); !slices.Equal(got, cards) {
			t.Fatalf("%s: the cards read %q, want %q", step, got, cards)
		}
	}
	want("at the start", "Note 2", "Note 1", "Shopping list")
	tapWhere(t, p, "New text note", byDesc("New text note"))
	tapWhere(t, p, "the title field", byShortID("editable_title"))
	typeADB(t, p, "Trip")
	tapUp(t, p)
	want("after a new note", "Trip", "Note 2", "Note 1", "Shopping list")
	tapWhere(t, p, "the Shopping list card", byText("Shopping list"))
	tapWhere(t, p, "the note field", byShortID("edit_note_text"))
	typeADB(t, p, ", tea")
	sh(t, p, "input keyevent KEYCODE_BACK")
	want("after an edit", "Shopping list", "Trip", "Note 2", "Note 1")
	tapWhere(t, p, "the Note 1 card", byText("Note 1"))
	tapUp(t, p)
	want("after a look", "Shopping list", "Trip", "Note 2", "Note 1")
	tapWhere(t, p, "the Trip card", byText("Trip"))
	tapWhere(t, p, "More", byDesc("More"))
	tapWhere(t, p, "Delete", byText("Delete"))
	want("after a delete", "Shopping list", "Note 2", "Note 1")
	tapWhere(t, p, "the Note 2 card", byText("Note 2"))
	tapWhere(t, p, "the title field", byShortID("editable_title"))
	replaceADB(t, p, "Second")
	tapUp(t, p)
	want("after a rename", "Second", "Shopping list", "Note 1")
	var made []string
	for _, n := range p.State().Notes {
		made = append(made, n.Title)
	}
	if w := []string{"Shopping list", "Note 1", "Second"}; !slices.Equal(made, w) {
		t.Fatalf("the phone's notes are %q, want them in the order made, %q", made, w)
	}

	c := New(Config{})
	c.Fill(Fill{Notes: 2})
	launch(t, c, pkgNotes)
	tapWhere(t, c, "the Note 1 row", byText("Note 1"))
	tapWhere(t, c, "the body field", byShortID("note_body"))
	typeADB(t, c, " more")
	tapWhere(t, c, "Save", byText("Save"))
	var rows []string
	for _, e := range simDump(t, c) {
		if e.Clickable && strings.HasPrefix(e.Text, "Note ") || e.Text == "Shopping list" {
			rows = append(rows, e.Text)
		}
	}
	if w := []string{"Shopping list", "Note 1", "Note 2"}; !slices.Equal(rows, w) {
		t.Fatalf("the classic list reads %q after an edit, want %q as before", rows, w)
	}
}

// A card below the screen's edge is not in the tree, and the list that
// holds it is scrollable and swiped to it, as the probe that looks past
// the edge needs (a deleted note is not taken for one scrolled off). The
// oldest note is the bottom card.
func TestPixelNotesListScrollsToACardPastTheEdge(t *testing.T) {
	p := pixelPhone()
	p.Fill(Fill{Notes: 30})
	launch(t, p, pkgNotes)
	if cards := keepCards(t, p); len(cards) == 0 || cards[0] != "Note 30" {
		t.Fatalf("the top cards are %q, want the latest note, Note 30, first", cards)
	}
	shown := func() bool {
		return slices.Contains(keepCards(t, p), "Shopping list")
	}
	if shown() {
		t.Fatal("the oldest card is in the tree before any scroll")
	}
	list := simDump(t, p)[find(t, simDump(t, p), "the notes list", func(e uitree.Element) bool { return e.Scrollable })]
	x, _ := list.Bounds.Center()
	for i := 0; i < 20 && !shown(); i++ {
		sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", x, list.Bounds.Y2-100, x, list.Bounds.Y1+100))
	}
	if !shown() {
		t.Fatal("swiping the list never brought the last card on screen")
	}
}

// Keep has no Save: leaving a filled editor by Navigate up saves it, so
// the commit check judges that tap as it judges a Save. A body other than
// the one the todo says is refused; the right one, and an editor left
// empty, are not.
func TestKeepSavesOnLeavingAndIsJudgedSo(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgNotes)
	tapWhere(t, p, "New text note", byDesc("New text note"))
	judge := func(task string) (string, bool) {
		t.Helper()
		es := simDump(t, p)
		up := es[find(t, es, "Navigate up", byDesc("Navigate up"))]
		if !postcond.SavesOnLeaving(up, es, postcond.DefaultCommitLabels) {
			return "", false
		}
		return postcond.WrongTarget(postcond.Target{Task: task, Control: up, Elements: es,
			Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.ElementExists, Text: "Ideas"}}}), true
	}
	if _, saves := judge(`Create a note titled "Ideas" saying "周五交报告"`); saves {
		t.Error("an empty new note is judged as a save when left")
	}
	tapWhere(t, p, "the title field", byShortID("editable_title"))
	typeADB(t, p, "Ideas")
	tapWhere(t, p, "the note field", byShortID("edit_note_text"))
	typeADB(t, p, "ok")
	if why, saves := judge(`Create a note titled "Ideas" saying "周五交报告"`); !saves || why == "" {
		t.Errorf("leaving Ideas with the body ok for a todo saying 周五交报告: saves %t, refused %q; want a refusal", saves, why)
	}
	if why, saves := judge(`Create a note titled "Ideas" saying "ok"`); !saves || why != "" {
		t.Errorf("leaving Ideas with the body the todo says: saves %t, refused %q; want it let through", saves, why)
	}
	// The system Back leaves the editor as Navigate up does, and is
	// judged as that tap: on a saved note only where the todo names it.
	es := simDump(t, p)
	if i, ok := postcond.BackSaves(`Create a note titled "Ideas" saying "ok"`, es, postcond.DefaultCommitLabels); !ok || es[i].Desc != "Navigate up" {
		t.Errorf("a Back on the filled new editor stands for %v, %t; want its Navigate up", i, ok)
	}
	sh(t, p, "input keyevent KEYCODE_BACK")
	tapWhere(t, p, "the Shopping list card", byText("Shopping list"))
	es = simDump(t, p)
	if _, ok := postcond.BackSaves(`Create a note titled "Ideas" saying "ok"`, es, postcond.DefaultCommitLabels); ok {
		t.Error("a Back on a saved note the todo does not name is judged as a save")
	}
	if _, ok := postcond.BackSaves(`Add tea to the note Shopping list`, es, postcond.DefaultCommitLabels); !ok {
		t.Error("a Back on the saved note the todo names is not judged as a save")
	}
}
