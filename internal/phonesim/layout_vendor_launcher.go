package phonesim

import (
	"fmt"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The miui skin's home screen (docs/phones.md#skins), shaped as the real
// com.miui.home dumps show it (testdata/real/SOURCES.md):
// blackhole-miui-launcher-home-zh.xml for the page, lanaudio-miui-launcher-zh.xml
// and korneo-miui-launcher-ru.xml for the dock.
//   - The page is the workspace, a scrollable com.miui.home.launcher.ScreenView.
//   - The clock widget at its top writes no text: a clickable frame holds
//     a View described by the time as it is spoken ("下午2点27分") and one
//     described by the date ("3月15日 周一下午"); a tap on it opens Clock.
//   - An app icon is a clickable RelativeLayout described by the app's
//     name, holding the icon_icon ImageView (described the same) and the
//     icon_title TextView that writes the name: the name is the
//     TextView's text, not the icon's.
//   - The dock (电话, 短信, 相机 on all three phones) sits under the
//     workspace, in the hotseat's hotseat_content_screen (the newer two
//     phones'; the older one's icons sit beside the workspace without
//     it), and writes no names: its icons are only described (korneo's
//     icon_title TextViews have empty bounds). Of the simulator's apps 短信
//     is there.
//   - The search bar at the bottom is a FrameLayout described 搜索框.

// miuiDock are the apps in the dock, not on the page.
var miuiDock = map[string]bool{"Messages": true}

// layoutMIUILauncher is MIUI's home screen.
func (p *Phone) layoutMIUILauncher(b *builder) {
	w, h := b.s.w, b.s.h
	b.add(widget{kind: kFrame, class: "com.miui.home.launcher.ScreenView", id: "workspace", scrollable: true,
		full: uitree.Bounds{X2: w, Y2: h}})
	// The clock widget.
	openClock := func() { p.launch(pkgClock) }
	clock := uitree.Bounds{X1: 33, Y1: statusBarH + 20, X2: w - 31, Y2: statusBarH + 540}
	for d := 2; d <= 4; d++ {
		b.add(widget{kind: kFrame, class: map[int]string{2: "android.widget.FrameLayout", 3: "android.widget.FrameLayout", 4: "android.view.View"}[d],
			clickable: true, depth: d, full: clock, tap: openClock})
	}
	b.add(widget{kind: kBigText, class: "android.view.View", desc: p.miuiSpokenTime(), drawn: b.s.clock, depth: 5,
		full: uitree.Bounds{X1: 33, Y1: clock.Y1, X2: 473, Y2: clock.Y1 + 176}})
	b.add(widget{kind: kSubText, class: "android.view.View", desc: p.miuiWidgetDate(), drawn: p.miuiWidgetDate(), depth: 5,
		full: uitree.Bounds{X1: 69, Y1: clock.Y1 + 157, X2: 482, Y2: clock.Y1 + 200}})
	// The page's icons: four 254-unit cells a row from x 33, 261 tall.
	const cellW, cellH = 254, 261
	col, y := 0, 877
	var dock []appInfo
	for _, a := range apps {
		if !a.Launcher {
			continue
		}
		if miuiDock[a.Name] {
			dock = append(dock, a)
			continue
		}
		x := 33 + col*cellW
		p.miuiIcon(b, a, uitree.Bounds{X1: x, Y1: y, X2: x + cellW, Y2: y + cellH}, true)
		if col++; col == 4 {
			col, y = 0, y+cellH
		}
	}
	// The dock, centred under the page, and the search bar.
	dockY := h - 400
	seat := uitree.Bounds{X1: 0, Y1: dockY, X2: w, Y2: dockY + 184}
	b.add(widget{kind: kFrame, class: "android.widget.FrameLayout", id: "hotseat", full: seat})
	b.add(widget{kind: kFrame, class: "com.miui.home.launcher.ScreenView", id: "hotseat_content_screen", depth: 2,
		full: uitree.Bounds{X1: 11, Y1: seat.Y1, X2: w - 11, Y2: seat.Y2}})
	x := (w - len(dock)*cellW) / 2
	for _, a := range dock {
		p.miuiIcon(b, a, uitree.Bounds{X1: x, Y1: dockY, X2: x + cellW, Y2: dockY + 184}, false)
		x += cellW
	}
	bar := uitree.Bounds{X1: 86, Y1: h - 150, X2: w - 86, Y2: h - 77}
	b.add(widget{kind: kFrame, class: "android.widget.FrameLayout", id: "search_bar", desc: "搜索框", full: bar})
	b.add(widget{kind: kFrame, class: "android.widget.RelativeLayout", id: "search_bar_desktop_layout", clickable: true, depth: 2, full: bar, tap: func() {}})
}

// miuiIcon is one launcher icon at cell: the described RelativeLayout,
// its icon_icon and, on the page (titled), the icon_title that names it.
// On the page the icon sits in the workspace; in the dock, in the hotseat.
func (p *Phone) miuiIcon(b *builder, a appInfo, cell uitree.Bounds, titled bool) {
	label, pkg := p.appLabel(a.Name), a.Package
	d := 2 // in the workspace
	if !titled {
		d = 3 // in the hotseat's ScreenView
	}
	b.add(widget{kind: kFrame, class: "android.widget.RelativeLayout", desc: label, clickable: true, depth: d, full: cell,
		tap: func() { p.launch(pkg) }})
	b.add(widget{kind: kAppIcon, class: "android.widget.ImageView", id: "icon_icon", desc: label, color: a.Color, depth: d + 1,
		full: uitree.Bounds{X1: cell.X1 + 43, Y1: cell.Y1 + 16, X2: cell.X2 - 43, Y2: cell.Y1 + 184}})
	if titled {
		b.add(widget{kind: kIconTitle, class: "android.widget.TextView", id: "icon_title", text: label, depth: d + 1,
			full: uitree.Bounds{X1: cell.X1, Y1: cell.Y1 + 189, X2: cell.X2, Y2: cell.Y2}})
	}
}

// miuiSpokenTime is the time as MIUI's clock widget describes it:
// "下午2点27分".
func (p *Phone) miuiSpokenTime() string {
	var hh, mm int
	fmt.Sscanf(p.clockText(), "%d:%d", &hh, &mm)
	half := "上午"
	if hh >= 12 {
		half = "下午"
	}
	h12 := hh % 12
	if h12 == 0 {
		h12 = 12
	}
	return fmt.Sprintf("%s%d点%02d分", half, h12, mm)
}

// miuiWidgetDate is the widget's date line: "3月15日 周一下午".
func (p *Phone) miuiWidgetDate() string {
	now := p.life.now
	half := "上午"
	var hh int
	fmt.Sscanf(p.clockText(), "%d", &hh)
	if hh >= 12 {
		half = "下午"
	}
	week := []string{"周日", "周一", "周二", "周三", "周四", "周五", "周六"}[now.Weekday()]
	return fmt.Sprintf("%d月%d日 %s%s", int(now.Month()), now.Day(), week, half)
}
