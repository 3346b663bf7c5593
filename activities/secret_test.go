package activities

import (
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/sealed"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Type decided on a password field or a secure screen leaves the think
// sealed and masked; another host's worker cannot type it and says so.
func TestTypedSecretIsSealedAndMasked(t *testing.T) {
	const pw = "Zq7vaultPw9"
	think := func() ThinkResult {
		act := autoglm.Action{Name: autoglm.ActionType, Text: pw}
		return ThinkResult{Action: autoglm.FormatAction(act),
			Response: &autoglm.Response{Thinking: "I type " + pw + " now.", Action: act, Said: autoglm.FormatAction(act)},
			Turn:     Turn{Assistant: "<answer>" + autoglm.FormatAction(act) + "</answer>"}}
	}
	a := &Activities{Sealed: &sealed.Store{Dir: t.TempDir()}}
	field := uitree.Element{Class: "android.widget.EditText", Focused: true, Password: true}
	for _, c := range []struct {
		name  string
		obs   Observation
		elems []uitree.Element
	}{
		{"password field", Observation{}, []uitree.Element{field}},
		{"secure screen", Observation{Sensitive: true}, nil},
	} {
		res := think()
		if err := a.sealTyped(&res, c.obs, c.elems); err != nil {
			t.Fatal(err)
		}
		got := res.Response.Action
		if got.Text != "" || !sealed.IsHandle(got.Sealed) || got.Chars != len(pw) {
			t.Fatalf("%s: action %+v", c.name, got)
		}
		for _, s := range []string{res.Action, res.Response.Thinking, res.Response.Said, res.Turn.Assistant} {
			if strings.Contains(s, pw) || !strings.Contains(s, "•••• (11 characters)") {
				t.Errorf("%s: %q", c.name, s)
			}
		}
		if text, err := a.typedText(got); err != nil || text != pw {
			t.Fatalf("%s: typedText = %q, %v", c.name, text, err)
		}
		other := &Activities{Sealed: &sealed.Store{Dir: t.TempDir()}}
		_, err := other.typedText(got)
		var app *temporal.ApplicationError
		if !isSealedUnreadable(err) || !errors.As(err, &app) || !app.NonRetryable() || !strings.Contains(err.Error(), "run the todo again") {
			t.Fatalf("%s: another host: %v", c.name, err)
		}
	}
	plain := think()
	field.Password = false
	if err := a.sealTyped(&plain, Observation{}, []uitree.Element{field}); err != nil || plain.Response.Action.Text != pw {
		t.Fatalf("a plain field's text was sealed: %+v, %v", plain.Response.Action, err)
	}
}
