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
