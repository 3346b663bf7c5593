package modelserver

import "testing"

// TestAskNamesWhatIsMissing: a message goal that leaves out whom to
// message or what to say asks for exactly that, in plain English; words
// that only name a message ("a message", "a text", "in Messages") are
// neither a person nor the text, and are never sent.
func TestAskNamesWhatIsMissing(t *testing.T) {
	for _, c := range []struct{ goal, ask string }{
		{"Turn on Bluetooth and then send a message in Messages", "Who should I send the message to, and what should it say?"},
		{"Open Messages and send a text", "Who should I send the message to, and what should it say?"},
		{"send a text message", "Who should I send the message to, and what should it say?"},
		{"Send a message to Bob", "What should the message to Bob say?"},
		{"Send a text to Mom in Messages", "What should the message to Mom say?"},
		{"Send the message to Alice and Bob", "What should the message to Alice and Bob say?"},
		{`Send the message "running late"`, `Who should I send the message "running late" to?`},
	} {
		a := planGoal(planContext{Goal: c.goal})
		if a.Status != "ask_user" || a.Question != c.ask {
			t.Errorf("%q: %s %q %q, want the question %q", c.goal, a.Status, a.Question, texts(a.Plan), c.ask)
		}
	}
	for _, c := range []struct{ goal, answer, want string }{
		{"Turn on Bluetooth and then send a message in Messages", "Alice Chen: on my way", "Send Alice Chen a message: on my way"},
		{"Send a message to Bob", "see you at 8", "Send Bob a message: see you at 8"},
	} {
		a := planGoal(planContext{Goal: c.goal, Answers: []answerPair{{Answer: c.answer}}})
		ts := texts(a.Plan)
		if a.Status != "planned" || len(ts) == 0 || ts[len(ts)-1] != c.want {
			t.Errorf("%q answered %q: %s %q %q, want the last todo %q", c.goal, c.answer, a.Status, a.Question, ts, c.want)
		}
	}
}
