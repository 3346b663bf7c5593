package phonesim

import (
	"strings"
	"testing"
)

// A message sent before the phone's record began is an outgoing bubble of
// its conversation and not one the phone sent since.
func TestSentBeforeShowsYesterdaysBubbleOnly(t *testing.T) {
	p := New(Config{})
	if err := p.SentBefore(SentMessage{To: "Mom", Text: "on my way"}); err != nil {
		t.Fatal(err)
	}
	if sent := p.State().MessagesSent; len(sent) != 0 {
		t.Fatalf("MessagesSent = %+v, want none sent since", sent)
	}
	launch(t, p, pkgMessages)
	tapOn(t, p, "Mom")
	if e := element(t, p, "on my way"); e.Desc != "Sent" {
		t.Fatalf("yesterday's bubble = %+v, want an outgoing one", e)
	}
	if err := p.SentBefore(SentMessage{To: "Carol", Text: "hi"}); err == nil || !strings.Contains(err.Error(), "Mom") {
		t.Fatalf("an unknown recipient: %v, want an error naming the contacts", err)
	}
}
