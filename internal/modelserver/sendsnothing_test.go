package modelserver

import "testing"

// Under SendsNothing a todo sending one of the texts is read as opening
// the conversation; any other todo is read as written.
func TestSendsNothingOpensTheConversationInstead(t *testing.T) {
	texts := []string{"leaving now"}
	for task, want := range map[string]string{
		"Text Mom 'leaving now'":           "Open the conversation with Mom",
		"Send Mom a message: leaving now.": "Open the conversation with Mom",
		"Text Mom 'leaving now, see you'":  "Text Mom 'leaving now, see you'",
		"Turn on Wi-Fi":                    "Turn on Wi-Fi",
	} {
		if got := sendsNothing(task, texts); got != want {
			t.Errorf("%q read as %q, want %q", task, got, want)
		}
	}
}
