package phonesim

import (
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func (p *Phone) layoutLauncher(b *builder) {
	switch p.cfg.Skin {
	case SkinOneUI:
		p.layoutOneUILauncher(b)
		return
	case SkinMIUI:
		p.layoutMIUILauncher(b)
		return
	}
	w := b.s.w
	b.add(widget{kind: kBigText, text: b.s.clock, id: "clock", full: uitree.Bounds{X1: 0, Y1: 260, X2: w, Y2: 480}})
	col := 0
	y := 640
	for _, a := range apps {
		if !a.Launcher {
			continue
		}
		x1 := col * w / 4
		pkg := a.Package
		label := b.p.appLabel(a.Name)
		b.add(widget{kind: kIcon, text: label, desc: label, clickable: true, color: a.Color,
			full: uitree.Bounds{X1: x1, Y1: y, X2: x1 + w/4, Y2: y + 300}, tap: func() { b.p.launch(pkg) }})
		col++
		if col == 4 {
			col, y = 0, y+330
		}
	}
}

var settingsRows = []string{"Display", "Sound", "Notifications", "Battery", "Storage", "Location", "Security", "Accounts", "Accessibility", "System"}

func (p *Phone) layoutSettings(b *builder) {
	v, w := b.v, b.s.w
	switch v.page {
	case pageAbout:
		b.appBar("About phone", true)
		for i, t := range []string{"Model: " + p.cfg.Model, "Android version: " + p.cfg.Android, "Build number: PSIM.240101.001"} {
			y := contentTop + 40 + i*rowH
			b.add(widget{kind: kRow, text: t, full: uitree.Bounds{X1: 0, Y1: y, X2: w, Y2: y + rowH}})
		}
		return
	case pageSection:
		b.appBar(v.arg, true)
		if v.arg == sectionTethering {
			p.layoutTethering(b)
			return
		}
		b.add(widget{kind: kText, text: "Nothing to change here.", full: uitree.Bounds{X1: 48, Y1: contentTop + 40, X2: w - 48, Y2: contentTop + 160}})
		return
	}
	b.appBar("Settings", false)
	li := b.list(contentTop, b.s.h)
	st := &p.st
	sw := func(label, id string, on bool, flip func()) {
		b.item(widget{kind: kSwitchRow, class: "android.widget.Switch", text: label, id: id, checkable: true, checked: on, clickable: true, tap: flip}, 0, 0, w, rowH)
		b.y += rowH
	}
	sw("Wi-Fi", "wifi_switch", st.Toggles.WiFi, func() { st.Toggles.WiFi = !st.Toggles.WiFi })
	sw("Bluetooth", "bluetooth_switch", st.Toggles.Bluetooth, func() {
		st.Toggles.Bluetooth = !st.Toggles.Bluetooth
		st.Toggles.BluetoothTethering = st.Toggles.BluetoothTethering && st.Toggles.Bluetooth
	})
	sw("Airplane mode", "airplane_switch", st.Toggles.Airplane, func() {
		st.Toggles.Airplane = !st.Toggles.Airplane
		if st.Toggles.Airplane {
			st.Toggles.WiFi, st.Toggles.Bluetooth, st.Toggles.BluetoothTethering = false, false, false
		}
	})
	b.item(widget{kind: kText, text: "Brightness " + itoa(st.Brightness) + "%", id: "brightness_value"}, 48, 0, w-400, rowH)
	b.item(widget{kind: kButton, class: "android.widget.Button", text: "-", id: "brightness_down", clickable: true,
		tap: func() { st.Brightness = max(0, st.Brightness-10) }}, w-360, 30, w-216, rowH-30)
	b.item(widget{kind: kButton, class: "android.widget.Button", text: "+", id: "brightness_up", clickable: true,
		tap: func() { st.Brightness = min(100, st.Brightness+10) }}, w-192, 30, w-48, rowH-30)
	b.y += rowH
	b.item(widget{kind: kRow, text: sectionTethering, clickable: true,
		tap: func() { p.push(newView(pkgSettings, pageSection, sectionTethering)) }}, 0, 0, w, rowH)
	b.y += rowH
	for _, name := range append(settingsRows, "About phone") {
		tap := func() { p.push(newView(pkgSettings, pageSection, name)) }
		if name == "About phone" {
			tap = func() { p.push(newView(pkgSettings, pageAbout, "")) }
		}
		b.item(widget{kind: kRow, text: name, clickable: true, tap: tap}, 0, 0, w, rowH)
		b.y += rowH
	}
	b.endList(li)
}

func (p *Phone) layoutContacts(b *builder) {
	if p.pixel() {
		p.layoutPixelContacts(b)
		return
	}
	if p.vendorContacts(b) {
		return
	}
	v, w := b.v, b.s.w
	if v.page == pageDetail {
		c, _ := findContact(v.arg)
		b.appBar(c.Name, true)
		b.add(widget{kind: kText, text: c.Phone, id: "phone_number", full: uitree.Bounds{X1: 48, Y1: contentTop + 40, X2: w - 48, Y2: contentTop + 180}})
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Message", id: "message_button", clickable: true,
			full: uitree.Bounds{X1: 48, Y1: contentTop + 240, X2: w - 48, Y2: contentTop + 400},
			tap:  func() { p.pushConversation(c.Name) }})
		return
	}
	b.appBar("Contacts", false)
	li := b.list(contentTop, b.s.h)
	for _, c := range contacts {
		name := c.Name
		b.item(widget{kind: kRow, text: c.Name, desc: c.Desc, clickable: true,
			tap: func() { p.push(newView(pkgContacts, pageDetail, name)) }}, 0, 0, w, rowH)
		b.y += rowH
	}
	b.endList(li)
}

// sendDraft sends what the conversation's field holds, if anything, and
// empties it; the view drops back to the newest message.
func (p *Phone) sendDraft(v *view) {
	t := v.fields["compose_message_text"]
	if strings.TrimSpace(t) == "" {
		return
	}
	p.st.MessagesSent = append(p.st.MessagesSent, SentMessage{To: v.arg, Text: t, Seq: p.seq})
	p.st.talk(v.arg, bubble{sent: true, text: t})
	v.fields["compose_message_text"] = ""
	v.scrolled = false
}

func (p *Phone) layoutMessages(b *builder) {
	if p.pixel() {
		p.layoutPixelMessages(b)
		return
	}
	if p.vendorMessages(b) {
		return
	}
	v, w, h := b.v, b.s.w, b.s.h
	switch v.page {
	case pageConversation:
		b.appBar(v.arg, true)
		composeTop := h - keyboardH - 200
		// Newest at the bottom, the view kept at the bottom until the
		// person scrolls up to older messages (and again after a send).
		msgs := p.st.conv[v.arg]
		if !v.scrolled {
			v.scroll = max(0, 40+len(msgs)*140-(composeTop-contentTop))
		}
		li := b.list(contentTop, composeTop)
		b.y = 40
		for _, m := range msgs {
			w := widget{kind: kBubbleIn, text: m.text, desc: "Received"}
			x1 := 48
			if m.sent {
				w.kind, w.desc = kBubbleOut, "Sent"
				x1 = 240
			}
			b.item(w, x1, 0, x1+b.s.w-288, 120)
			b.y += 140
		}
		b.endList(li)
		text := v.fields["compose_message_text"]
		b.add(widget{kind: kEdit, class: "android.widget.EditText", text: text, desc: "Text message", hint: "Text message",
			id: "compose_message_text", value: text, clickable: true, focused: v.focus == "compose_message_text",
			full: uitree.Bounds{X1: 24, Y1: composeTop + 20, X2: w - 260, Y2: composeTop + 180},
			tap:  func() { v.focus = "compose_message_text" }})
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Send", id: "send_button", clickable: true,
			full: uitree.Bounds{X1: w - 236, Y1: composeTop + 20, X2: w - 24, Y2: composeTop + 180},
			tap:  func() { p.sendDraft(v) }})
		return
	case pagePicker:
		b.appBar("New conversation", true)
	default:
		b.appBar("Messages", false)
	}
	li := b.list(contentTop, h-bottomBarH)
	names := p.st.active
	if v.page == pagePicker {
		names = nil
		for _, c := range contacts {
			names = append(names, c.Name)
		}
	}
	for _, name := range names {
		b.item(widget{kind: kRow, text: name, clickable: true, tap: func() {
			if v.page == pagePicker {
				p.back()
			}
			p.pushConversation(name)
		}}, 0, 0, w, rowH)
		b.y += rowH
	}
	b.endList(li)
	if v.page != pagePicker {
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Start chat", id: "start_chat", clickable: true,
			full: uitree.Bounds{X1: w/2 - 240, Y1: h - bottomBarH + 70, X2: w/2 + 240, Y2: h - bottomBarH + 230},
			tap:  func() { p.push(newView(pkgMessages, pagePicker, "")) }})
	}
}

var timeRe = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)

// layoutBank lays out the Bank app: a welcome page whose Sign in button
// opens the password form, as a bank app's does; the password sends a
// code by SMS, and the code opens the accounts (bank.go).
func (p *Phone) layoutBank(b *builder) {
	w := b.s.w
	switch b.v.page {
	case pagePassword:
		b.appBar("Sign in", true)
		b.add(widget{kind: kText, text: "Enter your password", full: uitree.Bounds{X1: 48, Y1: contentTop + 80, X2: w - 48, Y2: contentTop + 200}})
		b.passwordField("password", "Password", "Password", 48, contentTop+240, w-48, contentTop+400)
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Continue", id: "continue_button", clickable: true,
			full: uitree.Bounds{X1: 48, Y1: contentTop + 480, X2: w - 48, Y2: contentTop + 640}, tap: p.bankPassword})
		return
	case pageCode:
		p.layoutBankCode(b)
		return
	case pageAccounts:
		b.appBar("Accounts", false)
		b.add(widget{kind: kText, text: "Signed in", id: "signed_in", full: uitree.Bounds{X1: 48, Y1: contentTop + 80, X2: w - 48, Y2: contentTop + 200}})
		b.add(widget{kind: kRow, text: "Checking ••1234   2,340.18", full: uitree.Bounds{X1: 0, Y1: contentTop + 240, X2: w, Y2: contentTop + 240 + rowH}})
		return
	}
	b.appBar("Bank", false)
	b.add(widget{kind: kText, text: "Welcome back", full: uitree.Bounds{X1: 48, Y1: contentTop + 80, X2: w - 48, Y2: contentTop + 200}})
	b.add(widget{kind: kText, text: "Sign in to see your accounts.", full: uitree.Bounds{X1: 48, Y1: contentTop + 200, X2: w - 48, Y2: contentTop + 300}})
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "Sign in", id: "sign_in_button", clickable: true,
		full: uitree.Bounds{X1: 48, Y1: contentTop + 400, X2: w - 48, Y2: contentTop + 560},
		tap:  func() { p.push(newView(pkgBank, pagePassword, "")) }})
}

func (p *Phone) layoutClock(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	if v.page == pageNewAlarm {
		b.appBar("New alarm", true)
		b.editField("alarm_time", "Time", "Time (HH:MM)", 48, contentTop+40, w-48, contentTop+200)
		b.editField("alarm_label", "Label", "Label", 48, contentTop+240, w-48, contentTop+400)
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Save", id: "save_button", clickable: true,
			full: uitree.Bounds{X1: 48, Y1: contentTop + 460, X2: w - 48, Y2: contentTop + 620},
			tap: func() {
				t := strings.TrimSpace(v.fields["alarm_time"])
				if !timeRe.MatchString(t) {
					v.errText = "Invalid time"
					return
				}
				p.st.Alarms = append(p.st.Alarms, Alarm{Time: t, Label: strings.TrimSpace(v.fields["alarm_label"]), Enabled: true})
				sortAlarms(p.st.Alarms)
				p.back()
			}})
		if v.errText != "" {
			b.add(widget{kind: kText, text: v.errText, id: "error", full: uitree.Bounds{X1: 48, Y1: contentTop + 660, X2: w - 48, Y2: contentTop + 760}})
		}
		return
	}
	b.appBar("Alarm", false)
	li := b.list(contentTop, h-bottomBarH)
	for i := range p.st.Alarms {
		a := &p.st.Alarms[i]
		label := strings.TrimSpace(a.Time + " " + a.Label)
		b.item(widget{kind: kRow, text: label}, 0, 0, w, rowH)
		b.item(widget{kind: kSwitch, class: "android.widget.Switch", desc: label, id: "alarm_switch", checkable: true,
			checked: a.Enabled, clickable: true, tap: func() { a.Enabled = !a.Enabled }}, w-220, 30, w-40, rowH-30)
		b.y += rowH
	}
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "Add alarm", id: "add_alarm", clickable: true,
		full: uitree.Bounds{X1: w/2 - 240, Y1: h - bottomBarH + 70, X2: w/2 + 240, Y2: h - bottomBarH + 230},
		tap:  func() { p.push(newView(pkgClock, pageNewAlarm, "")) }})
}

func (p *Phone) layoutNotes(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	if v.page == pageEditor {
		title := "New note"
		if v.index >= 0 {
			title = "Edit note"
		}
		b.appBar(title, true)
		b.editField("note_title", "Title", "Title", 48, contentTop+40, w-48, contentTop+200)
		b.editField("note_body", "Body", "Body", 48, contentTop+240, w-48, contentTop+800)
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Save", id: "save_button", clickable: true,
			full: uitree.Bounds{X1: 48, Y1: contentTop + 860, X2: w - 48, Y2: contentTop + 1020},
			tap: func() {
				n := Note{Title: strings.TrimSpace(v.fields["note_title"]), Body: v.fields["note_body"]}
				switch {
				case v.index >= 0 && v.index < len(p.st.Notes):
					p.st.Notes[v.index] = n
					p.st.editedNote(v.index)
				case n.Title != "" || n.Body != "":
					p.st.Notes = append(p.st.Notes, n)
					p.st.editedNote(len(p.st.Notes) - 1)
				}
				p.back()
			}})
		return
	}
	b.appBar("Notes", false)
	li := b.list(contentTop, h-bottomBarH)
	for i, n := range p.st.Notes {
		title := n.Title
		if title == "" {
			title = "(untitled)"
		}
		b.item(widget{kind: kRow, text: title, clickable: true, tap: func() {
			e := newView(pkgNotes, pageEditor, n.Title)
			e.index = i
			e.fields["note_title"], e.fields["note_body"] = n.Title, n.Body
			p.push(e)
		}}, 0, 0, w, rowH)
		b.y += rowH
	}
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "New note", id: "new_note", clickable: true,
		full: uitree.Bounds{X1: w/2 - 240, Y1: h - bottomBarH + 70, X2: w/2 + 240, Y2: h - bottomBarH + 230},
		tap:  func() { p.push(newView(pkgNotes, pageEditor, "")) }})
}
