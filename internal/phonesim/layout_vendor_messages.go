package phonesim

import (
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The MIUI and One UI skins' Messages (docs/phones.md#skins): Xiaomi's
// 短信 and Samsung Messages on the same conversations, drafts and sends
// the classic Messages has. The package stays the simulator's Messages
// package on every skin (the app table, dumpsys and am start know one);
// the ids are the vendor apps' own.
//
// No real uiautomator dump of either app was found in a public
// repository; the trees follow the ids public test code drives real
// phones by:
//   - MIUI (com.android.mms): embedded_text_editor and send_button_sms /
//     send_button in Appium and UiAutomator tests of com.android.mms
//     (CuihuaDaddy/MTBF src/com/letv/cases/leui/message/SMSMMS.java,
//     renanbastos/appium-ruby-testing android/features/screens/
//     flexbox_screen.rb), action_compose_new for the new-message button
//     and text_view for a bubble's words; AOSP Mms's
//     conversation_list_item (from, subject, date) and
//     message_list_item_send / _recv (msg_list_item_send,
//     msg_list_item_recv), which MIUI's 短信 grew from; the launcher
//     label 短信 as frank9203/hellogit's com.miuilite.mms tests tap it.
//     The field's hint, 短信, and the 发送 button's label follow the app
//     as people describe it; no source shows them.
//   - One UI (com.samsung.android.messaging): message_edit_text showing
//     "Enter message", the send button described "Send" (send_button),
//     the list titled "Conversations" (title), list_avatar_name and
//     text_content in the list, bubble_text_view holding a bubble's
//     text_content, and fab for a new conversation, as Appium scripts of
//     Samsung Messages name them (Saurabh-RoboAutomation/Robot-Framework-
//     Appium_send_SMS.robot and others found by those ids). How Samsung
//     marks a bubble as sent is not shown there: the simulator describes
//     the phone's own bubble with a trailing ", Sent".

const (
	miuiDraftHint  = "短信"
	miuiSend       = "发送"
	miuiNewMessage = "新建短信"
	oneuiDraftHint = "Enter message"
	oneuiSendDesc  = "Send"
	oneuiNewDesc   = "Compose new message"
	// draftKey is the field a conversation's draft is kept under on every
	// skin (sendDraft reads it).
	draftKey = "compose_message_text"
)

// vendorMessages lays out Messages on a vendor skin; ok is false on
// the others.
func (p *Phone) vendorMessages(b *builder) bool {
	switch p.cfg.Skin {
	case SkinMIUI:
		if b.v.page == pageConversation {
			p.layoutMIUIConversation(b)
		} else {
			p.layoutMIUIConversations(b)
		}
	case SkinOneUI:
		if b.v.page == pageConversation {
			p.layoutOneUIConversation(b)
		} else {
			p.layoutOneUIConversations(b)
		}
	default:
		return false
	}
	// The vendors' apps run on Android versions whose dumps carry a
	// field's hint, as the Pixel's do.
	b.s.hints = true
	return true
}

// draftField is a conversation's message field under the vendor's id:
// its text the draft, or the hint while empty, as Android reports it.
func (p *Phone) draftField(b *builder, id, hint string, at uitree.Bounds) {
	v := b.v
	text := v.fields[draftKey]
	shown := text
	if shown == "" {
		shown = hint
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: shown, hint: hint, id: id, value: text,
		clickable: true, focused: v.focus == draftKey, full: at, tap: func() { v.focus = draftKey }})
}

// layoutMIUIConversations is 短信's list (rows as AOSP Mms's
// conversation_list_item: from, subject, date) or the 新建短信 picker.
func (p *Phone) layoutMIUIConversations(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	if v.page == pagePicker {
		b.miuiBar(miuiNewMessage)
		li := b.list(contentTop, h)
		p.pickerRows(b, "name")
		b.endList(li)
		return
	}
	b.add(widget{kind: kAppBar, text: "短信", id: "action_bar_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop, h-bottomBarH)
	b.s.widgets[li].id = "android:id/list"
	when := p.clockText()
	for _, name := range p.st.active {
		snippet := ""
		if msgs := p.st.conv[name]; len(msgs) > 0 {
			snippet = msgs[len(msgs)-1].text
		}
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: func() { p.pushConversation(name) }}, 0, 0, w, rowH)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", id: "avatar", depth: 3}, 48, 40, 148, rowH-40)
		b.item(widget{kind: kText, text: name, id: "from", depth: 3}, 192, 24, w-300, 96)
		b.item(widget{kind: kSubText, text: snippet, id: "subject", depth: 3}, 192, 96, w-48, 156)
		b.item(widget{kind: kSubText, text: when, id: "date", depth: 3}, w-280, 24, w-24, 96)
		b.y += rowH
	}
	b.endList(li)
	b.add(widget{kind: kDot, class: "android.widget.ImageButton", desc: miuiNewMessage, id: "action_compose_new", clickable: true,
		full: uitree.Bounds{X1: w - 228, Y1: h - bottomBarH + 60, X2: w - 48, Y2: h - bottomBarH + 240},
		tap:  func() { p.push(newView(pkgMessages, pagePicker, "")) }})
}

// layoutMIUIConversation is a 短信 conversation: 返回 and the name, the
// bubbles (a msg_list_item_send or _recv row holding its text_view), the
// embedded_text_editor and 发送.
func (p *Phone) layoutMIUIConversation(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	b.miuiBar(v.arg)
	composeTop := h - keyboardH - 200
	msgs := p.st.conv[v.arg]
	const rowStep, bubbleH = 140, 120
	if !v.scrolled {
		v.scroll = max(0, 40+len(msgs)*rowStep-(composeTop-contentTop))
	}
	li := b.list(contentTop, composeTop)
	b.s.widgets[li].id = "history"
	b.y = 40
	for _, m := range msgs {
		bw := min(w-288, 120+utf8.RuneCountInString(m.text)*40)
		x1, x2, kind, id := 48, 48+bw, kBubbleIn, "msg_list_item_recv"
		if m.sent {
			x1, x2, kind, id = w-48-bw, w-48, kBubbleOut, "msg_list_item_send"
		}
		b.item(widget{class: "android.widget.LinearLayout", id: id, kind: kHidden}, 0, 0, w, bubbleH)
		b.item(widget{kind: kind, class: "android.widget.TextView", text: m.text, id: "text_view", depth: 3}, x1, 0, x2, bubbleH)
		b.y += rowStep
	}
	b.endList(li)
	p.draftField(b, "embedded_text_editor", miuiDraftHint, uitree.Bounds{X1: 24, Y1: composeTop + 20, X2: w - 260, Y2: composeTop + 180})
	b.add(widget{kind: kButton, class: "android.widget.Button", text: miuiSend, id: "send_button", clickable: true,
		full: uitree.Bounds{X1: w - 236, Y1: composeTop + 20, X2: w - 24, Y2: composeTop + 180},
		tap:  func() { p.sendDraft(v) }})
}

// layoutOneUIConversations is Samsung Messages' Conversations list (a
// row's list_avatar_name and text_content) or its New conversation
// picker.
func (p *Phone) layoutOneUIConversations(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	if v.page == pagePicker {
		b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
		b.add(widget{kind: kAppBar, text: "New conversation", id: "title", full: uitree.Bounds{X1: 160, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
		li := b.list(contentTop, h)
		b.s.widgets[li].id = "picker_activity_main"
		p.pickerRows(b, "contact_name")
		b.endList(li)
		return
	}
	b.add(widget{kind: kAppBar, text: "Conversations", id: "title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop, h-bottomBarH)
	b.s.widgets[li].class, b.s.widgets[li].id = "androidx.recyclerview.widget.RecyclerView", "conversation_list"
	for _, name := range p.st.active {
		snippet := ""
		if msgs := p.st.conv[name]; len(msgs) > 0 {
			snippet = msgs[len(msgs)-1].text
		}
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: func() { p.pushConversation(name) }}, 0, 0, w, rowH)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", depth: 3}, 48, 40, 148, rowH-40)
		b.item(widget{kind: kText, text: name, id: "list_avatar_name", depth: 3}, 192, 24, w-300, 96)
		b.item(widget{kind: kSubText, text: snippet, id: "text_content", depth: 3}, 192, 96, w-48, 156)
		b.y += rowH
	}
	b.endList(li)
	b.add(widget{kind: kDot, class: "android.widget.ImageButton", desc: oneuiNewDesc, id: "fab", clickable: true,
		full: uitree.Bounds{X1: w - 228, Y1: h - bottomBarH + 60, X2: w - 48, Y2: h - bottomBarH + 240},
		tap:  func() { p.push(newView(pkgMessages, pagePicker, "")) }})
}

// layoutOneUIConversation is a Samsung Messages conversation: Navigate
// up and the name, the bubbles (bubble_text_view holding text_content),
// message_edit_text ("Enter message") and the Send button.
func (p *Phone) layoutOneUIConversation(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	b.appBar(v.arg, true)
	composeTop := h - keyboardH - 200
	msgs := p.st.conv[v.arg]
	const rowStep, bubbleH = 140, 120
	if !v.scrolled {
		v.scroll = max(0, 40+len(msgs)*rowStep-(composeTop-contentTop))
	}
	li := b.list(contentTop, composeTop)
	b.s.widgets[li].class, b.s.widgets[li].id = "androidx.recyclerview.widget.RecyclerView", "message_list"
	b.y = 40
	when := p.saidTime()
	for _, m := range msgs {
		bw := min(w-288, 120+utf8.RuneCountInString(m.text)*24)
		x1, x2, kind, desc := 48, 48+bw, kBubbleIn, v.arg+", "+m.text+", "+when
		if m.sent {
			x1, x2, kind, desc = w-48-bw, w-48, kBubbleOut, m.text+", "+when+", Sent"
		}
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "bubble_text_view", desc: desc, clickable: true, tap: func() {}}, x1, 0, x2, bubbleH)
		b.item(widget{kind: kind, class: "android.widget.TextView", text: m.text, id: "text_content", depth: 3}, x1, 0, x2, bubbleH)
		b.y += rowStep
	}
	b.endList(li)
	p.draftField(b, "message_edit_text", oneuiDraftHint, uitree.Bounds{X1: 24, Y1: composeTop + 20, X2: w - 200, Y2: composeTop + 180})
	b.add(widget{kind: kDot, class: "android.widget.ImageButton", desc: oneuiSendDesc, id: "send_button", clickable: true,
		full: uitree.Bounds{X1: w - 180, Y1: composeTop + 20, X2: w - 24, Y2: composeTop + 180},
		tap:  func() { p.sendDraft(v) }})
}

// pickerRows lists the contacts in a new-message picker, a row each whose
// name sits in nameID; a tap opens that contact's conversation.
func (p *Phone) pickerRows(b *builder, nameID string) {
	w := b.s.w
	for _, c := range contacts {
		name := c.Name
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: func() {
			p.back()
			p.pushConversation(name)
		}}, 0, 0, w, rowH)
		b.item(widget{kind: kText, text: name, id: nameID, depth: 3}, 192, 40, w-48, rowH-40)
		b.y += rowH
	}
}
