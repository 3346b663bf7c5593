package modelserver

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// The persona drives the Pixel skin's Google Messages and AOSP Contacts
// from what they show: the field by its hint, the send button by its
// description, bubbles by who their description says said them, contact
// rows and the card by the names and number inside them.
func TestPersonaMessagesAndContactsOnPixel(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	for _, c := range []struct {
		task   string
		want   string
		check  func(phonesim.State) bool
		budget int
	}{
		{"Send Alice a message saying hi", `Sent "hi" to Alice`, func(s phonesim.State) bool {
			return len(s.MessagesSent) == 1 && s.MessagesSent[0].To == "Alice Chen" && s.MessagesSent[0].Text == "hi"
		}, 12},
		{"Read the latest message from Bob Li in Messages", "Sent you the slides.", func(phonesim.State) bool { return true }, 12},
		{"Read Bob Li's phone number", "+1 555 0102", func(phonesim.State) bool { return true }, 10},
		{"Send Mom a message saying landed", `Sent "landed" to Mom`, func(s phonesim.State) bool {
			n := len(s.MessagesSent)
			return n == 2 && s.MessagesSent[1].To == "Mom" && s.MessagesSent[1].Text == "landed"
		}, 14},
	} {
		got, steps := runGoal(t, srv.URL, a, c.task, c.budget)
		if !strings.Contains(got, c.want) {
			t.Errorf("%q finished %q in %d steps, want %q", c.task, got, steps, c.want)
		}
		if s := p.State(); !c.check(s) {
			t.Errorf("%q finished %q but the phone holds %+v", c.task, got, s.MessagesSent)
		}
	}
}

// The verifier reads a Google Messages bubble described "You said …" as
// sent, and the conversation's title as whom it went to.
func TestVerifierReadsPixelSentBubbles(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	runGoal(t, srv.URL, a, "Send Bob a message saying see you", 14)
	if s := p.State().Screen; s.Page != "conversation" || s.Detail != "Bob Li" {
		t.Fatalf("the send ended on %+v", s)
	}
	obs := observation{App: "Messages", Package: "com.google.android.apps.messaging",
		Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
	if v := judgeClaim(obs, "Send Bob Li a message saying see you", "done"); v.Status != verify.Done {
		t.Errorf("the sent message on screen: %s (%s), want done", v.Status, v.Evidence)
	}
	if v := judgeClaim(obs, "Send Bob Li a message saying see you later", "done"); v.Status == verify.Done {
		t.Errorf("another message claimed sent: %s (%s)", v.Status, v.Evidence)
	}
}

// The names heading Google Messages' rows (conversation_name) are rows'
// labels, not the screen's title: the check of an ordinal read finds the
// answer in the row it names, and not in another.
func TestOrdinalReadOnPixelConversationList(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	q := "Read the name of the first conversation in Messages"
	got, _ := runGoal(t, srv.URL, a, q, 8)
	if got != "Alice Chen" {
		t.Fatalf("%q finished %q, want Alice Chen", q, got)
	}
	final := postcond.Screen{App: "Messages", AppPackage: "com.google.android.apps.messaging", Elements: p.UITree()}
	for _, c := range []struct {
		ord  int
		held bool
	}{{1, true}, {2, false}} {
		r := postcond.Eval([]postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel, Ordinal: c.ord}},
			postcond.Observed{Final: final, Answer: got, Question: q})
		if r[0].Held != c.held {
			t.Errorf("%q as conversation #%d: held %t (%s), want %t", got, c.ord, r[0].Held, r[0].Evidence, c.held)
		}
	}
}
