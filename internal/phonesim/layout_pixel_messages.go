package phonesim

import (
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Messages (docs/phones.md#skins): Google Messages'
// Compose screens on the same conversations the classic Messages shows.
// A Compose node is an android.view.View whose id, where it has one, is a
// test tag reported as it is ("message_list", "Compose:Draft:Send"); the
// text field is the app's EditText, compose_message_text, reporting its
// hint as its text while empty, as Android reports an empty field.

const (
	// pixelDraftHint is the message field's hint, its text while empty.
	pixelDraftHint = "Text message"
	// pixelSendDesc describes the send button, as Google Messages does.
	pixelSendDesc = "Send message"
)

// layoutPixelMessages lays out the page on top of Messages' stack.
func (p *Phone) layoutPixelMessages(b *builder) {
	switch b.v.page {
	case pageConversation:
		p.layoutPixelConversation(b)
	default:
		p.layoutPixelConversations(b)
	}
}

// composeNode adds a Compose node: a View, the id a test tag.
func (b *builder) composeNode(w widget) {
	if w.class == "" {
		w.class = "android.view.View"
	}
	if w.kind == 0 {
		w.kind = kHidden
	}
	w.tag = w.id != ""
	b.add(w)
}

// composeItem is composeNode for a child of the current list.
func (b *builder) composeItem(w widget, x1, y1, x2, y2 int) {
	if w.class == "" {
		w.class = "android.view.View"
	}
	if w.kind == 0 {
		w.kind = kHidden
	}
	w.tag = w.id != ""
	b.item(w, x1, y1, x2, y2)
}

// saidTime is the clock's time as a bubble's description says it, "1:13
// pm". The simulator keeps no time per message: every bubble says the
// phone's time now.
func (p *Phone) saidTime() string {
	t := p.clockText()
	h, m, ok := strings.Cut(t, ":")
	if !ok || len(h) != 2 {
		return t
	}
	hh := int(h[0]-'0')*10 + int(h[1]-'0')
	half := "am"
	if hh >= 12 {
		half = "pm"
	}
	if hh = hh % 12; hh == 0 {
		hh = 12
	}
	return itoa(hh) + ":" + m + " " + half
}

// layoutPixelConversation is Google Messages' conversation, as
// testdata/real/keval-gmessages-conversation.xml shows it: under the
// ComposeView the ConversationScreenUi node holds the message_list, the
// compose row and the top_app_bar, in that order. Each message is a
// clickable row holding a clickable bubble whose message_text TextView
// carries the words and a description naming who said them ("You said
// test 1:13 pm ., , Delivered" for the phone's own, "A.Keval said …" for
// the other person's); rows run newest first, the newest at the bottom.
// The compose row holds the attach and emoji buttons, the
// compose_message_text field (as public test locators name it:
// android.widget.EditText, "Text message" while empty) and the
// Compose:Draft:Send node whose child says "Send message". The top bar
// holds Back, the monogram and the name, Call and More.
func (p *Phone) layoutPixelConversation(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	who := v.arg
	composeTop := h - keyboardH - 200
	full := uitree.Bounds{X2: w, Y2: h}
	b.composeNode(widget{class: "androidx.compose.ui.platform.ComposeView", full: full})
	b.composeNode(widget{depth: 2, full: full})
	b.composeNode(widget{id: "ConversationScreenUi", depth: 3, full: full})

	msgs := p.st.conv[who]
	const rowStep, bubbleH = 140, 120
	if !v.scrolled {
		v.scroll = max(0, 40+len(msgs)*rowStep-(composeTop-contentTop))
	}
	li := b.list(contentTop, composeTop)
	lw := &b.s.widgets[li]
	lw.class, lw.id, lw.tag, lw.depth = "android.view.View", "message_list", true, 4
	newestSent := -1
	for i, m := range msgs {
		if m.sent {
			newestSent = i
		}
	}
	when := p.saidTime()
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		b.y = 40 + i*rowStep
		bw := min(w-288, 120+utf8.RuneCountInString(m.text)*24)
		x1, x2 := 48, 48+bw
		kind, desc := kBubbleIn, who+" said  "+m.text+" "+when+" ."
		if m.sent {
			x1, x2 = w-21-bw, w-21
			kind, desc = kBubbleOut, "You said  "+m.text+" "+when+" ."
			if i == newestSent {
				desc += ", , Delivered"
			}
		}
		b.composeItem(widget{clickable: true, depth: 5, tap: func() {}}, 21, 0, w-21, bubbleH)
		b.composeItem(widget{kind: kind, clickable: true, depth: 6, tap: func() {}}, x1, 0, x2, bubbleH)
		b.composeItem(widget{depth: 7}, x1, 0, x2, bubbleH)
		b.composeItem(widget{depth: 8}, x1, 0, x2, bubbleH)
		b.item(widget{kind: kText, text: m.text, desc: desc, id: "message_text", tag: true, depth: 9}, x1+40, 24, x2-40, bubbleH-24)
	}
	b.y = 40 + len(msgs)*rowStep
	b.endList(li)

	row := uitree.Bounds{X1: 0, Y1: composeTop, X2: w, Y2: h - keyboardH}
	b.composeNode(widget{depth: 4, full: row})
	left := uitree.Bounds{X1: 21, Y1: row.Y1 + 20, X2: w - 170, Y2: row.Y2 - 20}
	b.composeNode(widget{depth: 5, full: left})
	p.composeIcon(b, "ComposeRowIcon:Shortcuts", "Show attach content screen", uitree.Bounds{X1: left.X1, Y1: left.Y1, X2: left.X1 + 123, Y2: left.Y2})
	text := v.fields["compose_message_text"]
	shown := text
	if shown == "" {
		shown = pixelDraftHint
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: shown, hint: pixelDraftHint,
		id: "compose_message_text", value: text, clickable: true, focused: v.focus == "compose_message_text", depth: 6,
		full: uitree.Bounds{X1: left.X1 + 135, Y1: left.Y1, X2: left.X2 - 135, Y2: left.Y2},
		tap:  func() { v.focus = "compose_message_text" }})
	p.composeIcon(b, "ComposeRowIcon:Emotive", "Show attach emoji and stickers screen", uitree.Bounds{X1: left.X2 - 123, Y1: left.Y1, X2: left.X2, Y2: left.Y2})
	send := uitree.Bounds{X1: w - 164, Y1: left.Y1, X2: w - 21, Y2: left.Y2}
	b.composeNode(widget{depth: 5, full: send})
	b.composeNode(widget{id: "Compose:Draft:Send", clickable: true, depth: 6, full: send, tap: func() { p.sendDraft(v) }})
	b.composeNode(widget{kind: kButton, desc: pixelSendDesc, depth: 7, full: send})
	b.composeNode(widget{class: "android.widget.Button", depth: 7, full: send})

	bar := uitree.Bounds{X1: 0, Y1: 0, X2: w, Y2: contentTop}
	b.composeNode(widget{id: "top_app_bar", depth: 4, full: bar})
	b.composeNode(widget{depth: 5, full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: w, Y2: contentTop}})
	y1, y2 := statusBarH+20, contentTop-20
	p.composeAction(b, "Back", uitree.Bounds{X1: 10, Y1: y1, X2: 133, Y2: y2}, p.back)
	title := uitree.Bounds{X1: 154, Y1: y1, X2: w - 340, Y2: y2}
	b.composeNode(widget{depth: 6, full: title})
	b.composeNode(widget{id: "top_app_bar_title_row", clickable: true, depth: 7, full: title, tap: func() {}})
	b.composeNode(widget{kind: kDot, id: "monogram_test_tag", depth: 8, full: uitree.Bounds{X1: title.X1, Y1: y1 + 10, X2: title.X1 + 102, Y2: y2 - 10}})
	b.composeNode(widget{id: "GlideMonogram", depth: 9, full: uitree.Bounds{X1: title.X1, Y1: y1 + 10, X2: title.X1 + 102, Y2: y2 - 10}})
	b.add(widget{kind: kAppBar, text: who, depth: 8, full: uitree.Bounds{X1: title.X1 + 132, Y1: y1, X2: title.X2, Y2: y2}})
	p.composeAction(b, "Call", uitree.Bounds{X1: w - 246, Y1: y1, X2: w - 123, Y2: y2}, func() {})
	p.composeAction(b, "More", uitree.Bounds{X1: w - 123, Y1: y1, X2: w, Y2: y2}, func() {})
}

// composeIcon is a compose-row icon button: the tagged clickable node,
// the icon describing itself, and the Button semantics node.
func (p *Phone) composeIcon(b *builder, tag, desc string, at uitree.Bounds) {
	b.composeNode(widget{id: tag, clickable: true, depth: 6, full: at, tap: func() {}})
	b.composeNode(widget{kind: kDot, desc: desc, depth: 7, full: inset(at, 30)})
	b.composeNode(widget{class: "android.widget.Button", depth: 7, full: at})
}

// composeAction is a top-bar icon button: a clickable node holding the
// icon that describes it and the Button semantics node, as the real bar's
// Back, Call and More are.
func (p *Phone) composeAction(b *builder, desc string, at uitree.Bounds, tap func()) {
	icon, pad := kDot, 30
	if desc == "Back" {
		icon, pad = kUp, 0 // the arrow drawn as wide as the button
	}
	b.composeNode(widget{clickable: true, depth: 6, full: at, tap: tap})
	b.composeNode(widget{kind: icon, desc: desc, depth: 7, full: inset(at, pad)})
	b.composeNode(widget{class: "android.widget.Button", depth: 7, full: at})
}

// layoutPixelConversations is Google Messages' home list, or the New
// conversation picker: the title, rows (the swipeableContainer holding
// conversation_name, conversation_snippet and the time, ids as public
// test locators name them), and the "Start chat" button, an
// android.widget.Button described "Start chat" that shows its label.
func (p *Phone) layoutPixelConversations(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	picker := v.page == pagePicker
	title := "Messages"
	if picker {
		title = "New conversation"
		b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	}
	x := 48
	if picker {
		x = 160
	}
	b.add(widget{kind: kAppBar, text: title, full: uitree.Bounds{X1: x, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop, h-bottomBarH)
	b.s.widgets[li].id = "conversation_list"
	when := p.saidTime()
	if picker {
		for _, c := range contacts {
			name := c.Name
			b.item(widget{kind: kRow, class: "android.view.ViewGroup", id: "contact_row", clickable: true, tap: func() {
				p.back()
				p.pushConversation(name)
			}}, 0, 0, w, rowH)
			b.item(widget{kind: kDot, class: "android.widget.ImageView", depth: 3}, 48, 40, 148, rowH-40)
			b.item(widget{kind: kText, text: name, id: "contact_name", depth: 3}, 192, 40, w-48, rowH-40)
			b.y += rowH
		}
		b.endList(li)
		return
	}
	for _, name := range p.st.active {
		snippet := ""
		if msgs := p.st.conv[name]; len(msgs) > 0 {
			snippet = msgs[len(msgs)-1].text
			if msgs[len(msgs)-1].sent {
				snippet = "You: " + snippet
			}
		}
		b.item(widget{kind: kRow, class: "android.view.ViewGroup", id: "swipeableContainer", clickable: true,
			tap: func() { p.pushConversation(name) }}, 0, 0, w, rowH)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", id: "conversation_icon", depth: 3}, 48, 40, 148, rowH-40)
		b.item(widget{kind: kText, text: name, id: "conversation_name", depth: 3}, 192, 24, w-300, 96)
		b.item(widget{kind: kSubText, text: snippet, id: "conversation_snippet", depth: 3}, 192, 96, w-48, 156)
		b.item(widget{kind: kSubText, text: when, id: "conversation_timestamp", depth: 3}, w-280, 24, w-24, 96)
		b.y += rowH
	}
	b.endList(li)
	fab := uitree.Bounds{X1: w - 480, Y1: h - bottomBarH + 70, X2: w - 48, Y2: h - bottomBarH + 230}
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "Start chat", desc: "Start chat", id: "start_chat_fab", clickable: true, full: fab,
		tap: func() { p.push(newView(pkgMessages, pagePicker, "")) }})
}

// inset is b shrunk by d on every side.
func inset(b uitree.Bounds, d int) uitree.Bounds {
	return uitree.Bounds{X1: b.X1 + d, Y1: b.Y1 + d, X2: b.X2 - d, Y2: b.Y2 - d}
}
