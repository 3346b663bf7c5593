package phonesim

import (
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Settings (docs/phones.md#skins): the pages and rows of
// Android 14's Settings on a Pixel, laid out as SettingsLib lays them out,
// on the same toggles and brightness the rest of the phone uses. Strings
// are Settings' own, "Wi‑Fi" with its non-breaking hyphen (U+2011).

// Pages of the Pixel Settings, reported in State().Screen.Page.
const (
	pageNetwork     = "network"
	pageInternet    = "internet"
	pageConnected   = "connected_devices"
	pageConnPrefs   = "connection_preferences"
	pageBluetooth   = "bluetooth"
	pageDisplay     = "display"
	pixelWiFi       = "Wi\u2011Fi"
	pixelWiFiName   = "AndroidWifi" // the network the phone is on while Wi‑Fi is on
	pixelPrefIndent = 48
)

// pixelHome is one row of the main list: its title, its summary and the
// page it opens (pageSection with the title when page is "").
type pixelHome struct {
	title, summary, page string
}

func (p *Phone) pixelHomeRows() []pixelHome {
	return []pixelHome{
		{"Network & internet", "Mobile, " + pixelWiFi + ", hotspot", pageNetwork},
		{"Connected devices", "Bluetooth, pairing", pageConnected},
		{"Apps", "Assistant, recent apps, default apps", ""},
		{"Notifications", "Notification history, conversations", ""},
		{"Battery", "100%", ""},
		{"Storage", "34% used - 84.48 GB free", ""},
		{"Sound & vibration", "Volume, haptics, Do Not Disturb", ""},
		{"Display", "Dark theme, font size, brightness", pageDisplay},
		{"Wallpaper & style", "Colours, themed icons, app grid", ""},
		{"Accessibility", "Display, interaction, audio", ""},
		{"Security & privacy", "App security, device lock, permissions", ""},
		{"Location", "On - 2 apps have access to location", ""},
		{"Passwords & accounts", "Saved passwords, autofill, synced accounts", ""},
		{"System", "Languages, gestures, time, backup", ""},
		{"About phone", p.cfg.Model, pageAbout},
	}
}

// layoutPixelSettings lays out the page on top of Settings' stack.
func (p *Phone) layoutPixelSettings(b *builder) {
	v := b.v
	st := &p.st
	switch v.page {
	case pageNetwork:
		b.pixelBar("Network & internet")
		internet := "Off"
		if st.Toggles.WiFi {
			internet = pixelWiFiName
		}
		hotspot := "Off"
		if st.Toggles.BluetoothTethering {
			hotspot = "Bluetooth tethering on"
		}
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Internet", summary: internet, tap: p.open(pageInternet, "")})
		b.pref(pref{title: "SIMs", summary: "T-Mobile"})
		b.pref(pref{title: "Airplane mode", switched: true, on: st.Toggles.Airplane, tap: p.flipAirplane})
		b.pref(pref{title: sectionTethering, summary: hotspot, tap: p.open(pageSection, sectionTethering)})
		b.pref(pref{title: "Data Saver", summary: "Off"})
		b.pref(pref{title: "VPN", summary: "None"})
		b.pref(pref{title: "Private DNS", summary: "Automatic"})
		b.endList(li)
	case pageInternet:
		b.pixelBar("Internet")
		top := b.mainSwitch("Use "+pixelWiFi, st.Toggles.WiFi, p.flipWiFi)
		li := b.list(top, b.s.h)
		if st.Toggles.WiFi {
			b.pref(pref{title: pixelWiFiName, summary: "Connected", icon: true})
			b.pref(pref{title: "Add network", icon: true})
		} else {
			b.footer("To see available networks, turn " + pixelWiFi + " on")
		}
		b.pref(pref{title: "Network preferences", summary: pixelWiFi + " doesn't turn back on automatically"})
		b.pref(pref{title: "Saved networks", summary: "1 network"})
		b.endList(li)
	case pageConnected:
		b.pixelBar("Connected devices")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Pair new device", icon: true})
		b.pref(pref{title: "Connection preferences", summary: "Bluetooth, Android Auto", icon: true, tap: p.open(pageConnPrefs, "")})
		b.endList(li)
	case pageConnPrefs:
		b.pixelBar("Connection preferences")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Bluetooth", summary: onOff(st.Toggles.Bluetooth), icon: true, tap: p.open(pageBluetooth, "")})
		b.pref(pref{title: "Printing", summary: "1 print service on", icon: true})
		b.pref(pref{title: "Android Auto", summary: "Use apps on your car display", icon: true})
		b.endList(li)
	case pageBluetooth:
		b.pixelBar("Bluetooth")
		top := b.mainSwitch("Use Bluetooth", st.Toggles.Bluetooth, p.flipBluetooth)
		li := b.list(top, b.s.h)
		if st.Toggles.Bluetooth {
			b.pref(pref{title: "Pair new device", icon: true})
			b.pref(pref{title: "Device name", summary: p.cfg.Model})
		} else {
			b.footer("When Bluetooth is turned on, your device can communicate with other nearby Bluetooth devices.")
		}
		b.endList(li)
	case pageDisplay:
		b.pixelBar("Display")
		li := b.list(contentTop, b.s.h)
		b.category("Brightness")
		b.seekPref("Brightness level", st.Brightness, func(lv int) { st.Brightness = lv })
		b.pref(pref{title: "Adaptive brightness", summary: "Optimise brightness for available light", switched: true,
			on: st.Toggles.AdaptiveBrightness, tap: func() { st.Toggles.AdaptiveBrightness = !st.Toggles.AdaptiveBrightness }})
		b.category("Lock display")
		b.pref(pref{title: "Lock screen", summary: "Show all notification content"})
		b.pref(pref{title: "Screen timeout", summary: "After 30 seconds of inactivity"})
		b.endList(li)
	case pageAbout:
		b.pixelBar("About phone")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Device name", summary: p.cfg.Model})
		b.pref(pref{title: "Model", summary: p.cfg.Model})
		b.pref(pref{title: "Android version", summary: p.cfg.Android})
		b.pref(pref{title: "Build number", summary: BuildNumber})
		b.endList(li)
	case pageSection:
		p.layoutSectionPage(b, b.pixelBar, "Nothing to change here.")
	default:
		p.layoutPixelHome(b)
	}
}

// layoutPixelHome is Settings' main list: the title and the search bar
// above rows with an icon, a title and a summary each (the icon_frame row
// of hubfam-settings-wireless-debugging.xml, "Pair device with QR code").
func (p *Phone) layoutPixelHome(b *builder) {
	w := b.s.w
	b.add(widget{kind: kAppBar, text: "Settings", id: "homepage_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	search := uitree.Bounds{X1: 48, Y1: contentTop + 12, X2: w - 48, Y2: contentTop + 156}
	b.add(widget{kind: kSwitchBar, class: "android.widget.LinearLayout", id: "search_action_bar", clickable: true, full: search, tap: func() {}})
	b.add(widget{kind: kText, text: "Search Settings", depth: 2, full: uitree.Bounds{X1: search.X1 + 60, Y1: search.Y1, X2: search.X2 - 60, Y2: search.Y2}})
	li := b.list(search.Y2+24, b.s.h)
	p.homeRows(b, p.pixelHomeRows())
	b.endList(li)
}

// open returns a tap that opens a Settings page.
func (p *Phone) open(page, arg string) func() {
	return func() { p.push(newView(pkgSettings, page, arg)) }
}

func (p *Phone) flipWiFi() { p.st.Toggles.WiFi = !p.st.Toggles.WiFi }

func (p *Phone) flipBluetooth() {
	t := &p.st.Toggles
	t.Bluetooth = !t.Bluetooth
	t.BluetoothTethering = t.BluetoothTethering && t.Bluetooth
}

// flipAirplane turns airplane mode on or off; on, it turns the radios
// off, as the classic Settings' switch does.
func (p *Phone) flipAirplane() {
	t := &p.st.Toggles
	t.Airplane = !t.Airplane
	if t.Airplane {
		t.WiFi, t.Bluetooth, t.BluetoothTethering = false, false, false
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func onOff(on bool) string {
	if on {
		return "On"
	}
	return "Off"
}

// pixelBar is a subpage's collapsed toolbar: Navigate up and the title
// in the action bar, the toolbar describing itself by the title
// (collapsing_toolbar and action_bar of
// hubfam-settings-wireless-debugging.xml; the title TextView in the action
// bar as siteblocker-settings-developer-options.xml shows it).
func (b *builder) pixelBar(title string) {
	bar := uitree.Bounds{X1: 0, Y1: statusBarH, X2: b.s.w, Y2: contentTop}
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", desc: title, id: "collapsing_toolbar", full: bar})
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "action_bar", depth: 2, full: bar})
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true, depth: 3,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: b.p.back})
	b.add(widget{kind: kAppBar, text: title, depth: 3, full: uitree.Bounds{X1: 160, Y1: statusBarH, X2: b.s.w - 48, Y2: contentTop}})
}

// mainSwitch is SettingsLib's main switch bar at the top of a page: a
// clickable bar holding the switch's label in switch_text and a Switch
// without text (com.android.settings:id/switch_bar of
// hubfam-settings-wireless-debugging.xml; AOSP
// SettingsLib/MainSwitchPreference/res/layout/settingslib_main_switch_bar.xml).
// It returns where the page's list starts below it.
func (b *builder) mainSwitch(label string, on bool, flip func()) int {
	w := b.s.w
	bar := uitree.Bounds{X1: 0, Y1: contentTop, X2: w, Y2: contentTop + 216}
	frame := uitree.Bounds{X1: 48, Y1: bar.Y1 + 24, X2: w - 48, Y2: bar.Y2 - 24}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "switch_bar", clickable: true, full: bar, tap: flip})
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", depth: 2, full: bar})
	b.add(widget{kind: kSwitchBar, class: "android.widget.LinearLayout", id: "frame", checked: on, depth: 3, full: frame})
	b.add(widget{kind: kText, text: label, id: "switch_text", depth: 4,
		full: uitree.Bounds{X1: frame.X1 + 60, Y1: frame.Y1 + 30, X2: frame.X2 - 260, Y2: frame.Y2 - 30}})
	b.add(widget{kind: kSwitch, class: "android.widget.Switch", id: "android:id/switch_widget", checkable: true, checked: on, depth: 4,
		full: uitree.Bounds{X1: frame.X2 - 240, Y1: frame.Y1 + 14, X2: frame.X2 - 40, Y2: frame.Y2 - 14}})
	return bar.Y2
}

// pref is one preference row in a list.
type pref struct {
	title, summary string
	icon           bool // an icon before the text, as the main list's rows have
	switched       bool // a switch at the row's end showing on
	on             bool
	tap            func() // nil: a row with nothing behind it
	// swClass and swID are the switch's class and id when a skin's
	// differ from SettingsLib's (MIUI's SlidingButton); swTap, when set,
	// makes the switch a tap target of its own apart from the row (One
	// UI's Wi-Fi row opens the Wi-Fi page, its Switch flips Wi-Fi).
	swClass, swID string
	swTap         func()
	// swText is the switch's own text where a skin's says its state
	// (One UI's "On" and "Off"); "" for SettingsLib's.
	swText string
}

// pref adds a preference row as androidx.preference lays one out: a
// clickable LinearLayout holding a RelativeLayout with the title
// (android:id/title) and the summary below it (android:id/summary), and
// for a switch preference a widget_frame holding a Switch with no text of
// its own (android:id/switch_widget, not clickable: the row takes the
// tap). Rows as in siteblocker-settings-developer-options.xml ("USB
// debugging") and, with an icon, hubfam-settings-wireless-debugging.xml.
func (b *builder) pref(r pref) {
	w := b.s.w
	tap := r.tap
	if tap == nil {
		tap = func() {}
	}
	b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: tap}, 0, 0, w, rowH)
	x := pixelPrefIndent
	if r.icon {
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "icon_frame", depth: 3}, 48, 42, 144, rowH-42)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", id: "android:id/icon", depth: 4}, 66, 60, 126, rowH-60)
		x = 192
	}
	textEnd := w - 48
	if r.switched {
		textEnd = w - 280
	}
	b.item(widget{kind: kHidden, class: "android.widget.RelativeLayout", depth: 3}, x, 0, textEnd, rowH)
	if r.summary == "" {
		b.item(widget{kind: kText, text: r.title, id: "android:id/title", depth: 4}, x, 40, textEnd, rowH-40)
	} else {
		b.item(widget{kind: kText, text: r.title, id: "android:id/title", depth: 4}, x, 30, textEnd, 96)
		b.item(widget{kind: kSubText, text: r.summary, id: "android:id/summary", depth: 4}, x, 96, textEnd, 150)
	}
	if r.switched {
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "android:id/widget_frame", depth: 3}, w-260, 0, w-24, rowH)
		class, id := cmpOr(r.swClass, "android.widget.Switch"), cmpOr(r.swID, "android:id/switch_widget")
		b.item(widget{kind: kSwitch, class: class, text: r.swText, id: id, checkable: true, checked: r.on, depth: 4, clickable: r.swTap != nil, tap: r.swTap},
			w-240, 40, w-40, rowH-40)
	}
	b.y += rowH
}

// category is a list's group heading (PreferenceCategory: its title in
// android:id/title, nothing to tap).
func (b *builder) category(title string) {
	b.item(widget{kind: kHidden, class: "android.widget.LinearLayout"}, 0, 0, b.s.w, 110)
	b.item(widget{kind: kText, text: title, id: "android:id/title", depth: 3}, pixelPrefIndent, 40, b.s.w-48, 100)
	b.y += 110
}

// footer is a page's explanation below its switch (FooterPreference).
func (b *builder) footer(text string) {
	b.item(widget{kind: kHidden, class: "android.widget.LinearLayout"}, 0, 0, b.s.w, rowH)
	b.item(widget{kind: kSubText, text: text, id: "android:id/title", depth: 3}, pixelPrefIndent, 40, b.s.w-48, rowH-40)
	b.y += rowH
}

// seekPref is a slider preference: the title, the level as its summary
// and a SeekBar below them that a tap or a drag sets (androidx.preference
// res/layout/preference_widget_seekbar.xml: android:id/title,
// android:id/summary, the app's id/seekbar). AOSP's Display page opens
// SystemUI's brightness dialog from "Brightness level"; the simulator
// keeps the slider in the row.
func (b *builder) seekPref(title string, level int, set func(int)) {
	w := b.s.w
	h := rowH + 110
	b.item(widget{kind: kRow, class: "android.widget.LinearLayout"}, 0, 0, w, h)
	b.item(widget{kind: kHidden, class: "android.widget.RelativeLayout", depth: 3}, pixelPrefIndent, 0, w-48, h)
	b.item(widget{kind: kText, text: title, id: "android:id/title", depth: 4}, pixelPrefIndent, 30, w-48, 96)
	b.item(widget{kind: kSubText, text: itoa(level) + "%", id: "android:id/summary", depth: 4}, pixelPrefIndent, 96, w-48, 150)
	b.item(widget{kind: kSlider, class: "android.widget.SeekBar", id: "seekbar", clickable: true, depth: 4, level: level,
		drag: sliderDrag(pixelPrefIndent, w-48, set)}, pixelPrefIndent, 170, w-48, h-20)
	b.y += h
}

// sliderDrag sets a level from where a finger ends on a slider whose
// track runs from x1 to x2, as a SeekBar follows the finger.
func sliderDrag(x1, x2 int, set func(int)) func(int) {
	return func(x int) {
		set(min(max((x-x1)*100+(x2-x1)/2, 0)/(x2-x1), 100))
	}
}

// layoutSectionPage is a Settings section the simulator gives no settings
// of its own: the skin's bar titled with it, then Tethering's page or one
// line saying there is nothing to change.
func (p *Phone) layoutSectionPage(b *builder, bar func(string), nothing string) {
	bar(b.v.arg)
	if b.v.arg == sectionTethering {
		p.layoutTethering(b)
		return
	}
	b.add(widget{kind: kText, text: nothing, full: uitree.Bounds{X1: 48, Y1: contentTop + 40, X2: b.s.w - 48, Y2: contentTop + 160}})
}

// homeRows lays out a main list's rows: each with its icon, title and
// summary, opening its page (a section page titled like it when it names
// none).
func (p *Phone) homeRows(b *builder, rows []pixelHome) {
	for _, r := range rows {
		tap := p.open(pageSection, r.title)
		if r.page != "" {
			tap = p.open(r.page, "")
		}
		b.pref(pref{title: r.title, summary: r.summary, icon: true, tap: tap})
	}
}
