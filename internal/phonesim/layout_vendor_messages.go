package phonesim

import (
	"fmt"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The MIUI and One UI skins' Messages (docs/phones.md#skins): Xiaomi's
// 短信 and Samsung Messages on the same conversations, drafts and sends
// the classic Messages has. The package stays the simulator's Messages
// package on every skin (the app table, dumpsys and am start know one);
// the ids are the vendor apps' own.
//
// No real uiautomator dump of 短信 was found in a public repository; its
// tree follows the ids public test code drives real phones by. Samsung
// Messages follows a real dump:
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
//   - One UI (com.samsung.android.messaging): bbrozyna/android-uiviewer @
//     1b7a6eac3b8e : dump.xml (testdata/real/uiviewer-samsung-messages-list.xml,
//     a tablet's split view of the list and a New conversation composer):
//     the list's app bar, rows and tabs (layoutOneUIConversations), the
//     composer's title, bubble_list_view, message_edit_text showing
//     "Enter message" and the Send ImageButton inside its clickable
//     container, disabled while the field is empty
//     (layoutOneUIConversation). The dump holds no bubble and no fab:
//     bubble_text_view holding a bubble's text_content and the fab that
//     starts a conversation follow Appium scripts of Samsung Messages
//     (Saurabh-RoboAutomation/Robot-Framework-Appium_send_SMS.robot and
//     others found by those ids), and the simulator describes the phone's
//     own bubble with a trailing ", Sent". The New conversation page
//     lists the contacts to pick from; the dump's composer takes a
//     recipient typed into its To field instead.

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

// layoutOneUIConversations is Samsung Messages' list as
// uiviewer-samsung-messages-list.xml shows it (or its New conversation
// picker): the app bar's title Messages over "No unread messages", the
// toolbar (Messages again, Search, More options),
// conversationRecycleListView holding a clickable row per conversation
// (card_view_list_item: the avatar, list_avatar_name and list_time on the
// first line, text_content below), and the Conversations and Contacts
// tabs at the bottom. The dump is a tablet's split view, whose right pane
// is the composer; the simulator shows the list alone, and starts a
// conversation by the fab, which the dump does not show.
func (p *Phone) layoutOneUIConversations(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	if v.page == pagePicker {
		b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
		b.add(widget{kind: kAppBar, text: "New conversation", desc: "New conversation", id: "composer_title", full: uitree.Bounds{X1: 160, Y1: statusBarH + 34, X2: w - 48, Y2: contentTop - 34}})
		li := b.list(contentTop, h)
		b.s.widgets[li].id = "picker_activity_main"
		p.pickerRows(b, "contact_name")
		b.endList(li)
		return
	}
	top := statusBarH
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "app_bar", full: uitree.Bounds{X2: w, Y1: top, Y2: top + 420}})
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "collapsing_toolbar", depth: 2, full: uitree.Bounds{X2: w, Y1: top, Y2: top + 420}})
	b.add(widget{kind: kBigText, text: "Messages", id: "collpasing_app_bar_extended_title", depth: 3, full: uitree.Bounds{X2: w, Y1: top + 20, Y2: top + 180}})
	b.add(widget{kind: kSubText, text: "No unread messages", id: "collpasing_app_bar_extended_sub_title", depth: 3, full: uitree.Bounds{X1: w/2 - 240, Y1: top + 180, X2: w/2 + 240, Y2: top + 240}})
	bar := uitree.Bounds{X2: w, Y1: top + 252, Y2: top + 420}
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "toolbar", depth: 3, full: bar})
	b.add(widget{kind: kText, text: "Messages", depth: 4, full: uitree.Bounds{X1: 72, Y1: bar.Y1 + 34, X2: 480, Y2: bar.Y2 - 34}})
	b.add(widget{kind: kHidden, class: "androidx.appcompat.widget.LinearLayoutCompat", depth: 4, full: uitree.Bounds{X1: w - 288, Y1: bar.Y1, X2: w, Y2: bar.Y2}})
	b.add(widget{kind: kHidden, class: "android.widget.Button", desc: "Search", id: "action_search", clickable: true, depth: 5,
		full: uitree.Bounds{X1: w - 288, Y1: bar.Y1, X2: w - 144, Y2: bar.Y2}, tap: func() {}})
	b.add(widget{kind: kHidden, class: "android.widget.ImageView", desc: "More options", clickable: true, depth: 5,
		full: uitree.Bounds{X1: w - 144, Y1: bar.Y1, X2: w, Y2: bar.Y2}, tap: func() {}})
	const tabsH = 168
	li := b.list(bar.Y2+36, h-tabsH)
	b.s.widgets[li].class, b.s.widgets[li].id = "androidx.recyclerview.widget.RecyclerView", "conversationRecycleListView"
	when := p.listDate()
	for _, name := range p.st.active {
		snippet := ""
		if msgs := p.st.conv[name]; len(msgs) > 0 {
			snippet = msgs[len(msgs)-1].text
		}
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: func() { p.pushConversation(name) }}, 0, 0, w, rowH+30)
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "card_view_list_item", depth: 3}, 0, 0, w, rowH+30)
		b.item(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "list_avatar_panel_outline", depth: 4}, 48, 0, 168, rowH+30)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", id: "list_avatar_panel", clickable: true, depth: 5,
			tap: func() { p.pushConversation(name) }}, 48, 45, 168, rowH-15)
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", depth: 4}, 216, 0, w-72, rowH+30)
		b.item(widget{kind: kText, text: name, id: "list_avatar_name", depth: 5}, 216, 42, w-260, 114)
		b.item(widget{kind: kSubText, text: when, id: "list_time", depth: 5}, w-240, 50, w-72, 104)
		b.item(widget{kind: kSubText, text: snippet, id: "text_content", depth: 5}, 216, 114, w-72, 166)
		b.y += rowH + 30
	}
	b.endList(li)
	b.add(widget{kind: kDot, class: "android.widget.ImageButton", desc: oneuiNewDesc, id: "fab", clickable: true,
		full: uitree.Bounds{X1: w - 228, Y1: h - tabsH - 220, X2: w - 48, Y2: h - tabsH - 40},
		tap:  func() { p.push(newView(pkgMessages, pagePicker, "")) }})
	tabs := uitree.Bounds{X1: 72, Y1: h - tabsH, X2: w - 72, Y2: h}
	b.add(widget{kind: kHidden, class: "android.widget.HorizontalScrollView", id: "list_page_indicator", full: tabs})
	for i, tab := range []string{"Conversations", "Contacts"} {
		x1 := tabs.X1 + i*(tabs.X2-tabs.X1)/2
		x2 := x1 + (tabs.X2-tabs.X1)/2
		b.add(widget{kind: kHidden, class: "androidx.appcompat.app.ActionBar$Tab", clickable: true, depth: 2,
			full: uitree.Bounds{X1: x1, Y1: tabs.Y1, X2: x2, Y2: tabs.Y2}, tap: func() {}})
		b.add(widget{kind: kText, text: tab, desc: fmt.Sprintf("%s, Tab %d of 2", tab, i+1), id: "title", depth: 3,
			full: uitree.Bounds{X1: x1 + 60, Y1: tabs.Y1 + 55, X2: x2 - 60, Y2: tabs.Y2 - 55}})
	}
}

// listDate is how Samsung Messages' list dates a conversation: the
// day and month ("28 Mar" in the dump); the simulator's messages are all
// from today, which the app writes as the time.
func (p *Phone) listDate() string { return time12(p.clockText()) }

// layoutOneUIConversation is a Samsung Messages conversation, in the
// composer's shape of uiviewer-samsung-messages-list.xml: the
// composer_toolbar holding Navigate up and composer_title (the name, in
// its text and its description), bubble_list_view holding the bubbles
// (bubble_text_view holding text_content), and the edit_panel at the
// bottom: attach_button, message_edit_text ("Enter message" while empty)
// and include_send_buttons_layout, whose clickable send_button_container
// holds the ImageButton described Send (send_button1), enabled only
// while there is something to send.
func (p *Phone) layoutOneUIConversation(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	bar := uitree.Bounds{X1: 0, Y1: statusBarH, X2: w, Y2: contentTop}
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "composer_toolbar", full: bar})
	b.add(widget{kind: kHidden, class: "android.widget.RelativeLayout", id: "composer_fragment_toolbar", depth: 2, full: bar})
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true, depth: 3,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "composer_title_layout", depth: 3, full: uitree.Bounds{X1: 144, Y1: bar.Y1, X2: w - 48, Y2: bar.Y2}})
	b.add(widget{kind: kAppBar, text: v.arg, desc: v.arg, id: "composer_title", depth: 4, full: uitree.Bounds{X1: 160, Y1: statusBarH + 34, X2: w - 48, Y2: contentTop - 34}})
	composeTop := h - keyboardH - 200
	msgs := p.st.conv[v.arg]
	const rowStep, bubbleH = 140, 120
	if !v.scrolled {
		v.scroll = max(0, 40+len(msgs)*rowStep-(composeTop-contentTop))
	}
	b.add(widget{kind: kHidden, class: "android.widget.RelativeLayout", id: "bubble_list_view_panel", full: uitree.Bounds{X1: 0, Y1: contentTop, X2: w, Y2: composeTop}})
	li := b.list(contentTop, composeTop)
	b.s.widgets[li].class, b.s.widgets[li].id, b.s.widgets[li].depth = "androidx.recyclerview.widget.RecyclerView", "bubble_list_view", 2
	b.y = 40
	when := p.saidTime()
	for _, m := range msgs {
		bw := min(w-288, 120+utf8.RuneCountInString(m.text)*24)
		x1, x2, kind, desc := 48, 48+bw, kBubbleIn, v.arg+", "+m.text+", "+when
		if m.sent {
			x1, x2, kind, desc = w-48-bw, w-48, kBubbleOut, m.text+", "+when+", Sent"
		}
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "bubble_text_view", desc: desc, clickable: true, depth: 3, tap: func() {}}, x1, 0, x2, bubbleH)
		b.item(widget{kind: kind, class: "android.widget.TextView", text: m.text, id: "text_content", depth: 4}, x1, 0, x2, bubbleH)
		b.y += rowStep
	}
	b.endList(li)
	panel := uitree.Bounds{X1: 0, Y1: composeTop, X2: w, Y2: composeTop + 200}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "edit_panel", full: uitree.Bounds{X1: 24, Y1: panel.Y1 + 10, X2: w - 24, Y2: panel.Y2 - 10}})
	b.add(widget{kind: kDot, class: "android.widget.ImageButton", desc: "Open attachment panel", id: "attach_button", clickable: true, depth: 2,
		full: uitree.Bounds{X1: 40, Y1: panel.Y1 + 60, X2: 120, Y2: panel.Y1 + 140}, tap: func() {}})
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "message_edit_text_layout", depth: 2, full: uitree.Bounds{X1: 144, Y1: panel.Y1 + 10, X2: w - 200, Y2: panel.Y2 - 10}})
	p.draftField(b, "message_edit_text", oneuiDraftHint, uitree.Bounds{X1: 144, Y1: panel.Y1 + 20, X2: w - 200, Y2: panel.Y2 - 20})
	b.s.widgets[len(b.s.widgets)-1].depth = 3
	send := uitree.Bounds{X1: w - 180, Y1: panel.Y1 + 30, X2: w - 40, Y2: panel.Y2 - 30}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "include_send_buttons_layout", depth: 2, full: send})
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "send_button_container", clickable: true, depth: 3, full: send,
		tap: func() { p.sendDraft(v) }})
	b.add(widget{kind: kHidden, class: "android.widget.RelativeLayout", depth: 4, full: send})
	b.add(widget{kind: kDot, class: "android.widget.ImageButton", desc: oneuiSendDesc, id: "send_button1", depth: 5, full: send,
		disabled: v.fields[draftKey] == ""})
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
