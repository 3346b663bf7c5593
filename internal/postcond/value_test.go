package postcond

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A form about to be saved with a time or a phone number the postconditions
// do not name is the wrong record, whatever its other fields hold: an
// executor that misread "10:15" as "11:15" must not create the alarm.
func TestAFormWithAnotherValueIsNotSaved(t *testing.T) {
	alarm := func(at, label string) []uitree.Element {
		return []uitree.Element{
			el("EditText", "alarm_time", at, "Time (HH:MM)", 200),
			el("EditText", "alarm_label", label, "Label", 400),
			el("Button", "save_button", "Save", "", 900),
		}
	}
	contact := func(name, phone string) []uitree.Element {
		return []uitree.Element{
			el("EditText", "contact_name", name, "Name", 200),
			el("EditText", "contact_phone", phone, "Phone", 400),
			el("Button", "save_button", "Save", "", 900),
		}
	}
	at := func(s string) []Check { return []Check{{Kind: ElementExists, Text: s}} }
	cases := []struct {
		name   string
		expect []Check
		screen []uitree.Element
		refuse string
	}{
		{"another hour", at("10:15"), alarm("11:15", ""), "11:15"},
		{"another minute, labelled", []Check{{Kind: RowShows, Row: "07:45", Shows: "Gym"}}, alarm("08:45", "Gym"), "08:45"},
		{"12-hour form of the same time", at("19:05"), alarm("7:05 PM", ""), ""},
		{"leading zero", at("07:00"), alarm("7:00", ""), ""},
		{"the time wanted", at("10:15"), alarm("10:15", "Work"), ""},
		{"no time in the postconditions", []Check{{Kind: AppInFront, App: "Clock"}}, alarm("11:15", ""), ""},
		{"another number", []Check{{Kind: RowShows, Row: "Bob", Shows: "555-0100"}}, contact("Bob", "555 0199"), "555 0199"},
		{"the number wanted, other separators", []Check{{Kind: RowShows, Row: "Bob", Shows: "555-0100"}}, contact("Bob", "(555) 0100"), ""},
	}
	for _, c := range cases {
		save := c.screen[len(c.screen)-1]
		got := WrongTarget(Target{Task: "make it", Expect: c.expect, Control: save, Elements: c.screen})
		if c.refuse == "" && got != "" || c.refuse != "" && !strings.Contains(got, c.refuse) {
			t.Errorf("%s: %q, want a refusal naming %q", c.name, got, c.refuse)
		}
	}
	// A field that holds more than a time is a text, not a time: a note's
	// body that mentions another hour is saved.
	note := []uitree.Element{el("EditText", "note_title", "Standup", "Title", 200), el("EditText", "note_body", "moved to 11:15", "Body", 400), el("Button", "save_button", "Save", "", 900)}
	if got := WrongTarget(Target{Task: "Write a note Standup: moved to 11:15", Expect: []Check{{Kind: ElementExists, Text: "Standup"}, {Kind: ElementExists, Text: "10:15"}}, Control: note[2], Elements: note}); got != "" {
		t.Errorf("a note whose body mentions a time was refused: %q", got)
	}
}

func TestWholeValue(t *testing.T) {
	for _, c := range []struct{ typ, in, want string }{
		{TypeTime, "7:05 pm", "19:05"},
		{TypeTime, " 10:15 ", "10:15"},
		{TypeTime, "at 10:15", ""},
		{TypeTime, "10:15 and 11:00", ""},
		{TypePhone, "(555) 0100", "5550100"},
		{TypePhone, "+1 555-0100", "15550100"},
		{TypePhone, "call 555-0100", ""},
	} {
		if got := wholeValue(c.typ, c.in); got != c.want {
			t.Errorf("wholeValue(%s, %q) = %q, want %q", c.typ, c.in, got, c.want)
		}
	}
}

// A title typed in an editor left open is not a saved note: element_exists
// looks past input fields, so the todo that never pressed Save is not done.
func TestATypedValueIsNotShownAsSaved(t *testing.T) {
	editor := []uitree.Element{el("EditText", "note_title", "Trip", "Title", 200), el("EditText", "note_body", "ok", "Body", 400), el("Button", "save_button", "Save", "", 900)}
	if r := Eval([]Check{{Kind: ElementExists, Text: "Trip"}}, Observed{Final: Screen{App: "Notes", Elements: editor}})[0]; r.Held {
		t.Fatalf("the typed title counted as shown: %s", r.Evidence)
	}
	list := []uitree.Element{el("TextView", "note_row", "Trip", "", 200)}
	if !Eval([]Check{{Kind: ElementExists, Text: "Trip"}}, Observed{Final: Screen{App: "Notes", Elements: list}})[0].Held {
		t.Fatal("the saved note's row was not shown")
	}
}

// A note saved with other words than the todo quotes is refused: the notes
// list shows titles only, so the body would be saved unseen.
func TestANoteWithOtherWordsIsNotSaved(t *testing.T) {
	note := func(body string) []uitree.Element {
		return []uitree.Element{el("EditText", "note_title", "Trip", "Title", 200), el("EditText", "note_body", body, "Body", 400), el("Button", "save_button", "Save", "", 900)}
	}
	task := `Create a note titled "Trip" saying "pack passport"`
	expect := []Check{{Kind: AppInFront, App: "Notes"}, {Kind: ElementExists, Text: "Trip"}}
	for body, refuse := range map[string]bool{"ok": true, "pack": true, "pack passport": false, "Pack passport": false} {
		s := note(body)
		got := WrongTarget(Target{Task: task, Expect: expect, Control: s[2], Elements: s})
		if refuse != (got != "") {
			t.Errorf("body %q: %q, refuse %v", body, got, refuse)
		}
	}
	s := note("anything")
	if got := WrongTarget(Target{Task: "Create a note titled Trip", Expect: expect, Control: s[2], Elements: s}); got != "" {
		t.Errorf("a todo that quotes no words refused %q", got)
	}
}
