package phonesim

import (
	"slices"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// MIUI's Settings main list and Display page are compared with real
// MIUI 14 dumps (testdata/real/untergang-miui-settings-*.xml) on what a
// check reads: the action bar's ids, the search bar, the list's id, each
// row's classes and ids, where a row's value sits beside its title, and
// the order of the connections group. The phone in the dumps showed
// English; the miui look keeps MIUI's Chinese strings.

// miuiRow is what a check reads off a MIUI row that shows a value.
type miuiRow struct {
	Row, TitleParent, TitleID string
	RowClickable              bool
	ValueID, ValueHome        string
	ValueBeside               bool // on the title's line, right of it
	Arrow                     string
	Switch                    bool // anything checkable in the row
}

func miuiRowOf(t *testing.T, es []uitree.Element, title string) miuiRow {
	t.Helper()
	par := uitree.Parents(es)
	ti := find(t, es, "title "+title, func(e uitree.Element) bool { return e.Text == title && e.ResourceID == "android:id/title" })
	box := par[ti]
	row := par[box]
	r := miuiRow{Row: es[row].ShortClass(), TitleParent: es[box].ShortClass(), TitleID: es[ti].ResourceID, RowClickable: es[row].Clickable}
	for j := row + 1; j < uitree.SubtreeEnd(es, row); j++ {
		e := es[j]
		switch {
		case e.ShortID() == "text_right":
			r.ValueID, r.ValueHome = e.ResourceID, es[par[j]].ResourceID
			r.ValueBeside = e.Bounds.X1 >= es[ti].Bounds.X2 && e.Bounds.Y1 < es[ti].Bounds.Y2 && e.Bounds.Y2 > es[ti].Bounds.Y1
		case e.ShortID() == "arrow_right":
			r.Arrow = e.Class + " " + e.ResourceID
		}
		r.Switch = r.Switch || e.Checkable
	}
	return r
}

// namedAncestors are the short resource ids of es[i]'s ancestors that have one.
func namedAncestors(es []uitree.Element, i int) []string {
	par := uitree.Parents(es)
	var out []string
	for a := par[i]; a >= 0; a = par[a] {
		if id := es[a].ShortID(); id != "" {
			out = append(out, id)
		}
	}
	return out
}

// titlesIn is the order of the main list's row titles.
func titlesIn(es []uitree.Element, titles []string) []int {
	var out []int
	for _, want := range titles {
		out = append(out, slices.IndexFunc(es, func(e uitree.Element) bool { return e.Text == want && e.ResourceID == "android:id/title" }))
	}
	return out
}

func TestMIUISettingsMainListIsTheRealOne(t *testing.T) {
	real := realDump(t, "untergang-miui-settings-main-en.xml")
	on := realDump(t, "untergang-miui-settings-main-hotspot-on-en.xml")
	p := New(Config{Skin: SkinMIUI})
	launch(t, p, pkgSettings)
	es := simDump(t, p)

	// Rows with a value: WLAN's network, Bluetooth's and the hotspot's
	// state, the MIUI version.
	for _, c := range []struct {
		real       []uitree.Element
		title, sim string
	}{
		{real, "WLAN", "WLAN"}, {real, "Bluetooth", "蓝牙"}, {real, "Portable hotspot", "个人热点"}, {on, "My device", "我的设备"},
	} {
		want := miuiRowOf(t, c.real, c.title)
		if want.ValueID == "" || !want.ValueBeside || want.Switch {
			t.Fatalf("the real %s row reads %+v; the comparison is off", c.title, want)
		}
		if got := miuiRowOf(t, es, c.sim); got != want {
			t.Errorf("%s row:\n got %+v\nthe real %s row %+v", c.sim, got, c.title, want)
		}
	}
	// A row without a value keeps the same shape, with nothing in its
	// widget_frame.
	want, got := miuiRowOf(t, real, "VPN"), miuiRowOf(t, es, "VPN")
	if got != want {
		t.Errorf("VPN row:\n got %+v\nwant %+v", got, want)
	}

	// The action bar's title, the search bar and the list.
	ti := find(t, real, "real title", byText("Settings"))
	si := find(t, es, "title", byText("设置"))
	if got, want := es[si].ResourceID, real[ti].ResourceID; got != want {
		t.Errorf("title id %q, the real one %q", got, want)
	}
	if got, want := namedAncestors(es, si), namedAncestors(real, ti); !slices.Equal(got[:3], want[:3]) {
		t.Errorf("the title sits in %q, the real one in %q", got, want)
	}
	ri := find(t, real, "real search", byText("Search settings"))
	ss := find(t, es, "search", byText("搜索设置项"))
	if real[ri].IsField() || es[ss].IsField() || es[ss].Class != real[ri].Class || es[ss].ResourceID != real[ri].ResourceID || es[ss].Desc != "搜索" {
		t.Errorf("search text %+v, the real one %+v", es[ss], real[ri])
	}
	if got, want := namedAncestors(es, ss)[:2], namedAncestors(real, ri)[:2]; !slices.Equal(got, want) {
		t.Errorf("the search text sits in %q, the real one in %q", got, want)
	}
	wifi := find(t, es, "WLAN", func(e uitree.Element) bool { return e.Text == "WLAN" && e.ResourceID == "android:id/title" })
	rwifi := find(t, real, "real WLAN", func(e uitree.Element) bool { return e.Text == "WLAN" && e.ResourceID == "android:id/title" })
	if got, want := namedAncestors(es, wifi), namedAncestors(real, rwifi); got[0] != want[0] {
		t.Errorf("the rows' list is %q, the real one %q", got[0], want[0])
	}

	// The connections group in the real order, after 我的设备 and a gap.
	realOrder := titlesIn(real, []string{"My device", "SIM cards & mobile networks", "WLAN", "Bluetooth", "Portable hotspot", "VPN", "Connection & sharing"})
	simOrder := titlesIn(es, []string{"我的设备", "SIM卡与移动网络", "WLAN", "蓝牙", "个人热点", "VPN", "连接与共享"})
	if !slices.IsSorted(realOrder) || slices.Contains(realOrder, -1) {
		t.Fatalf("the real order reads %v", realOrder)
	}
	if !slices.IsSorted(simOrder) || slices.Contains(simOrder, -1) {
		t.Errorf("the main list's rows are out of the real order: %v", simOrder)
	}

	// What a check reads: the rows show their state, and none is a
	// switch (a tap opens the page).
	s := postcond.Screen{App: "Settings", AppPackage: pkgSettings, Elements: es}
	off := false
	for _, c := range []struct {
		check postcond.Check
		held  bool
	}{
		{postcond.Check{Kind: postcond.RowShows, Row: "蓝牙", Shows: "已关闭"}, true},
		{postcond.Check{Kind: postcond.RowShows, Row: "WLAN", Shows: pixelWiFiName}, true},
		{postcond.Check{Kind: postcond.RowShows, Row: "VPN", Shows: "已关闭"}, false},
		{postcond.Check{Kind: postcond.Switch, Label: "Bluetooth", On: &off}, false},
	} {
		if r := postcond.Eval([]postcond.Check{c.check}, postcond.Observed{Final: s})[0]; r.Held != c.held {
			t.Errorf("%s: held %v, want %v (%s)", c.check, r.Held, c.held, r.Evidence)
		}
	}
	if postcond.Toggles(es, uitree.Parents(es)[uitree.Parents(es)[wifi]]) {
		t.Error("a tap on the WLAN row is taken for a toggle; it opens the WLAN page")
	}
}

func TestMIUISettingsDisplayPageIsTheRealOne(t *testing.T) {
	real := realDump(t, "untergang-miui-settings-display-en.xml")
	p := New(Config{Skin: SkinMIUI})
	launch(t, p, pkgSettings)
	tapOn(t, p, "显示")
	es := simDump(t, p)
	want, got := miuiRowOf(t, real, "Refresh rate"), miuiRowOf(t, es, "屏幕刷新率")
	if !want.ValueBeside || got != want {
		t.Errorf("屏幕刷新率 row:\n got %+v\nthe real Refresh rate row %+v", got, want)
	}
	// Headings: a FrameLayout holding android:id/title.
	par := uitree.Parents(es)
	rpar := uitree.Parents(real)
	rh := find(t, real, "real heading", byText("SCREEN"))
	sh := find(t, es, "heading", func(e uitree.Element) bool { return e.Text == "屏幕" })
	if es[sh].ResourceID != real[rh].ResourceID || es[par[sh]].Class != real[rpar[rh]].Class {
		t.Errorf("heading %+v in %s, the real one %+v in %s", es[sh], es[par[sh]].Class, real[rh], real[rpar[rh]].Class)
	}
	// The bar: up is an ImageView with MIUI's id, the title expanded.
	ru := find(t, real, "real up", func(e uitree.Element) bool { return e.Desc == "Back" })
	su := find(t, es, "up", func(e uitree.Element) bool { return e.Desc == "返回" })
	if es[su].Class != real[ru].Class || es[su].ResourceID != real[ru].ResourceID || !es[su].Clickable {
		t.Errorf("up %+v, the real one %+v", es[su], real[ru])
	}
	rt := find(t, real, "real title", byText("Display"))
	st := find(t, es, "title", byText("显示"))
	if es[st].ResourceID != real[rt].ResourceID {
		t.Errorf("title id %q, the real one %q", es[st].ResourceID, real[rt].ResourceID)
	}
	if got, want := namedAncestors(es, sh)[0], namedAncestors(real, rh)[0]; got != want {
		t.Errorf("the page's list is %q, the real one %q", got, want)
	}
}
