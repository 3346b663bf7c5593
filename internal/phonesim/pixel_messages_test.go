package phonesim

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Messages and Contacts against what checks read off the
// real Google Messages conversation (testdata/real/SOURCES.md).

// bubbleShape is what a check reads off a conversation: the bubbles'
// class and id, whether they sit in the message list on the side their
// description says, the send control and the title.
type bubbleShape struct {
	SentClass, SentID, ListID        string
	SentRight, ReceivedLeft          bool
	SendParentID, SendParentClass    string
	SendParentClickable, SendIsChild bool
	TitleClass, TitleID              string
	LastSent                         string
	SendIsCommit                     bool
}

func bubbleShapeOf(t *testing.T, es []uitree.Element, title string) bubbleShape {
	t.Helper()
	par := uitree.Parents(es)
	var s bubbleShape
	list := func(i int) int {
		for a := par[i]; a >= 0; a = par[a] {
			if es[a].ShortID() == "message_list" {
				return a
			}
		}
		return -1
	}
	for i, e := range es {
		l := list(i)
		if l < 0 {
			continue
		}
		lb := es[l].Bounds
		left, right := e.Bounds.X1-lb.X1, lb.X2-e.Bounds.X2
		switch {
		case strings.HasPrefix(e.Desc, "You said "):
			s.SentClass, s.SentID, s.ListID = e.Class, e.ShortID(), es[l].ShortID()
			s.SentRight = right < left
		case strings.Contains(e.Desc, " said "):
			s.ReceivedLeft = left < right
		}
	}
	send := find(t, es, "Send message", byDesc("Send message"))
	sp := par[send]
	s.SendParentID, s.SendParentClass, s.SendParentClickable = es[sp].ResourceID, es[sp].Class, es[sp].Clickable
	s.SendIsChild = !es[send].Clickable
	s.SendIsCommit = postcond.IsCommitLabel(postcond.ControlLabel(es, sp), []string{"Send"})
	ti := find(t, es, "title "+title, byText(title))
	s.TitleClass, s.TitleID = es[ti].Class, es[ti].ResourceID
	s.LastSent = postcond.LastOutgoing(es)
	return s
}

func TestPixelConversationIsTheRealOne(t *testing.T) {
	want := bubbleShapeOf(t, realDump(t, "keval-gmessages-conversation.xml"), "A.Keval")
	if want.LastSent != "test" || !want.SentRight || !want.ReceivedLeft || !want.SendIsCommit {
		t.Fatalf("the real conversation reads %+v; the comparison is off", want)
	}
	p := pixelPhone()
	launch(t, p, pkgMessages)
	tapWhere(t, p, "Alice Chen's row", byText("Alice Chen"))
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "Alice Chen" {
		t.Fatalf("tapping the row opened %+v", s)
	}
	tapWhere(t, p, "the message field", func(e uitree.Element) bool { return e.ShortID() == "compose_message_text" })
	sh(t, p, "input text 'See you at 6'")
	tapWhere(t, p, "Send message", byDesc("Send message"))
	if sent := p.State().MessagesSent; len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != "See you at 6" {
		t.Fatalf("sent %+v", sent)
	}
	es := simDump(t, p)
	got := bubbleShapeOf(t, es, "Alice Chen")
	want.LastSent = "See you at 6"
	if got != want {
		t.Errorf("the simulator's conversation reads\n%+v\nthe real one\n%+v", got, want)
	}
	f := es[find(t, es, "the message field", func(e uitree.Element) bool { return e.ShortID() == "compose_message_text" })]
	if f.Class != "android.widget.EditText" || f.Text != "Text message" || f.Hint != "Text message" || f.ResourceID != p.pkg(pkgMessages)+":id/compose_message_text" {
		t.Errorf("the emptied field reads %+v; Google Messages' shows its hint, Text message", f)
	}
}

func TestPixelConversationListAndPicker(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgMessages)
	es := p.UITree()
	find(t, es, "the title", byText("Messages"))
	find(t, es, "a conversation name", func(e uitree.Element) bool { return e.ShortID() == "conversation_name" && e.Text == "Alice Chen" })
	find(t, es, "a snippet", func(e uitree.Element) bool {
		return e.ShortID() == "conversation_snippet" && e.Text == "Are we still on for lunch?"
	})
	tapWhere(t, p, "Start chat", byDesc("Start chat"))
	if s := p.State().Screen; s.Page != pagePicker {
		t.Fatalf("Start chat opened %+v", s)
	}
	tapWhere(t, p, "李四 in the picker", byText("李四"))
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "李四" {
		t.Fatalf("the picker opened %+v", s)
	}
}

func TestPixelContactsListAndCard(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgContacts)
	es := p.UITree()
	par := uitree.Parents(es)
	name := find(t, es, "Bob Li", byText("Bob Li"))
	if es[name].ShortID() != "cliv_name_textview" || es[name].Clickable || !es[par[name]].Clickable {
		t.Errorf("the name reads %+v in %+v; AOSP's is cliv_name_textview in a clickable row", es[name], es[par[name]])
	}
	header := find(t, es, "the B header", byText("B"))
	if par[header] != par[name] {
		t.Errorf("the letter header is not in Bob Li's row")
	}
	tapWhere(t, p, "Bob Li", byText("Bob Li"))
	if s := p.State().Screen; s.Page != pageDetail || s.Detail != "Bob Li" {
		t.Fatalf("tapping the row opened %+v", s)
	}
	es = p.UITree()
	find(t, es, "the name", func(e uitree.Element) bool { return e.ShortID() == "large_title" && e.Text == "Bob Li" })
	find(t, es, "the number", func(e uitree.Element) bool { return e.ShortID() == "header" && e.Text == "+1 555 0102" })
	find(t, es, "Mobile", func(e uitree.Element) bool { return e.ShortID() == "sub_header" && e.Text == "Mobile" })
	tapWhere(t, p, "Text", func(e uitree.Element) bool { return e.ShortID() == "icon_alternate" })
	if s := p.State().Screen; s.Page != pageConversation || s.Detail != "Bob Li" {
		t.Fatalf("Text opened %+v", s)
	}
}

func TestClassicMessagesUnchanged(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgMessages)
	es := p.UITree()
	find(t, es, "Start chat", byText("Start chat"))
	for _, e := range es {
		if e.ShortID() == "conversation_name" {
			t.Fatalf("the classic list has the Pixel's rows: %+v", e)
		}
	}
}
