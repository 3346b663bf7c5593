package postcond

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// switchRow is a preference row as MIUI and One UI lay one out: a
// clickable row holding the title and, in its widget frame, a switch
// without text (MIUI's SlidingButton, One UI's Switch).
func switchRow(title, class string, on bool, y int) []uitree.Element {
	return switchRowTapped(title, class, on, false, y)
}

// switchRowTapped is switchRow whose switch takes taps of its own (One
// UI's Wi-Fi row: the title opens the page, the Switch flips Wi-Fi).
func switchRowTapped(title, class string, on, own bool, y int) []uitree.Element {
	b := func(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y + y1, X2: x2, Y2: y + y2} }
	return []uitree.Element{
		{Class: "android.widget.LinearLayout", Clickable: true, Enabled: true, Depth: 1, Bounds: b(0, 0, 1080, 200)},
		{Class: "android.widget.RelativeLayout", Enabled: true, Depth: 2, Bounds: b(48, 0, 800, 200)},
		{Class: "android.widget.TextView", ResourceID: "android:id/title", Text: title, Enabled: true, Depth: 3, Bounds: b(48, 40, 800, 160)},
		{Class: "android.widget.LinearLayout", ResourceID: "android:id/widget_frame", Enabled: true, Depth: 2, Bounds: b(820, 0, 1056, 200)},
		{Class: class, ResourceID: "android:id/checkbox", Checkable: true, Checked: on, Clickable: own, Enabled: true, Depth: 3, Bounds: b(840, 40, 1040, 160)},
	}
}

// A check names a switch as a planner writes it ("Wi-Fi", "Airplane
// mode"); MIUI's rows say WLAN and 飞行模式, One UI's Flight mode: the
// check reads the vendor switch by its row's title under either name,
// and never a longer title ("WLAN 热点" is the hotspot, not Wi-Fi).
func TestSwitchChecksReadVendorNames(t *testing.T) {
	const sliding = "miuix.slidingwidget.widget.SlidingButton"
	es := []uitree.Element{{Class: "androidx.recyclerview.widget.RecyclerView", Scrollable: true, Enabled: true, Depth: 0,
		Bounds: uitree.Bounds{X2: 1080, Y2: 2400}}}
	es = append(es, switchRow("WLAN", sliding, false, 200)...)
	es = append(es, switchRow("飞行模式", sliding, true, 400)...)
	es = append(es, switchRow("Flight mode", "android.widget.Switch", true, 600)...)
	es = append(es, switchRow("WLAN 热点", sliding, true, 800)...)
	es = append(es, switchRowTapped("Bluetooth", "android.widget.Switch", true, true, 1000)...)
	screen := Screen{App: "Settings", AppPackage: "com.android.settings", Elements: es}
	for _, c := range []struct {
		check Check
		held  bool
	}{
		{Check{Kind: Switch, Label: "Wi-Fi", On: on(false)}, true},
		{Check{Kind: Switch, Label: "Wi-Fi", On: on(true)}, false},
		{Check{Kind: Switch, Label: "WLAN", On: on(false)}, true},
		{Check{Kind: Switch, Label: "Airplane mode", On: on(true)}, true},
		{Check{Kind: Switch, Label: "Airplane mode", On: on(false)}, false},
		{Check{Kind: Switch, Label: "Bluetooth", On: on(false)}, false},
		{Check{Kind: Switch, Label: "Bluetooth", On: on(true)}, true},
	} {
		r := Eval([]Check{c.check}, Observed{Final: screen})
		if r[0].Held != c.held {
			t.Errorf("%s: held %v, want %v (%s)", c.check, r[0].Held, c.held, r[0].Evidence)
		}
	}
	if sameLabel("WLAN 热点", "Wi-Fi") || sameLabel("Wi-Fi Calling", "Wi-Fi") {
		t.Error("a longer title is taken for Wi-Fi")
	}
}

// A check names a Settings page as AOSP titles it; a phone titles it in its
// vendor's words: MIUI's 存储空间 is the Storage page, One UI's "Sounds and
// vibration" the Sound page. The page is shown by its title, outside the
// list, never by a list row naming it (the way there), and only on
// Settings; an absent check fails on any element showing one of the names.
func TestSectionChecksReadVendorTitles(t *testing.T) {
	bar := func(title string) []uitree.Element {
		return []uitree.Element{
			{Class: "android.widget.FrameLayout", Enabled: true, Depth: 0, Bounds: uitree.Bounds{X2: 1080, Y2: 2400}},
			{Class: "android.widget.TextView", ResourceID: "com.android.settings:id/action_bar_title", Text: title, Enabled: true, Depth: 1,
				Bounds: uitree.Bounds{X1: 160, Y1: 100, X2: 1000, Y2: 260}},
			{Class: "android.widget.TextView", Text: "此处没有可更改的设置。", Enabled: true, Depth: 1, Bounds: uitree.Bounds{X1: 48, Y1: 300, X2: 1000, Y2: 420}},
		}
	}
	list := func(rows ...string) []uitree.Element {
		es := []uitree.Element{{Class: "androidx.recyclerview.widget.RecyclerView", Scrollable: true, Enabled: true, Depth: 0,
			Bounds: uitree.Bounds{X2: 1080, Y2: 2400}}}
		for i, r := range rows {
			es = append(es, switchRow(r, "android.widget.Switch", false, 200*i)[:3]...)
		}
		return es
	}
	settings := func(es []uitree.Element) Screen {
		return Screen{App: "Settings", AppPackage: "com.android.settings", Elements: es}
	}
	for _, c := range []struct {
		name  string
		check Check
		on    Screen
		held  bool
	}{
		{"MIUI Storage page", Check{Kind: ElementExists, Text: "Storage"}, settings(bar("存储空间")), true},
		{"One UI Sound page", Check{Kind: ElementExists, Text: "Sound"}, settings(bar("Sounds and vibration")), true},
		{"Pixel Security page", Check{Kind: ElementExists, Text: "Security"}, settings(bar("Security & privacy")), true},
		{"MIUI System page", Check{Kind: ElementExists, Text: "System"}, settings(bar("更多设置")), true},
		{"another page", Check{Kind: ElementExists, Text: "Storage"}, settings(bar("电池")), false},
		{"the main list's row", Check{Kind: ElementExists, Text: "Storage"}, settings(list("电池", "存储空间", "应用设置")), false},
		{"Device care's Storage row", Check{Kind: ElementExists, Text: "Storage"}, settings(append(bar("Device care")[:2], list("Storage", "Memory")...)), false},
		{"not Settings", Check{Kind: ElementExists, Text: "Storage"}, Screen{App: "Notes", AppPackage: "com.example.notes", Elements: bar("存储空间")}, false},
		{"a row named so is shown", Check{Kind: ElementAbsent, Text: "Battery"}, settings(list("电池", "存储空间")), false},
		{"nothing named so", Check{Kind: ElementAbsent, Text: "Battery"}, settings(bar("存储空间")), true},
		{"a text that is not a page", Check{Kind: ElementExists, Text: "此处没有可更改的设置"}, settings(bar("存储空间")), true},
	} {
		r := Eval([]Check{c.check}, Observed{Final: c.on})
		if r[0].Held != c.held {
			t.Errorf("%s: %s held %v, want %v (%s)", c.name, c.check, r[0].Held, c.held, r[0].Evidence)
		}
	}
	if SectionNames("存储空间")[0] != "Storage" || SectionNames("Sounds and vibration")[0] != "Sound" || SectionNames("Wi-Fi") != nil {
		t.Errorf("SectionNames: %q, %q, %q", SectionNames("存储空间"), SectionNames("Sounds and vibration"), SectionNames("Wi-Fi"))
	}
}

// oneuiSwitchRow is a One UI switch row as
// internal/phonesim/testdata/real/uiviewer-samsung-settings-developer-options-pl.xml
// shows one: the title and summary in the clickable row, and a clickable
// Switch in widget_frame whose own text is the state word ("On", "Off"),
// checked or not.
func oneuiSwitchRow(title, word string, checked bool, y int) []uitree.Element {
	b := func(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y + y1, X2: x2, Y2: y + y2} }
	return []uitree.Element{
		{Class: "android.widget.LinearLayout", Clickable: true, Enabled: true, Depth: 1, Bounds: b(0, 0, 1080, 180)},
		{Class: "android.widget.RelativeLayout", Enabled: true, Depth: 2, Bounds: b(48, 0, 800, 180)},
		{Class: "android.widget.TextView", ResourceID: "android:id/title", Text: title, Enabled: true, Depth: 3, Bounds: b(48, 30, 800, 96)},
		{Class: "android.widget.TextView", ResourceID: "android:id/summary", Text: "Summary of " + title, Enabled: true, Depth: 3, Bounds: b(48, 96, 800, 150)},
		{Class: "android.widget.LinearLayout", ResourceID: "android:id/widget_frame", Enabled: true, Depth: 2, Bounds: b(820, 0, 1056, 180)},
		{Class: "android.widget.Switch", ResourceID: "android:id/switch_widget", Text: word, Checkable: true, Checked: checked, Clickable: true,
			Enabled: true, Depth: 3, Bounds: b(840, 40, 1040, 140)},
	}
}

// A One UI row's Switch says its state in its own text: a check reads the
// row's title as the switch's label and its checked attribute as the
// state, never a switch labelled "On"; a Switch whose word and checked
// attribute disagree (a look-alike of a switch turned on) holds neither
// state. The switch bar's Switch says "<title>, <state>" and its text
// beside it only the state.
func TestOneUISwitchTextIsItsState(t *testing.T) {
	es := []uitree.Element{{Class: "androidx.recyclerview.widget.RecyclerView", Scrollable: true, Enabled: true, Depth: 0,
		Bounds: uitree.Bounds{X2: 1080, Y2: 2400}}}
	es = append(es, oneuiSwitchRow("Flight mode", "On", true, 200)...)
	es = append(es, oneuiSwitchRow("Bluetooth", "Off", false, 380)...)
	es = append(es, oneuiSwitchRow("NFC and contactless payments", "On", false, 560)...) // word and attribute disagree
	screen := Screen{App: "Settings", AppPackage: "com.android.settings", Elements: es}
	for _, c := range []struct {
		check Check
		held  bool
	}{
		{Check{Kind: Switch, Label: "Airplane mode", On: on(true)}, true},
		{Check{Kind: Switch, Label: "Flight mode", On: on(false)}, false},
		{Check{Kind: Switch, Label: "Bluetooth", On: on(false)}, true},
		{Check{Kind: Switch, Label: "Bluetooth", On: on(true)}, false},
		{Check{Kind: Switch, Label: "On", On: on(true)}, false},
		{Check{Kind: Switch, Label: "On", On: on(false)}, false},
		{Check{Kind: Switch, Label: "Off", On: on(false)}, false},
		{Check{Kind: Switch, Label: "NFC and contactless payments", On: on(true)}, false},
		{Check{Kind: Switch, Label: "NFC and contactless payments", On: on(false)}, false},
	} {
		r := Eval([]Check{c.check}, Observed{Final: screen})
		if r[0].Held != c.held {
			t.Errorf("%s: held %v, want %v (%s)", c.check, r[0].Held, c.held, r[0].Evidence)
		}
	}
	bar := func(state string, checked bool) Screen {
		return Screen{App: "Settings", AppPackage: "com.android.settings", Elements: []uitree.Element{
			{Class: "android.widget.FrameLayout", Enabled: true, Depth: 0, Bounds: uitree.Bounds{X2: 1080, Y2: 2400}},
			{Class: "android.widget.TextView", Text: "Wi-Fi", Enabled: true, Depth: 1, Bounds: uitree.Bounds{X1: 160, Y1: 124, X2: 888, Y2: 212}},
			{Class: "android.widget.LinearLayout", ResourceID: "com.android.settings:id/switch_bar", Enabled: true, Depth: 1, Bounds: uitree.Bounds{Y1: 252, X2: 1080, Y2: 468}},
			{Class: "android.widget.LinearLayout", ResourceID: "com.android.settings:id/switch_background", Desc: "Wi-Fi, " + state + ", Switch",
				Clickable: true, Enabled: true, Depth: 2, Bounds: uitree.Bounds{Y1: 252, X2: 1080, Y2: 432}},
			{Class: "android.widget.TextView", ResourceID: "com.android.settings:id/switch_text", Text: state, Enabled: true, Depth: 3, Bounds: uitree.Bounds{X1: 72, Y1: 302, X2: 800, Y2: 382}},
			{Class: "android.widget.Switch", ResourceID: "com.android.settings:id/switch_widget", Text: "Wi-Fi, " + state, Checkable: true, Checked: checked,
				Clickable: true, Enabled: true, Depth: 3, Bounds: uitree.Bounds{X1: 820, Y1: 292, X2: 1020, Y2: 392}},
		}}
	}
	for _, c := range []struct {
		name  string
		on    Screen
		check Check
		held  bool
	}{
		{"bar on", bar("On", true), Check{Kind: Switch, Label: "Wi-Fi", On: on(true)}, true},
		{"bar on", bar("On", true), Check{Kind: Switch, Label: "Wi-Fi", On: on(false)}, false},
		{"bar off", bar("Off", false), Check{Kind: Switch, Label: "Wi-Fi", On: on(false)}, true},
		{"bar on", bar("On", true), Check{Kind: Switch, Label: "On", On: on(true)}, false},
		{"bar saying On, unchecked", bar("On", false), Check{Kind: Switch, Label: "Wi-Fi", On: on(true)}, false},
	} {
		r := Eval([]Check{c.check}, Observed{Final: c.on})
		if r[0].Held != c.held {
			t.Errorf("%s: %s held %v, want %v (%s)", c.name, c.check, r[0].Held, c.held, r[0].Evidence)
		}
	}
}

// MIUI's home screen clock widget writes no text: its View is described
// by the time as it is spoken, "下午2点27分" (blackhole-miui-launcher-home-zh.xml
// in internal/realscreens/testdata). An answer of that time is seen
// there; another time, the hour alone, or a count of hours and minutes
// is not.
func TestAnswerSeenReadsMIUISpokenClock(t *testing.T) {
	home := func(desc string) Screen {
		return Screen{App: "Launcher", AppPackage: "com.miui.home", Elements: []uitree.Element{
			{Class: "android.widget.FrameLayout", Enabled: true, Depth: 0, Bounds: uitree.Bounds{X2: 1080, Y2: 2400}},
			{Class: "android.view.View", Desc: desc, Enabled: true, Depth: 1, Bounds: uitree.Bounds{X1: 33, Y1: 94, X2: 473, Y2: 270}},
			{Class: "android.view.View", Desc: "3月15日 周一下午", Enabled: true, Depth: 1, Bounds: uitree.Bounds{X1: 69, Y1: 251, X2: 482, Y2: 294}},
		}}
	}
	check := Check{Kind: AnswerSeen, Type: TypeTime}
	for _, c := range []struct {
		desc, answer string
		held         bool
	}{
		{"下午2点27分", "14:27", true},
		{"下午2点27分", "2:27 PM", true},
		{"下午12点00分", "12:00", true},
		{"上午9点05分", "09:05", true},
		{"下午2点27分", "02:27", false}, // the afternoon's, not the morning's
		{"下午2点27分", "12:00", false},
		{"下午2点", "14:00", false},        // no minutes: not a clock's time
		{"23小时56分钟后响铃", "23:56", false}, // a span, not a time
	} {
		r := Eval([]Check{check}, Observed{Answer: c.answer, Final: home(c.desc)})
		if r[0].Held != c.held {
			t.Errorf("%q answered %q: held %v, want %v (%s)", c.desc, c.answer, r[0].Held, c.held, r[0].Evidence)
		}
	}
}
