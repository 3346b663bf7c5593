package activities

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

func tree(t *testing.T, a *Activities, elems []uitree.Element) string {
	t.Helper()
	b, _ := json.Marshal(elems)
	ref, err := a.put(context.Background(), b, "application/json")
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func conversationWith(name, compose string, sent ...string) []uitree.Element {
	es := []uitree.Element{{Class: "android.widget.TextView", ResourceID: "title", Text: name, Bounds: uitree.Bounds{X1: 0, Y1: 100, X2: 1080, Y2: 200}}}
	for i, s := range sent {
		es = append(es, uitree.Element{Class: "android.widget.TextView", Text: s, Desc: "Sent", Bounds: uitree.Bounds{X1: 240, Y1: 300 + 150*i, X2: 1000, Y2: 420 + 150*i}})
	}
	return append(es,
		uitree.Element{Class: "android.widget.EditText", ResourceID: "compose_message_text", Text: compose, Desc: "Text message", Clickable: true, Bounds: uitree.Bounds{X1: 24, Y1: 1800, X2: 800, Y2: 1960}},
		uitree.Element{Class: "android.widget.Button", ResourceID: "send_button", Text: "Send", Clickable: true, Bounds: uitree.Bounds{X1: 844, Y1: 1800, X2: 1056, Y2: 1960}})
}

// An executor that misreads the recipient (it opened Zhang San's
// conversation for a message to Mom) never sends: the Step refuses the tap
// on Send, the phone gets no input, and the executor is told why.
func TestAMisreadRecipientNeverSends(t *testing.T) {
	a, p, _ := newActivities(t, "<think>x</think><answer>do(action=\"Back\")</answer>")
	send := autoglm.Point{uitree.Relative(950, 1080), uitree.Relative(1880, 2400)}
	in := StepInput{Serial: "fake-1", Task: "Send Mom a message: Zhang San's number is +86 138 0000 0003", UITree: true,
		Act: &autoglm.Action{Name: autoglm.ActionTap, Element: &send}, Width: 1080, Height: 2400,
		ScreenTreeRef: tree(t, a, conversationWith("Zhang San", "'s phone number to Mom")),
		Expect:        []postcond.Check{{Kind: postcond.LastSent, Conversation: "Mom", Contains: "+86 138 0000 0003"}}}
	res, err := a.Step(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Act == nil || !strings.Contains(res.Act.Refused, "Zhang San") || !strings.HasPrefix(res.Act.Result, ActRefused) {
		t.Fatalf("act = %+v, want the Send refused naming Zhang San", res.Act)
	}
	for _, in := range p.got() {
		if strings.HasPrefix(in, "tap") {
			t.Fatalf("the phone got %q: the refused Send reached it", in)
		}
	}
	// The same misreading without any postcondition: the todo names no
	// Zhang San, so the Send is refused too.
	in.Expect = nil
	in.Task = "Send Mom a message: see you"
	in.ScreenTreeRef = tree(t, a, conversationWith("Zhang San", "see you"))
	if res, err = a.Step(context.Background(), in); err != nil || res.Act == nil || res.Act.Refused == "" {
		t.Fatalf("no postcondition: %+v, %v", res.Act, err)
	}
	// The right conversation sends, and the commit is recorded.
	in.ScreenTreeRef = tree(t, a, conversationWith("Mom", "see you"))
	if res, err = a.Step(context.Background(), in); err != nil || res.Act == nil || res.Act.Refused != "" || !strings.Contains(res.Act.Committed, `"see you"`) {
		t.Fatalf("right target: %+v, %v", res.Act, err)
	}
}

// A todo whose executor finishes without changing the phone is not done:
// the planner's postcondition is checked on the final screen, and no
// model is asked.
func TestFinishWithoutChangingThePhoneIsNotDone(t *testing.T) {
	a, _, m := newActivities(t, `{"status":"done","evidence":"Wi-Fi is off"}`)
	wifiOn := []uitree.Element{{Class: "android.widget.Switch", Text: "Wi-Fi", Checkable: true, Checked: true}}
	off := false
	res, err := a.Verify(context.Background(), VerifyInput{Task: "Turn off Wi-Fi", Message: "Wi-Fi is off",
		Screen: Observation{TreeRef: tree(t, a, wifiOn), App: "Settings", AppPackage: "com.android.settings"},
		Expect: []postcond.Check{{Kind: postcond.Switch, Label: "Wi-Fi", On: &off}}})
	if err != nil || res.Status != "failed" || res.By != "postcondition" || len(res.Checks) != 1 || res.Checks[0].Held {
		t.Fatalf("Verify = %+v, %v; want failed by the postcondition", res, err)
	}
	if len(m.reqs) != 0 {
		t.Fatalf("the verifier model was asked %d times", len(m.reqs))
	}
}

// An answer not seen on any screen the todo observed is not done.
func TestAnAnswerNotSeenIsNotDone(t *testing.T) {
	a, _, _ := newActivities(t)
	contact := []uitree.Element{{Class: "android.widget.TextView", ResourceID: "phone_number", Text: "+86 138 0000 0003"}}
	seen := Observation{TreeRef: tree(t, a, contact), App: "Contacts"}
	final := Observation{TreeRef: tree(t, a, []uitree.Element{{Class: "android.widget.TextView", Text: "Contacts"}}), App: "Contacts"}
	check := []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypePhone}}
	res, err := a.Verify(context.Background(), VerifyInput{Task: "Read Zhang San's number", Message: "+86 139 0000 0004", Screen: final, Seen: []Observation{seen}, Expect: check})
	if err != nil || res.Status != "failed" {
		t.Fatalf("an unseen answer: %+v, %v", res, err)
	}
	res, err = a.Verify(context.Background(), VerifyInput{Task: "Read Zhang San's number", Message: "+86 138 0000 0003", Screen: final, Seen: []Observation{seen}, Expect: check})
	if err != nil || res.Status != "done" {
		t.Fatalf("a seen answer: %+v, %v", res, err)
	}
}

// A model's done whose evidence quotes nothing on the final screen is not
// done.
func TestModelEvidenceMustQuoteTheScreen(t *testing.T) {
	a, _, _ := newActivities(t, `{"status":"done","evidence":"the forecast is sunny"}`)
	screen := Observation{TreeRef: tree(t, a, []uitree.Element{{Class: "android.widget.TextView", Text: "Weather"}}), App: "Weather"}
	res, err := a.Verify(context.Background(), VerifyInput{Task: "Read today's forecast", Message: "Sunny", Screen: screen})
	if err != nil || res.Status != "failed" {
		t.Fatalf("unquoted evidence: %+v, %v", res, err)
	}
}

// composeConversation is a conversation as Google Messages (Compose)
// dumps it: the title a text with no ID inside the top app bar row, sent
// bubbles described "You said …", the send button a clickable with no
// label whose child is described "Send message".
func composeConversation(name, compose string) []uitree.Element {
	b := func(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2} }
	return []uitree.Element{
		{Class: "android.view.View", ResourceID: "ConversationScreenUi", Bounds: b(0, 0, 1080, 2400), Enabled: true},
		{Class: "android.view.View", ResourceID: "message_list", Scrollable: true, Bounds: b(0, 200, 1080, 2100), Depth: 1, Enabled: true},
		{Class: "android.widget.TextView", ResourceID: "message_text", Text: "hi", Desc: "You said  hi 1:13 pm ., , Delivered", Bounds: b(800, 1800, 1040, 1880), Depth: 2, Enabled: true},
		{Class: "android.widget.EditText", Text: compose, Clickable: true, Bounds: b(40, 2150, 860, 2300), Depth: 1, Enabled: true},
		{Class: "android.view.View", ResourceID: "Compose:Draft:Send", Clickable: true, Bounds: b(900, 2150, 1060, 2300), Depth: 1, Enabled: true},
		{Class: "android.view.View", Desc: "Send message", Bounds: b(930, 2180, 1030, 2270), Depth: 2, Enabled: true},
		{Class: "android.view.View", ResourceID: "top_app_bar_title_row", Clickable: true, Bounds: b(150, 60, 700, 200), Depth: 1, Enabled: true},
		{Class: "android.widget.TextView", Text: name, Bounds: b(200, 90, 600, 170), Depth: 2, Enabled: true},
	}
}

// Google Messages' send button is a commit control though its label is
// on its child: the wrong-target guard runs for its tap.
func TestTheComposeSendTapIsGuarded(t *testing.T) {
	a, p, _ := newActivities(t, "<think>x</think><answer>do(action=\"Back\")</answer>")
	send := autoglm.Point{uitree.Relative(980, 1080), uitree.Relative(2225, 2400)}
	in := StepInput{Serial: "fake-1", Task: "Send Mom a message: see you", UITree: true,
		Act: &autoglm.Action{Name: autoglm.ActionTap, Element: &send}, Width: 1080, Height: 2400,
		ScreenTreeRef: tree(t, a, composeConversation("A.Keval", "see you")),
		Expect:        []postcond.Check{{Kind: postcond.LastSent, Conversation: "Mom", Contains: "see you"}}}
	res, err := a.Step(context.Background(), in)
	if err != nil || res.Act == nil || !strings.Contains(res.Act.Refused, "A.Keval") {
		t.Fatalf("act = %+v, %v; want the Send refused naming A.Keval", res.Act, err)
	}
	for _, in := range p.got() {
		if strings.HasPrefix(in, "tap") {
			t.Fatalf("the phone got %q: the refused Send reached it", in)
		}
	}
	in.ScreenTreeRef = tree(t, a, composeConversation("Mom", "see you"))
	if res, err = a.Step(context.Background(), in); err != nil || res.Act == nil || res.Act.Refused != "" || !strings.Contains(res.Act.Committed, `Send message on "Mom": "see you"`) {
		t.Fatalf("right target: %+v, %v", res.Act, err)
	}
}
