package postcond

import (
	"strings"
	"testing"
)

// A Send whose message field holds only part of the text the todo sends
// (its last words dropped, or another short text put in) is refused: the
// message it would commit can never make the last_sent check hold. The
// whole text, or the text with more around it, is sent.
func TestACutShortMessageIsNotSent(t *testing.T) {
	send := el("Button", "send_button", "发送", "", 1800)
	for _, c := range []struct {
		to, text, field string
		refuse          bool
	}{
		{"Bob Li", "收到，谢谢", "收到", true},
		{"Bob Li", "ok, thanks", "ok", true},
		{"Alice Chen", "See you at 7, near the gate", "See you at 7", true},
		{"Zhang San", "会议改到三点了", "会议", true},
		{"Mom", "Lunch at noon?", "ok", true},
		{"Dad", "Running 10 minutes late, sorry", "Running 10 minutes late", true},
		{"Bob Li", "收到，谢谢", "收到，谢谢", false},
		{"Alice Chen", "See you at 7, near the gate", "see you at 7, near the gate", false},
		{"Zhang San", "+86 138 0000 0003", "Zhang San's number is +86 138 0000 0003", false},
	} {
		expect := []Check{{Kind: LastSent, Conversation: c.to, Contains: c.text}}
		got := WrongTarget(Target{Task: "Send " + c.to + " a message: " + c.text, Expect: expect, Control: send, Elements: conversation(c.to, c.field)})
		if c.refuse && !strings.Contains(got, "message field") || !c.refuse && got != "" {
			t.Errorf("%q in the field for %q: %q, want refused %v", c.field, c.text, got, c.refuse)
		}
	}
}
