package modelserver

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// TestVerifierReadsTheAnswers: a message todo that left out its words or
// its recipient is judged with the answers the executor was given
// (docs/design.md#executor-questions): the bubble with the answer's words
// in the conversation with the person is done; a bubble with other words,
// a conversation with someone else, or no answer at all is not.
func TestVerifierReadsTheAnswers(t *testing.T) {
	convo := func(with, bubble string) []uitree.Listed {
		return []uitree.Listed{
			el("TextView", with, 500, 60),
			el("TextView", bubble, 600, 210, "desc=Sent"),
			el("EditText", "", 400, 800, "clickable", "id=compose_message_text"),
			el("Button", "Send", 880, 800, "clickable", "id=send_button"),
		}
	}
	const words = " (asked: What should the message to Alice Chen say? answered: on my way)"
	for _, c := range []struct {
		name, task string
		elems      []uitree.Listed
		want       string
		evidence   string
	}{
		{"the answer's words sent", "Send Alice Chen a message" + words, convo("Alice Chen", "on my way"), verify.Done, `the sent message "on my way"`},
		{"other words sent", "Send Alice Chen a message" + words, convo("Alice Chen", "on my wya"), verify.Failed, `no sent message "on my way"`},
		{"the answer's words to someone else", "Send Alice Chen a message" + words, convo("Bob Li", "on my way"), verify.Failed, "not with anyone the task names"},
		{"no answer", "Send Alice Chen a message", convo("Alice Chen", "on my way"), verify.Failed, "not shown to be done"},
		{"the answered recipient", `Send a message saying "see you at 8" (asked: Who should I send the message "see you at 8" to? answered: Bob Li)`,
			convo("Bob Li", "see you at 8"), verify.Done, `the conversation with "Bob Li"`},
		{"another recipient", `Send a message saying "see you at 8" (asked: Who should I send the message "see you at 8" to? answered: Bob Li)`,
			convo("Alice Chen", "see you at 8"), verify.Failed, "not with anyone the task names"},
		{"both asked at once", "Send a message (asked: Who should I send the message to, and what should it say? answered: Bob Li, see you at 8)",
			convo("Bob Li", "see you at 8"), verify.Failed, "not shown to be done"},
		{"an answer with brackets read whole", "Send Alice Chen a message (asked: What should the message to Alice Chen say? answered: on my way (nobody answered within 1h0m0s; this is the configured default answer))",
			convo("Alice Chen", "on my way"), verify.Failed, "no sent message"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ans := New(Config{}).verifyAnswer(verifyRequest(c.task, "Sent", "Messages", c.elems...), faults{})
			var v verify.Verdict
			if err := json.Unmarshal([]byte(ans), &v); err != nil {
				t.Fatalf("answer %q is not JSON: %v", ans, err)
			}
			if v.Status != c.want || !strings.Contains(v.Evidence, c.evidence) {
				t.Errorf("verdict = %+v, want %s with evidence containing %q", v, c.want, c.evidence)
			}
		})
	}
}

func TestSplitAnswered(t *testing.T) {
	task, ts := splitAnswered("Send Bob Li a message (asked: What should it say? answered: hi (really)) (asked: Is that all? answered: yes)")
	if task != "Send Bob Li a message" || len(ts) != 2 || ts[0].answer != "hi (really)" || ts[1].question != "Is that all?" {
		t.Fatalf("splitAnswered = %q, %+v", task, ts)
	}
	if got := withAnswered(task, ts); got != "Send Bob Li a message (asked: What should it say? answered: hi (really)) (asked: Is that all? answered: yes)" {
		t.Fatalf("withAnswered = %q", got)
	}
}
