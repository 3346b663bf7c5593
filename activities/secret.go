package activities

import (
	"errors"
	"strings"
	"unicode/utf8"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/sealed"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// ErrTypeSealedText is a Type whose sealed text this host cannot open
// (docs/design.md#secrets-typed-by-the-executor): nothing is typed, and
// retrying here cannot help.
const ErrTypeSealedText = "SealedTextUnreadable"

// secretScreen says why text typed on a screen is a secret: the focused
// field hides its text (password="true"), or the screen is secure
// (FLAG_SECURE: its screenshot was refused). Either one is enough; ""
// when neither says so.
func secretScreen(obs Observation, elems []uitree.Element) string {
	for _, e := range elems {
		if e.Focused && e.Password {
			return "the focused field is a password field"
		}
	}
	if obs.Sensitive {
		return "the screen is secure"
	}
	return ""
}

// sealTyped seals the text of a Type the executor decided on a secret
// screen: the action keeps the handle and the number of characters, and
// the text is masked wherever the think's result (and the model's turn in
// the history blob) quotes it. Nothing changes for other actions, or when
// the worker keeps no sealed store.
func (a *Activities) sealTyped(res *ThinkResult, obs Observation, elems []uitree.Element) error {
	if a.Sealed == nil || res.Response == nil {
		return nil
	}
	act := &res.Response.Action
	if !isType(*act) || act.Text == "" || act.Sealed != "" || secretScreen(obs, elems) == "" {
		return nil
	}
	text := act.Text
	h, err := a.Sealed.Seal(text)
	if err != nil {
		// Typing it in clear is no option: the Step fails and is retried.
		return temporal.NewApplicationError("sealing the text to type: "+err.Error(), ErrTypeBlob)
	}
	act.Text, act.Sealed, act.Chars = "", h, utf8.RuneCountInString(text)
	mask := autoglm.Masked(act.Chars)
	res.Action = autoglm.FormatAction(*act)
	res.Response.Thinking = maskText(res.Response.Thinking, text, mask)
	res.Response.Said = maskText(res.Response.Said, text, mask)
	res.Turn.Assistant = maskText(res.Turn.Assistant, text, mask)
	return nil
}

// maskText replaces text in s: quoted always, bare when it is long
// enough not to be part of ordinary words (four characters or more).
func maskText(s, text, mask string) string {
	if text == "" {
		return s
	}
	for _, q := range []string{`"` + text + `"`, `'` + text + `'`, `“` + text + `”`} {
		s = strings.ReplaceAll(s, q, `"`+mask+`"`)
	}
	if utf8.RuneCountInString(text) >= 4 {
		s = strings.ReplaceAll(s, text, mask)
	}
	return s
}

// typedText is the text a Type sends: its own, or the one it sealed.
func (a *Activities) typedText(act autoglm.Action) (string, error) {
	if act.Sealed == "" {
		return act.Text, nil
	}
	if a.Sealed == nil {
		return "", sealedUnreadable(errors.New("this worker keeps no sealed text"))
	}
	text, err := a.Sealed.Open(act.Sealed)
	if err != nil {
		return "", sealedUnreadable(err)
	}
	if utf8.RuneCountInString(text) != act.Chars {
		return "", sealedUnreadable(errors.New("the sealed text's length is not the action's"))
	}
	return text, nil
}

func sealedUnreadable(err error) error {
	msg := err.Error()
	if !errors.Is(err, sealed.ErrUnreadable) {
		msg += ": " + sealed.ErrUnreadable.Error()
	}
	return temporal.NewNonRetryableApplicationError("type: "+msg, ErrTypeSealedText, nil)
}

// isSealedUnreadable reports whether err is typedText's refusal.
func isSealedUnreadable(err error) bool {
	var app *temporal.ApplicationError
	return errors.As(err, &app) && app.Type() == ErrTypeSealedText
}

// hideTyped removes typed text from an error the device returned, which
// may quote what it sent.
func hideTyped(err error, act autoglm.Action, text string) error {
	if err == nil || act.Sealed == "" || text == "" || !strings.Contains(err.Error(), text) {
		return err
	}
	return maskedError{msg: strings.ReplaceAll(err.Error(), text, autoglm.Masked(act.Chars)), err: err}
}

// maskedError says its error without the typed text; what it wraps still
// tells whether the input reached the phone (device.NotSent, device.Sent).
type maskedError struct {
	msg string
	err error
}

func (e maskedError) Error() string { return e.msg }
func (e maskedError) Unwrap() error { return e.err }
