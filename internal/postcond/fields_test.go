package postcond

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func noteEditor(title, body string) []uitree.Element {
	return []uitree.Element{el("TextView", "title", "Edit note", "", 50), el("EditText", "note_title", title, "Title", 200),
		el("EditText", "note_body", body, "Body", 400), el("Button", "save_button", "Save", "", 900)}
}

// A note's body shows only in its editor's field: what the field held
// when the todo opened it is an answer, what the todo typed there is not.
func TestAnswerFromASavedFieldNotATypedOne(t *testing.T) {
	list := Screen{Elements: []uitree.Element{el("TextView", "", "Shopping list", "", 200), el("Button", "new_note", "New note", "", 900)}}
	opened := Screen{Elements: noteEditor("Shopping list", "Milk, eggs, bread")}
	read := []Check{{Kind: AnswerSeen, Type: TypeLabel}}
	o := Observed{Seen: []Screen{list, opened}, Final: opened, Answer: "Milk, eggs, bread", Question: `Read the body of the note "Shopping list" in Notes`}
	if r := Eval(read, o); !r[0].Held {
		t.Fatalf("the saved body read from its editor did not hold: %+v", r[0])
	}
	typed := Screen{Elements: noteEditor("Shopping list", "caviar")}
	o = Observed{Seen: []Screen{list, opened, typed}, Final: typed, Answer: "caviar", Question: o.Question}
	if r := Eval(read, o); r[0].Held {
		t.Fatalf("text the todo typed into the field held as an answer: %+v", r[0])
	}
	blank := Screen{Elements: noteEditor("", "")}
	o = Observed{Seen: []Screen{list, blank, Screen{Elements: noteEditor("", "made up")}}, Final: list, Answer: "made up", Question: o.Question}
	if r := Eval(read, o); r[0].Held {
		t.Fatalf("text typed into a new note held as an answer: %+v", r[0])
	}
}

// A rename saves the record with its new name typed: not a wrong target.
// Another name typed in its place is.
func TestWrongTargetKnowsARename(t *testing.T) {
	expect := []Check{{Kind: AppInFront, App: "Notes"}, {Kind: ElementExists, Text: "New note"}, {Kind: ElementExists, Text: "Trip"}, {Kind: ElementAbsent, Text: "Shopping list"}}
	task := `Rename the note "Shopping list" to "Trip"`
	for _, c := range []struct {
		title, refuse string
	}{{"Trip", ""}, {"Shopping list", ""}, {"Packing", "Packing"}, {"New note", "New note"}} {
		es := noteEditor(c.title, "Milk, eggs, bread")
		got := WrongTarget(Target{Task: task, Expect: expect, Control: es[3], Elements: es})
		if c.refuse == "" && got != "" || c.refuse != "" && !strings.Contains(got, c.refuse) {
			t.Errorf("saving a note titled %q: %q, want %q", c.title, got, c.refuse)
		}
	}
}

// On a list whose rows are switched, not tapped, the n-th row is the band
// of the n-th switch: its label is the answer, another row's is not.
func TestOrdinalLabelBesideASwitch(t *testing.T) {
	sw := func(desc string, y int, on bool) uitree.Element {
		return uitree.Element{Class: "android.widget.Switch", Desc: desc, Checkable: true, Checked: on, Clickable: true,
			Bounds: uitree.Bounds{X1: 860, Y1: y + 30, X2: 1040, Y2: y + 170}}
	}
	row := func(text string, y int) uitree.Element {
		return uitree.Element{Class: "android.widget.TextView", Text: text, Bounds: uitree.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 200}}
	}
	alarms := Screen{Elements: []uitree.Element{row("07:00 Wake up", 300), sw("07:00 Wake up", 300, true), row("08:30 Gym", 500), sw("08:30 Gym", 500, false)}}
	second := []Check{{Kind: AnswerSeen, Type: TypeLabel, Ordinal: 2}}
	if r := Eval(second, Observed{Seen: []Screen{alarms}, Final: alarms, Answer: "Gym"}); !r[0].Held {
		t.Fatalf("the second alarm's label did not hold: %+v", r[0])
	}
	if r := Eval(second, Observed{Seen: []Screen{alarms}, Final: alarms, Answer: "Wake up"}); r[0].Held {
		t.Fatalf("the first alarm's label held for the second: %+v", r[0])
	}
	state := func(c Check, ans string) bool { return Eval([]Check{c}, Observed{Final: alarms, Answer: ans})[0].Held }
	gym := Check{Kind: AnswerSeen, Type: TypeState, Label: "Gym"}
	if !state(gym, "The 08:30 Gym alarm is off") || state(gym, "It is on") || state(gym, "on or off") {
		t.Error("the state of the Gym alarm is not judged on its own switch")
	}
	if first := (Check{Kind: AnswerSeen, Type: TypeState, Ordinal: 1}); !state(first, "on") || state(first, "off") {
		t.Error("the state of the first alarm is not judged on the first switch")
	}
	if p := Valid([]Check{{Kind: AnswerSeen, Type: TypeState}}); len(p) == 0 {
		t.Error("a state check that names no switch was accepted")
	}
}
