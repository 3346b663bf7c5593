package activities

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/llm"
)

// putFails is a blob store that keeps nothing: every Put fails, as a full
// or unreachable store does after its attempts.
type putFails struct{ BlobStore }

func (putFails) Put(context.Context, []byte, string) (string, error) {
	return "", errors.New("write /var/lib/phoneflow/blobs: no space left on device")
}

// sendTap is a tap on formPhone's Send button, in the executor's
// 0..1000 coordinates.
var sendTap = autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{916, 875}}

// Whatever error a Step ends with after its Send reached the phone, the
// Send's result (its commit) comes back with it, the error is not retried
// by Temporal (a retry would judge the Send again from a screen that has
// moved on), and its type and retryability say what failed
// (docs/design.md §4).
func TestAStepThatFailsAfterItsActionKeepsTheActionsResult(t *testing.T) {
	for _, c := range []struct {
		name      string
		setup     func(a *Activities, in *StepInput)
		typ       string
		retryable bool
		wantMsg   string
	}{
		{"model refuses the request (HTTP 400)", func(a *Activities, in *StepInput) {
			a.Executor = &fakeModel{answers: []any{&llm.Error{Kind: llm.Permanent, Status: 400, Msg: "400 Bad Request: the image was refused"}}}
		}, ErrTypeModelPermanent, false, "image was refused"},
		{"no executor configured for the next request", func(a *Activities, in *StepInput) {
			a.Executor = nil
		}, ErrTypeConfig, false, "no executor model"},
		{"blob store fails after its attempts", func(a *Activities, in *StepInput) {
			a.Blobs = putFails{a.Blobs}
		}, ErrTypeBlob, true, "no space left"},
		{"history kept on another host", func(a *Activities, in *StepInput) {
			in.HistoryRef = "sha256:" + strings.Repeat("0", 64)
		}, ErrTypeBlob, true, "blob store"},
		{"model keeps failing, not handed back", func(a *Activities, in *StepInput) {
			a.Executor = &fakeModel{answers: []any{&llm.Error{Kind: llm.Retryable, Status: 503, Msg: "503 overloaded"}}}
		}, ErrTypeModelRetryable, true, "overloaded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, p := newJournalled(t)
			p.focused, p.text = true, "see you at 7"
			before := observeTree(t, a)
			in := StepInput{Serial: "fake-1", Task: "reply to Alice", UITree: true, Think: true, KeepApplied: true,
				Act: &sendTap, ActionID: "goal-1/todo-1/run/3",
				ScreenHash: before.Hash, Width: before.Width, Height: before.Height, ScreenApp: before.AppPackage}
			c.setup(a, &in)
			res, err := a.Step(context.Background(), in)
			if res.Act != nil || res.Think != nil {
				t.Errorf("a failed Step returned a result beside its error: %+v", res)
			}
			var app *temporal.ApplicationError
			if !errors.As(err, &app) || app.Type() != ErrTypeActionApplied || !app.NonRetryable() {
				t.Fatalf("error = %v, want a non-retryable %s", err, ErrTypeActionApplied)
			}
			if !strings.Contains(app.Message(), c.wantMsg) {
				t.Errorf("message %q does not say what failed (%q)", app.Message(), c.wantMsg)
			}
			f, ok := AppliedOf(err)
			if !ok {
				t.Fatalf("the error carries no applied action: %v", err)
			}
			if f.Type != c.typ || f.Retryable != c.retryable {
				t.Errorf("carried error = %s retryable %v, want %s retryable %v", f.Type, f.Retryable, c.typ, c.retryable)
			}
			if r := f.Applied.Act; r.Result != "ok" || r.Commit != "|Send|see you at 7" {
				t.Errorf("applied = %+v, want the Send's ok with its commit key", r)
			}
			if !slices.Equal(p.sent, []string{"see you at 7"}) {
				t.Fatalf("sent = %v", p.sent)
			}
			// The same step again (the workflow's next try) sends nothing.
			in.Think = false
			a.Blobs, _ = blob.NewFS(t.TempDir())
			again, err := a.Step(context.Background(), in)
			if err != nil || again.Act == nil || again.Act.Result != "ok" || len(p.sent) != 1 {
				t.Fatalf("the same step again = %+v, %v; sent %v", again.Act, err, p.sent)
			}
			// ... and names the commit the first try made, though the
			// phone's field is empty now.
			if again.Act.Commit != "|Send|see you at 7" {
				t.Fatalf("the same step again names commit %q, want the first try's", again.Act.Commit)
			}
		})
	}
}

// A Step that was not asked to keep its applied action fails as before:
// no result, the error as it was (runs from before the change).
func TestAStepNotAskedToKeepItsActionFailsAsBefore(t *testing.T) {
	a, p := newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	a.Executor = &fakeModel{answers: []any{&llm.Error{Kind: llm.Permanent, Status: 400, Msg: "400 Bad Request"}}}
	before := observeTree(t, a)
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "reply to Alice", UITree: true, Think: true,
		Act: &sendTap, ActionID: "goal-1/todo-1/run/3", ScreenHash: before.Hash, Width: before.Width, Height: before.Height})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypeModelPermanent || res.Act != nil {
		t.Fatalf("Step = %+v, %v; want the model's error alone", res, err)
	}
	if _, ok := AppliedOf(err); ok {
		t.Fatal("an error not asked for carries the applied action")
	}
}

// A Step whose device fails after the action (the look after it) keeps
// the action too: the error is the device's, retryable.
func TestAStepWhosePhoneFailsAfterItsActionKeepsTheActionsResult(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a)
	back := autoglm.Action{Name: autoglm.ActionBack}
	a.Devices = formPool{p}
	a.Fault = func(string, string) {
		p.fakePhone.mu.Lock()
		p.fakePhone.failShot = errors.New("adb: device offline")
		p.fakePhone.mu.Unlock()
	}
	_, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", UITree: false, Think: true, KeepApplied: true,
		Act: &back, ActionID: "g/t/r/1", ScreenHash: before.Hash, Width: before.Width, Height: before.Height})
	f, ok := AppliedOf(err)
	if !ok || f.Type != ErrTypeDevice || !f.Retryable || f.Applied.Act.Result != "ok" {
		t.Fatalf("error = %v (%+v), want the Back's ok with a retryable device error", err, f)
	}
	if got := p.got(); !slices.Equal(got, []string{"back"}) {
		t.Fatalf("inputs = %v", got)
	}
}

// A Step run again on another host after the first died between its Send
// and the Send's record: the journal judges the Send applied from the
// phone, and the think that needs the first host's blobs fails; the
// judged result comes back with that error, and nothing is sent twice.
func TestARetryOnAnotherHostKeepsTheJudgedAction(t *testing.T) {
	a, p := newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	before := observeTree(t, a)
	in := StepInput{Serial: "fake-1", Task: "reply to Alice", UITree: true, KeepApplied: true,
		Act: &sendTap, ActionID: "goal-1/todo-1/run/3",
		ScreenHash: before.Hash, Width: before.Width, Height: before.Height, ScreenApp: before.AppPackage}
	func() {
		a.Fault = func(string, string) { panic(crash{}) }
		defer func() { _ = recover(); a.Fault = nil }()
		_, _ = a.Step(context.Background(), in)
	}()
	// The second host: the same phone and journal, a blob store of its own.
	b := *a
	b.Blobs, _ = blob.NewFS(t.TempDir())
	in.Think, in.HistoryRef = true, "sha256:"+strings.Repeat("1", 64)
	_, err := b.Step(context.Background(), in)
	f, ok := AppliedOf(err)
	if !ok || f.Type != ErrTypeBlob || f.Applied.Act.Result != "ok" || f.Applied.Act.Recovered == "" {
		t.Fatalf("error = %v (%+v), want the Send judged applied with the blob error", err, f.Applied.Act)
	}
	if !slices.Equal(p.sent, []string{"see you at 7"}) {
		t.Fatalf("sent = %v", p.sent)
	}
}
