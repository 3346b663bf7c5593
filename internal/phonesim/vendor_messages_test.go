package phonesim

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The vendor skins' Messages against the ids public test code drives
// MIUI 短信 and Samsung Messages by (layout_vendor_messages.go): the field,
// its hint, the send control and the bubbles, and a send that lands in
// the phone's state as the classic one does.

// vendorConversation is what a check reads off a vendor conversation.
type vendorConversation struct {
	FieldID, FieldClass, FieldText, FieldHint string
	SendID, SendLabel                         string
	SendIsCommit, SendRightOfField            bool
	LastSent                                  string
	Title                                     string
}

func vendorConversationOf(t *testing.T, es []uitree.Element, send func(uitree.Element) bool) vendorConversation {
	t.Helper()
	var c vendorConversation
	fi := find(t, es, "the message field", func(e uitree.Element) bool { return e.IsField() })
	f := es[fi]
	c.FieldID, c.FieldClass, c.FieldText, c.FieldHint = f.ShortID(), f.Class, f.Text, f.Hint
	si := find(t, es, "the send control", send)
	c.SendID, c.SendLabel = es[si].ShortID(), postcond.ControlLabel(es, si)
	c.SendIsCommit = postcond.IsCommitLabel(c.SendLabel, []string{"Send", "发送"})
	c.SendRightOfField = es[si].Bounds.X1 >= f.Bounds.X2
	c.LastSent = postcond.LastOutgoing(es)
	c.Title = postcond.Title(es)
	return c
}

// sideOf reports, for each bubble row the skin marks (MIUI by the row's
// msg_list_item_send / _recv id, One UI by the bubble's description),
// which half of the screen its words sit in.
func sideOf(es []uitree.Element) (sentRight, receivedLeft int) {
	mid := (es[0].Bounds.X1 + es[0].Bounds.X2) / 2
	for i, e := range es {
		if i+1 >= len(es) || !strings.HasSuffix(e.ShortID(), "item_send") && !strings.HasSuffix(e.ShortID(), "item_recv") && e.ShortID() != "bubble_text_view" {
			continue
		}
		cx, _ := es[i+1].Bounds.Center()
		if postcond.Outgoing(e) && cx > mid {
			sentRight++
		}
		if !postcond.Outgoing(e) && cx < mid {
			receivedLeft++
		}
	}
	return sentRight, receivedLeft
}

func TestMIUIMessagesConversation(t *testing.T) {
	p := New(Config{Skin: SkinMIUI})
	tapWhere(t, p, "the launcher's 短信", byDesc("短信")) // in the dock, described only
	es := p.UITree()
	find(t, es, "the title", func(e uitree.Element) bool { return e.Text == "短信" && e.ShortID() == "action_bar_title" })
	find(t, es, "Alice Chen's row name", func(e uitree.Element) bool { return e.ShortID() == "from" && e.Text == "Alice Chen" })
	find(t, es, "the snippet", func(e uitree.Element) bool { return e.ShortID() == "subject" && e.Text == "Are we still on for lunch?" })
	tapWhere(t, p, "Alice Chen", func(e uitree.Element) bool { return e.Text == "Alice Chen" })
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "Alice Chen" {
		t.Fatalf("tapping the row opened %+v", s)
	}
	tapWhere(t, p, "the field", byID(p.pkg(pkgMessages)+":id/embedded_text_editor"))
	typeADB(t, p, "明天见")
	tapWhere(t, p, "发送", byText("发送"))
	if sent := p.State().MessagesSent; len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != "明天见" {
		t.Fatalf("sent %+v", sent)
	}
	es = simDump(t, p)
	got := vendorConversationOf(t, es, byText("发送"))
	want := vendorConversation{FieldID: "embedded_text_editor", FieldClass: "android.widget.EditText", FieldText: "短信", FieldHint: "短信",
		SendID: "send_button", SendLabel: "发送", SendIsCommit: true, SendRightOfField: true, LastSent: "明天见", Title: "Alice Chen"}
	if got != want {
		t.Errorf("the conversation reads\n %+v\nwant\n %+v", got, want)
	}
	if r, l := sideOf(es); r != 1 || l < 1 {
		t.Errorf("bubbles: %d sent on the right, %d received on the left; want 1 and some", r, l)
	}

	// The screenshot draws the Chinese bubble and button as glyphs.
	shot, _, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	set, err := cjkGlyphs()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.UITree() {
		for _, r := range e.Text + e.Desc {
			if _, ok := set.glyphs[r]; r >= 0x2e80 && !ok {
				t.Errorf("%q of %q is not in the CJK font", r, e.Text+e.Desc)
			}
		}
	}
	b := es[find(t, es, "the sent bubble", func(e uitree.Element) bool { return e.Text == "明天见" && e.ShortID() == "text_view" })]
	_, midY := b.Bounds.Center()
	x := b.Bounds.X1 + 36
	first, second := image.Rect(x, midY-22, x+40, midY+22), image.Rect(x+40, midY-22, x+80, midY+22)
	if ink(img, first) < 40 || ink(img, second) < 40 || same(img, first, img, second.Min) {
		t.Errorf("明天见 in its bubble: ink %d and %d, or the same box twice", ink(img, first), ink(img, second))
	}

	// 新建短信 opens the picker, whose row opens that conversation.
	sh(t, p, "input keyevent KEYCODE_BACK")
	tapWhere(t, p, "新建短信", byDesc("新建短信"))
	if s := p.State().Screen; s.Page != pagePicker {
		t.Fatalf("新建短信 opened %+v", s)
	}
	find(t, p.UITree(), "the picker's title", byText("新建短信"))
	tapWhere(t, p, "李四", byText("李四"))
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "李四" {
		t.Fatalf("the picker opened %+v", s)
	}
}

func TestOneUIMessagesConversation(t *testing.T) {
	p := New(Config{Skin: SkinOneUI})
	tapOn(t, p, "Messages")
	es := p.UITree()
	find(t, es, "the title", func(e uitree.Element) bool { return e.Text == "Conversations" && e.ShortID() == "title" })
	find(t, es, "Alice Chen's name", func(e uitree.Element) bool { return e.ShortID() == "list_avatar_name" && e.Text == "Alice Chen" })
	find(t, es, "the snippet", func(e uitree.Element) bool {
		return e.ShortID() == "text_content" && e.Text == "Are we still on for lunch?"
	})
	find(t, es, "the title", func(e uitree.Element) bool {
		return e.Text == "Messages" && e.ShortID() == "collpasing_app_bar_extended_title"
	})
	tapWhere(t, p, "Alice Chen", byText("Alice Chen"))
	tapWhere(t, p, "the field", byID(p.pkg(pkgMessages)+":id/message_edit_text"))
	sh(t, p, "input text 'See you at 6'")
	tapWhere(t, p, "Send", byDesc("Send"))
	if sent := p.State().MessagesSent; len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != "See you at 6" {
		t.Fatalf("sent %+v", sent)
	}
	es = simDump(t, p)
	got := vendorConversationOf(t, es, byDesc("Send"))
	want := vendorConversation{FieldID: "message_edit_text", FieldClass: "android.widget.EditText", FieldText: "Enter message", FieldHint: "Enter message",
		SendID: "send_button1", SendLabel: "Send", SendIsCommit: true, SendRightOfField: true, LastSent: "See you at 6", Title: "Alice Chen"}
	if got != want {
		t.Errorf("the conversation reads\n %+v\nwant\n %+v", got, want)
	}
	if r, l := sideOf(es); r != 1 || l < 1 {
		t.Errorf("bubbles: %d sent on the right, %d received on the left; want 1 and some", r, l)
	}
	sh(t, p, "input keyevent KEYCODE_BACK")
	tapWhere(t, p, "Compose new message", byDesc("Compose new message"))
	tapWhere(t, p, "李四", byText("李四"))
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "李四" {
		t.Fatalf("the picker opened %+v", s)
	}
}
