package phonesim

import (
	"cmp"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Page names reported in State().Screen.Page.
const (
	pageHome         = "home"
	pageList         = "list"
	pageAbout        = "about"
	pageSection      = "section"
	pageDetail       = "detail"
	pagePicker       = "picker"
	pageConversation = "conversation"
	pageAlarms       = "alarms"
	pageNewAlarm     = "new_alarm"
	pageEditor       = "editor"
	pageSignIn       = "sign_in"
	pagePassword     = "password"
	pageCode         = "code"
	pageAccounts     = "accounts"
)

// appInfo describes one installed app.
type appInfo struct {
	Package  string
	Name     string
	Activity string // launcher activity, fully qualified
	Root     string // first page
	Color    uint32 // launcher icon colour, 0xRRGGBB
	System   bool   // false for `pm list packages -3`
	Launcher bool   // has an icon on the home screen
}

var apps = []appInfo{
	{Package: pkgSettings, Name: "Settings", Activity: "com.android.settings.Settings", Root: pageList, Color: 0x5f6368, System: true, Launcher: true},
	{Package: pkgContacts, Name: "Contacts", Activity: "com.android.contacts.activities.PeopleActivity", Root: pageList, Color: 0x1a73e8, System: true, Launcher: true},
	{Package: pkgMessages, Name: "Messages", Activity: "com.google.android.apps.messaging.ui.ConversationListActivity", Root: pageList, Color: 0x0b8043, System: true, Launcher: true},
	{Package: pkgClock, Name: "Clock", Activity: "com.android.deskclock.DeskClock", Root: pageAlarms, Color: 0x3367d6, System: true, Launcher: true},
	{Package: pkgNotes, Name: "Notes", Activity: "com.example.notes.MainActivity", Root: pageList, Color: 0xf9ab00, Launcher: true},
	{Package: pkgBank, Name: "Bank", Activity: "com.example.bank.LoginActivity", Root: pageSignIn, Color: 0xc5221f, Launcher: true},
	{Package: pkgLauncher, Name: "Launcher", Activity: "com.android.launcher3.uioverrides.QuickstepLauncher", Root: pageHome, System: true},
}

// otherPackages are installed packages without a simulated UI.
var otherPackages = []string{
	"android", "com.android.systemui", "com.android.phone", "com.android.shell",
	"com.google.android.inputmethod.latin", "com.android.providers.settings",
}

func findApp(pkg string) (appInfo, bool) {
	for _, a := range apps {
		if a.Package == pkg {
			return a, true
		}
	}
	return appInfo{}, false
}

func appName(pkg string) string {
	if a, ok := findApp(pkg); ok {
		return a.Name
	}
	return pkg
}

// view is one page on the back stack.
type view struct {
	app, page, arg string
	scroll         int
	focus          string            // id of the focused text field
	fields         map[string]string // text field contents by id
	errText        string
	index          int    // note being edited, -1 for a new one
	scrolled       bool   // a bottom-anchored list the person scrolled away from its end
	popup          string // text of a pop-up dialog over the page (FaultPopup)
}

func newView(app, page, arg string) *view {
	return &view{app: app, page: page, arg: arg, fields: map[string]string{}, index: -1}
}

func (p *Phone) top() *view { return p.stack[len(p.stack)-1] }

func (p *Phone) push(v *view) { p.stack = append(p.stack, v) }

// pushConversation opens the conversation with a contact; its
// notifications count as read.
func (p *Phone) pushConversation(name string) {
	p.push(newView(pkgMessages, pageConversation, name))
	p.life.readConversation(name)
}

func (p *Phone) back() {
	if len(p.stack) > 1 {
		p.stack = p.stack[:len(p.stack)-1]
	}
}

// launch opens an app at its first page, above the launcher.
func (p *Phone) launch(pkg string) {
	a, _ := findApp(pkg)
	if pkg == pkgLauncher {
		p.stack = []*view{newView(pkgLauncher, pageHome, "")}
		return
	}
	v := newView(pkg, a.Root, "")
	if p.faults.popup {
		p.faults.popup = false
		v.popup = "New in " + a.Name + ": chat features. Turn them on later in settings."
	}
	p.stack = []*view{newView(pkgLauncher, pageHome, ""), v}
}

// Layout geometry (pixels at the default 1080-wide screen).
const (
	statusBarH = 84
	appBarH    = 168
	contentTop = statusBarH + appBarH
	rowH       = 180
	keyboardH  = 180
	bottomBarH = 300 // room for a bottom button
)

type kind int

const (
	kFrame kind = iota
	kAppBar
	kUp
	kList
	kRow
	kSubText
	kSwitchRow
	kSwitch
	kText
	kButton
	kEdit
	kIcon
	kBubbleIn
	kBubbleOut
	kBigText
	kBanner // a notification card: text is its title, desc its text
	kHidden // in the UI tree only: drawn by its parent
	kScrim  // dims what is under a dialog
	kDialog // a dialog's card
	kDot    // a pattern lock's dot
)

// widget is one drawn and dumped element. full is where it is drawn,
// bounds the visible part reported by uiautomator (clipped to its list).
type widget struct {
	kind                                   kind
	class, text, desc, id                  string
	pkg                                    string // owning package when not the screen's (system windows)
	full, bounds                           uitree.Bounds
	checkable, checked, clickable, focused bool
	scrollable                             bool
	value, hint                            string // text fields: content and hint drawn when empty
	depth                                  int
	color                                  uint32 // icons
	maxScroll                              int    // lists
	scrollOf                               *view  // lists: whose scroll offset this is
	tap                                    func()
}

// screen is a complete description of what the display shows.
type screen struct {
	w, h     int // in layout units
	density  int // the screen's: the tree's bounds and the image scale by density/DefaultDensity
	pkg      string
	widgets  []widget
	keyboard string // label of the keyboard hint; "" when no field is focused
	secure   bool
	asleep   bool
	status   Toggles
	clock    string // the status bar's time
	// treeFrom is the first widget of the window that has the focus: a
	// UI dump holds that window only, as uiautomator dumps the focused
	// window (a system dialog's, say); the screenshot shows them all.
	treeFrom int
}

type builder struct {
	p   *Phone
	v   *view
	s   *screen
	top int // list viewport
	bot int
	y   int // list content cursor
}

func (b *builder) add(w widget) {
	if w.class == "" {
		w.class = "android.widget.TextView"
	}
	if w.depth == 0 {
		w.depth = 1
	}
	if w.bounds == (uitree.Bounds{}) {
		w.bounds = w.full
	}
	if w.id != "" && !strings.Contains(w.id, ":id/") {
		w.id = cmp.Or(w.pkg, b.s.pkg) + ":id/" + w.id
	}
	b.s.widgets = append(b.s.widgets, w)
}

func (b *builder) appBar(title string, up bool) {
	if up {
		b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: b.p.back})
	}
	x := 48
	if up {
		x = 160
	}
	b.add(widget{kind: kAppBar, text: title, id: "title", full: uitree.Bounds{X1: x, Y1: statusBarH, X2: b.s.w - 48, Y2: contentTop}})
}

// list starts a scrollable list between top and bot and returns the index
// of its container widget; rows follow with item, then endList.
func (b *builder) list(top, bot int) int {
	b.top, b.bot, b.y = top, bot, 0
	b.add(widget{kind: kList, class: "androidx.recyclerview.widget.RecyclerView", full: uitree.Bounds{X1: 0, Y1: top, X2: b.s.w, Y2: bot}, scrollOf: b.v})
	return len(b.s.widgets) - 1
}

// item places a list child at x1..x2 and y1..y2 relative to the current
// row (b.y), clipped to the list; children wholly outside it are left out.
func (b *builder) item(w widget, x1, y1, x2, y2 int) {
	off := b.top + b.y - b.v.scroll
	w.full = uitree.Bounds{X1: x1, Y1: off + y1, X2: x2, Y2: off + y2}
	vis := w.full
	vis.Y1, vis.Y2 = max(vis.Y1, b.top), min(vis.Y2, b.bot)
	if vis.Y2 <= vis.Y1 {
		return
	}
	w.bounds = vis
	w.depth = 2
	b.add(w)
}

func (b *builder) endList(idx int) {
	viewport := b.bot - b.top
	maxScroll := max(0, b.y-viewport)
	if b.v.scroll > maxScroll {
		// Content shrank: clamp and lay the rows out again.
		b.v.scroll = maxScroll
	}
	lw := &b.s.widgets[idx]
	lw.maxScroll = maxScroll
	lw.scrollable = maxScroll > 0
}

// layout describes the current screen. It may clamp the top view's scroll.
func (p *Phone) layout() *screen {
	v := p.top()
	s := &screen{w: p.lw, h: p.lh, density: p.cfg.Density, pkg: v.app, status: p.st.Toggles, asleep: !p.st.Awake, clock: p.clockText()}
	b := &builder{p: p, v: v, s: s}
	full := uitree.Bounds{X2: s.w, Y2: s.h}
	if p.life.locked {
		s.pkg = pkgSystemUI
		s.widgets = append(s.widgets, widget{kind: kFrame, class: "android.widget.FrameLayout", full: full, bounds: full})
		if p.life.bouncer {
			p.layoutBouncer(b)
		} else {
			p.layoutKeyguard(b)
		}
		return s
	}
	s.widgets = append(s.widgets, widget{kind: kFrame, class: "android.widget.FrameLayout", full: full, bounds: full})
	switch v.app {
	case pkgSettings:
		p.layoutSettings(b)
	case pkgContacts:
		p.layoutContacts(b)
	case pkgMessages:
		p.layoutMessages(b)
	case pkgClock:
		p.layoutClock(b)
	case pkgNotes:
		p.layoutNotes(b)
	case pkgBank:
		p.layoutBank(b)
		s.secure = true
	default:
		p.layoutLauncher(b)
	}
	if v.popup != "" {
		// Modal: a full-screen scrim takes every tap outside the dialog.
		b.add(widget{kind: kFrame, class: "android.view.View", id: "scrim", clickable: true, full: full, tap: func() {}})
		top := s.h/2 - 300
		b.add(widget{kind: kText, text: v.popup, id: "popup_message", full: uitree.Bounds{X1: 96, Y1: top, X2: s.w - 96, Y2: top + 300}})
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Not now", id: "popup_dismiss", clickable: true,
			full: uitree.Bounds{X1: s.w/2 - 240, Y1: top + 340, X2: s.w/2 + 240, Y2: top + 500}, tap: func() { v.popup = "" }})
	}
	p.overlays(b)
	if v.focus != "" && p.life.dialog == nil {
		s.keyboard = "Keyboard"
		if p.st.InputMethod == imeADB && p.st.IMEInstalled {
			s.keyboard = "ADB Keyboard {ON}"
		}
	}
	return s
}

// screenNow is the current screen; when layout had to clamp the scroll
// offset it lays out again so rows use the clamped offset.
func (p *Phone) screenNow() *screen {
	v := p.top()
	before := v.scroll
	s := p.layout()
	if v.scroll != before {
		s = p.layout()
	}
	return s
}

func (p *Phone) layoutLauncher(b *builder) {
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
		b.add(widget{kind: kIcon, text: a.Name, desc: a.Name, clickable: true, color: a.Color,
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
		for i, t := range []string{"Model: " + p.cfg.Model, "Android version: 14", "Build number: PSIM.240101.001"} {
			y := contentTop + 40 + i*rowH
			b.add(widget{kind: kRow, text: t, full: uitree.Bounds{X1: 0, Y1: y, X2: w, Y2: y + rowH}})
		}
		return
	case pageSection:
		b.appBar(v.arg, true)
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
	sw("Bluetooth", "bluetooth_switch", st.Toggles.Bluetooth, func() { st.Toggles.Bluetooth = !st.Toggles.Bluetooth })
	sw("Airplane mode", "airplane_switch", st.Toggles.Airplane, func() {
		st.Toggles.Airplane = !st.Toggles.Airplane
		if st.Toggles.Airplane {
			st.Toggles.WiFi, st.Toggles.Bluetooth = false, false
		}
	})
	b.item(widget{kind: kText, text: "Brightness " + itoa(st.Brightness) + "%", id: "brightness_value"}, 48, 0, w-400, rowH)
	b.item(widget{kind: kButton, class: "android.widget.Button", text: "-", id: "brightness_down", clickable: true,
		tap: func() { st.Brightness = max(0, st.Brightness-10) }}, w-360, 30, w-216, rowH-30)
	b.item(widget{kind: kButton, class: "android.widget.Button", text: "+", id: "brightness_up", clickable: true,
		tap: func() { st.Brightness = min(100, st.Brightness+10) }}, w-192, 30, w-48, rowH-30)
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

func (p *Phone) layoutMessages(b *builder) {
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
			tap: func() {
				t := v.fields["compose_message_text"]
				if strings.TrimSpace(t) == "" {
					return
				}
				p.st.MessagesSent = append(p.st.MessagesSent, SentMessage{To: v.arg, Text: t, Seq: p.seq})
				p.st.talk(v.arg, bubble{sent: true, text: t})
				v.fields["compose_message_text"] = ""
				v.scrolled = false
			}})
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

// editField adds a text field whose element text is its value, or its
// label while empty (as Android reports a hint).
func (b *builder) editField(id, label, hint string, x1, y1, x2, y2 int) {
	v := b.v
	val := v.fields[id]
	text := val
	if text == "" {
		text = label
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: text, desc: hint, hint: hint, id: id, value: val,
		clickable: true, focused: v.focus == id, full: uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2},
		tap: func() { v.focus = id }})
}

// layoutBank lays out the Bank app: a welcome page whose Sign in button
// opens the password form, as a bank app's does; the password sends a
// code by SMS, and the code opens the accounts (bank.go).
func (p *Phone) layoutBank(b *builder) {
	w := b.s.w
	switch b.v.page {
	case pagePassword:
		b.appBar("Sign in", true)
		b.add(widget{kind: kText, text: "Enter your password", full: uitree.Bounds{X1: 48, Y1: contentTop + 80, X2: w - 48, Y2: contentTop + 200}})
		b.editField("password", "Password", "Password", 48, contentTop+240, w-48, contentTop+400)
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
				case n.Title != "" || n.Body != "":
					p.st.Notes = append(p.st.Notes, n)
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

// pixels converts bounds in layout units to screen pixels.
func (s *screen) pixels(b uitree.Bounds) uitree.Bounds {
	if s.density == 0 || s.density == DefaultDensity {
		return b
	}
	px := func(v int) int { return toPixels(v, s.density) }
	return uitree.Bounds{X1: px(b.X1), Y1: px(b.Y1), X2: px(b.X2), Y2: px(b.Y2)}
}

// elements converts a screen to its uiautomator tree.
func (s *screen) elements() []uitree.Element {
	out := make([]uitree.Element, 0, len(s.widgets))
	for _, w := range s.widgets[s.treeFrom:] {
		out = append(out, uitree.Element{
			Class: w.class, Package: cmp.Or(w.pkg, s.pkg), Text: w.text, Desc: w.desc, ResourceID: w.id, Bounds: s.pixels(w.bounds),
			Clickable: w.clickable, Checkable: w.checkable, Checked: w.checked, Enabled: true,
			Focused: w.focused, Scrollable: w.scrollable, Depth: w.depth,
		})
	}
	return out
}
