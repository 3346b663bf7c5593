package phonesim

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's screens are compared with real dumps of the screens
// they follow (testdata/real/SOURCES.md) on what checks read: where a
// label, a summary and a switch sit, their classes, resource ids and
// string forms.

func pixelPhone() *Phone { return New(Config{Skin: SkinPixel}) }

// realDump parses one of testdata/real's dumps.
func realDump(t *testing.T, name string) []uitree.Element {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	es, err := uitree.ParseXML(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return es
}

// simDump is the phone's tree as `uiautomator dump` writes it, parsed
// back.
func simDump(t *testing.T, p *Phone) []uitree.Element {
	t.Helper()
	out := sh(t, p, "uiautomator dump /dev/tty")
	xml, _, ok := strings.Cut(out, "\nUI hierchary dumped to: /dev/tty")
	if !ok {
		t.Fatalf("uiautomator dump: %q", out)
	}
	es, err := uitree.ParseXML([]byte(xml))
	if err != nil {
		t.Fatalf("the simulator's dump does not parse: %v", err)
	}
	return es
}

// find is the first element with the text (or, when text is "", the
// resource id and content description given).
func find(t *testing.T, es []uitree.Element, where string, match func(uitree.Element) bool) int {
	t.Helper()
	for i, e := range es {
		if match(e) {
			return i
		}
	}
	t.Fatalf("%s: no such element", where)
	return -1
}

// tapUp taps the toolbar's Navigate up, found by its description.
func tapUp(t *testing.T, p *Phone) {
	t.Helper()
	for _, e := range p.UITree() {
		if e.Desc == "Navigate up" {
			x, y := e.Bounds.Center()
			sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
			return
		}
	}
	t.Fatal("no Navigate up on screen")
}

func byText(s string) func(uitree.Element) bool {
	return func(e uitree.Element) bool { return e.Text == s }
}

// switchRow is what a check reads off a switch preference row.
type switchRow struct {
	TitleID, TitleParent, Row                     string
	RowClickable, SummaryBeside                   bool
	SwitchClass, SwitchID, SwitchText, SwitchHome string
	SwitchCheckable, SwitchClickable              bool
	SwitchRightOfTitle                            bool
}

// switchRowOf reads the row whose title is title: the title's parent,
// the row above it, the summary in the same parent and the switch in the
// row's widget frame.
func switchRowOf(t *testing.T, es []uitree.Element, title string) switchRow {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "title "+title, byText(title))
	box := par[ti]
	row := par[box]
	r := switchRow{TitleID: es[ti].ResourceID, TitleParent: es[box].ShortClass(), Row: es[row].ShortClass(), RowClickable: es[row].Clickable}
	for j := box + 1; j < uitree.SubtreeEnd(es, box); j++ {
		if par[j] == box && es[j].ResourceID == "android:id/summary" && es[j].Bounds.Y1 >= es[ti].Bounds.Y1 {
			r.SummaryBeside = true
		}
	}
	for j := row + 1; j < uitree.SubtreeEnd(es, row); j++ {
		if e := es[j]; e.ShortClass() == "Switch" {
			r.SwitchClass, r.SwitchID, r.SwitchText = e.Class, e.ResourceID, e.Text
			r.SwitchHome = es[par[j]].ResourceID
			r.SwitchCheckable, r.SwitchClickable = e.Checkable, e.Clickable
			r.SwitchRightOfTitle = e.Bounds.X1 > es[ti].Bounds.X2
		}
	}
	return r
}

func TestPixelSwitchRowsAreTheRealOnes(t *testing.T) {
	want := switchRowOf(t, realDump(t, "siteblocker-settings-developer-options.xml"), "USB debugging")
	if want.SwitchText != "" || want.SwitchClickable || !want.RowClickable {
		t.Fatalf("the real row reads %+v; the comparison is off", want)
	}
	p := pixelPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Network & internet")
	if got := switchRowOf(t, simDump(t, p), "Airplane mode"); got != (switchRow{
		TitleID: want.TitleID, TitleParent: want.TitleParent, Row: want.Row, RowClickable: true,
		SwitchClass: want.SwitchClass, SwitchID: want.SwitchID, SwitchHome: want.SwitchHome,
		SwitchCheckable: true, SwitchRightOfTitle: true,
	}) {
		t.Errorf("Airplane mode row = %+v\nthe real USB debugging row = %+v", got, want)
	}
	tapUp(t, p)
	tapOn(t, p, "Display")
	got := switchRowOf(t, simDump(t, p), "Adaptive brightness")
	if got != want {
		t.Errorf("Adaptive brightness row = %+v\nthe real USB debugging row = %+v", got, want)
	}
}

// mainBar is what a check reads off a main switch bar.
type mainBar struct {
	TextID, TextClass, Frame, Bar        string
	BarClickable                         bool
	SwitchID, SwitchText                 string
	SwitchCheckable, SwitchBesideTheText bool
}

func mainBarOf(t *testing.T, es []uitree.Element, label string) mainBar {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "switch text "+label, byText(label))
	frame := par[ti]
	bar := par[par[frame]]
	m := mainBar{TextID: es[ti].ResourceID, TextClass: es[ti].Class, Frame: es[frame].ResourceID, Bar: es[bar].ResourceID, BarClickable: es[bar].Clickable}
	for j := frame + 1; j < uitree.SubtreeEnd(es, frame); j++ {
		if e := es[j]; par[j] == frame && e.ShortClass() == "Switch" {
			m.SwitchID, m.SwitchText, m.SwitchCheckable = e.ResourceID, e.Text, e.Checkable
			m.SwitchBesideTheText = e.Bounds.X1 >= es[ti].Bounds.X2 && e.Bounds.Y1 < es[ti].Bounds.Y2 && e.Bounds.Y2 > es[ti].Bounds.Y1
		}
	}
	return m
}

func TestPixelMainSwitchBarsAreTheRealOne(t *testing.T) {
	real := realDump(t, "hubfam-settings-wireless-debugging.xml")
	want := mainBarOf(t, real, "Use wireless debugging")
	if want.Bar != "com.android.settings:id/switch_bar" || want.SwitchText != "" {
		t.Fatalf("the real bar reads %+v; the comparison is off", want)
	}
	p := pixelPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Network & internet")
	tapOn(t, p, "Internet")
	es := simDump(t, p)
	if got := mainBarOf(t, es, "Use Wi\u2011Fi"); got != want {
		t.Errorf("Use Wi‑Fi bar = %+v\nthe real one = %+v", got, want)
	}
	// The toolbar: described by the page's title, Navigate up inside.
	for _, dump := range []struct {
		name  string
		es    []uitree.Element
		title string
	}{{"real", real, "Wireless debugging"}, {"sim", es, "Internet"}} {
		par := uitree.Parents(dump.es)
		bar := find(t, dump.es, dump.name+" collapsing_toolbar", func(e uitree.Element) bool {
			return e.ResourceID == "com.android.settings:id/collapsing_toolbar"
		})
		if dump.es[bar].Desc != dump.title || dump.es[bar].ShortClass() != "FrameLayout" {
			t.Errorf("%s toolbar = %+v, want a FrameLayout described %q", dump.name, dump.es[bar], dump.title)
		}
		up := find(t, dump.es, dump.name+" Navigate up", func(e uitree.Element) bool { return e.Desc == "Navigate up" })
		if !dump.es[up].Clickable || dump.es[up].ShortClass() != "ImageButton" || par[par[up]] != bar {
			t.Errorf("%s Navigate up = %+v, want a clickable ImageButton in the toolbar's action bar", dump.name, dump.es[up])
		}
	}
	sim := pixelPhone()
	launch(t, sim, pkgSettings)
	tapOn(t, sim, "Connected devices")
	tapOn(t, sim, "Connection preferences")
	tapOn(t, sim, "Bluetooth")
	got := mainBarOf(t, simDump(t, sim), "Use Bluetooth")
	if got != want {
		t.Errorf("Use Bluetooth bar = %+v\nthe real one = %+v", got, want)
	}
}

// iconRow is what a check reads off a row with an icon, a title and a
// summary.
type iconRow struct {
	Row, IconFrame, Icon, TextBox, TitleID, SummaryID string
	RowClickable                                      bool
}

func iconRowOf(t *testing.T, es []uitree.Element, title string) iconRow {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "row "+title, byText(title))
	box, row := par[ti], par[par[ti]]
	r := iconRow{Row: es[row].ShortClass(), TextBox: es[box].ShortClass(), TitleID: es[ti].ResourceID, RowClickable: es[row].Clickable}
	for j := row + 1; j < uitree.SubtreeEnd(es, row); j++ {
		switch e := es[j]; {
		case par[j] == row && strings.HasSuffix(e.ResourceID, ":id/icon_frame"):
			r.IconFrame = e.ResourceID
		case e.ResourceID == "android:id/icon":
			r.Icon = e.ShortClass()
		case par[j] == box && e.ResourceID == "android:id/summary":
			r.SummaryID = e.ResourceID
		}
	}
	return r
}

func TestPixelMainListRowsAreTheRealOnes(t *testing.T) {
	want := iconRowOf(t, realDump(t, "hubfam-settings-wireless-debugging.xml"), "Pair device with QR code")
	p := pixelPhone()
	launch(t, p, pkgSettings)
	es := simDump(t, p)
	for _, title := range []string{"Network & internet", "Connected devices", "Display"} {
		if got := iconRowOf(t, es, title); got != want {
			t.Errorf("%s row = %+v\nthe real row = %+v", title, got, want)
		}
	}
	// Summaries as Settings writes them: Wi‑Fi with U+2011, as the real
	// developer options write it.
	real := realDump(t, "siteblocker-settings-developer-options.xml")
	find(t, real, "real U+2011", byText("Debug mode when Wi\u2011Fi is connected"))
	find(t, es, "the Network & internet summary", func(e uitree.Element) bool {
		return e.Text == "Mobile, Wi\u2011Fi, hotspot" && e.ResourceID == "android:id/summary"
	})
	for _, e := range es {
		if strings.Contains(e.Text, "Wi-Fi") {
			t.Errorf("%q is written with an ASCII hyphen; Settings writes Wi\u2011Fi", e.Text)
		}
	}
}

// tile is what a check reads off a Quick Settings tile.
type tile struct {
	Class, Text, Desc        string
	Checkable, Checked, Tap  bool
	Label, State, LabelsHome string
}

func tileOf(t *testing.T, es []uitree.Element, label string) tile {
	t.Helper()
	par := uitree.Parents(es)
	li := find(t, es, "tile label "+label, func(e uitree.Element) bool {
		return e.Text == label && e.ResourceID == "com.android.systemui:id/tile_label"
	})
	ti := par[par[li]]
	e := es[ti]
	tl := tile{Class: e.Class, Text: e.Text, Desc: e.Desc, Checkable: e.Checkable, Checked: e.Checked, Tap: e.Clickable,
		Label: es[li].Text, LabelsHome: es[par[li]].ShortClass()}
	for j := li + 1; j < uitree.SubtreeEnd(es, par[li]); j++ {
		if es[j].ResourceID == "com.android.systemui:id/app_label" {
			tl.State = es[j].Text
		}
	}
	return tl
}

// slider is what a check reads off the brightness slider.
type slider struct {
	Frame, FrameDesc, SeekBar, SeekBarText, SeekBarID string
}

func sliderOf(t *testing.T, es []uitree.Element) slider {
	t.Helper()
	par := uitree.Parents(es)
	si := find(t, es, "SeekBar", func(e uitree.Element) bool { return e.ShortClass() == "SeekBar" })
	f := es[par[si]]
	return slider{Frame: f.ResourceID, FrameDesc: f.Desc, SeekBar: es[si].Class, SeekBarText: es[si].Text, SeekBarID: es[si].ResourceID}
}

func TestPixelQuickSettingsAreTheRealOnes(t *testing.T) {
	real := realDump(t, "seniorshield-systemui-quicksettings-en.xml")
	p := pixelPhone()
	sh(t, p, "settings put global bluetooth_on 1") // the real shade shows Bluetooth on
	sh(t, p, "input swipe 540 20 540 1200 300")
	if !p.State().Shade {
		t.Fatal("a swipe down from the status bar did not open the shade")
	}
	es := simDump(t, p)
	for _, label := range []string{"Internet", "Bluetooth", "Flashlight", "Airplane mode"} {
		if got, want := tileOf(t, es, label), tileOf(t, real, label); got != want {
			t.Errorf("%s tile = %+v\nthe real one = %+v", label, got, want)
		}
	}
	want := sliderOf(t, real)
	if got := sliderOf(t, es); got != want {
		t.Errorf("slider = %+v\nthe real one = %+v", got, want)
	}
	// The Chinese Android 13 shade has the same shape.
	zh := realDump(t, "keydroidx-systemui-quicksettings-zh.xml")
	if z := sliderOf(t, zh); z.Frame != want.Frame || z.SeekBarID != want.SeekBarID || z.FrameDesc != z.SeekBarText {
		t.Errorf("zh slider = %+v", z)
	}
	if bt := tileOf(t, zh, "蓝牙"); bt.Class != "android.widget.Switch" || bt.State != "已关闭" || bt.Checked || bt.LabelsHome != "LinearLayout" {
		t.Errorf("zh Bluetooth tile = %+v", bt)
	}
	// The shade's window has the focus: the dump holds it alone.
	for _, e := range es {
		if e.Package != pkgSystemUI {
			t.Fatalf("%+v in the dump of the shade; only SystemUI's window should be there", e)
		}
	}
	if out := sh(t, p, "dumpsys window"); !strings.Contains(out, "mCurrentFocus=Window{") || !strings.Contains(out, " u0 NotificationShade}") {
		t.Errorf("dumpsys window with the shade open:\n%s", out)
	}
}

func TestPixelDisplaySeekBar(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Display")
	es := simDump(t, p)
	par := uitree.Parents(es)
	title := find(t, es, "Brightness level", byText("Brightness level"))
	bar := find(t, es, "SeekBar", func(e uitree.Element) bool { return e.ShortClass() == "SeekBar" })
	if es[bar].Class != "android.widget.SeekBar" || es[bar].ResourceID != "com.android.settings:id/seekbar" || par[bar] != par[title] {
		t.Errorf("SeekBar %+v is not the row's, beside its title %+v", es[bar], es[title])
	}
	if s := es[title+1]; s.ResourceID != "android:id/summary" || s.Text != "50%" {
		t.Errorf("summary below Brightness level = %+v, want 50%%", s)
	}
}

func TestPixelWiFiMainSwitchTurnsWiFiOff(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Network & internet")
	if s := element(t, p, "AndroidWifi"); s.ResourceID != "android:id/summary" {
		t.Errorf("Internet's summary = %+v, want the network", s)
	}
	tapOn(t, p, "Internet")
	if st := p.State(); st.Screen.Page != pageInternet || !element(t, p, "switch_widget").Checked {
		t.Fatalf("on %q, the switch %+v; want the Internet page, Wi‑Fi on", st.Screen.Page, element(t, p, "switch_widget"))
	}
	tapOn(t, p, "Use Wi\u2011Fi") // the bar takes the tap, its text included
	if p.State().Toggles.WiFi || element(t, p, "switch_widget").Checked {
		t.Fatal("Wi‑Fi still on after a tap on the main switch bar")
	}
	if got := sh(t, p, "settings get global wifi_on"); got != "0\n" {
		t.Errorf("settings get global wifi_on = %q, want 0", got)
	}
	element(t, p, "To see available networks, turn Wi\u2011Fi on")
	tapOn(t, p, "switch_widget")
	if !p.State().Toggles.WiFi {
		t.Fatal("Wi‑Fi off after a tap on the switch itself")
	}
	// Up and back lead to the pages below.
	tapUp(t, p)
	if pg := p.State().Screen.Page; pg != pageNetwork {
		t.Fatalf("Navigate up: on %q, want %q", pg, pageNetwork)
	}
	tapOn(t, p, "Airplane mode")
	if tg := p.State().Toggles; !tg.Airplane || tg.WiFi || tg.Bluetooth {
		t.Fatalf("airplane mode row: %+v, want airplane on and the radios off", tg)
	}
	sh(t, p, "input keyevent 4")
	if pg := p.State().Screen.Page; pg != pageList {
		t.Fatalf("back: on %q, want the main list", pg)
	}
}

func TestPixelBluetoothMainSwitch(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Connected devices")
	tapOn(t, p, "Connection preferences")
	if s := p.UITree(); !strings.Contains(fmt.Sprint(s), "Off") {
		t.Fatalf("Bluetooth's summary does not say Off: %v", s)
	}
	tapOn(t, p, "Bluetooth")
	tapOn(t, p, "switch_bar")
	if !p.State().Toggles.Bluetooth || !element(t, p, "switch_widget").Checked {
		t.Fatal("Bluetooth not on after a tap on Use Bluetooth")
	}
	if got := sh(t, p, "settings get global bluetooth_on"); got != "1\n" {
		t.Errorf("settings get global bluetooth_on = %q", got)
	}
	sh(t, p, "input keyevent 4")
	row := element(t, p, "Bluetooth")
	var summary string
	for _, e := range p.UITree() {
		if e.ResourceID == "android:id/summary" && e.Bounds.Y1 >= row.Bounds.Y1 && e.Bounds.Y1 < row.Bounds.Y2+60 {
			summary = e.Text
			break
		}
	}
	if summary != "On" {
		t.Errorf("Bluetooth's summary = %q, want On", summary)
	}
}

// A drag on the slider sets the level from where the finger ends; a tap
// moves the thumb to the tap; `settings` follows.
func TestPixelSlidersSetBrightness(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgSettings)
	tapOn(t, p, "Display")
	bar := element(t, p, "seekbar")
	y := (bar.Bounds.Y1 + bar.Bounds.Y2) / 2
	at := func(pct int) int { return bar.Bounds.X1 + (bar.Bounds.X2-bar.Bounds.X1)*pct/100 }
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", at(50), y, at(80), y))
	if b := p.State().Brightness; b != 80 {
		t.Fatalf("after a drag to 80%%: brightness %d", b)
	}
	if got := sh(t, p, "settings get system screen_brightness"); got != "204\n" {
		t.Errorf("settings get system screen_brightness = %q, want 204", got)
	}
	element(t, p, "80%")
	sh(t, p, fmt.Sprintf("input tap %d %d", at(25), y))
	if b := p.State().Brightness; b != 25 {
		t.Fatalf("after a tap at 25%%: brightness %d", b)
	}
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", at(25), y, bar.Bounds.X2+200, y))
	if b := p.State().Brightness; b != 100 {
		t.Fatalf("after a drag past the end: brightness %d", b)
	}
	tapOn(t, p, "Adaptive brightness")
	if got := sh(t, p, "settings get system screen_brightness_mode"); got != "1\n" || !p.State().Toggles.AdaptiveBrightness {
		t.Errorf("adaptive brightness: settings says %q, state %+v", got, p.State().Toggles)
	}

	sh(t, p, "cmd statusbar expand-settings")
	qs := element(t, p, qsBrightness)
	qy := (qs.Bounds.Y1 + qs.Bounds.Y2) / 2
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 300", qs.Bounds.X2-10, qy, qs.Bounds.X1+(qs.Bounds.X2-qs.Bounds.X1)*3/10, qy))
	if b := p.State().Brightness; b != 30 || !p.State().Shade {
		t.Fatalf("after the shade's slider to 30%%: brightness %d, shade %t", b, p.State().Shade)
	}
}

func TestPixelQuickSettingsTiles(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgSettings)
	if out := sh(t, p, "cmd statusbar expand-settings"); out != "" {
		t.Fatalf("cmd statusbar expand-settings: %q", out)
	}
	tapOn(t, p, "Bluetooth, Off")
	if !p.State().Toggles.Bluetooth {
		t.Fatal("the Bluetooth tile did not turn Bluetooth on")
	}
	if bt := element(t, p, "Bluetooth, On"); !bt.Checked || bt.Desc != "Bluetooth." {
		t.Errorf("Bluetooth tile after the tap = %+v", bt)
	}
	tapOn(t, p, "Flashlight, Off")
	element(t, p, "Flashlight, On")
	tapOn(t, p, "Internet, AndroidWifi")
	if it := element(t, p, "Internet, Off"); it.Checked || p.State().Toggles.WiFi {
		t.Errorf("Internet tile after the tap = %+v", it)
	}
	// A tap between the tiles reaches nothing under the shade.
	sh(t, p, "input tap 540 2000")
	if st := p.State(); st.Screen.Page != pageList || !st.Shade {
		t.Fatalf("a tap on the shade's empty part: %+v", st.Screen)
	}
	sh(t, p, "input keyevent 4")
	if p.State().Shade {
		t.Fatal("back did not close the shade")
	}
	element(t, p, "Network & internet")
	sh(t, p, "input swipe 540 20 540 1200 300")
	sh(t, p, "input swipe 540 1800 540 600 300")
	if p.State().Shade {
		t.Fatal("a swipe up did not close the shade")
	}
	sh(t, p, "cmd statusbar expand-settings")
	sh(t, p, "cmd statusbar collapse")
	if p.State().Shade {
		t.Fatal("cmd statusbar collapse did not close the shade")
	}
}

// Every Pixel screen draws, and its tree says what it draws.
func TestPixelScreensDraw(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgSettings)
	shot := func(what string) []byte {
		b, ok, err := p.Screenshot()
		if err != nil || !ok || len(b) == 0 {
			t.Fatalf("%s: screenshot %v %v", what, ok, err)
		}
		return b
	}
	home := shot("main list")
	for _, path := range [][]string{
		{"Network & internet", "Internet"}, {"Network & internet", sectionTethering}, {"Connected devices", "Connection preferences", "Bluetooth"},
		{"Display"}, {"About phone"}, {"Apps"},
	} {
		launch(t, p, pkgSettings)
		for _, step := range path {
			if step == "About phone" {
				sh(t, p, "input swipe 540 2000 540 300 300")
				sh(t, p, "input swipe 540 2000 540 300 300")
			}
			tapOn(t, p, step)
		}
		if string(shot(path[len(path)-1])) == string(home) {
			t.Errorf("%v looks like the main list", path)
		}
	}
	element(t, p, "Nothing to change here.")
	launch(t, p, pkgSettings)
	sh(t, p, "input swipe 540 2000 540 300 300")
	sh(t, p, "input swipe 540 2000 540 300 300")
	tapOn(t, p, "About phone")
	element(t, p, AndroidVersion)
	element(t, p, "Android version")
	sh(t, p, "cmd statusbar expand-settings")
	shot("shade")
}

// The classic skin stays as it was: no shade, no `cmd`, the flat page.
func TestClassicSkinHasNoShade(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgSettings)
	if out := sh(t, p, "cmd statusbar expand-settings"); !strings.Contains(out, "inaccessible or not found") {
		t.Errorf("cmd under the classic skin: %q", out)
	}
	sh(t, p, "input swipe 540 20 540 1200 300")
	if p.State().Shade {
		t.Fatal("the classic skin opened a shade")
	}
	element(t, p, "wifi_switch")
	for _, name := range []string{"", "classic", "pixel"} {
		if _, err := ParseSkin(name); err != nil {
			t.Errorf("ParseSkin(%q): %v", name, err)
		}
	}
	if _, err := ParseSkin("material"); err == nil || !strings.Contains(err.Error(), "pixel") {
		t.Errorf("ParseSkin(material) = %v, want an error naming the skins", err)
	}
}

// Every section a goal may ask for by its classic name is a row of the
// Pixel main list, and the screen SectionScreen names is the one that row
// opens.
func TestPixelSectionScreens(t *testing.T) {
	p := pixelPhone()
	rows := map[string]string{}
	for _, r := range p.pixelHomeRows() {
		rows[r.title] = r.page
	}
	for _, s := range SettingsSections() {
		want := SectionScreen(SkinPixel, s)
		title := want.Detail
		if want.Page == pageDisplay {
			title = "Display"
		}
		page, ok := rows[title]
		if !ok {
			t.Errorf("section %q: the Pixel main list has no row %q", s, title)
			continue
		}
		if page == "" {
			page = pageSection
		}
		if page != want.Page {
			t.Errorf("section %q: row %q opens page %q, SectionScreen says %q", s, title, page, want.Page)
		}
		if c := SectionScreen(SkinClassic, s); c.Page != pageSection || c.Detail != s {
			t.Errorf("classic section %q: %+v", s, c)
		}
	}
	if st := p.State(); st.Skin != SkinPixel {
		t.Errorf("State().Skin = %q, want pixel", st.Skin)
	}
}

// The Pixel's About phone shows the release the phone was given, as getprop
// reports it, not the simulator's default.
func TestPixelAboutPhoneShowsTheSetRelease(t *testing.T) {
	p := New(Config{Serial: "emu-1", Skin: SkinPixel})
	p.SetAndroidVersion("15")
	launch(t, p, pkgSettings)
	sh(t, p, "input swipe 540 2000 540 300 300")
	sh(t, p, "input swipe 540 2000 540 300 300")
	tapOn(t, p, "About phone")
	found := false
	for _, e := range p.UITree() {
		if e.Text == "15" {
			found = true
		}
		if e.Text == AndroidVersion {
			t.Errorf("About phone shows the default release %q", e.Text)
		}
	}
	if !found {
		t.Fatal("About phone does not show the phone's release 15")
	}
}
