package postcond

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func el(class, id, text, desc string, y int) uitree.Element {
	return uitree.Element{Class: "android.widget." + class, ResourceID: id, Text: text, Desc: desc, Clickable: class == "Button" || class == "EditText",
		Bounds: uitree.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 100}}
}

func conversation(with, compose string, sent ...string) []uitree.Element {
	es := []uitree.Element{el("TextView", "title", with, "", 100)}
	for i, s := range sent {
		es = append(es, el("TextView", "", s, "Sent", 300+150*i))
	}
	return append(es, el("EditText", "compose_message_text", compose, "Text message", 1800), el("Button", "send_button", "Send", "", 1800))
}

func TestParseRejectsWhatIsNotInTheVocabulary(t *testing.T) {
	for _, raw := range []string{
		`[{"kind":"looks_done"}]`,
		`[{"kind":"switch","label":"Wi-Fi"}]`,
		`[{"kind":"switch","label":"Wi-Fi","on":"yes"}]`,
		`[{"kind":"last_sent","conversation":"Mom","contains":"{result}"}]`,
		`[{"kind":"answer_seen","type":"colour"}]`,
		`[{"kind":"element_exists","text":"x","extra":1}]`,
		`{"kind":"switch"}`,
	} {
		if _, probs := Parse(json.RawMessage(raw)); len(probs) == 0 {
			t.Errorf("%s: accepted", raw)
		}
	}
	cs, probs := Parse(json.RawMessage(`[{"kind":"switch","label":"Wi-Fi","on":false},{"kind":"answer_seen","type":"time","ordinal":2}]`))
	if len(probs) > 0 || len(cs) != 2 || *cs[0].On || cs[1].Ordinal != 2 {
		t.Fatalf("valid checks: %v %v", cs, probs)
	}
}

func on(b bool) *bool { return &b }

func TestEvalOnTheFinalScreen(t *testing.T) {
	settings := Screen{App: "Settings", AppPackage: "com.android.settings", Elements: []uitree.Element{
		{Class: "android.widget.Switch", Text: "Wi-Fi", Checkable: true, Checked: true},
		{Class: "android.widget.Switch", Text: "Airplane mode", Checkable: true},
		el("TextView", "brightness_value", "Brightness 30%", "", 900),
	}}
	for _, c := range []struct {
		check Check
		held  bool
	}{
		{Check{Kind: Switch, Label: "Wi-Fi", On: on(false)}, false},
		{Check{Kind: Switch, Label: "wi-fi", On: on(true)}, true},
		{Check{Kind: Switch, Label: "Airplane mode", On: on(true)}, false},
		{Check{Kind: FieldHolds, Field: "Brightness", Value: "35%"}, false},
		{Check{Kind: FieldHolds, Field: "Brightness", Value: "3%"}, false},
		{Check{Kind: FieldHolds, Field: "Brightness", Value: "30%"}, true},
		{Check{Kind: AppInFront, App: "Settings"}, true},
		{Check{Kind: AppInFront, App: "Messages"}, false},
		{Check{Kind: ElementAbsent, Text: "Bluetooth"}, true},
	} {
		r := Eval([]Check{c.check}, Observed{Final: settings})
		if r[0].Held != c.held {
			t.Errorf("%s: held %v, want %v (%s)", c.check, r[0].Held, c.held, r[0].Evidence)
		}
	}
	conv := Screen{Elements: conversation("Zhang San", "", "'s phone number to Mom")}
	r := Eval([]Check{{Kind: LastSent, Conversation: "Mom", Contains: "+86 138 0000 0003"}}, Observed{Final: conv})
	if r[0].Held || !strings.Contains(r[0].Evidence, "Zhang San") {
		t.Fatalf("a message to the wrong person held: %+v", r[0])
	}
	conv = Screen{Elements: conversation("Mom", "", "old", "+86 138 0000 0003")}
	if r := Eval([]Check{{Kind: LastSent, Conversation: "Mom", Contains: "+86 138 0000 0003"}}, Observed{Final: conv}); !r[0].Held {
		t.Fatalf("the right message did not hold: %+v", r[0])
	}
}

func TestAnAnswerNotSeenOnAnyScreenIsNotDone(t *testing.T) {
	alarms := Screen{Elements: []uitree.Element{el("TextView", "", "06:30 Gym", "", 300), el("TextView", "", "07:00 Work", "", 500)}}
	o := Observed{Seen: []Screen{alarms}, Final: Screen{}, Answer: "The second alarm is at 07:00"}
	if r := Eval([]Check{{Kind: AnswerSeen, Type: TypeTime, Ordinal: 2}}, o); !r[0].Held {
		t.Fatalf("seen answer: %+v", r[0])
	}
	o.Answer = "The second alarm is at 06:30"
	if r := Eval([]Check{{Kind: AnswerSeen, Type: TypeTime, Ordinal: 2}}, o); r[0].Held {
		t.Fatalf("the first alarm taken for the second held: %+v", r[0])
	}
	o.Answer = "The alarm is at 08:15"
	if r := Eval([]Check{{Kind: AnswerSeen, Type: TypeTime}}, o); r[0].Held {
		t.Fatalf("an answer no screen showed held: %+v", r[0])
	}
	o.Answer = "I could not read it"
	if r := Eval([]Check{{Kind: AnswerSeen, Type: TypeTime}}, o); r[0].Held {
		t.Fatalf("no answer held: %+v", r[0])
	}
}

func TestWrongTargetRefusesACommitTheTodoDoesNotName(t *testing.T) {
	send := el("Button", "send_button", "Send", "", 1800)
	mom := []Check{{Kind: LastSent, Conversation: "Mom", Contains: "see you"}}
	cases := []struct {
		name   string
		task   string
		expect []Check
		screen []uitree.Element
		refuse string
	}{
		{"misread recipient", "Send Mom a message: see you", mom, conversation("Zhang San", "see you"), "Zhang San"},
		{"misread text", "Send Mom a message: see you", mom, conversation("Mom", "'s phone number to Mom"), "message field"},
		{"placeholder", "Send Mom a message with what was read", nil, conversation("Mom", "with what was read"), "placeholder"},
		{"no postcondition, unnamed recipient", "Tell Mom see you", nil, conversation("Bob Li", "see you"), "Bob Li"},
		{"right target", "Send Mom a message: see you", mom, conversation("Mom", "see you"), ""},
		{"first name", "Text Alice hi", nil, conversation("Alice Chen", "hi"), ""},
	}
	for _, c := range cases {
		got := WrongTarget(Target{Task: c.task, Expect: c.expect, Control: send, Elements: c.screen})
		if c.refuse == "" && got != "" || c.refuse != "" && !strings.Contains(got, c.refuse) {
			t.Errorf("%s: %q, want %q", c.name, got, c.refuse)
		}
	}
	alarm := []uitree.Element{el("EditText", "alarm_time", "07:00", "Time (HH:MM)", 200), el("Button", "save_button", "Save", "", 900)}
	if got := WrongTarget(Target{Task: "Turn off the existing 07:00 alarm", Expect: []Check{{Kind: Switch, Label: "07:00", On: on(false)}}, Control: alarm[1], Elements: alarm}); got == "" {
		t.Error("a new alarm saved for a todo that switches an existing one was not refused")
	}
	note := []uitree.Element{el("EditText", "note_title", "Groceries", "Title", 200), el("EditText", "note_body", "milk", "Body", 400), el("Button", "save_button", "Save", "", 900)}
	if got := WrongTarget(Target{Task: "Delete the note Travel", Expect: []Check{{Kind: ElementAbsent, Text: "Travel"}}, Control: note[2], Elements: note}); got == "" {
		t.Error("a save on another note than the one named was not refused")
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`[{"kind":"switch","label":"Wi-Fi","on":true}]`)
	f.Add(`[{"kind":"answer_seen","type":"time","ordinal":3}]`)
	f.Add(`[{"kind":"row_shows","row":"07:30","shows":"Gym"}]`)
	f.Fuzz(func(t *testing.T, s string) {
		cs, probs := Parse(json.RawMessage(s))
		if len(probs) == 0 {
			if p := Valid(cs); len(p) > 0 {
				t.Fatalf("accepted checks fail Valid: %v", p)
			}
			_ = Eval(cs, Observed{})
		}
	})
}

// An answer that only names the app in front, a time given for a label, or
// a value from another row than the one asked is not an answer.
func TestAnswerMustBeTheValueAsked(t *testing.T) {
	row := func(text string, y int) uitree.Element {
		return uitree.Element{Class: "android.widget.LinearLayout", Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 100}}
	}
	in := func(text string, y int) uitree.Element {
		return uitree.Element{Class: "android.widget.TextView", Text: text, Bounds: uitree.Bounds{X1: 10, Y1: y + 10, X2: 500, Y2: y + 90}}
	}
	alarms := Screen{App: "Clock", Elements: []uitree.Element{in("Clock", 0), row("", 300), in("07:00", 300), in("Wake up", 300),
		row("", 500), in("08:30", 500), in("Gym", 500)}}
	for _, c := range []struct {
		check  Check
		answer string
		held   bool
	}{
		{Check{Kind: AnswerSeen, Type: TypeLabel}, "Clock", false},
		{Check{Kind: AnswerSeen, Type: TypeLabel}, "07:00", false},
		{Check{Kind: AnswerSeen, Type: TypeLabel, Ordinal: Last}, "Gym", true},
		{Check{Kind: AnswerSeen, Type: TypeLabel, Ordinal: Last}, "Wake up", false},
		{Check{Kind: AnswerSeen, Type: TypeTime, Ordinal: Last}, "08:30", true},
		{Check{Kind: AnswerSeen, Type: TypeTime, Ordinal: Last}, "07:00", false},
	} {
		r := Eval([]Check{c.check}, Observed{Final: alarms, Answer: c.answer})
		if r[0].Held != c.held {
			t.Errorf("%s, answer %q: held %v, want %v (%s)", c.check, c.answer, r[0].Held, c.held, r[0].Evidence)
		}
	}
	if probs := Valid([]Check{{Kind: AnswerSeen, Type: TypeTime, Ordinal: Last}}); len(probs) > 0 {
		t.Errorf("the last is a valid ordinal: %v", probs)
	}
}

// A conversation is the one a check names when its title is that name or
// starts with it as a first name, never when the name only starts with the
// title: a message sent to Mom does not show one sent to "Mom and Bob".
func TestConversationNamedByTheCheckOnly(t *testing.T) {
	c := Check{Kind: LastSent, Conversation: "Mom and to Bob", Contains: "On my way"}
	if r := Eval([]Check{c}, Observed{Final: Screen{Elements: conversation("Mom", "", "On my way")}}); r[0].Held {
		t.Fatalf("held on Mom's conversation: %+v", r[0])
	}
	c.Conversation = "Bob"
	if r := Eval([]Check{c}, Observed{Final: Screen{Elements: conversation("Bob Li", "", "On my way")}}); !r[0].Held {
		t.Fatalf("a first name does not name the conversation: %+v", r[0])
	}
}

// The name of an app (an icon on the home screen, the app in front) or of
// an app's top screen is never the value a question asks for, and neither
// is a value the question itself holds, however the answer repeats the
// question around it.
func TestAnAppOrScreenNameOrTheQuestionIsNoAnswer(t *testing.T) {
	icon := func(name string, x int) uitree.Element {
		return uitree.Element{Class: "android.widget.TextView", Text: name, Desc: name, Clickable: true, Bounds: uitree.Bounds{X1: x, Y1: 640, X2: x + 270, Y2: 940}}
	}
	home := Screen{App: "Launcher", Elements: []uitree.Element{
		{Class: "android.widget.TextView", ResourceID: "clock", Text: "09:41", Bounds: uitree.Bounds{X1: 0, Y1: 260, X2: 1080, Y2: 480}},
		icon("Settings", 0), icon("Contacts", 270), icon("Messages", 540), icon("Clock", 810)}}
	row := func(name string, y int) uitree.Element {
		return uitree.Element{Class: "android.widget.TextView", Text: name, Clickable: true, Bounds: uitree.Bounds{X1: 0, Y1: y, X2: 1080, Y2: y + 160}}
	}
	list := Screen{App: "Contacts", Elements: []uitree.Element{el("TextView", "title", "People", "", 100),
		row("Alice Chen", 300), row("Bob Li", 460), row("李四", 620)}}
	card := Screen{App: "Contacts", Elements: []uitree.Element{el("ImageButton", "", "", "Navigate up", 100), el("TextView", "title", "Alice Chen", "", 100),
		el("TextView", "phone_number", "+1 555 0101", "", 300), el("Button", "message_button", "Message", "", 500)}}
	for _, c := range []struct {
		name     string
		check    Check
		seen     []Screen
		question string
		answer   string
		held     bool
	}{
		{"an icon's name as the second person", Check{Kind: AnswerSeen, Type: TypeLabel, Ordinal: 2}, []Screen{home},
			"Read me the name of the second person in my contacts", "Done: Read me the name of the second person in my contacts: Contacts.", false},
		{"the second person", Check{Kind: AnswerSeen, Type: TypeLabel, Ordinal: 2}, []Screen{home, list},
			"Read me the name of the second person in my contacts", "Done: Read me the name of the second person in my contacts: Bob Li.", true},
		{"the app's name for a number's owner", Check{Kind: AnswerSeen, Type: TypeLabel}, []Screen{home, card},
			"Check who +1 555 0101 belongs to in my contacts", "Done: Check who +1 555 0101 belongs to in my contacts: Contacts.", false},
		{"the number asked about for its owner", Check{Kind: AnswerSeen, Type: TypeLabel}, []Screen{card},
			"Check who +1 555 0101 belongs to in my contacts", "It is +1 555 0101", false},
		{"the owner of a number", Check{Kind: AnswerSeen, Type: TypeLabel}, []Screen{home, card},
			"Check who +1 555 0101 belongs to in my contacts", "Done: Check who +1 555 0101 belongs to in my contacts: Alice Chen.", true},
		{"the top screen's name", Check{Kind: AnswerSeen, Type: TypeLabel}, []Screen{list},
			"Which list is this", "People", false},
		{"a person the question names", Check{Kind: AnswerSeen, Type: TypeLabel}, []Screen{list},
			"Show me 李四 in Contacts", "Done: 李四", false},
		{"a number the question holds", Check{Kind: AnswerSeen, Type: TypePhone}, []Screen{card},
			"Whose number is +1 555 0101", "+1 555 0101", false},
		{"a number read", Check{Kind: AnswerSeen, Type: TypePhone}, []Screen{card},
			"Read Alice Chen's phone number in Contacts", "Done: Read Alice Chen's phone number in Contacts: +1 555 0101", true},
	} {
		final := c.seen[len(c.seen)-1]
		r := Eval([]Check{c.check}, Observed{Final: final, Seen: c.seen, Answer: c.answer, Question: c.question})
		if r[0].Held != c.held {
			t.Errorf("%s: answer %q held %v, want %v (%s)", c.name, c.answer, r[0].Held, c.held, r[0].Evidence)
		}
	}
}
