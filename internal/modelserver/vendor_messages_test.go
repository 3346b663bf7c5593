package modelserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// The persona drives MIUI 短信 and Samsung Messages from what they show:
// the field by its id or class, 发送 and Send, the new-conversation
// button by its description, received bubbles by the side they sit on;
// the verifier reads the sent bubble on the right and the title as whom
// it went to, and the planner's checks hold on the screen the send ends on.
func TestPersonaMessagesOnVendorSkins(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		t.Run(string(skin), func(t *testing.T) {
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			for _, c := range []struct {
				task   string
				want   string
				check  func(phonesim.State) bool
				budget int
			}{
				{"Send Alice a message saying hi", `Sent "hi" to Alice`, func(s phonesim.State) bool {
					return len(s.MessagesSent) == 1 && s.MessagesSent[0].To == "Alice Chen" && s.MessagesSent[0].Text == "hi"
				}, 12},
				{"Read the latest message from Bob Li in Messages", "Sent you the slides.", func(phonesim.State) bool { return true }, 12},
				{"Send Zed Quinn a message saying hi", "no contact named Zed Quinn", func(s phonesim.State) bool { return len(s.MessagesSent) == 1 }, 12},
				{"Send 李四 a message saying 到了", `Sent "到了" to 李四`, func(s phonesim.State) bool {
					n := len(s.MessagesSent)
					return n == 2 && s.MessagesSent[1].To == "李四" && s.MessagesSent[1].Text == "到了"
				}, 14},
			} {
				got, steps := runGoal(t, srv.URL, a, c.task, c.budget)
				if !strings.Contains(got, c.want) {
					t.Errorf("%q finished %q in %d steps, want %q", c.task, got, steps, c.want)
				}
				if s := p.State(); !c.check(s) {
					t.Errorf("%q finished %q but the phone holds %+v", c.task, got, s.MessagesSent)
				}
			}
			if s := p.State().Screen; s.Page != "conversation" || s.Detail != "李四" {
				t.Fatalf("the send ended on %+v", s)
			}
			es := p.UITree()
			obs := observation{App: "Messages", Package: skin.Package("Messages"),
				Elems: uitree.List(es, phonesim.DefaultWidth, phonesim.DefaultHeight)}
			if v := judgeClaim(obs, "Send 李四 a message saying 到了", "done"); v.Status != verify.Done {
				t.Errorf("the sent message on screen: %s (%s), want done", v.Status, v.Evidence)
			}
			if v := judgeClaim(obs, "Send 李四 a message saying 到了吗", "done"); v.Status == verify.Done {
				t.Errorf("another message claimed sent: %s (%s)", v.Status, v.Evidence)
			}
			final := postcond.Screen{App: "Messages", AppPackage: skin.Package("Messages"), Elements: es}
			r := postcond.Eval([]postcond.Check{{Kind: postcond.LastSent, Conversation: "李四", Contains: "到了"}, openConversation("李四").Expect[2]},
				postcond.Observed{Final: final})
			for _, x := range r {
				if !x.Held {
					t.Errorf("%s: %s", x.Check, x.Evidence)
				}
			}
		})
	}
}

// A message typed but not sent is not a sent message on the vendor looks:
// the verifier does not read the field's words as a bubble.
func TestVerifierVendorDraftIsNotSent(t *testing.T) {
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		a.shell("monkey -p " + skin.Package("Messages") + " -c android.intent.category.LAUNCHER 1")
		tapText(t, p, a, "Bob Li")
		for _, e := range p.UITree() {
			if e.IsField() {
				x, y := e.Bounds.Center()
				a.shell(fmt.Sprintf("input tap %d %d", x, y))
			}
		}
		a.shell("input text 'see you'")
		es := p.UITree()
		typed := false
		for _, e := range es {
			typed = typed || e.IsField() && e.Text == "see you"
		}
		if !typed {
			t.Fatalf("%s: the draft is not in the field", skin)
		}
		obs := observation{App: "Messages", Package: skin.Package("Messages"),
			Elems: uitree.List(es, phonesim.DefaultWidth, phonesim.DefaultHeight)}
		if v := judgeClaim(obs, "Send Bob Li a message saying see you", "done"); v.Status == verify.Done {
			t.Errorf("%s: a draft claimed sent: %s (%s)", skin, v.Status, v.Evidence)
		}
	}
}
