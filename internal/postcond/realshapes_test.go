package postcond

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The shapes of real Settings pages, tiles and editors that
// internal/realscreens holds (vivo's 显示与亮度, ColorOS's Quick Settings
// and Notes editor), each read next to a look-alike screen that must be
// refused.

func box(x1, y1, x2, y2 int) uitree.Bounds { return uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2} }

// vivoRow is vivo's switch row: the title, and a Switch whose text is the
// title and whose description is the state word, checkable=false.
func vivoRow(title, desc string, checked bool, y int) []uitree.Element {
	return []uitree.Element{
		{Class: "android.widget.LinearLayout", Enabled: true, Depth: 1, Bounds: box(0, y, 1080, y+150)},
		{Class: "android.widget.TextView", ResourceID: "android:id/title", Text: title, Enabled: true, Depth: 2, Bounds: box(0, y+40, 480, y+105)},
		{Class: "android.widget.Switch", ResourceID: "android:id/checkbox", Text: title, Desc: desc, Checked: checked, Clickable: true, Enabled: true, Depth: 2, Bounds: box(876, y+20, 1020, y+130)},
	}
}

func TestSwitchCheckedWithoutCheckable(t *testing.T) {
	es := []uitree.Element{{Class: "android.widget.ListView", Scrollable: true, Enabled: true, Bounds: box(0, 0, 1080, 2000)}}
	es = append(es, vivoRow("竖屏锁定", "开启", true, 200)...)
	es = append(es, vivoRow("自动调节屏幕亮度", "关闭", false, 400)...)
	es = append(es, vivoRow("护眼模式", "关闭", true, 600)...) // checked, but its words say off
	es = append(es, vivoRow("深色模式", "", false, 800)...)  // says nothing
	s := Screen{App: "Settings", AppPackage: "com.android.settings", Elements: es}
	for _, c := range []struct {
		label string
		on    bool
		held  bool
	}{
		{"竖屏锁定", true, true}, {"竖屏锁定", false, false},
		{"自动调节屏幕亮度", false, true}, {"自动调节屏幕亮度", true, false},
		{"护眼模式", true, false}, {"护眼模式", false, false},
		{"深色模式", true, false}, {"深色模式", false, false},
	} {
		r := Eval([]Check{{Kind: Switch, Label: c.label, On: on(c.on)}}, Observed{Final: s})[0]
		if r.Held != c.held {
			t.Errorf("switch %s %v: held %v, want %v (%s)", c.label, c.on, r.Held, c.held, r.Evidence)
		}
	}
}

// ColorOS's tiles are Switches whose text is the state and whose
// description is the name, a detail after a comma.
func TestTileNamedByDescriptionStateInText(t *testing.T) {
	tile := func(text, desc string, checked bool, x int) uitree.Element {
		return uitree.Element{Class: "android.widget.Switch", Text: text, Desc: desc, Checkable: true, Checked: checked, Clickable: true, Enabled: true, Depth: 1, Bounds: box(x, 284, x+92, 376)}
	}
	es := []uitree.Element{
		{Class: "android.widget.LinearLayout", Enabled: true, Bounds: box(0, 284, 720, 376)},
		tile("Off", "Wi-Fi,", false, 44),
		tile("On", "Mobile data, Safaricom 4G", true, 152),
		tile("On", "Wi-Fi calling, Ready", true, 260),
		tile("Off", "Hotspot, Wi-Fi", false, 368),
	}
	s := Screen{App: "com.android.systemui", AppPackage: "com.android.systemui", Elements: es}
	for _, c := range []struct {
		label string
		on    bool
		held  bool
	}{
		{"Wi-Fi", false, true}, {"Wi-Fi", true, false}, // never the Wi-Fi calling tile, nor the hotspot's detail
		{"Mobile data", true, true}, {"Mobile data", false, false},
		{"Wi-Fi calling", true, true}, {"Hotspot", true, false},
		{"Safaricom 4G", true, false},
	} {
		r := Eval([]Check{{Kind: Switch, Label: c.label, On: on(c.on)}}, Observed{Final: s})[0]
		if r.Held != c.held {
			t.Errorf("switch %s %v: held %v, want %v (%s)", c.label, c.on, r.Held, c.held, r.Evidence)
		}
	}
}

// ColorOS Notes' editor: paragraphs are EditTexts without hints inside a
// WebView, the first the title line. The body is the second, so a note
// whose text went into the title line does not hold as its body.
func TestRichEditorBody(t *testing.T) {
	editor := func(title, body string) []uitree.Element {
		return []uitree.Element{
			{Class: "android.webkit.WebView", Enabled: true, Bounds: box(0, 472, 1240, 2551)},
			{Class: "android.view.View", Enabled: true, Depth: 1, Bounds: box(0, 472, 1240, 2334)},
			{Class: "android.widget.EditText", Text: title, Clickable: true, Enabled: true, Depth: 2, Bounds: box(0, 472, 1240, 479)},
			{Class: "android.widget.EditText", Text: body, Clickable: true, Enabled: true, Depth: 2, Bounds: box(0, 475, 1240, 2201)},
			{Class: "android.widget.EditText", Clickable: true, Enabled: true, Depth: 2, Bounds: box(0, 2197, 1240, 2551)},
		}
	}
	held := func(es []uitree.Element) bool {
		s := Screen{App: "com.coloros.note", AppPackage: "com.coloros.note", Elements: es}
		return Eval([]Check{{Kind: FieldHolds, Field: "body", Value: "Buy milk"}}, Observed{Final: s})[0].Held
	}
	if !held(editor("\n", "Buy milk")) {
		t.Error("the body under an empty title line holds the note, and was not read")
	}
	if held(editor("Buy milk", "")) {
		t.Error("a note typed into the title line, with an empty body, was read as the body")
	}
	flat := editor("\n", "Buy milk")[2:] // the same fields outside a WebView: no title line to skip
	for i := range flat {
		flat[i].Depth = 0
	}
	if e, _ := FieldValue(flat, "body"); e != nil && e.Text == "\n" {
		t.Error("the title line was read as the body")
	}
}

// A clickable text that spans the window's top is a header (vivo's
// 设置); a narrower clickable text there is a control and titles nothing.
func TestTitleWideClickableHeader(t *testing.T) {
	screen := func(x2 int) []uitree.Element {
		return []uitree.Element{
			{Class: "android.widget.FrameLayout", Enabled: true, Bounds: box(0, 0, 1080, 2187)},
			{Class: "android.widget.TextView", ResourceID: "com.android.settings:id/main", Text: "设置", Clickable: true, Enabled: true, Depth: 1, Bounds: box(18, 99, x2, 348)},
			{Class: "android.widget.ListView", Scrollable: true, Enabled: true, Depth: 1, Bounds: box(0, 492, 1080, 2187)},
			{Class: "android.widget.TextView", ResourceID: "android:id/title", Text: "WLAN", Enabled: true, Depth: 2, Bounds: box(180, 1068, 333, 1133)},
		}
	}
	if got := Title(screen(1077)); got != "设置" {
		t.Errorf("the full-width header: title %q", got)
	}
	if got := Title(screen(400)); got == "设置" {
		t.Errorf("a narrow clickable text at the top was read as the title")
	}
}

// "Clear all notifications." is Clear all naming what it clears; a
// label that clears something narrower is not taken for it.
func TestClearAllNotificationsCommit(t *testing.T) {
	if !IsCommitLabel("Clear all notifications.", DefaultCommitLabels) {
		t.Error("Clear all notifications. is not a commit")
	}
	if IsCommitLabel("Clear all notifications settings", DefaultCommitLabels) {
		t.Error("a longer label was taken for Clear all")
	}
}

// A tile's text is its state word in the phone's language (German,
// Italian, Dutch, Indonesian, Japanese, traditional Chinese as well as
// English): the description names it, the text says on or off.
func TestTileStateWordsInLanguages(t *testing.T) {
	for _, c := range []struct{ on, off string }{
		{"Ein", "Aus"}, {"Attivo", "Disattivo"}, {"Aan", "Uit"}, {"Aktif", "Nonaktif"}, {"オン", "オフ"}, {"開啟", "關閉"},
	} {
		for _, want := range []bool{true, false} {
			text := c.off
			if want {
				text = c.on
			}
			es := []uitree.Element{{Class: "android.widget.Switch", Text: text, Desc: "Bluetooth.", Checkable: true, Checked: want, Clickable: true, Enabled: true, Bounds: box(0, 0, 92, 92)}}
			s := Screen{App: "com.android.systemui", AppPackage: "com.android.systemui", Elements: es}
			if r := Eval([]Check{{Kind: Switch, Label: "Bluetooth", On: on(want)}}, Observed{Final: s})[0]; !r.Held {
				t.Errorf("%q tile: Bluetooth %v did not hold: %s", text, want, r.Evidence)
			}
			if r := Eval([]Check{{Kind: Switch, Label: "Bluetooth", On: on(!want)}}, Observed{Final: s})[0]; r.Held {
				t.Errorf("%q tile: Bluetooth %v held", text, !want)
			}
			// checked says the other state than the word: nothing is sure.
			es[0].Checked = !want
			if r := Eval([]Check{{Kind: Switch, Label: "Bluetooth", On: on(!want)}}, Observed{Final: s})[0]; r.Held {
				t.Errorf("%q tile checked=%v: a state its word denies held", text, !want)
			}
		}
	}
}

// MIUI's main list: a row whose value beside the title says the state
// ("Bluetooth" with text_right "On") shows that state, but holds no
// switch: a switch check refuses it, and a tap on it opens a page.
func TestSummaryRowIsNotASwitch(t *testing.T) {
	es := []uitree.Element{
		{Class: "androidx.recyclerview.widget.RecyclerView", Scrollable: true, Enabled: true, Bounds: box(0, 567, 1080, 2262)},
		{Class: "android.widget.LinearLayout", Clickable: true, Enabled: true, Depth: 1, Bounds: box(0, 1680, 1080, 1839)},
		{Class: "android.widget.RelativeLayout", Enabled: true, Depth: 2, Bounds: box(202, 1680, 890, 1839)},
		{Class: "android.widget.TextView", ResourceID: "android:id/title", Text: "Bluetooth", Enabled: true, Depth: 3, Bounds: box(202, 1725, 441, 1794)},
		{Class: "android.widget.LinearLayout", ResourceID: "android:id/widget_frame", Enabled: true, Depth: 2, Bounds: box(890, 1729, 951, 1789)},
		{Class: "android.widget.TextView", ResourceID: "com.android.settings:id/text_right", Text: "On", Enabled: true, Depth: 3, Bounds: box(890, 1729, 951, 1789)},
	}
	s := Screen{App: "Settings", AppPackage: "com.android.settings", Elements: es}
	for _, want := range []bool{true, false} {
		if r := Eval([]Check{{Kind: Switch, Label: "Bluetooth", On: on(want)}}, Observed{Final: s})[0]; r.Held {
			t.Errorf("switch Bluetooth %v held on a summary row: %s", want, r.Evidence)
		}
	}
	if r := Eval([]Check{{Kind: RowShows, Row: "Bluetooth", Shows: "On"}}, Observed{Final: s})[0]; !r.Held {
		t.Errorf("the row's On was not read: %s", r.Evidence)
	}
	if r := Eval([]Check{{Kind: RowShows, Row: "Bluetooth", Shows: "Off"}}, Observed{Final: s})[0]; r.Held {
		t.Error("the row shows On, and Off held")
	}
	if Toggles(es, 1) {
		t.Error("a tap on the row is taken for a toggle; it opens the Bluetooth page")
	}
}
