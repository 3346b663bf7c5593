package modelserver

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A tap todo is done when the tapped element is gone from the final screen
// and the screen shows something to quote; failed while it is still there.
func TestVerifierJudgesATap(t *testing.T) {
	task := "Tap the Sign in button"
	before := observation{App: "Bank", Elems: []uitree.Listed{{Text: "Welcome back"}, {Text: "Sign in", Clickable: true}}}
	if v := judgeClaim(before, task, ""); v.Status != "failed" || !strings.Contains(v.Evidence, "still on the final screen") {
		t.Errorf("Sign in still shown: %+v, want failed", v)
	}
	after := observation{App: "Bank", Elems: []uitree.Listed{{Text: "Accounts"}, {Text: "Checking 1,204.50"}}}
	if v := judgeClaim(after, task, ""); v.Status != "done" || !strings.Contains(v.Evidence, "Accounts") {
		t.Errorf("Sign in gone: %+v, want done quoting the screen", v)
	}
	// The page a Sign in button opens is often titled "Sign in" too: a
	// title is not the button.
	form := observation{App: "Bank", Elems: []uitree.Listed{{Text: "Sign in"}, {Text: "Enter your password"}, {Text: "Password", Class: "EditText", Clickable: true}}}
	if v := judgeClaim(form, task, ""); v.Status != "done" || !strings.Contains(v.Evidence, "Enter your password") {
		t.Errorf("the password form: %+v, want done quoting the form", v)
	}
	if v := judgeClaim(observation{App: "Bank", Elems: []uitree.Listed{{Text: "Sign in"}}}, task, ""); v.Status != "failed" {
		t.Errorf("only the label left: %+v, want failed", v)
	}
	if v := judgeClaim(observation{App: "Bank"}, task, ""); v.Status != "failed" {
		t.Errorf("an empty final screen: %+v, want failed", v)
	}
}
