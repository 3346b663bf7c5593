package postcond

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// node builds an element of a nested tree.
func node(depth int, class, id, text, desc string, b uitree.Bounds, flags ...string) uitree.Element {
	e := uitree.Element{Class: "android.widget." + class, ResourceID: id, Text: text, Desc: desc, Bounds: b, Depth: depth, Enabled: true}
	for _, f := range flags {
		switch f {
		case "checkable":
			e.Checkable = true
		case "checked":
			e.Checkable, e.Checked = true, true
		case "clickable":
			e.Clickable = true
		case "scrollable":
			e.Scrollable = true
		case "disabled":
			e.Enabled = false
		}
	}
	return e
}

func bx(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2} }

// A preference row as Settings builds it: the title and summary in one
// container, the Switch (no text) in the widget frame beside them.
func prefRow(y int, title, summary string, checked bool) []uitree.Element {
	sw := []string{"checkable", "clickable"}
	if checked {
		sw = append(sw, "checked")
	}
	return []uitree.Element{
		node(2, "LinearLayout", "", "", "", bx(0, y, 1080, y+200), "clickable"),
		node(3, "RelativeLayout", "", "", "", bx(40, y, 800, y+200)),
		node(4, "TextView", "android:id/title", title, "", bx(40, y+30, 800, y+100)),
		node(4, "TextView", "android:id/summary", summary, "", bx(40, y+100, 800, y+170)),
		node(3, "LinearLayout", "android:id/widget_frame", "", "", bx(850, y, 1040, y+200)),
		node(4, "Switch", "android:id/switch_widget", "", "", bx(880, y+60, 1000, y+140), sw...),
	}
}

func settingsPage(rows ...[]uitree.Element) []uitree.Element {
	es := []uitree.Element{node(0, "FrameLayout", "", "", "", bx(0, 0, 1080, 2400)),
		node(1, "RecyclerView", "recycler_view", "", "", bx(0, 200, 1080, 2400), "scrollable")}
	for _, r := range rows {
		es = append(es, r...)
	}
	return es
}

// "Bluetooth" is not the label of "Bluetooth tethering": a label is the
// whole of the row's title, never a prefix of it.
func TestSwitchLabelIsTheWholeTitle(t *testing.T) {
	es := settingsPage(prefRow(200, "Bluetooth tethering", "Share the connection", true), prefRow(400, "Wi‑Fi hotspot", "Off", false))
	held := func(label string, on bool) bool {
		return Eval([]Check{{Kind: Switch, Label: label, On: &on}}, Observed{Final: Screen{Elements: es}})[0].Held
	}
	if held("Bluetooth", true) || held("Bluetooth", false) {
		t.Error(`switch "Bluetooth" held on a "Bluetooth tethering" row`)
	}
	if !held("Bluetooth tethering", true) || held("Bluetooth tethering", false) {
		t.Error("the tethering switch is not read from its row's title")
	}
	if !held("Wi-Fi hotspot", false) || !held("wi-fi hotspot.", false) {
		t.Error("a label written with U+2011 or with a closing mark does not match")
	}
	r := Eval([]Check{{Kind: RowShows, Row: "Bluetooth tethering", Shows: "Share the connection"}}, Observed{Final: Screen{Elements: es}})[0]
	if !r.Held || len(r.Used) != 2 {
		t.Errorf("the summary below the title is not the row's: %+v", r)
	}
	if r := Eval([]Check{{Kind: RowShows, Row: "Bluetooth tethering", Shows: "Off"}}, Observed{Final: Screen{Elements: es}})[0]; r.Held {
		t.Errorf("the next row's summary joined this row: %+v", r)
	}
}

func TestLabelForm(t *testing.T) {
	for _, c := range []struct {
		in, label string
		state     int
	}{
		{"Bluetooth, On", "bluetooth", 1}, {"Flashlight, Off", "flashlight", 0}, {"蓝牙。", "蓝牙", -1}, {"飞行模式 已开启", "飞行模式", 1},
		{"蓝牙已关闭", "蓝牙", 0}, {"关闭", "", 0}, {"On", "", 1}, {"Turn on", "turn on", -1}, {"Wi\u2011Fi\u00a0calling", "wi-fi calling", -1},
		{"自动关闭", "自动关闭", -1}, {"Internet, AndroidWifi", "internet, androidwifi", -1},
	} {
		if l, s := labelForm(c.in); l != c.label || s != c.state {
			t.Errorf("labelForm(%q) = %q, %d; want %q, %d", c.in, l, s, c.label, c.state)
		}
	}
}

// A control commits when its label is the action, not when it only holds
// the word.
func TestCommitByMeaning(t *testing.T) {
	for label, want := range map[string]bool{
		"Send": true, "Send message": true, "Send SMS": true, "发送": true, "保存": true, "Save": true, "Delete": true, "Done": true,
		"发送短信": true, "Delete.": true, "Sent": false, "Send feedback": false, "Delete all Timeline data from this device?": false,
		"Don't save": false, "Sender": false, "Cancel": false, "取消": false, "删除提醒": false,
	} {
		if got := IsCommitLabel(label, DefaultCommitLabels); got != want {
			t.Errorf("IsCommitLabel(%q) = %v, want %v", label, got, want)
		}
	}
}

// Sent bubbles as Google Messages describes them, and by side when a
// chat app marks none.
func TestLastOutgoingAsRealAppsMarkIt(t *testing.T) {
	bubble := func(y int, text, desc string, x1, x2 int) uitree.Element {
		return node(2, "TextView", "message_text", text, desc, bx(x1, y, x2, y+80))
	}
	list := node(1, "View", "message_list", "", "", bx(0, 100, 720, 1500), "scrollable")
	gm := []uitree.Element{node(0, "View", "", "", "", bx(0, 0, 720, 1536)), list,
		bubble(300, "", "You said  on my way Mon 12:39 pm .", 200, 680),
		bubble(500, "", "A.Keval said  ok 12:40 pm .", 40, 400),
		bubble(700, "", "You said  see you 1:13 pm ., , Delivered", 300, 680),
		bubble(900, "", "A.Keval said  bye 1:14 pm .", 40, 400)}
	if got := LastOutgoing(gm); got != "see you" {
		t.Errorf("LastOutgoing = %q, want the message of the lowest 'You said' bubble", got)
	}
	side := []uitree.Element{node(0, "View", "", "", "", bx(0, 0, 720, 1536)), list,
		bubble(300, "在吗", "", 40, 300), bubble(500, "马上到", "", 400, 680), bubble(700, "好的", "", 40, 300),
		node(1, "EditText", "input", "", "", bx(20, 1420, 600, 1500), "clickable")}
	if got := LastOutgoing(side); got != "马上到" {
		t.Errorf("LastOutgoing by side = %q, want the right-aligned bubble", got)
	}
	// A message that is a time is the message, not the row's time: AOSP
	// Mms's msg_list_item_send row holds it in text_view, the time in
	// date_view; a row without ids holds the words before the time.
	mms := []uitree.Element{node(0, "View", "", "", "", bx(0, 0, 720, 1536)), list,
		node(2, "LinearLayout", "msg_list_item_send", "", "", bx(300, 300, 680, 400)),
		node(3, "TextView", "text_view", "07:00", "", bx(310, 310, 670, 350)),
		node(3, "TextView", "date_view", "19:21", "", bx(310, 355, 670, 390))}
	if got := LastOutgoing(mms); got != "07:00" {
		t.Errorf("LastOutgoing of a message that is a time = %q, want 07:00", got)
	}
	mms[3].ResourceID, mms[4].ResourceID = "", ""
	if got := LastOutgoing(mms); got != "07:00" {
		t.Errorf("LastOutgoing of a message that is a time, no ids = %q, want 07:00", got)
	}
	mms[3].Text = "see you at 7"
	mms[3], mms[4] = mms[4], mms[3]
	if got := LastOutgoing(mms); got != "see you at 7" {
		t.Errorf("LastOutgoing with the time first = %q, want the words", got)
	}
	// A form is no conversation: a value beside its label is no bubble.
	form := []uitree.Element{node(0, "View", "", "", "", bx(0, 0, 720, 1536)), list,
		bubble(300, "帐户", "", 40, 150), bubble(300, "我的日历", "", 500, 680), bubble(500, "地点", "", 40, 150),
		node(1, "EditText", "title", "标题", "", bx(20, 120, 600, 200), "clickable")}
	if got := LastOutgoing(form); got != "" {
		t.Errorf("LastOutgoing on a form = %q, want none", got)
	}
}

// A tap on a disabled commit control is refused as such, and only on a
// tree that says what is enabled.
func TestDisabledCommitIsRefused(t *testing.T) {
	es := []uitree.Element{node(0, "FrameLayout", "", "", "", bx(0, 0, 1080, 1000)),
		node(1, "CheckBox", "", "I understand", "", bx(0, 100, 1080, 200), "checkable", "clickable"),
		node(1, "TextView", "", "Delete", "", bx(800, 300, 1000, 400), "clickable", "disabled")}
	if why := WrongTarget(Target{Control: es[2], Elements: es}); why == "" {
		t.Error("a tap on a disabled Delete was not refused")
	}
	for i := range es {
		es[i].Enabled = false
	}
	if why := WrongTarget(Target{Control: es[2], Elements: es}); why != "" {
		t.Errorf("a tree without enabled attributes refused: %s", why)
	}
}

// A clock app's alarm row: the time and the name are texts of the row,
// the Switch shows none; the alarm is named by its time (as a time) or
// its name.
func TestAlarmRowNamedByTimeOrName(t *testing.T) {
	row := func(y int, tm, name string, on bool) []uitree.Element {
		flags := []string{"checkable", "clickable"}
		if on {
			flags = append(flags, "checked")
		}
		return []uitree.Element{
			node(2, "FrameLayout", "alarm_item", "", "", bx(0, y, 1080, y+300)),
			node(3, "TextView", "digital_clock", tm, "", bx(40, y+20, 600, y+150)),
			node(3, "TextView", "label", name, "", bx(40, y+160, 600, y+220)),
			node(3, "TextView", "days", "Mon, Tue, Wed", "", bx(40, y+230, 600, y+280)),
			node(3, "Switch", "onoff", "", "", bx(880, y+60, 1000, y+140), flags...),
		}
	}
	es := settingsPage(row(200, "7:30 AM", "Gym", true), row(520, "8:00 AM", "Work", false))
	held := func(label string, on bool) bool {
		return Eval([]Check{{Kind: Switch, Label: label, On: &on}}, Observed{Final: Screen{Elements: es}})[0].Held
	}
	if !held("07:30", true) || !held("7:30 AM", true) || !held("Gym", true) || held("07:30", false) || !held("08:00", false) || !held("Work", false) {
		t.Error("an alarm row is not named by its time or its name")
	}
	if held("07:00", true) || held("07:00", false) || held("Mon", true) {
		t.Error("an alarm held for a time or word that is not its name")
	}
}

// A form's field is named by the label beside it, in a container of that
// field alone; a label of a container with two fields names neither.
func TestFieldNamedByItsLabel(t *testing.T) {
	field := func(y int, label, value string) []uitree.Element {
		return []uitree.Element{
			node(2, "LinearLayout", "", "", "", bx(0, y, 1080, y+200)),
			node(3, "TextView", "", label, "", bx(40, y+60, 300, y+140)),
			node(3, "AutoCompleteTextView", "input", value, "", bx(320, y+40, 1040, y+160), "clickable"),
		}
	}
	es := settingsPage(field(200, "Name", "Alice"), field(420, "Phone", "555 0101"))
	if e, v := FieldValue(es, "Phone"); e == nil || v != "555 0101" {
		t.Fatalf("FieldValue(Phone) = %+v, %q", e, v)
	}
	two := append(settingsPage(), node(1, "LinearLayout", "", "", "", bx(0, 200, 1080, 500)),
		node(2, "TextView", "", "Name", "", bx(40, 220, 300, 280)),
		node(2, "EditText", "a", "Alice", "", bx(320, 220, 1040, 280), "clickable"),
		node(2, "EditText", "b", "Bob", "", bx(320, 320, 1040, 380), "clickable"))
	if e, v := FieldValue(two, "Name"); e != nil {
		t.Fatalf("a label over two fields named one: %+v, %q", e, v)
	}
}

func FuzzLabelForm(f *testing.F) {
	for _, s := range []string{"Bluetooth, On", "蓝牙。", "飞行模式 已开启", "Wi\u2011Fi", "", ",", " , on", "已关闭"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, st := labelForm(s)
		if st < -1 || st > 1 {
			t.Fatalf("state %d", st)
		}
		if l != "" && (l != strings.TrimSpace(l) || strings.ContainsAny(l[len(l)-1:], ".:,;")) {
			t.Fatalf("labelForm(%q) = %q: not trimmed", s, l)
		}
		_ = sameLabel(s, s)
	})
}

// A page's main switch bar (SettingsLib's MainSwitchBar, as the real
// Wireless debugging page dumps it): its words "Use Wi‑Fi" beside a Switch
// with no text name the switch Wi-Fi; a row titled "Use Wi-Fi for calls"
// does not.
func TestMainSwitchBarNamesItsSwitch(t *testing.T) {
	bar := func(text string, checked bool) []uitree.Element {
		sw := []string{"checkable"}
		if checked {
			sw = append(sw, "checked")
		}
		return []uitree.Element{
			node(2, "LinearLayout", "com.android.settings:id/switch_bar", "", "", bx(0, 200, 1080, 400), "clickable"),
			node(3, "LinearLayout", "com.android.settings:id/frame", "", "", bx(20, 220, 1060, 380)),
			node(4, "TextView", "com.android.settings:id/switch_text", text, "", bx(50, 260, 900, 320)),
			node(4, "Switch", "android:id/switch_widget", "", "", bx(940, 250, 1020, 330), sw...),
		}
	}
	held := func(es []uitree.Element, label string, on bool) bool {
		return Eval([]Check{{Kind: Switch, Label: label, On: &on}}, Observed{Final: Screen{Elements: es}})[0].Held
	}
	wifi := settingsPage(bar("Use Wi\u2011Fi", false), prefRow(420, "Wi-Fi calling", "Off", true))
	if !held(wifi, "Wi-Fi", false) || held(wifi, "Wi-Fi", true) {
		t.Error(`the "Use Wi‑Fi" bar's switch is not read as Wi-Fi, off`)
	}
	if !held(wifi, "Use Wi-Fi", false) {
		t.Error("the bar's own words no longer name its switch")
	}
	zh := settingsPage(bar("使用WLAN", true))
	if !held(zh, "WLAN", true) {
		t.Error(`the "使用WLAN" bar's switch is not read as WLAN, on`)
	}
	calls := settingsPage(prefRow(200, "Use Wi-Fi for calls", "", true))
	if held(calls, "Wi-Fi", true) {
		t.Error(`a "Use Wi-Fi for calls" row passed for the Wi-Fi switch`)
	}
}

// Google Clock's alarm cards (realscreens' naviagent-google-clock-*.xml):
// the time written with a hair space and clickable, the label above it,
// the Switch without text described "7:30 AM alarm". A card is named by
// its time or its label; another card's time, and the same clock time in
// the other half of the day, name nothing.
func TestGoogleClockCardNamedByTimeOrLabel(t *testing.T) {
	card := func(y int, tm, label string, on bool) []uitree.Element {
		sw := []string{"checkable", "clickable"}
		if on {
			sw = append(sw, "checked")
		}
		plain := strings.Replace(tm, "\u200a", " ", 1)
		es := []uitree.Element{
			node(2, "CardView", "", "", label+" Alarm", bx(40, y, 1040, y+420), "clickable"),
			node(3, "ViewGroup", "alarm_card_layout", "", "", bx(40, y, 1040, y+420)),
		}
		if label != "" {
			es = append(es, node(4, "TextView", "label", label, "", bx(80, y+40, 880, y+110)))
		}
		return append(es,
			node(4, "ImageButton", "arrow", "", "Expand "+plain+" alarm", bx(884, y, 984, y+120), "clickable"),
			node(4, "TextView", "digital_clock", tm, tm, bx(80, y+120, 400, y+295), "clickable"),
			node(4, "ViewGroup", "alarm_info", "", "", bx(80, y+295, 856, y+415)),
			node(5, "TextView", "upcoming_instance_label", "Tomorrow", "", bx(80, y+330, 340, y+380)),
			node(4, "Switch", "onoff", "", plain+" alarm", bx(856, y+295, 996, y+415), sw...),
		)
	}
	es := settingsPage(card(260, "7:30\u200aAM", "Gym", true), card(700, "7:30\u200aPM", "", false))
	s := Observed{Final: Screen{Elements: es}}
	on, off := true, false
	for _, c := range []struct {
		check Check
		held  bool
	}{
		{Check{Kind: Switch, Label: "Gym", On: &on}, true},
		{Check{Kind: Switch, Label: "07:30 Gym", On: &on}, true},
		{Check{Kind: Switch, Label: "07:30", On: &on}, true},
		{Check{Kind: Switch, Label: "7:30 AM", On: &off}, false},
		{Check{Kind: Switch, Label: "19:30", On: &off}, true},
		{Check{Kind: Switch, Label: "19:30", On: &on}, false},
		{Check{Kind: Switch, Label: "19:30 Gym", On: &on}, false},
		{Check{Kind: Switch, Label: "Tomorrow", On: &on}, false},
		{Check{Kind: RowShows, Row: "07:30", Shows: "Gym"}, true},
		{Check{Kind: RowShows, Row: "19:30", Shows: "Gym"}, false},
		{Check{Kind: ElementExists, Text: "19:30"}, true},
		{Check{Kind: ElementExists, Text: "7:30 PM"}, true},
		{Check{Kind: ElementExists, Text: "08:30"}, false},
	} {
		if r := Eval([]Check{c.check}, s)[0]; r.Held != c.held {
			t.Errorf("%s: held=%t (%s), want %t", c.check, r.Held, r.Evidence, c.held)
		}
	}
}
