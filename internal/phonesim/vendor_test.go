package phonesim

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"slices"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// vendorRow is what a check reads off a switch row: where the title, the
// row and the switch sit.
type vendorRow struct {
	TitleID, TitleParent, Row string
	RowClickable              bool
	SwitchClass, SwitchID     string
	SwitchText                string
	SwitchCheckable           bool
	SwitchClickable           bool
	SwitchRightOfTitle        bool
}

func vendorRowOf(t *testing.T, es []uitree.Element, title string) vendorRow {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "title "+title, func(e uitree.Element) bool { return e.Text == title && e.ResourceID == "android:id/title" })
	box := par[ti]
	row := par[box]
	r := vendorRow{TitleID: es[ti].ResourceID, TitleParent: es[box].ShortClass(), Row: es[row].ShortClass(), RowClickable: es[row].Clickable}
	for j := row + 1; j < uitree.SubtreeEnd(es, row); j++ {
		if e := es[j]; e.Checkable {
			r.SwitchClass, r.SwitchID, r.SwitchText = e.Class, e.ResourceID, e.Text
			r.SwitchCheckable, r.SwitchClickable = e.Checkable, e.Clickable
			r.SwitchRightOfTitle = e.Bounds.X1 > es[ti].Bounds.X2
		}
	}
	return r
}

// MIUI's switch rows are androidx preference rows (the shape of
// siteblocker-settings-developer-options.xml's "USB debugging": the title
// in a RelativeLayout, the row a clickable LinearLayout, the switch
// without text right of the title and not clickable) whose switch is
// miuix's SlidingButton with MIUI's checkbox id; WLAN, 蓝牙 and 飞行模式
// each have one, and a tap on the row flips the setting.
func TestMIUISwitchRows(t *testing.T) {
	real := switchRowOf(t, realDump(t, "siteblocker-settings-developer-options.xml"), "USB debugging")
	p := New(Config{Skin: SkinMIUI})
	for _, c := range []struct {
		rows  []string
		title string
		state func() bool
	}{
		{[]string{"WLAN"}, "WLAN", func() bool { return p.State().Toggles.WiFi }},
		{[]string{"蓝牙"}, "蓝牙", func() bool { return p.State().Toggles.Bluetooth }},
		{[]string{"连接与共享"}, "飞行模式", func() bool { return p.State().Toggles.Airplane }},
	} {
		launch(t, p, pkgSettings)
		for _, r := range c.rows {
			tapOn(t, p, r)
		}
		es := simDump(t, p)
		got := vendorRowOf(t, es, c.title)
		want := vendorRow{TitleID: real.TitleID, TitleParent: real.TitleParent, Row: real.Row, RowClickable: real.RowClickable,
			SwitchClass: "miuix.slidingwidget.widget.SlidingButton", SwitchID: "android:id/checkbox",
			SwitchCheckable: true, SwitchClickable: false, SwitchRightOfTitle: true}
		if got != want {
			t.Errorf("%s row:\n got %+v\nwant %+v", c.title, got, want)
		}
		before := c.state()
		ti := es[find(t, es, c.title, func(e uitree.Element) bool { return e.Text == c.title && e.ResourceID == "android:id/title" })]
		x, y := ti.Bounds.Center()
		sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
		if c.state() == before {
			t.Errorf("tapping the %s row left it %v", c.title, before)
		}
		if sw := vendorRowOf(t, simDump(t, p), c.title); sw.SwitchClass == "" {
			t.Errorf("%s row lost its switch", c.title)
		}
		sh(t, p, "input keyevent 4")
	}
	// 我的设备 > 全部参数 shows the Android version beside its title.
	launch(t, p, pkgSettings)
	tapOn(t, p, "我的设备")
	tapOn(t, p, "全部参数")
	element(t, p, "Android版本")
	element(t, p, AndroidVersion)
}

// One UI's Connections rows have a Switch of their own, saying On or Off
// in its text: a tap on the Switch flips the setting, a tap on the title
// opens its page, whose switch bar says only On or Off under the page's
// title (oneui_real_test.go holds them to the real Samsung dump). Samsung writes
// Wi-Fi with a plain hyphen (clawperator's capture: "Wi-Fi  •  Bluetooth
// •  SIM manager").
func TestOneUIConnectionsRows(t *testing.T) {
	p := New(Config{Skin: SkinOneUI})
	launch(t, p, pkgSettings)
	if e := element(t, p, "Wi-Fi  \u2022  Bluetooth  \u2022  SIM manager"); e.ResourceID != "android:id/summary" {
		t.Errorf("Connections' summary has id %q", e.ResourceID)
	}
	tapOn(t, p, "Connections")
	for _, title := range []string{"Wi-Fi", "Bluetooth", "Flight mode"} {
		r := vendorRowOf(t, simDump(t, p), title)
		if r.SwitchClass != "android.widget.Switch" || r.SwitchID != "android:id/switch_widget" || r.SwitchText != onOffWord(title == "Wi-Fi") || !r.SwitchRightOfTitle || !r.RowClickable {
			t.Errorf("%s row: %+v", title, r)
		}
	}
	wifiSwitch := func() uitree.Element {
		es := p.UITree()
		ti := find(t, es, "Wi-Fi title", byText("Wi-Fi"))
		for _, e := range es {
			if e.Checkable && e.Bounds.X1 > es[ti].Bounds.X2 && e.Bounds.Y1 < es[ti].Bounds.Y2 && e.Bounds.Y2 > es[ti].Bounds.Y1 {
				return e
			}
		}
		t.Fatal("no switch beside Wi-Fi")
		return uitree.Element{}
	}
	sw := wifiSwitch()
	if !sw.Clickable || !sw.Checked {
		t.Fatalf("Wi-Fi's switch: clickable %v checked %v, want a tap target showing on", sw.Clickable, sw.Checked)
	}
	x, y := sw.Bounds.Center()
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	if p.State().Toggles.WiFi || p.State().Screen.Page != pageConnections {
		t.Fatalf("a tap on Wi-Fi's switch: Wi-Fi %v on page %q, want off on Connections", p.State().Toggles.WiFi, p.State().Screen.Page)
	}
	tapOn(t, p, "Wi-Fi")
	if p.State().Screen.Page != pageWiFi {
		t.Fatalf("a tap on Wi-Fi's title opened %q", p.State().Screen.Page)
	}
	if bar := oneuiBarOf(t, simDump(t, p), "Wi-Fi", "Off"); !bar.SwitchTextIsTitleAndState || !bar.BackgroundClickable {
		t.Errorf("the Wi-Fi page's bar: %+v", bar)
	}
	element(t, p, "collapsing_app_bar")
	tapOn(t, p, "Off")
	if !p.State().Toggles.WiFi {
		t.Error("the Wi-Fi page's bar did not turn Wi-Fi on")
	}
	// About phone > Software information shows the Android version.
	launch(t, p, pkgSettings)
	sh(t, p, "input swipe 540 2000 540 300 300")
	sh(t, p, "input swipe 540 2000 540 300 300")
	sh(t, p, "input swipe 540 2000 540 300 300")
	tapOn(t, p, "About phone")
	tapOn(t, p, "Software information")
	element(t, p, "Android version")
	element(t, p, AndroidVersion)
	// Display's Brightness slider sets the brightness.
	launch(t, p, pkgSettings)
	tapOn(t, p, "Display")
	sb := element(t, p, "seekbar")
	sh(t, p, fmt.Sprintf("input tap %d %d", sb.Bounds.X1+(sb.Bounds.X2-sb.Bounds.X1)/4, (sb.Bounds.Y1+sb.Bounds.Y2)/2))
	if b := p.State().Brightness; b < 20 || b > 30 {
		t.Errorf("a tap a quarter along Brightness set %d%%", b)
	}
}

// MIUI's control centre tiles have the shape of the real Chinese Quick
// Settings dump (keydroidx-systemui-quicksettings-zh.xml): a Switch whose
// text is the state word, its description the label and a full stop, a
// tile_label child; One UI's have seniorshield's ("Bluetooth, On") with
// Samsung's names. A tap flips the setting.
func TestVendorTiles(t *testing.T) {
	realZh := tileOf(t, realDump(t, "keydroidx-systemui-quicksettings-zh.xml"), "蓝牙")
	p := New(Config{Skin: SkinMIUI})
	sh(t, p, "cmd statusbar expand-settings")
	es := simDump(t, p)
	got := tileOf(t, es, "蓝牙")
	if got.Class != realZh.Class || got.Text != "关闭" || got.Desc != "蓝牙。" || !got.Checkable || got.Checked {
		t.Errorf("MIUI 蓝牙 tile %+v, want the real one's shape %+v showing off", got, realZh)
	}
	find(t, es, "WLAN state", func(e uitree.Element) bool { return e.Text == "已开启" && e.ResourceID == idQSTileState })
	tapOn(t, p, "蓝牙")
	if !p.State().Toggles.Bluetooth {
		t.Error("the 蓝牙 tile did not turn Bluetooth on")
	}
	o := New(Config{Skin: SkinOneUI})
	sh(t, o, "cmd statusbar expand-settings")
	for _, label := range []string{"Wi-Fi", "Bluetooth", "Torch", "Flight mode"} {
		tileOf(t, simDump(t, o), label)
	}
	element(t, o, "Flight mode, Off")
	tapOn(t, o, "Flight mode")
	if !o.State().Toggles.Airplane {
		t.Error("the Flight mode tile did not turn airplane mode on")
	}
}

// Every Chinese character the MIUI skin shows is in the embedded CJK font,
// and a screenshot of its main list draws 设置 and 蓝牙 as glyphs, not
// missing-glyph boxes.
func TestMIUIChineseDraws(t *testing.T) {
	set, err := cjkGlyphs()
	if err != nil {
		t.Fatal(err)
	}
	p := New(Config{Skin: SkinMIUI})
	check := func(where string) {
		for _, e := range p.UITree() {
			for _, s := range []string{e.Text, e.Desc} {
				for _, r := range s {
					if _, ok := set.glyphs[r]; r >= 0x2e80 && !ok {
						t.Errorf("%s: %q of %q is not in the CJK font", where, r, s)
					}
				}
			}
		}
	}
	for _, path := range [][]string{{}, {"WLAN"}, {"蓝牙"}, {"连接与共享"}, {"显示"}, {"我的设备"}, {"我的设备", "全部参数"}} {
		launch(t, p, pkgSettings)
		for _, r := range path {
			tapOn(t, p, r)
		}
		check(fmt.Sprint(path))
	}
	launch(t, p, pkgSettings)
	for i := 0; i < 3; i++ {
		check("main list")
		sh(t, p, "input swipe 540 2000 540 300 300")
	}
	sh(t, p, "cmd statusbar expand-settings")
	check("control centre")
	sh(t, p, "cmd statusbar collapse")

	launch(t, p, pkgSettings)
	shot, _, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	inked := func(img image.Image, s string, e uitree.Element) {
		t.Helper()
		_, midY := e.Bounds.Center()
		x := e.Bounds.X1
		a, b := image.Rect(x, midY-24, x+44, midY+24), image.Rect(x+44, midY-24, x+88, midY+24)
		if ink(img, a) < 60 || ink(img, b) < 60 {
			t.Errorf("%s: ink %d and %d where its first two characters are drawn", s, ink(img, a), ink(img, b))
		}
		if same(img, a, img, b.Min) {
			t.Errorf("%s: its first two characters draw the same: missing-glyph boxes", s)
		}
	}
	// The control centre draws each tile's label above its state, though
	// the tile's text says only the state.
	sh(t, p, "cmd statusbar expand-settings")
	shade, _, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	simg, err := png.Decode(bytes.NewReader(shade))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"蓝牙", "飞行模式"} {
		inked(simg, s, p.UITree()[find(t, p.UITree(), s, func(e uitree.Element) bool { return e.Text == s && e.ResourceID == idQSTileLabel })])
	}
	// 飞行模式's last two characters are drawn too: the label, not the
	// two-character state word the tile's text holds.
	e := p.UITree()[find(t, p.UITree(), "飞行模式", func(e uitree.Element) bool { return e.Text == "飞行模式" && e.ResourceID == idQSTileLabel })]
	if _, midY := e.Bounds.Center(); ink(simg, image.Rect(e.Bounds.X1+92, midY-24, e.Bounds.X1+176, midY+24)) < 60 {
		t.Error("the 飞行模式 tile draws no third and fourth character")
	}
	sh(t, p, "cmd statusbar collapse")
	for _, s := range []string{"蓝牙", "我的设备"} {
		inked(img, s, element(t, p, s))
	}
}

// Every section a goal may name by its classic title is a page each skin
// draws: the rows of SectionPath, from the main list (scrolled until the
// row shows), open the screen SectionScreen names, and that page's bar
// is titled by one of the names phones give the section
// (postcond.SectionNames), so a check reading the page by those names
// reads the page the eval's check wants.
func TestSectionScreensOnEverySkin(t *testing.T) {
	for _, skin := range Skins {
		for _, s := range SettingsSections() {
			p := New(Config{Skin: skin})
			launch(t, p, pkgSettings)
			path := SectionPath(skin, s)
			if path[0] != SectionTitle(skin, s) {
				t.Errorf("%s %s: the path %q does not start at the main list's row %q", skin, s, path, SectionTitle(skin, s))
			}
			for _, row := range path {
				for i := 0; i < 6; i++ {
					if _, ok := findElement(p, row); ok {
						break
					}
					sh(t, p, "input swipe 540 2000 540 800 300")
				}
				if _, ok := findElement(p, row); !ok {
					t.Errorf("%s %s: no %q row on %+v", skin, s, row, p.State().Screen)
					break
				}
				tapOn(t, p, row)
			}
			if got, want := p.State().Screen, SectionScreen(skin, s); got != want {
				t.Errorf("%s: %s opened %+v, want %+v", skin, s, got, want)
			}
			titled := ""
			for _, e := range p.UITree() {
				if e.Text != "" && !e.Clickable && e.Bounds.Y2 <= contentTop && slices.Contains(postcond.SectionNames(s), e.Text) {
					titled = e.Text
				}
			}
			if titled == "" {
				t.Errorf("%s: the %s page's bar shows none of %q", skin, s, postcond.SectionNames(s))
			}
		}
	}
}

// A Xiaomi phone's launcher names MIUI's own apps in Chinese (设置, 时钟,
// 短信, 联系人, 便签), and each icon opens its app; the Bank app keeps
// its name.
func TestMIUILauncherLabels(t *testing.T) {
	p := New(Config{Skin: SkinMIUI})
	for label, pkg := range map[string]string{"设置": pkgSettings, "时钟": pkgClock, "短信": pkgMessages, "联系人": pkgContacts, "便签": pkgNotes, "Bank": pkgBank} {
		sh(t, p, "input keyevent 3")
		tapWhere(t, p, "the "+label+" icon", func(e uitree.Element) bool { return e.Desc == label && e.Clickable })
		if got := p.top().app; got != pkg {
			t.Errorf("the %s icon opened %s, want %s", label, got, pkg)
		}
	}
	if _, ok := findElement(New(Config{Skin: SkinOneUI}), "Settings"); !ok {
		t.Error("One UI's launcher does not say Settings")
	}
}
