package routine

import (
	"reflect"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		todo     string
		template string
		params   []Param
	}{
		{`Send Alice a message saying "see you at 7"`, "send {1} a message saying {2}",
			[]Param{{Kind: KindName, Value: "Alice"}, {Kind: KindQuoted, Value: "see you at 7"}}},
		{`send bob a message saying 'running late, sorry!'.`, "send bob a message saying {1}",
			[]Param{{Kind: KindQuoted, Value: "running late, sorry!"}}},
		{"Send Alice a message: 07:00", "send {1} a message: {2}",
			[]Param{{Kind: KindName, Value: "Alice"}, {Kind: KindText, Value: "07:00"}}},
		{"Send Zhang San a message: I'm on my way", "send {1} a message: {2}",
			[]Param{{Kind: KindName, Value: "Zhang San"}, {Kind: KindText, Value: "I'm on my way"}}},
		{"Create an alarm at 6:30 labelled Gym", "create an alarm at {1} labelled {2}",
			[]Param{{Kind: KindNumber, Value: "6:30"}, {Kind: KindName, Value: "Gym"}}},
		{"Call +1 555 0101 now", "call {1} now", []Param{{Kind: KindNumber, Value: "+1 555 0101"}}},
		{"Read the time of the first alarm in Clock", "read the time of the first alarm in clock", nil},
		{"Turn on Bluetooth", "turn on {1}", []Param{{Kind: KindName, Value: "Bluetooth"}}},
		{"Tell Mom «à bientôt» in Messages", "tell {1} {2} in messages",
			[]Param{{Kind: KindName, Value: "Mom"}, {Kind: KindQuoted, Value: "à bientôt"}}},
		{"给张三发消息「明天见」", "给张三发消息{1}", []Param{{Kind: KindQuoted, Value: "明天见"}}},
		{"  Open   Settings  ", "open settings", nil},
	} {
		got := Parse(tc.todo)
		if got.Template != tc.template || !reflect.DeepEqual(got.Params, tc.params) {
			t.Errorf("Parse(%q) = %q %v, want %q %v", tc.todo, got.Template, got.Params, tc.template, tc.params)
		}
	}
}

func TestSameTemplateForOtherParameters(t *testing.T) {
	a := Parse(`Send Alice a message saying "see you at 7"`)
	b := Parse(`Send Bob a message saying "the train is 20 minutes late"`)
	if a.Template != b.Template {
		t.Fatalf("templates differ: %q vs %q", a.Template, b.Template)
	}
}

func TestAbstractAndSubstitute(t *testing.T) {
	rec := Parse(`Send Alice a message saying "see you at 7"`)
	now := Parse(`Send Bob Li a message saying "running {1} late"`)
	for _, tc := range []struct{ in, abstract, filled string }{
		{"see you at 7", "{2}", "running {1} late"},
		{`Sent "see you at 7" to Alice`, `Sent "{2}" to {1}`, `Sent "running {1} late" to Bob Li`},
		{"Alice Chen", "{1} Chen", "Bob Li Chen"},
		{"Malice", "Malice", "Malice"}, // inside a word: not the parameter
	} {
		abs := Abstract(tc.in, rec.Params)
		if abs != tc.abstract {
			t.Errorf("Abstract(%q) = %q, want %q", tc.in, abs, tc.abstract)
		}
		got, ok := Substitute(abs, now.Params)
		if !ok || got != tc.filled {
			t.Errorf("Substitute(%q) = %q %t, want %q", abs, got, ok, tc.filled)
		}
	}
	if _, ok := Substitute("{3}", now.Params); ok {
		t.Error("Substitute of a missing parameter reported ok")
	}
}

func TestLiteralAndTypable(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		want bool
	}{
		{`Sent "{2}" to {1}`, false},
		{`{1} is on`, false},
		{`07:00`, true},
		{`The first alarm is at 07:00`, true},
		{`Sent "hello" to {1}`, true},
		{`Bob Li's number is {1}`, true},
		{`Wi-Fi is on, Bluetooth too`, true},
	} {
		if got := Literal(tc.msg, "read {1}"); got != tc.want {
			t.Errorf("Literal(%q) = %t, want %t", tc.msg, got, tc.want)
		}
	}
	if Literal("Turned Bluetooth on", "turn on bluetooth") || !Literal("Turned Bluetooth on", "turn on wi-fi") {
		t.Error("Literal must accept the template's own words, and only those")
	}
	if !Typable("{2}", "send {1} a message saying {2}") || !Typable("cats", "search for cats") || Typable("07:00", "send {1} a message with what was read") {
		t.Error("Typable misjudged")
	}
}

// A quote inside the words after a colon is part of them: one parameter,
// and the todo never cut backwards.
func TestQuoteInsideColonWords(t *testing.T) {
	for _, todo := range []string{"Send Alice Chen a message: “你好”，我到了", "Send Bob a message: she said \"hi\" and left", "Send Bob a message: \"a\" and \"b\""} {
		got := Parse(todo)
		if len(got.Params) < 2 || got.Params[len(got.Params)-1].Kind != KindText {
			t.Errorf("Parse(%q) = %+v, want the words after the colon as one text parameter", todo, got)
		}
	}
}
