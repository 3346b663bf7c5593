package routine

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// A Type whose text was sealed is kept with neither text nor handle: the
// model types the secret again when the routine replays.
func TestBuildKeepsNoSealedText(t *testing.T) {
	steps := Build(Task{Template: "Sign in to the Bank app"}, []Observed{{AppPackage: "com.example.bank", Width: 1080, Height: 2400,
		Action: autoglm.Action{Name: autoglm.ActionType, Sealed: "sealed:0123456789abcdef0123456789abcdef", Chars: 11}}})
	if len(steps) != 1 {
		t.Fatalf("steps %+v", steps)
	}
	s := steps[0]
	if s.Action.Sealed != "" || s.Action.Text != "" || s.Action.Chars != 0 || s.Model == "" {
		t.Fatalf("the routine keeps %+v (model %q)", s.Action, s.Model)
	}
}
