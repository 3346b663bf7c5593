package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/takeover"
)

// A person's actions reach the phone as given, typed text taken out of the
// viewer's store (and gone from it after); the result names the person and
// never the text. An action off the screen, a handle already used, and an
// action under an older lease token are refused without touching the phone.
func TestPersonActRunsAndRedacts(t *testing.T) {
	a, p := newJournalled(t)
	a.TakeOver = &takeover.Store{Dir: t.TempDir()}
	ctx := context.Background()
	run := func(act PersonAction, token int64) (PersonActResult, error) {
		return a.PersonAct(ctx, PersonActInput{Serial: "fake-1", GoalID: "goal-a", LeaseToken: token, Action: act})
	}
	h, err := a.TakeOver.Seal("s3cret pw")
	if err != nil {
		t.Fatal(err)
	}
	var did []string
	for _, act := range []PersonAction{
		{Kind: PersonTap, X: 100, Y: 200},
		{Kind: PersonType, Chars: 9, Sealed: h},
		{Kind: PersonSwipe, X: 10, Y: 900, X2: 10, Y2: 100},
		{Kind: PersonBack},
	} {
		res, err := run(act, 5)
		if err != nil {
			t.Fatalf("%s: %v", act.Kind, err)
		}
		if res.By != "person" || strings.Contains(res.Did, "s3cret") {
			t.Fatalf("result %+v", res)
		}
		did = append(did, res.Did)
	}
	if got := strings.Join(did, "; "); got != "tapped (100, 200); typed 9 characters; swiped from (10, 900) to (10, 100); pressed Back" {
		t.Fatalf("did %q", got)
	}
	if got := strings.Join(p.got(), "|"); !strings.Contains(got, "tap 100 200|type s3cret pw|") || !strings.HasSuffix(got, "back") {
		t.Fatalf("the phone got %q", got)
	}
	n := len(p.got())
	refused := func(err error, says string) {
		t.Helper()
		var app *temporal.ApplicationError
		if !errors.As(err, &app) || !app.NonRetryable() || !strings.Contains(app.Message(), says) {
			t.Fatalf("err = %v, want a non-retryable error saying %q", err, says)
		}
	}
	_, err = run(PersonAction{Kind: PersonType, Chars: 9, Sealed: h}, 5)
	refused(err, "already typed")
	_, err = run(PersonAction{Kind: PersonTap, X: p.w + 5, Y: 10}, 5)
	refused(err, "off the")
	if err := fencedTap(a, "goal-b", 9, "b/1"); err != nil {
		t.Fatal(err)
	}
	n++
	_, err = run(PersonAction{Kind: PersonHome}, 5)
	wantLeaseLost(t, err, "lease token 5")
	if len(p.got()) != n {
		t.Fatalf("refused actions reached the phone: %v", p.got()[n:])
	}
}
