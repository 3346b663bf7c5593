package activities

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// sendKey is the commit key of formPhone's Send with "on my way" typed.
const sendKey = "|Send|on my way"

// sendStep is the Step that taps formPhone's Send, decided on before.
func sendStep(before Observation, id string) StepInput {
	return StepInput{Serial: "fake-1", Task: "Send Alice 'on my way'", UITree: true, Act: &sendTap, ActionID: id,
		ScreenHash: before.Hash, ScreenTreeRef: before.TreeRef, Width: before.Width, Height: before.Height, ScreenApp: before.AppPackage}
}

// A Step retried after its Send reached the phone (the think after it
// timed out, the worker died) names the commit its first try made: the
// journal kept it with the intent, though the look before the commit now
// sees an empty field (docs/design.md §4).
func TestARetriedSendNamesTheCommitItsFirstTryMade(t *testing.T) {
	for _, c := range []struct {
		name  string
		crash bool // the first try dies between the tap and its result
	}{{"result recorded", false}, {"died before the result", true}} {
		t.Run(c.name, func(t *testing.T) {
			a, p := newJournalled(t)
			p.focused, p.text = true, "on my way"
			before := observeTree(t, a)
			in := sendStep(before, "goal-1/todo-1/run/3")
			if c.crash {
				a.Fault = func(string, string) { panic(crash{}) }
				func() {
					defer func() {
						if _, ok := recover().(crash); !ok {
							t.Fatal("the fault hook did not run")
						}
					}()
					_, _ = a.Step(context.Background(), in)
				}()
				a.Fault = nil
			} else {
				res, err := a.Step(context.Background(), in)
				if err != nil || res.Act == nil || res.Act.Commit != sendKey {
					t.Fatalf("first try = %+v, %v; want commit %q", res.Act, err, sendKey)
				}
			}
			for i := range 2 {
				res, err := a.Step(context.Background(), in)
				if err != nil || res.Act == nil || res.Act.Result != "ok" {
					t.Fatalf("retry %d = %+v, %v", i+1, res.Act, err)
				}
				if res.Act.Commit != sendKey {
					t.Fatalf("retry %d names commit %q, want the first try's %q", i+1, res.Act.Commit, sendKey)
				}
			}
			if !slices.Equal(p.sent, []string{"on my way"}) {
				t.Fatalf("sent = %v, want the message once", p.sent)
			}
		})
	}
}

// Without a journal, a retried Step that finds the screen changed
// (ActAlreadyApplied) names the commit from the screen the action was
// decided on, never from the screen the Send left.
func TestARetryWithoutAJournalNamesTheCommitFromTheDecidedScreen(t *testing.T) {
	a, p := newJournalled(t)
	a.Journal = nil
	p.focused, p.text = true, "on my way"
	before := observeTree(t, a)
	in := sendStep(before, "")
	d, _ := a.device(context.Background(), "fake-1")
	if res, err := a.step(context.Background(), d, 1, in); err != nil || res.Act.Commit != sendKey {
		t.Fatalf("first try = %+v, %v", res.Act, err)
	}
	res, err := a.step(context.Background(), d, 2, in)
	if err != nil || res.Act.Result != ActAlreadyApplied || res.Act.Commit != sendKey {
		t.Fatalf("retry = %+v, %v; want %q naming %q", res.Act, err, ActAlreadyApplied, sendKey)
	}
	if len(p.sent) != 1 {
		t.Fatalf("sent = %v", p.sent)
	}
}

// A model outage right after the Send is handed back at once with the
// Send's result and its commit (ModelOutage.Applied): the workflow waits
// it out and records the commit (docs/design.md §4).
func TestAnOutageAfterASendHandsBackItsCommit(t *testing.T) {
	a, p := newJournalled(t)
	p.focused, p.text = true, "on my way"
	a.Executor = &fakeModel{answers: []any{&llm.Error{Kind: llm.Retryable, Status: 503, Msg: "503 overloaded"}}}
	before := observeTree(t, a)
	in := sendStep(before, "goal-1/todo-1/run/3")
	in.Think, in.HandBackOutages, in.KeepApplied = true, true, true
	_, err := a.Step(context.Background(), in)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypeModelUnavailable {
		t.Fatalf("error = %v, want %s", err, ErrTypeModelUnavailable)
	}
	var o ModelOutage
	if err := app.Details(&o); err != nil || o.Applied == nil || o.Applied.Act == nil || o.Applied.Act.Commit != sendKey {
		t.Fatalf("outage = %+v (%v), want the Send's result with commit %q", o, err, sendKey)
	}
}

// The journal's copy on the phone carries the commit's key to a retry on
// another host, whose own journal holds nothing of the Send.
func TestARetryOnAnotherHostNamesTheFirstHostsCommit(t *testing.T) {
	s := newSharedPhone(t)
	h1, h2 := s.host(t), s.host(t)
	send := s.openDraft(t, h1)
	obs, err := h1.Observe(context.Background(), ObserveInput{Serial: s.serial, UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	in := tapStep(obs, send, s.serial, "goal-1/todo-1/run-1/4", 7)
	dies(t, h1, in, false)
	// Host 2 cannot read host 1's decided screen: what names the commit
	// is the phone's journal.
	in.ScreenTreeRef = ""
	res, err := h2.Step(context.Background(), in)
	if err != nil || res.Act == nil || res.Act.Result != "ok" {
		t.Fatalf("host 2's retry = %+v, %v", res.Act, err)
	}
	if !strings.HasSuffix(res.Act.Commit, "|see you at 7") || !strings.Contains(res.Act.Commit, "|Send|") {
		t.Fatalf("host 2's retry names commit %q, want host 1's Send of \"see you at 7\"", res.Act.Commit)
	}
	if got := s.sent(); len(got) != 1 {
		t.Fatalf("sent = %q", got)
	}
}

// A conversation that already ends with the same words (yesterday's "on
// my way") is not today's message: last_sent holds only for a message a
// commit of this todo, or of its earlier runs, sent (docs/design.md §9).
func TestLastSentNeedsAMessageThisTodoSent(t *testing.T) {
	a, _, _ := newActivities(t)
	screen := Observation{TreeRef: tree(t, a, conversationWith("Mom", "", "see you", "on my way")), App: "Messages", AppPackage: "com.example.messages"}
	in := VerifyInput{Task: "Send Mom 'on my way'", Message: "Sent", Screen: screen, SentChecked: true,
		Expect: []postcond.Check{{Kind: postcond.LastSent, Conversation: "Mom", Contains: "on my way"}}}
	verdict := func(commits ...string) VerifyResult {
		t.Helper()
		in.Commits = commits
		v, err := a.Verify(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := verdict(); v.Status != verify.Failed || !strings.Contains(v.Evidence, "before it") {
		t.Fatalf("nothing sent today: %+v", v)
	}
	if v := verdict("com.example.messages|Send|see you"); v.Status != verify.Failed {
		t.Fatalf("another message sent: %+v", v)
	}
	if v := verdict("com.example.messages|Send|Mom|on my way"); v.Status != verify.Done {
		t.Fatalf("sent by this todo: %+v", v)
	}
	// A tap a system window met is shown to have sent only by a bubble
	// more than the screen showed when it was tapped.
	if v := verdict("com.example.messages|Send|on my way" + unconfirmedMark + "1"); v.Status != verify.Failed {
		t.Fatalf("a tap a dialog met, no new bubble: %+v", v)
	}
	if v := verdict("com.example.messages|Send|on my way" + unconfirmedMark + "0"); v.Status != verify.Done {
		t.Fatalf("a tap a dialog met, and a new bubble: %+v", v)
	}
	// A Verify from a run that does not send its commits judges as before.
	in.SentChecked = false
	if v := verdict(); v.Status != verify.Done {
		t.Fatalf("without SentChecked: %+v", v)
	}
}

// A send no commit control names (an icon without a label, the keyboard's
// send key, typed text ending in Enter) is named by its effect: the
// decided screen's draft left its field and shows once more. A field
// emptied without a new bubble sent nothing.
func TestASendNoControlNamesIsNamedByItsEffect(t *testing.T) {
	a, _, _ := newActivities(t)
	unlabelled := func(es []uitree.Element) []uitree.Element {
		for i := range es {
			if es[i].ResourceID == "send_button" {
				es[i].Text, es[i].ResourceID = "", "ic_arrow"
			}
			es[i].Package = "com.example.messages"
		}
		return es
	}
	icon := autoglm.Point{uitree.Relative(950, 1080), uitree.Relative(1880, 2400)}
	keyboard := autoglm.Point{uitree.Relative(1000, 1080), uitree.Relative(2300, 2400)}
	for _, c := range []struct {
		name          string
		act           autoglm.Action
		before, after []uitree.Element
		want          string
	}{
		{"send icon", autoglm.Action{Name: autoglm.ActionTap, Element: &icon},
			conversationWith("Mom", "on my way", "on my way"), conversationWith("Mom", "", "on my way", "on my way"), "com.example.messages|ic_arrow|on my way"},
		{"keyboard's send key", autoglm.Action{Name: autoglm.ActionTap, Element: &keyboard},
			conversationWith("Mom", "on my way"), conversationWith("Mom", "", "on my way"), "com.example.messages|tap|on my way"},
		{"Enter", autoglm.Action{Name: autoglm.ActionType, Text: "on my way\n"},
			conversationWith("Mom", "", "on my way"), conversationWith("Mom", "", "on my way", "on my way"), "com.example.messages|Enter|on my way"},
		{"field cleared, nothing sent", autoglm.Action{Name: autoglm.ActionTap, Element: &icon},
			conversationWith("Mom", "on my way", "on my way"), conversationWith("Mom", "", "on my way"), ""},
		{"typed without Enter", autoglm.Action{Name: autoglm.ActionType, Text: "on my way"},
			conversationWith("Mom", "", "on my way"), conversationWith("Mom", "on my way", "on my way"), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := unlabelled(c.before)
			if c.act.Name == autoglm.ActionType {
				for i := range before {
					if before[i].IsField() {
						before[i].Focused = true
					}
				}
			}
			in := StepInput{Act: &c.act, ScreenTreeRef: tree(t, a, before), Width: 1080, Height: 2400}
			if got := a.sentByEffect(context.Background(), in, unlabelled(c.after)); got.Key != c.want {
				t.Fatalf("commit = %q, want %q", got.Key, c.want)
			}
		})
	}
}
