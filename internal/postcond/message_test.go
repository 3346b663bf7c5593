package postcond

import "testing"

// The same message, both ways: a message missing any part of what the
// check holds (a closing mark, an emoji, a quote, a sentence) is not it,
// nor is one with more; only white space and one full stop ending either
// text are not counted.
func TestSameMessage(t *testing.T) {
	for _, c := range []struct {
		shown, want string
		same        bool
	}{
		{"明天见，谢谢！", "明天见，谢谢！", true},
		{"明天见，谢谢", "明天见，谢谢！", false},
		{"Thanks, got it", "Thanks, got it!", false},
		{"Thanks, got it!", "Thanks, got it", false},
		{"are you there", "are you there?", false},
		{"会议几点？", "会议几点?", false},
		{"wait for it", "wait for it…", false},
		{"Happy birthday", "Happy birthday 🎂", false},
		{`The code is blue-7, ok?`, `The code is 'blue-7', ok?`, false},
		{"收到", "收到。谢谢", false},
		{"see you", "see you. Bring the keys", false},
		{"see you. Bring the keys", "see you", false},
		{"Zhang San's number is +86 138 0000 0003", "+86 138 0000 0003", false},
		{"ok", "OK", false},
		{"on my way.", "on my way", true},
		{"on my way", "on my way.", true},
		{"文件已发，请查收。", "文件已发，请查收", true},
		{"文件已发，请查收", "文件已发，请查收。", true},
		{"  see you   at 7 ", "see you at 7", true},
		{"Wait...", "Wait", false},
		{"Wait...", "Wait...", true},
		{"", "", false},
		{"hi", "", false},
	} {
		if got := SameMessage(c.shown, c.want); got != c.same {
			t.Errorf("SameMessage(%q, %q) = %v, want %v", c.shown, c.want, got, c.same)
		}
	}
}

// A last_sent check holds only on the same message: the conversation's
// last outgoing bubble without the goal's closing mark fails it.
func TestLastSentNeedsTheWholeMessage(t *testing.T) {
	for _, c := range []struct {
		bubble, want string
		held         bool
	}{
		{"明天见，谢谢", "明天见，谢谢！", false},
		{"Thanks, got it", "Thanks, got it!", false},
		{"Thanks, got it!", "Thanks, got it!", true},
		{"收到。谢谢", "收到。谢谢", true},
		{"收到", "收到。谢谢", false},
		{"ok 👍", "ok 👍", true},
		{"ok", "ok 👍", false},
	} {
		rs := Eval([]Check{{Kind: LastSent, Conversation: "Bob Li", Contains: c.want}}, Observed{Final: Screen{App: "Messages", Elements: conversation("Bob Li", "", c.bubble)}})
		if AllHeld(rs) != c.held {
			t.Errorf("bubble %q for %q: %s, want held %v", c.bubble, c.want, Summary(rs), c.held)
		}
	}
}
