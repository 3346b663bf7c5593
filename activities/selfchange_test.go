package activities

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
)

// The phone's screen changes by itself between a failed try of an action
// and its retry (a message arrives): the retry must judge the action from
// evidence of that action, never from "the screen changed"
// (docs/design.md §4).

// errOffline is a transport error before the input began: the phone got
// nothing.
var errOffline = &device.NotSentError{Err: errors.New("adb: emulator-5554: device offline")}

// errCut is a transport error that may have come after the phone began the
// input; in these tests the phone got nothing.
var errCut = errors.New("adb: shell:input tap: connection reset by peer")

func TestActNotSentIsSentAgainWhenTheScreenChangedByItself(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 60}} // the contact's name
	p.failNext = errOffline
	if _, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false); err == nil {
		t.Fatal("the first try did not fail")
	}
	p.arrive("Bob: lunch at 12?")
	res, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false)
	if err != nil || res.Act.Result != "ok" || res.Act.Recovered != "" {
		t.Fatalf("retry = %+v, %v; want the tap sent", res.Act, err)
	}
	if got := p.got(); !slices.Equal(got, []string{"tap 540 144"}) {
		t.Fatalf("inputs = %v: the phone's input log lacks the tap reported applied", got)
	}
}

func TestActMaybeSentIsNeverClaimedFromAnUnrelatedChange(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a)
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 60}}
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false); err == nil {
		t.Fatal("the first try did not fail")
	}
	p.arrive("Bob: lunch at 12?")
	res, err, _ := stepAct(t, a, tap, "g/t/r/1", before, false)
	if err != nil || res.Act.Result == "ok" || !strings.Contains(res.Act.Result, "unknown") {
		t.Fatalf("retry = %+v, %v; want the outcome unknown, neither sent again nor claimed", res.Act, err)
	}
	if got := p.got(); len(got) != 0 {
		t.Fatalf("inputs = %v: sent again", got)
	}
	// The decision is the journal's: a later retry neither sends nor claims.
	res, err, _ = stepAct(t, a, tap, "g/t/r/1", before, false)
	if err != nil || res.Act.Result == "ok" || len(p.got()) != 0 {
		t.Fatalf("second retry = %+v, %v, inputs %v", res.Act, err, p.got())
	}
}

// TestActMaybeSentSendIsJudgedByItsText: a Send whose try may have
// reached the phone is judged by what a send does (the field's text left
// it and shows once more), not by the message that arrived meanwhile: not
// sent is sent once, sent is not sent again, and a screen that tells
// neither is asked about.
func TestActMaybeSentSendIsJudgedByItsText(t *testing.T) {
	send := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{950, 880}}

	a, p := newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	before := observeTree(t, a)
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, send, "g/t/r/2", before, false); err == nil {
		t.Fatal("the first try did not fail")
	}
	p.arrive("Bob: lunch at 12?")
	res, err, _ := stepAct(t, a, send, "g/t/r/2", before, false)
	if err != nil || res.Act.Result != "ok" || !slices.Equal(p.sent, []string{"see you at 7"}) || len(p.got()) != 1 {
		t.Fatalf("retry of an unsent Send = %+v, %v, sent %v, inputs %v; want it sent once", res.Act, err, p.sent, p.got())
	}

	a, p = newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	before = observeTree(t, a)
	if _, _, crashed := stepAct(t, a, send, "g/t/r/3", before, true); !crashed {
		t.Fatal("the fault hook did not run")
	}
	p.arrive("Bob: lunch at 12?")
	res, err, _ = stepAct(t, a, send, "g/t/r/3", before, false)
	if err != nil || res.Act.Result != "ok" || !strings.Contains(res.Act.Recovered, "left its field") || len(p.sent) != 1 || len(p.got()) != 1 {
		t.Fatalf("retry of a sent Send = %+v, %v, sent %v; want it judged sent, not sent again", res.Act, err, p.sent)
	}

	a, p = newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	before = observeTree(t, a)
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, send, "g/t/r/4", before, false); err == nil {
		t.Fatal("the first try did not fail")
	}
	p.text = "see you at 8" // the field changed: neither sent nor as it was
	res, err, _ = stepAct(t, a, send, "g/t/r/4", before, false)
	if err != nil || res.Act.Result != ActUncertain || !strings.Contains(res.Act.Uncertain, "Send") || len(p.sent) != 0 {
		t.Fatalf("retry of Send on an ambiguous screen = %+v, %v, sent %v; want the person asked", res.Act, err, p.sent)
	}
	// The todo keeps it as a commit that counts only where the screen
	// shows a trace of it.
	if !strings.HasPrefix(res.Act.Commit, "|Send|see you at 7"+unconfirmedMark) {
		t.Fatalf("an uncertain Send is named %q, want its first try's name, unconfirmed", res.Act.Commit)
	}
}

// TestActSendCoveredByTheKeyguardIsJudgedBeforeTheNextSend: the worker
// died between a Send and its record, and by its retry the screen had
// timed out to the keyguard, which hides the conversation. Nothing of the
// Send can be seen, so nothing is claimed, sent or asked yet; once the
// executor is past the keyguard, the next tap on Send first judges the
// earlier one on the conversation: sent → the new tap is not sent; not
// sent → the new tap goes out, once; neither → the person is asked.
func TestActSendCoveredByTheKeyguardIsJudgedBeforeTheNextSend(t *testing.T) {
	send := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{950, 880}}
	cover := func(t *testing.T, p *formPhone, a *Activities, id string, before Observation, crash bool) {
		t.Helper()
		if crash {
			if _, _, crashed := stepAct(t, a, send, id, before, true); !crashed {
				t.Fatal("the fault hook did not run")
			}
		} else {
			p.failNext = errCut
			if _, err, _ := stepAct(t, a, send, id, before, false); err == nil {
				t.Fatal("the first try did not fail")
			}
		}
		p.locked = true
		res, err, _ := stepAct(t, a, send, id, before, false)
		if err != nil || !strings.HasPrefix(res.Act.Result, ActUnknown) || !strings.Contains(res.Act.Result, "covers") || res.Act.Uncertain != "" {
			t.Fatalf("retry under the keyguard = %+v, %v; want unknown, judged later, nobody asked yet", res.Act, err)
		}
		p.locked = false
	}

	// Sent before the crash: the next Send is not sent.
	a, p := newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	cover(t, p, a, "g/t/r/2", observeTree(t, a), true)
	p.arrive("Bob: lunch at 12?")
	res, err, _ := stepAct(t, a, send, "g/t/r/3", observeTree(t, a), false)
	if err != nil || !strings.HasPrefix(res.Act.Result, ActNotSentEarlier) || len(p.sent) != 1 || len(p.got()) != 1 {
		t.Fatalf("the next Send after a covered sent one = %+v, %v, sent %v, inputs %v; want it refused, the message once", res.Act, err, p.sent, p.got())
	}
	if e, ok, _ := a.Journal.Lookup(context.Background(), "fake-1", "g/t/r/2"); !ok || e.Pending || e.Applied == nil || e.Applied.Result != "ok" {
		t.Fatalf("journal entry of the covered Send = %+v, %v; want it decided applied", e, ok)
	}

	// Cut before the phone took it: the next Send goes out, once.
	a, p = newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	cover(t, p, a, "g/t/r/2", observeTree(t, a), false)
	res, err, _ = stepAct(t, a, send, "g/t/r/3", observeTree(t, a), false)
	if err != nil || res.Act.Result != "ok" || !slices.Equal(p.sent, []string{"see you at 7"}) || len(p.got()) != 1 {
		t.Fatalf("the next Send after a covered unsent one = %+v, %v, sent %v, inputs %v; want it sent once", res.Act, err, p.sent, p.got())
	}

	// The field changed meanwhile: neither tells; the person is asked
	// and nothing is sent.
	a, p = newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	cover(t, p, a, "g/t/r/2", observeTree(t, a), false)
	p.text = "see you at 8"
	res, err, _ = stepAct(t, a, send, "g/t/r/3", observeTree(t, a), false)
	if err != nil || res.Act.Result != ActUncertain || !strings.Contains(res.Act.Uncertain, "earlier") || len(p.sent) != 0 || len(p.got()) != 0 {
		t.Fatalf("the next Send on an ambiguous screen = %+v, %v, sent %v, inputs %v; want the person asked, nothing sent", res.Act, err, p.sent, p.got())
	}
}

// TestActIntentHoldsTheScreenJustBeforeTheInput: the action was decided on
// one screen, a message arrived before the Step sent it, and the first
// try's input never reached the phone: the retry compares with the screen
// the input was sent on, sees the tap's own effect missing (the field is
// not focused) and sends it.
func TestActIntentHoldsTheScreenJustBeforeTheInput(t *testing.T) {
	a, p := newJournalled(t)
	before := observeTree(t, a)
	p.arrive("Bob: lunch at 12?")
	focus := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{400, 880}} // the message field
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, focus, "g/t/r/3", before, false); err == nil {
		t.Fatal("the first try did not fail")
	}
	res, err, _ := stepAct(t, a, focus, "g/t/r/3", before, false)
	if err != nil || res.Act.Result != "ok" || !p.focused || len(p.got()) != 1 {
		t.Fatalf("retry = %+v, %v, focused %v, inputs %v; want the tap sent once", res.Act, err, p.focused, p.got())
	}
}

// TestActTypeMaybeSentIntoTheSameFieldIsTypedAgain: typing replaces the
// focused field's text, so a Type whose field still lacks the text is
// typed again even though the screen changed by itself.
func TestActTypeMaybeSentIntoTheSameFieldIsTypedAgain(t *testing.T) {
	a, p := newJournalled(t)
	p.focused = true
	before := observeTree(t, a)
	typ := autoglm.Action{Name: autoglm.ActionType, Text: "see you at 7"}
	p.failNext = errCut
	if _, err, _ := stepAct(t, a, typ, "g/t/r/4", before, false); err == nil {
		t.Fatal("the first try did not fail")
	}
	p.arrive("Bob: lunch at 12?")
	res, err, _ := stepAct(t, a, typ, "g/t/r/4", before, false)
	if err != nil || res.Act.Result != "ok" || p.text != "see you at 7" || len(p.got()) != 1 {
		t.Fatalf("retry = %+v, %v, field %q, inputs %v", res.Act, err, p.text, p.got())
	}
}

var _ = context.Background

// TestActTouchIsNotSentWhenTheScreenChangedUnderItsPoint: a dialog took
// the focus between the executor's decision and the input. The Send tap
// would land on the dialog (or on nothing), so it is not sent, and the
// result tells the next think to look again; once the dialog is gone, the
// same step sends it.
func TestActTouchIsNotSentWhenTheScreenChangedUnderItsPoint(t *testing.T) {
	send := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{950, 880}}
	a, p := newJournalled(t)
	p.focused, p.text = true, "see you at 7"
	before := observeTree(t, a)
	p.dialog = true
	res, err, _ := stepAct(t, a, send, "g/t/r/2", before, false)
	if err != nil || !strings.HasPrefix(res.Act.Result, ActNotSentMoved) || !strings.Contains(res.Act.Result, `"Send"`) || len(p.got()) != 0 {
		t.Fatalf("tap on Send under a dialog = %+v, %v, inputs %v; want it not sent, naming Send", res.Act, err, p.got())
	}
	p.dialog = false
	res, err, _ = stepAct(t, a, send, "g/t/r/2", before, false)
	if err != nil || res.Act.Result != "ok" || !slices.Equal(p.sent, []string{"see you at 7"}) {
		t.Fatalf("the same step once the dialog is gone = %+v, %v, sent %v; want it sent", res.Act, err, p.sent)
	}
}

// TestActMaybeSentOnAnUnchangedScreenIsSentAgainOnlyWhenTwiceIsOnce: the
// worker dies after an input reached the phone and before its result was
// recorded, and the retry finds the screen exactly as it was (a swipe at a
// list's end, an app slow to draw). A Swipe, a Back, a tap on a button are
// not sent a second time: their outcome is unknown and the executor looks
// again. A Home is sent again: twice is once.
func TestActMaybeSentOnAnUnchangedScreenIsSentAgainOnlyWhenTwiceIsOnce(t *testing.T) {
	for _, c := range []struct {
		act   autoglm.Action
		again bool
	}{
		{autoglm.Action{Name: autoglm.ActionSwipe, Start: &autoglm.Point{500, 800}, End: &autoglm.Point{500, 200}}, false},
		{autoglm.Action{Name: autoglm.ActionBack}, false},
		{autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 60}}, false}, // the contact's name
		{autoglm.Action{Name: autoglm.ActionHome}, true},
	} {
		a, p := newJournalled(t)
		before := observeTree(t, a)
		if _, _, crashed := stepAct(t, a, c.act, "g/t/r/1", before, true); !crashed {
			t.Fatalf("%s: the fault hook did not run", c.act.Name)
		}
		res, err, _ := stepAct(t, a, c.act, "g/t/r/1", before, false)
		if err != nil {
			t.Fatalf("%s: retry: %v", c.act.Name, err)
		}
		switch n := len(p.got()); {
		case c.again && (n != 2 || res.Act.Result != "ok"):
			t.Errorf("%s: retry = %+v, inputs %v; want it sent again", c.act.Name, res.Act, p.got())
		case !c.again && (n != 1 || !strings.HasPrefix(res.Act.Result, ActUnknown) || !strings.Contains(res.Act.Result, "exactly as it was")):
			t.Errorf("%s: retry = %+v, inputs %v; want its outcome unknown and the input sent once", c.act.Name, res.Act, p.got())
		}
	}
}
