package phonesim

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// shade is the Pixel skin's Quick Settings shade (docs/phones.md#skins):
// pulled down from the status bar, or opened by `cmd statusbar
// expand-settings`, over whatever app is in front.
type shade struct {
	open bool
}

// Quick Settings' geometry and ids, as
// seniorshield-systemui-quicksettings-en.xml (a 1080x2400 emulator at
// 420 dpi, Android 14) lays them out.
const (
	qsSliderY = 357
	qsSliderH = 126
	qsTilesY  = 525
	qsTileH   = 210
	qsTileGap = 21

	idQSSlider     = pkgSystemUI + ":id/brightness_slider"
	idQSSeekBar    = pkgSystemUI + ":id/slider"
	idQSTileLabel  = pkgSystemUI + ":id/tile_label"
	idQSTileState  = pkgSystemUI + ":id/app_label"
	shadeWindow    = "NotificationShade"
	qsBrightness   = "Display brightness"
	shadeOpenSwipe = 240 // how far down from the status bar a swipe pulls the shade open
)

// qsTile is one tile: its label, what its second line says, the content
// description SystemUI gives it and what a tap does.
type qsTile struct {
	label, state, desc string
	text               string // the Switch's own text; "" is "label, state"
	on                 bool
	tap                func()
}

func (p *Phone) qsTiles() []qsTile {
	t := &p.st.Toggles
	internet := "Off"
	if t.WiFi {
		internet = pixelWiFiName
	}
	switch p.cfg.Skin {
	case SkinMIUI:
		return p.miuiTiles()
	case SkinOneUI:
		return p.oneuiTiles()
	}
	return []qsTile{
		// The real Internet tile opens a dialog listing the networks; a
		// tap here turns Wi‑Fi on or off at once.
		{label: "Internet", state: internet, desc: "Internet," + internet, on: t.WiFi, tap: p.flipWiFi},
		{label: "Bluetooth", state: onOff(t.Bluetooth), desc: "Bluetooth.", on: t.Bluetooth, tap: p.flipBluetooth},
		{label: "Flashlight", state: onOff(t.Flashlight), desc: "Flashlight", on: t.Flashlight, tap: func() { t.Flashlight = !t.Flashlight }},
		{label: "Airplane mode", state: onOff(t.Airplane), desc: "Airplane mode", on: t.Airplane, tap: p.flipAirplane},
	}
}

// miuiTiles are MIUI's control centre tiles, in Chinese. No dump of
// MIUI's control centre was found; the tiles take the shape of
// keydroidx-systemui-quicksettings-zh.xml, Android's own Chinese Quick
// Settings: the Switch's text is the state word (开启, 关闭), its
// content-desc the label and a full stop ("蓝牙。"), tile_label the
// label and app_label 已开启 or 已关闭.
func (p *Phone) miuiTiles() []qsTile {
	t := &p.st.Toggles
	tile := func(label string, on bool, tap func()) qsTile {
		word := "关闭"
		if on {
			word = "开启"
		}
		return qsTile{label: label, state: miuiState(on), desc: label + "。", text: word, on: on, tap: tap}
	}
	return []qsTile{
		tile("WLAN", t.WiFi, p.flipWiFi),
		tile("蓝牙", t.Bluetooth, p.flipBluetooth),
		tile("手电筒", t.Flashlight, func() { t.Flashlight = !t.Flashlight }),
		tile("飞行模式", t.Airplane, p.flipAirplane),
	}
}

// oneuiTiles are One UI's quick panel tiles, in the shape of
// seniorshield-systemui-quicksettings-en.xml (no One UI panel dump was
// found), with Samsung's names: Wi-Fi, Torch, Flight mode.
func (p *Phone) oneuiTiles() []qsTile {
	t := &p.st.Toggles
	return []qsTile{
		{label: oneuiWiFi, state: onOffWord(t.WiFi), desc: oneuiWiFi + "," + p.wifiName("Off"), on: t.WiFi, tap: p.flipWiFi},
		{label: "Bluetooth", state: onOffWord(t.Bluetooth), desc: "Bluetooth.", on: t.Bluetooth, tap: p.flipBluetooth},
		{label: "Torch", state: onOffWord(t.Flashlight), desc: "Torch", on: t.Flashlight, tap: func() { t.Flashlight = !t.Flashlight }},
		{label: "Flight mode", state: onOffWord(t.Airplane), desc: "Flight mode", on: t.Airplane, tap: p.flipAirplane},
	}
}

// layoutShade adds the shade's window over the app: it has the focus, so
// a UI dump holds it alone, as uiautomator dumps the NotificationShade
// window. The tree follows seniorshield-systemui-quicksettings-en.xml:
// the brightness_slider frame described "Display brightness" holding a
// SeekBar whose text says so, and tiles that are Switches whose text is
// "label, state" and whose children hold the label (tile_label) and the
// state (app_label) apart.
func (p *Phone) layoutShade(b *builder) {
	w, h := b.s.w, b.s.h
	b.s.treeFrom = len(b.s.widgets)
	full := uitree.Bounds{X2: w, Y2: h}
	// The scrim behind the panel takes the taps that miss a tile.
	b.add(widget{kind: kHidden, class: "android.view.View", id: "scrim_behind", pkg: pkgSystemUI, clickable: true, full: full, tap: func() {}})
	b.add(widget{kind: kPanel, class: "android.widget.FrameLayout", id: "notification_panel", pkg: pkgSystemUI, full: full})
	x1, x2 := 42, w-42
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "quick_settings_panel", pkg: pkgSystemUI, depth: 2,
		full: uitree.Bounds{X1: x1, Y1: 126, X2: x2, Y2: h - 600}})
	slider := uitree.Bounds{X1: x1, Y1: qsSliderY, X2: x2, Y2: qsSliderY + qsSliderH}
	b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", desc: qsBrightness, id: idQSSlider, pkg: pkgSystemUI, depth: 3, full: slider})
	st := &p.st
	b.add(widget{kind: kSlider, class: "android.widget.SeekBar", text: qsBrightness, id: idQSSeekBar, pkg: pkgSystemUI, depth: 4, full: slider,
		level: st.Brightness, drag: sliderDrag(slider.X1, slider.X2, func(lv int) { st.Brightness = lv })})
	b.add(widget{kind: kHidden, class: "androidx.viewpager.widget.ViewPager", id: "qs_pager", pkg: pkgSystemUI, depth: 3,
		full: uitree.Bounds{X1: x1, Y1: qsTilesY, X2: x2, Y2: qsTilesY + 2*qsTileH + qsTileGap}})
	tw := (x2 - x1 - qsTileGap) / 2
	for i, t := range p.qsTiles() {
		tx := x1 + (i%2)*(tw+qsTileGap)
		ty := qsTilesY + (i/2)*(qsTileH+qsTileGap)
		box := uitree.Bounds{X1: tx, Y1: ty, X2: tx + tw, Y2: ty + qsTileH}
		b.add(widget{kind: kTile, class: "android.widget.Switch", text: cmpOr(t.text, t.label+", "+t.state), drawn: t.label + ", " + t.state, desc: t.desc, pkg: pkgSystemUI, depth: 4,
			checkable: true, checked: t.on, clickable: true, full: box, tap: t.tap})
		b.add(widget{kind: kHidden, class: "android.widget.ImageView", id: "android:id/icon", pkg: pkgSystemUI, depth: 5,
			full: uitree.Bounds{X1: tx + 42, Y1: ty + 78, X2: tx + 95, Y2: ty + 131}})
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", pkg: pkgSystemUI, depth: 5,
			full: uitree.Bounds{X1: tx + 121, Y1: ty + 54, X2: box.X2 - 42, Y2: ty + 156}})
		b.add(widget{kind: kHidden, text: t.label, id: idQSTileLabel, pkg: pkgSystemUI, depth: 6,
			full: uitree.Bounds{X1: tx + 121, Y1: ty + 54, X2: box.X2 - 42, Y2: ty + 105}})
		b.add(widget{kind: kHidden, text: t.state, id: idQSTileState, pkg: pkgSystemUI, depth: 6,
			full: uitree.Bounds{X1: tx + 121, Y1: ty + 105, X2: box.X2 - 42, Y2: ty + 156}})
	}
}

// shadeSwipe handles a swipe under the Pixel skin's shade and reports
// whether it did: from the status bar down it opens the shade; on the
// open shade one that starts on the slider drags it and any other that
// goes up closes the shade.
func (p *Phone) shadeSwipe(s *screen, x1, y1, x2, y2 int) bool {
	if !p.shaded() {
		return false
	}
	if !p.shade.open {
		if y1 < statusBarH && y2-y1 >= shadeOpenSwipe {
			p.shade.open = true
			return true
		}
		return false
	}
	if w, ok := s.dragAt(x1, y1); ok {
		w.drag(x2)
		return true
	}
	if y1-y2 >= 24 {
		p.shade.open = false
	}
	return true
}

// dragAt is the topmost slider under (x, y).
func (s *screen) dragAt(x, y int) (widget, bool) {
	for i := len(s.widgets) - 1; i >= s.treeFrom; i-- {
		if w := s.widgets[i]; w.drag != nil && w.bounds.Contains(x, y) {
			return w, true
		}
	}
	return widget{}, false
}

// cmdCmd is `cmd`, of whose services the phone has the status bar's
// expand-settings, expand-notifications and collapse under the Pixel
// skin; under the classic skin the command is not there, as before.
func (p *Phone) cmdCmd(e *cmdEnv) int {
	if !p.shaded() {
		e.err("/system/bin/sh: %s: inaccessible or not found\n", e.args[0])
		return 127
	}
	args := e.args[1:]
	if len(args) == 0 || args[0] != "statusbar" {
		e.err("cmd: Can't find service: %s\n", strings.Join(args[:min(1, len(args))], ""))
		return 20
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch sub := strings.Join(args[1:], " "); sub {
	case "expand-settings", "expand-notifications":
		p.shade.open = true
	case "collapse":
		p.shade.open = false
	default:
		e.err("Unknown command: %s\nStatus bar commands:\n  expand-notifications\n  expand-settings\n  collapse\n", sub)
		return 255
	}
	return 0
}
