package modelserver

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// A sign-in is shown done only by a screen that says it is signed in,
// whoever signed in (a person taking over from the step viewer).
func TestSignInIsJudgedOnTheScreen(t *testing.T) {
	signedIn := observation{Task: "Sign in to the bank app", App: "Bank", Elems: []uitree.Listed{{Text: "Accounts"}, {Text: "Signed in"}}}
	if v := judgeClaim(signedIn, signedIn.Task, "The user took over the bank app"); v.Status != verify.Done {
		t.Fatalf("signed-in screen: %+v", v)
	}
	welcome := observation{Task: "Log in to the Bank app", App: "Bank", Elems: []uitree.Listed{{Text: "Welcome back"}, {Text: "Sign in", Clickable: true}}}
	if v := judgeClaim(welcome, welcome.Task, "The user took over the bank app"); v.Status != verify.Failed {
		t.Fatalf("welcome screen judged %+v", v)
	}
}
