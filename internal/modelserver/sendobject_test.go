package modelserver

import "testing"

// TestWhatIsSentBeforeToIsNotTheName: "Send it to Alice Chen: on my way"
// names Alice Chen; the pronoun or noun before "to" is what is sent, never
// part of the recipient. Phrasings of the class, no file's examples.
func TestWhatIsSentBeforeToIsNotTheName(t *testing.T) {
	for _, c := range []struct{ goal, to, text string }{
		{"Send it to Alice Chen: on my way", "Alice Chen", "on my way"},
		{"Please send this to Bob Lee: running late", "Bob Lee", "running late"},
		{"Text that to Omar Haddad: see you soon", "Omar Haddad", "see you soon"},
		{"Send the message to Priya Nair, done", "Priya Nair", "done"},
		{"send them to Lena Fischer saying the keys are in the car", "Lena Fischer", "the keys are in the car"},
		{"Send the same to Maria Lopez: landed", "Maria Lopez", "landed"},
	} {
		got := planGoal(planContext{Goal: c.goal})
		if got.Status != "planned" || len(got.Plan) != 1 || len(got.Plan[0].Expect) != 1 {
			t.Errorf("%q: %+v, want one send todo with its check", c.goal, got)
			continue
		}
		e := got.Plan[0].Expect[0]
		if e.Conversation != c.to || e.Contains != c.text {
			t.Errorf("%q: checks the message to %q containing %q, want %q and %q", c.goal, e.Conversation, e.Contains, c.to, c.text)
		}
	}
}
