package phonesim

import (
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The MIUI and One UI skins' Settings (docs/phones.md#skins): the pages a
// Xiaomi phone's MIUI 14 (in Chinese) and a Samsung phone's One UI 6 show
// for the same toggles and brightness the rest of the phone uses.
//
// MIUI's main list and Display page follow real MIUI 14 dumps
// (untergang-miui-settings-main-en.xml and
// untergang-miui-settings-display-en.xml in testdata/real, from
// Untergang1/AppAgent @ 5999f9c2a559; the phone showed English, the skin
// keeps MIUI's Chinese strings): see layoutMIUIHome. One UI's subpages
// follow a real Samsung dump. No real dump of One UI's main list, nor of
// MIUI's WLAN, 蓝牙 and 连接与共享 pages, was found in a public
// repository (searched for miuix, SlidingButton, com.miui, "Connections"
// and "Flight mode" dumps); those trees follow what public sources show
// instead:
//   - MIUI: decompiled MIUI Settings sources in public repositories
//     (com.android.settings.nfc.MiuiAndroidBeam and DarkModeAppsGuideView
//     import miuix.slidingwidget.widget.SlidingButton, the switch of a
//     MIUI preference row), and the row titles scripts drive real Xiaomi
//     phones by (设置, WLAN, 蓝牙, 飞行模式, 我的设备 > 全部参数 >
//     Android版本); a switch row keeps android:id/title and
//     android:id/summary as androidx.preference lays it out, and its
//     SlidingButton carries android:id/checkbox, MIUI's
//     CheckBoxPreference widget id.
//   - One UI's subpages: bbrozyna/android-uiviewer @ 7ebcd4f0455a :
//     dump.xml (testdata/real/uiviewer-samsung-settings-developer-options-pl.xml,
//     Opcje programisty in Polish): the app bar holding Navigate up, the
//     title without an id and Search (oneuiBar); the switch bar whose
//     switch_text says only the state and whose Switch says "<title>,
//     <state>" (oneuiMainSwitch); rows whose clickable Switch says the
//     state in its own text, Włączono / Wyłączono, On / Off in English
//     (oneuiSwitch); headings described "<title>, Header". The Connections
//     page's Wi-Fi and Bluetooth rows open their page from the title and
//     flip from the Switch, as on a Samsung phone.
//   - One UI's main list, which no dump shows: the annotated capture of a
//     Samsung Settings main list in clawperator/clawperator
//     docs/api/snapshot.md (a clickable LinearLayout row holding
//     android:id/title "Connections" and android:id/summary "Wi-Fi  •
//     Bluetooth  •  SIM manager": Samsung writes Wi-Fi with a plain
//     hyphen, and joins a summary's parts with two spaces around a
//     bullet).

// Pages of the vendor skins, reported in State().Screen.Page.
const (
	pageWiFi        = "wifi"
	pageConnShare   = "connection_sharing" // MIUI 连接与共享, holding 飞行模式
	pageMyDevice    = "my_device"          // MIUI 我的设备
	pageAllSpecs    = "all_specs"          // MIUI 全部参数
	pageConnections = "connections"        // One UI Connections
	pageSoftware    = "software_info"      // One UI Software information
	pageDeviceCare  = "device_care"        // One UI Device care, holding Storage

	miuiSlidingButton = "miuix.slidingwidget.widget.SlidingButton"
	miuiSwitchID      = "android:id/checkbox"
	miuiOn, miuiOff   = "已开启", "已关闭"
	oneuiWiFi         = "Wi-Fi"
	oneuiDot          = "  \u2022  "
)

// miuiSectionTitles are MIUI's main list titles of the classic sections.
// 存储空间 sits under 我的设备, 位置信息 under 隐私保护 and 无障碍 under
// 更多设置 on a real phone; the simulator lists them on the main list.
var miuiSectionTitles = map[string]string{
	"Display":       "显示",
	"Sound":         "声音与振动",
	"Notifications": "通知与控制中心",
	"Battery":       "电池",
	"Storage":       "存储空间",
	"Location":      "位置信息",
	"Security":      "密码与安全",
	"Accounts":      "账号与同步",
	"Accessibility": "无障碍",
	"System":        "更多设置",
}

// oneuiSectionTitles are One UI 6's main list titles of the classic
// sections; its Storage page is a row of Device care (oneuiSectionPaths).
var oneuiSectionTitles = map[string]string{
	"Display":       "Display",
	"Sound":         "Sounds and vibration",
	"Notifications": "Notifications",
	"Battery":       "Battery",
	"Storage":       "Device care",
	"Location":      "Location",
	"Security":      "Security and privacy",
	"Accounts":      "Accounts and backup",
	"Accessibility": "Accessibility",
	"System":        "General management",
}

// miuiAppLabels are the names a Xiaomi phone's launcher gives the apps
// (MIUI's own apps: 设置, 时钟, 短信, 联系人, 便签); the others keep
// theirs.
var miuiAppLabels = map[string]string{"Settings": "设置", "Clock": "时钟", "Messages": "短信", "Contacts": "联系人", "Notes": "便签"}

// appLabel is the launcher's label of an app on the phone's skin.
func (p *Phone) appLabel(name string) string {
	if l, ok := miuiAppLabels[name]; ok && p.cfg.Skin == SkinMIUI {
		return l
	}
	return name
}

// miuiSwitch is a MIUI switch row: the title, the summary and a
// SlidingButton at its end; the whole row flips it.
func (b *builder) miuiSwitch(title, summary string, on bool, flip func()) {
	b.pref(pref{title: title, summary: summary, switched: true, on: on, tap: flip, swClass: miuiSlidingButton, swID: miuiSwitchID})
}

func miuiState(on bool) string {
	if on {
		return miuiOn
	}
	return miuiOff
}

// miuiBar is a MIUI subpage's action bar: 返回 and the title
// (miuix's action_bar_title).
func (b *builder) miuiBar(title string) {
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "返回", id: "up", clickable: true,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: b.p.back})
	b.add(widget{kind: kAppBar, text: title, id: "action_bar_title", full: uitree.Bounds{X1: 160, Y1: statusBarH, X2: b.s.w - 48, Y2: contentTop}})
}

func (p *Phone) wifiName(off string) string {
	if p.st.Toggles.WiFi {
		return pixelWiFiName
	}
	return off
}

// layoutMIUISettings lays out the MIUI page on top of Settings' stack.
func (p *Phone) layoutMIUISettings(b *builder) {
	st := &p.st
	switch b.v.page {
	case pageWiFi:
		b.miuiSettingsBar("WLAN")
		li := b.list(contentTop, b.s.h)
		b.miuiSwitch("WLAN", "", st.Toggles.WiFi, p.flipWiFi)
		if st.Toggles.WiFi {
			b.category("可用 WLAN 列表")
			b.pref(pref{title: pixelWiFiName, summary: "已连接"})
			b.pref(pref{title: "添加网络"})
		}
		b.pref(pref{title: "WLAN 助理"})
		b.pref(pref{title: "高级设置"})
		b.endList(li)
	case pageBluetooth:
		b.miuiSettingsBar("蓝牙")
		li := b.list(contentTop, b.s.h)
		b.miuiSwitch("蓝牙", "", st.Toggles.Bluetooth, p.flipBluetooth)
		if st.Toggles.Bluetooth {
			b.pref(pref{title: "设备名称", summary: p.cfg.Model})
			b.category("可用设备")
		}
		b.endList(li)
	case pageConnShare:
		b.miuiSettingsBar("连接与共享")
		li := b.list(contentTop, b.s.h)
		b.miuiSwitch("飞行模式", "", st.Toggles.Airplane, p.flipAirplane)
		b.pref(pref{title: "个人热点", tap: p.open(pageSection, sectionTethering)})
		b.pref(pref{title: "投屏"})
		b.pref(pref{title: "VPN"})
		b.pref(pref{title: "私人DNS", summary: "自动"})
		b.endList(li)
	case pageDisplay:
		// untergang-miui-settings-display-en.xml: the list in
		// recycler_view, headings as FrameLayouts holding android:id/title,
		// rows that open a page showing their value in text_right beside
		// the title ("Refresh rate 60 Hz") and ending with arrow_right.
		// The real page opens the brightness slider from a "Brightness
		// level" row; no dump of that page was found, so the slider and
		// 自动亮度 stay on this page as the other looks have them.
		b.miuiSettingsBar("显示")
		li := b.list(contentTop, b.s.h)
		b.s.widgets[li].id = b.s.pkg + ":id/recycler_view"
		b.miuiCategory("亮度")
		b.seekPref("亮度", st.Brightness, func(lv int) { st.Brightness = lv })
		b.miuiSwitch("自动亮度", "", st.Toggles.AdaptiveBrightness, func() { st.Toggles.AdaptiveBrightness = !st.Toggles.AdaptiveBrightness })
		b.miuiCategory("屏幕")
		b.miuiRow("深色模式", "", "", false, nil)
		b.miuiRow("字体", "", "", false, nil)
		b.miuiRow("屏幕刷新率", "", "60 Hz", false, nil)
		b.endList(li)
	case pageMyDevice:
		b.miuiSettingsBar("我的设备")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "设备名称", summary: p.cfg.Model})
		b.pref(pref{title: "MIUI版本", summary: "MIUI 14"})
		b.pref(pref{title: "存储空间", tap: p.open(pageSection, "存储空间")})
		b.pref(pref{title: "全部参数", tap: p.open(pageAllSpecs, "")})
		b.endList(li)
	case pageAllSpecs:
		b.miuiSettingsBar("全部参数")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "设备名称", summary: p.cfg.Model})
		b.pref(pref{title: "型号", summary: p.cfg.Model})
		b.pref(pref{title: "Android版本", summary: p.cfg.Android})
		b.pref(pref{title: "MIUI版本", summary: "MIUI 14"})
		b.pref(pref{title: "版本号", summary: BuildNumber})
		b.endList(li)
	case pageSection:
		p.layoutSectionPage(b, b.miuiSettingsBar, "此处没有可更改的设置。")
	default:
		p.layoutMIUIHome(b)
	}
}

// layoutMIUIHome is MIUI's main list as MIUI 14 lays it out
// (untergang-miui-settings-main-en.xml, Untergang1/AppAgent @
// 5999f9c2a559 : tasks/task_system_2024-05-20_21-15-14/task_system_2024-05-20_21-15-14_2.xml,
// and the same phone's main list with the hotspot on and WLAN connected,
// untergang-miui-settings-main-hotspot-on-en.xml): miuix's action bar
// (action_bar_container > action_bar > action_bar_movable_container)
// with the title in action_bar_title_expand; the search bar, a clickable
// header_view holding android:id/inputArea with a TextView android:id/input
// (a text, not a field: a tap opens the search page) described 搜索; then
// the scroll_headers list: the account row (a title and a summary), 我的设备
// with the MIUI version, a gap, the connections group (SIM卡与移动网络,
// WLAN, 蓝牙, 个人热点, VPN, 连接与共享), a gap, and the rest. A row's
// value (已开启 or 已关闭, the network's name, the version) is not a
// summary below the title but a TextView text_right in the row's
// widget_frame beside it, and the row ends with arrow_right: the row opens
// its page, it holds no switch. The strings stay Chinese (docs/phones.md#skins);
// the "Cloud storage is full" banner above the account row is the account's
// notice and is not drawn.
func (p *Phone) layoutMIUIHome(b *builder) {
	w := b.s.w
	t := &p.st.Toggles
	b.miuiActionBar("设置", false)
	search := uitree.Bounds{X1: 0, Y1: contentTop, X2: w, Y2: contentTop + 156}
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "header_view", clickable: true, full: search, tap: func() {}})
	area := uitree.Bounds{X1: 48, Y1: search.Y1 + 12, X2: w - 48, Y2: search.Y2 - 12}
	b.add(widget{kind: kSwitchBar, class: "android.widget.LinearLayout", id: "android:id/inputArea", depth: 2, full: area})
	b.add(widget{kind: kHidden, class: "android.widget.ImageView", depth: 3, full: uitree.Bounds{X1: area.X1 + 20, Y1: area.Y1 + 30, X2: area.X1 + 120, Y2: area.Y2 - 30}})
	b.add(widget{kind: kText, text: "搜索设置项", desc: "搜索", id: "android:id/input", depth: 3, full: uitree.Bounds{X1: area.X1 + 120, Y1: area.Y1 + 30, X2: area.X2, Y2: area.Y2 - 30}})
	li := b.list(search.Y2, b.s.h)
	b.s.widgets[li].id = b.s.pkg + ":id/scroll_headers"
	b.miuiAccountRow()
	b.miuiHomeRow("我的设备", "MIUI 14", p.open(pageMyDevice, ""))
	b.miuiGap()
	rows := []pixelHome{
		{"SIM卡与移动网络", "", ""},
		{"WLAN", p.wifiName(miuiOff), pageWiFi},
		{"蓝牙", miuiState(t.Bluetooth), pageBluetooth},
		{"个人热点", miuiOff, ""},
		{"VPN", "", ""},
		{"连接与共享", "", pageConnShare},
	}
	p.miuiHomeRows(b, rows)
	b.miuiGap()
	p.miuiHomeRows(b, []pixelHome{
		{"壁纸与个性化", "", ""},
		{"锁屏", "", ""},
		{"显示", "", pageDisplay},
		{"声音与振动", "", ""},
		{"通知与控制中心", "", ""},
		{"桌面", "", ""},
		{"密码与安全", "", ""},
		{"隐私保护", "", ""},
		{"位置信息", "", ""},
		{"电池", "", ""},
		{"存储空间", "", ""},
		{"应用设置", "", ""},
		{"账号与同步", "", ""},
		{"无障碍", "", ""},
		{"更多设置", "", ""},
	})
	b.endList(li)
}

// miuiHomeRows lays out main-list rows, each opening its page (a section
// page titled like it when it names none; 个人热点 opens the hotspot's).
func (p *Phone) miuiHomeRows(b *builder, rows []pixelHome) {
	for _, r := range rows {
		tap := p.open(pageSection, r.title)
		switch {
		case r.page != "":
			tap = p.open(r.page, "")
		case r.title == "个人热点":
			tap = p.open(pageSection, sectionTethering)
		}
		b.miuiHomeRow(r.title, r.summary, tap)
	}
}

// miuiRowH is the height of a MIUI main-list row (159 px at 1080 wide in
// untergang-miui-settings-main-en.xml).
const miuiRowH = 160

// miuiHomeRow is one row of MIUI's main list or of a MIUI page: a
// clickable LinearLayout holding a LinearLayout with android:id/icon (on
// the main list), a RelativeLayout with android:id/title, the
// android:id/widget_frame holding the value in text_right beside the
// title (nothing when the row shows none), and arrow_right
// (untergang-miui-settings-main-en.xml's WLAN row: title WLAN, text_right
// 417).
func (b *builder) miuiHomeRow(title, value string, tap func()) {
	b.miuiRow(title, "", value, true, tap)
}

func (b *builder) miuiRow(title, summary, value string, icon bool, tap func()) {
	w := b.s.w
	h := miuiRowH
	if summary != "" {
		h = miuiRowH + 70
	}
	if tap == nil {
		tap = func() {}
	}
	b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: tap}, 0, 0, w, h)
	x := 78
	if icon {
		b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", depth: 3}, 79, h/2-42, 202, h/2+42)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", id: "android:id/icon", depth: 4}, 100, h/2-30, 180, h/2+30)
		x = 202
	}
	valueX := w - 129 - miuiValueWidth(value)
	textEnd := w - 160
	if value != "" {
		textEnd = valueX
	}
	b.item(widget{kind: kHidden, class: "android.widget.RelativeLayout", depth: 3}, x, 0, textEnd, h)
	if summary == "" {
		b.item(widget{kind: kText, text: title, id: "android:id/title", depth: 4}, x, 45, textEnd-22, h-45)
	} else {
		b.item(widget{kind: kText, text: title, id: "android:id/title", depth: 4}, x, 45, textEnd-22, 114)
		b.item(widget{kind: kSubText, text: summary, id: "android:id/summary", depth: 4}, x, 114, textEnd-22, h-30)
	}
	frameX := w - 160
	if value != "" {
		frameX = valueX
	}
	b.item(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "android:id/widget_frame", depth: 3}, frameX, h/2-30, w-129, h/2+30)
	if value != "" {
		b.item(widget{kind: kSubText, text: value, id: "text_right", depth: 4}, valueX, h/2-30, w-129, h/2+30)
	}
	b.item(widget{kind: kHidden, class: "android.widget.ImageView", id: "arrow_right", depth: 3}, w-107, h/2-22, w-79, h/2+23)
	b.y += h
}

// miuiValueWidth is the width text_right takes for a value: a Chinese
// character is drawn about twice as wide as a Latin one.
func miuiValueWidth(value string) int {
	n := 20
	for _, r := range value {
		if r >= 0x2e80 {
			n += 58
		} else {
			n += 30
		}
	}
	return min(n, 500)
}

// miuiAccountRow is the Xiaomi account's row at the top of the main list:
// its title and the summary below it, disabled as the real one is.
func (b *builder) miuiAccountRow() {
	b.miuiRow("小米账号", "管理账号、云服务与家庭服务", "", true, nil)
}

// miuiGap is the empty clickable FrameLayout between the main list's
// groups (135 px high in untergang-miui-settings-main-en.xml).
func (b *builder) miuiGap() {
	b.item(widget{kind: kHidden, class: "android.widget.FrameLayout", clickable: true, tap: func() {}}, 0, 0, b.s.w, 136)
	b.y += 136
}

// miuiActionBar is MIUI Settings' action bar: action_bar_container >
// action_bar > action_bar_movable_container holding the title in
// action_bar_title_expand, and on a page the way back, an ImageView up
// described 返回 (untergang-miui-settings-display-en.xml: "Back").
func (b *builder) miuiActionBar(title string, up bool) {
	bar := uitree.Bounds{X1: 0, Y1: 0, X2: b.s.w, Y2: contentTop}
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "action_bar_container", full: bar})
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "action_bar", depth: 2, full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: b.s.w, Y2: contentTop}})
	x := 48
	if up {
		b.add(widget{kind: kUp, class: "android.widget.ImageView", desc: "返回", id: "up", clickable: true, depth: 3,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: b.p.back})
		x = 160
	}
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "action_bar_movable_container", depth: 3, full: uitree.Bounds{X1: x, Y1: statusBarH, X2: b.s.w - 48, Y2: contentTop}})
	b.add(widget{kind: kAppBar, text: title, id: "action_bar_title_expand", depth: 4, full: uitree.Bounds{X1: x, Y1: statusBarH, X2: b.s.w - 48, Y2: contentTop}})
}

// miuiSettingsBar is a MIUI Settings page's bar.
func (b *builder) miuiSettingsBar(title string) { b.miuiActionBar(title, true) }

// miuiCategory is a MIUI page's group heading: a FrameLayout holding
// android:id/title (untergang-miui-settings-display-en.xml's COLOR SCHEME
// and SCREEN).
func (b *builder) miuiCategory(title string) {
	b.item(widget{kind: kHidden, class: "android.widget.FrameLayout"}, 0, 0, b.s.w, 110)
	b.item(widget{kind: kText, text: title, id: "android:id/title", depth: 3}, 78, 30, b.s.w-78, 110)
	b.y += 110
}

// layoutOneUISettings lays out the One UI page on top of Settings' stack.
// A subpage has One UI's own bar (oneuiBar), its rows' Switches say their
// state in their text and take a tap of their own (oneuiSwitch), and a
// page's main switch is One UI's switch bar (oneuiMainSwitch), as
// uiviewer-samsung-settings-developer-options-pl.xml shows them.
func (p *Phone) layoutOneUISettings(b *builder) {
	st := &p.st
	t := &st.Toggles
	switch b.v.page {
	case pageConnections:
		b.oneuiBar("Connections")
		li := b.list(contentTop, b.s.h)
		b.oneuiSwitch(pref{title: oneuiWiFi, summary: p.wifiName(""), on: t.WiFi, tap: p.open(pageWiFi, ""), swTap: p.flipWiFi})
		b.oneuiSwitch(pref{title: "Wi-Fi Calling"})
		b.oneuiSwitch(pref{title: "Bluetooth", on: t.Bluetooth, tap: p.open(pageBluetooth, ""), swTap: p.flipBluetooth})
		b.oneuiSwitch(pref{title: "NFC and contactless payments"})
		b.oneuiSwitch(pref{title: "Flight mode", summary: "Turn off calling, messaging and Mobile data.", on: t.Airplane, tap: p.flipAirplane})
		b.pref(pref{title: "SIM manager"})
		b.pref(pref{title: "Mobile networks"})
		b.pref(pref{title: "Data usage"})
		b.pref(pref{title: "Mobile Hotspot and Tethering", tap: p.open(pageSection, sectionTethering)})
		b.pref(pref{title: "More connection settings"})
		b.endList(li)
	case pageWiFi:
		// One UI's switch bar says the state, On or Off; the page's
		// title names the switch.
		b.oneuiBar(oneuiWiFi)
		top := b.oneuiMainSwitch(oneuiWiFi, t.WiFi, p.flipWiFi)
		li := b.list(top, b.s.h)
		if t.WiFi {
			b.oneuiCategory("Current network")
			b.pref(pref{title: pixelWiFiName, summary: "Connected"})
		}
		b.pref(pref{title: "Add network"})
		b.endList(li)
	case pageBluetooth:
		b.oneuiBar("Bluetooth")
		top := b.oneuiMainSwitch("Bluetooth", t.Bluetooth, p.flipBluetooth)
		li := b.list(top, b.s.h)
		if t.Bluetooth {
			b.pref(pref{title: "Phone name", summary: p.cfg.Model})
		}
		b.endList(li)
	case pageDisplay:
		b.oneuiBar("Display")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Light mode"})
		b.seekPref("Brightness", st.Brightness, func(lv int) { st.Brightness = lv })
		b.oneuiSwitch(pref{title: "Adaptive brightness", on: t.AdaptiveBrightness,
			tap: func() { t.AdaptiveBrightness = !t.AdaptiveBrightness }})
		b.oneuiSwitch(pref{title: "Eye comfort shield"})
		b.pref(pref{title: "Screen timeout", summary: "30 seconds"})
		b.endList(li)
	case pageAbout:
		b.oneuiBar("About phone")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Phone name", summary: p.cfg.Model})
		b.pref(pref{title: "Model name", summary: p.cfg.Model})
		b.pref(pref{title: "Status information"})
		b.pref(pref{title: "Legal information"})
		b.pref(pref{title: "Software information", tap: p.open(pageSoftware, "")})
		b.pref(pref{title: "Battery information"})
		b.endList(li)
	case pageDeviceCare:
		// One UI 6's Device care lists what its main list row's summary
		// names; Storage opens the phone's storage page.
		b.oneuiBar("Device care")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "Storage", tap: p.open(pageSection, "Storage")})
		b.pref(pref{title: "Memory"})
		b.pref(pref{title: "App protection"})
		b.endList(li)
	case pageSoftware:
		b.oneuiBar("Software information")
		li := b.list(contentTop, b.s.h)
		b.pref(pref{title: "One UI version", summary: "6.1"})
		b.pref(pref{title: "Android version", summary: p.cfg.Android})
		b.pref(pref{title: "Build number", summary: BuildNumber})
		b.endList(li)
	case pageSection:
		p.layoutSectionPage(b, b.oneuiBar, "Nothing to change here.")
	default:
		p.layoutOneUIHome(b)
	}
}

// oneuiBar is a One UI subpage's app bar as
// uiviewer-samsung-settings-developer-options-pl.xml shows it: app_bar >
// collapsing_app_bar > action_bar holding Navigate up, the title in a
// TextView without an id and a Search button; nothing in it is described
// by the title.
func (b *builder) oneuiBar(title string) {
	w := b.s.w
	bar := uitree.Bounds{X1: 0, Y1: statusBarH, X2: w, Y2: contentTop}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "app_bar", full: bar})
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "collapsing_app_bar", depth: 2, full: bar})
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "action_bar", depth: 3, full: bar})
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true, depth: 4,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: b.p.back})
	b.add(widget{kind: kAppBar, text: title, depth: 4, full: uitree.Bounds{X1: 160, Y1: statusBarH + 40, X2: w - 192, Y2: contentTop - 40}})
	b.add(widget{kind: kHidden, class: "androidx.appcompat.widget.LinearLayoutCompat", depth: 4, full: uitree.Bounds{X1: w - 168, Y1: statusBarH, X2: w, Y2: contentTop}})
	b.add(widget{kind: kHidden, class: "android.widget.Button", desc: "Search", clickable: true, depth: 5,
		full: uitree.Bounds{X1: w - 168, Y1: statusBarH, X2: w, Y2: contentTop}, tap: func() {}})
}

// oneuiSwitch is a One UI switch row: androidx.preference's row (pref),
// its Switch in widget_frame saying the state in its own text ("On",
// "Off": Włączono and Wyłączono in the Polish dump) and taking a tap of
// its own; the row takes the rest (r.tap, which flips the switch where
// the row opens no page).
func (b *builder) oneuiSwitch(r pref) {
	r.switched, r.swText = true, onOffWord(r.on)
	if r.tap == nil {
		r.tap = func() {}
	}
	if r.swTap == nil {
		r.swTap = r.tap
	}
	b.pref(r)
}

// oneuiMainSwitch is One UI's switch bar at the top of a page: switch_bar
// holding the clickable switch_background (described "<title>, <state>,
// Switch"), its switch_text saying only the state and a Switch whose text
// is "<title>, <state>" (the Polish dump's "Opcje programisty, Włączony").
// It returns where the page's list starts below it.
func (b *builder) oneuiMainSwitch(title string, on bool, flip func()) int {
	w := b.s.w
	state := onOffWord(on)
	bar := uitree.Bounds{X1: 0, Y1: contentTop, X2: w, Y2: contentTop + 216}
	bg := uitree.Bounds{X1: 0, Y1: bar.Y1, X2: w, Y2: bar.Y2 - 36}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "switch_bar", full: bar})
	b.add(widget{kind: kSwitchBar, class: "android.widget.LinearLayout", id: "switch_background", desc: title + ", " + state + ", Switch",
		clickable: true, checked: on, depth: 2, full: bg, tap: flip})
	b.add(widget{kind: kText, text: state, id: "switch_text", depth: 3,
		full: uitree.Bounds{X1: 72, Y1: bg.Y1 + 50, X2: w - 280, Y2: bg.Y2 - 50}})
	b.add(widget{kind: kSwitch, class: "android.widget.Switch", text: title + ", " + state, id: "switch_widget", checkable: true, checked: on,
		clickable: true, depth: 3, full: uitree.Bounds{X1: w - 260, Y1: bg.Y1 + 40, X2: w - 60, Y2: bg.Y2 - 40}, tap: flip})
	return bar.Y2
}

// oneuiCategory is a One UI list's group heading: a TextView without an
// id, described "<title>, Header" (the Polish dump's "Ekran dotykowy,
// Nagłówek").
func (b *builder) oneuiCategory(title string) {
	b.item(widget{kind: kText, text: title, desc: title + ", Header", depth: 2}, pixelPrefIndent, 0, b.s.w-48, 110)
	b.y += 110
}

func onOffWord(on bool) string {
	if on {
		return "On"
	}
	return "Off"
}

// layoutOneUIHome is One UI's main list: the rows and summaries of
// snapshot.md's capture ("Connections", "Wi-Fi  •  Bluetooth  •  SIM
// manager"; "Connected devices", "Quick Share  •  Samsung DeX  •
// Android Auto") and the rest of One UI 6's list.
func (p *Phone) layoutOneUIHome(b *builder) {
	w := b.s.w
	b.add(widget{kind: kAppBar, text: "Settings", id: "homepage_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop+24, b.s.h)
	j := func(parts ...string) string {
		s := ""
		for i, x := range parts {
			if i > 0 {
				s += oneuiDot
			}
			s += x
		}
		return s
	}
	rows := []pixelHome{
		{"Connections", j("Wi-Fi", "Bluetooth", "SIM manager"), pageConnections},
		{"Connected devices", j("Quick Share", "Samsung DeX", "Android Auto"), ""},
		{"Modes and Routines", j("Modes", "Routines"), ""},
		{"Sounds and vibration", j("Sound mode", "Ringtone"), ""},
		{"Notifications", j("Status bar", "Do not disturb"), ""},
		{"Display", j("Brightness", "Eye comfort shield", "Navigation bar"), pageDisplay},
		{"Battery", j("Power saving", "Charging"), ""},
		{"Wallpaper and style", j("Wallpapers", "Colour palette"), ""},
		{"Themes", j("Themes", "Wallpapers", "Icons"), ""},
		{"Home screen", j("Layout", "App icon badges"), ""},
		{"Lock screen", j("Screen lock type", "Always On Display"), ""},
		{"Security and privacy", j("Biometrics", "Permission manager"), ""},
		{"Location", "Location requests", ""},
		{"Safety and emergency", j("Medical info", "Wireless emergency alerts"), ""},
		{"Accounts and backup", j("Manage accounts", "Smart Switch"), ""},
		{"Google", "Google services", ""},
		{"Advanced features", j("Android Auto", "Labs", "Side button"), ""},
		{"Digital Wellbeing and parental controls", j("Screen time", "App timers"), ""},
		{"Device care", j("Storage", "Memory", "App protection"), pageDeviceCare},
		{"Apps", j("Default apps", "App settings"), ""},
		{"General management", j("Language and keyboard", "Date and time"), ""},
		{"Accessibility", j("TalkBack", "Mono audio", "Assistant menu"), ""},
		{"Software update", j("Download and install"), ""},
		{"Tips and user manual", j("What's new", "Smart ideas"), ""},
		{"About phone", j("Status", "Legal information", "Phone name"), pageAbout},
	}
	p.homeRows(b, rows)
	b.endList(li)
}

// layoutOneUILauncher is One UI's home screen as
// rentacar-samsung-launcher-home.xml shows it: the workspace page
// described "Home screen Page 1 of 1." holding an icon_container per app
// (a clickable FrameLayout described by the app's name, its label in the
// TextView icon inside, which takes no tap of its own), the page
// indicator below and the hotseat. The simulator keeps its clock widget
// above the icons; Messages and Contacts sit in the hotseat.
func (p *Phone) layoutOneUILauncher(b *builder) {
	w, h := b.s.w, b.s.h
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "home_screen", full: uitree.Bounds{X2: w, Y2: h}})
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "workspace_pot_view", depth: 2, full: uitree.Bounds{X2: w, Y2: h}})
	page := uitree.Bounds{X1: 41, Y1: 0, X2: w - 41, Y2: h - 410}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", desc: "Home screen Page 1 of 1.", depth: 3, full: page})
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "wsCellLayout", depth: 4, full: uitree.Bounds{X1: 41, Y1: 126, X2: w - 41, Y2: h - 573}})
	b.add(widget{kind: kBigText, text: b.s.clock, id: "clock", depth: 5, full: uitree.Bounds{X1: 0, Y1: 260, X2: w, Y2: 480}})
	var hotseat []appInfo
	col, y := 0, 640
	cellW := (w - 82) / 4
	for _, a := range apps {
		if !a.Launcher {
			continue
		}
		if oneuiHotseat[a.Name] {
			hotseat = append(hotseat, a)
			continue
		}
		x1 := 41 + col*cellW
		p.oneuiIcon(b, a, 5, uitree.Bounds{X1: x1, Y1: y, X2: x1 + cellW, Y2: y + 300})
		col++
		if col == 4 {
			col, y = 0, y+330
		}
	}
	ind := uitree.Bounds{X1: 0, Y1: h - 558, X2: w, Y2: h - 468}
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: "workspace_page_indicator", depth: 3, full: ind})
	b.add(widget{kind: kDot, class: "android.widget.FrameLayout", desc: "Page 1 of 1. ", clickable: true, depth: 4,
		full: uitree.Bounds{X1: w/2 - 25, Y1: ind.Y1 + 20, X2: w/2 + 25, Y2: ind.Y2 - 20}, tap: func() {}})
	seat := uitree.Bounds{X1: 0, Y1: h - 468, X2: w, Y2: h}
	b.add(widget{kind: kHidden, class: "android.widget.RelativeLayout", id: "hotseat_container", depth: 2, full: seat})
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "hotseat_layout", depth: 3, full: uitree.Bounds{X1: 39, Y1: seat.Y1, X2: w - 39, Y2: min(seat.Y1+273, h)}})
	for i, a := range hotseat {
		x1 := 39 + i*(w-78)/len(hotseat)
		p.oneuiIcon(b, a, 4, uitree.Bounds{X1: x1, Y1: seat.Y1, X2: x1 + (w-78)/len(hotseat), Y2: min(seat.Y1+273, h)})
	}
}

// oneuiHotseat are the apps a Samsung phone keeps in the hotseat below
// the page, as the dump's Phone and Messages, rather than on it.
var oneuiHotseat = map[string]bool{"Messages": true, "Contacts": true}

// oneuiIcon is a One UI launcher icon: the clickable icon_container
// described by the app's name, holding the TextView icon that shows it.
func (p *Phone) oneuiIcon(b *builder, a appInfo, depth int, at uitree.Bounds) {
	pkg, label := a.Package, p.appLabel(a.Name)
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", desc: label, id: "icon_container", clickable: true, depth: depth,
		full: at, tap: func() { p.launch(pkg) }})
	b.add(widget{kind: kIcon, text: label, id: "icon", color: a.Color, depth: depth + 1, full: at})
}
