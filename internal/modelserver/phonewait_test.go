package modelserver

import (
	"strings"
	"testing"
)

// TestReadGoalWaitsForThePhone: goals that act on something happening on
// the phone start with a todo that only waits for it, in English and
// Chinese, and a code the wait reads reaches the todo that types it.
func TestReadGoalWaitsForThePhone(t *testing.T) {
	for _, c := range []struct{ goal, want string }{
		{"When Alice Chen sends a message, reply 'got it'", `Wait for a message from Alice Chen | Send Alice Chen a message: got it`},
		{"as soon as Bob Li texts me, reply with on my way", `Wait for a message from Bob Li | Send Bob Li a message: on my way`},
		{"李四发来消息后回复收到", `Wait for a message from 李四 | Send 李四 a message: 收到`},
		{"当Alice Chen发来消息时，回复'好的'", `Wait for a message from Alice Chen | Send Alice Chen a message: 好的`},
		{"Sign in to the Bank app with the password hunter2, then wait for the SMS code and enter it",
			`Sign in to the Bank app with the password hunter2 | Wait for a one-time code | Enter the code in the Bank app with what was read`},
		{"Sign in to the Bank with password hunter2, wait for the bank's code and type it in",
			`Sign in to the Bank with password hunter2 | Wait for a one-time code from bank | Enter the code in the Bank app with what was read`},
		{"用密码hunter2登录银行，等短信验证码然后输入", `用密码hunter2登录银行 | Wait for a one-time code | Enter the code in the Bank app with what was read`},
	} {
		var todos []string
		for _, p := range readGoal(c.goal) {
			todos = append(todos, p.Todo)
		}
		if got := strings.Join(todos, " | "); got != c.want {
			t.Errorf("readGoal(%q)\n got %s\nwant %s", c.goal, got, c.want)
		}
	}
	if got := substitute("Enter the code in the Bank app with what was read", "482913"); got != "Enter the code in the Bank app: 482913" {
		t.Errorf("substitute: %q", got)
	}
	// A read value that ends a sentence keeps its punctuation as a
	// quoted text, so the message sent is the value read.
	for v, want := range map[string]string{
		"Sent you the slides.": `Send Alice a message: "Sent you the slides."`,
		`He said "ok".`:        `Send Alice a message: “He said "ok".”`,
		"明天见。":                 `Send Alice a message: "明天见。"`,
		"07:00":                `Send Alice a message: 07:00`,
	} {
		if got := substitute("Send Alice a message with what was read", v); got != want {
			t.Errorf("substitute(%q) = %s, want %s", v, got, want)
		}
	}
}
