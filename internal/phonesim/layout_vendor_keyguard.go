package phonesim

import (
	"cmp"
	"fmt"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The miui skin's lock screen, shaped as a real MIUI keyguard dump shows
// it (fbtest-miui-lockscreen-notifications-es.xml in testdata/real,
// ErickPenafiel/facebook-app-testing @ 75e97f209547 : uidump2.xml): in
// the notification_panel, the notifications in the
// notification_stack_scroller ScrollView, each a clickable card whose
// title and text are android:id/title and android:id/text TextViews in
// the posting app's package, the title above the text; the clock in
// miui_keyguard_clock_container, current_time writing the time and
// current_date the date under it; at the bottom keyguard_bottom_area with
// keyguard_indication_text and right_button, described 相机 (the camera).
// The dump's words are Spanish; the skin's are Chinese, and the hint is
// the simulator's own (KeyguardHint): the dump shows the charging line
// there instead. Nothing on it takes a tap; a swipe up dismisses it.

// layoutMIUIKeyguard is MIUI's lock screen.
func (p *Phone) layoutMIUIKeyguard(b *builder) {
	w, h := b.s.w, b.s.h
	l := &p.life
	sys := func(wd widget) {
		wd.pkg = cmp.Or(wd.pkg, pkgSystemUI)
		b.add(wd)
	}
	full := uitree.Bounds{X2: w, Y2: h}
	sys(widget{kind: kFrame, class: "android.widget.FrameLayout", id: "notification_panel", full: full})
	sys(widget{kind: kFrame, class: "android.widget.ScrollView", id: "notification_stack_scroller", depth: 2, full: full})
	from := p.pkg(pkgMessages)
	y := 600
	for i := len(l.notifs) - 1; i >= 0 && y < h-600; i-- {
		n := l.notifs[i]
		if n.Read {
			continue
		}
		card := uitree.Bounds{X1: 33, Y1: y, X2: w - 33, Y2: y + 228}
		sys(widget{kind: kBanner, class: "android.widget.FrameLayout", clickable: true, depth: 3, full: card})
		sys(widget{kind: kFrame, class: "android.widget.FrameLayout", id: "android:id/status_bar_latest_event_content", pkg: from, depth: 4, full: card})
		sys(widget{kind: kText, text: n.From, id: idHeadsUpTitle, pkg: from, depth: 5,
			full: uitree.Bounds{X1: 176, Y1: y + 55, X2: w - 187, Y2: y + 107}})
		sys(widget{kind: kSubText, text: n.Text, id: idHeadsUpText, pkg: from, depth: 5,
			full: uitree.Bounds{X1: 176, Y1: y + 116, X2: w - 187, Y2: y + 163}})
		y += 246
	}
	sys(widget{kind: kFrame, class: "android.widget.FrameLayout", id: "miui_keyguard_clock_container", full: uitree.Bounds{X2: w, Y2: 558}})
	sys(widget{kind: kBigText, text: p.clockText(), id: "current_time", depth: 2, full: uitree.Bounds{X1: 307, Y1: 252, X2: w - 308, Y2: 487}})
	sys(widget{kind: kText, text: p.miuiKeyguardDate(), id: "current_date", depth: 2, full: uitree.Bounds{X1: 360, Y1: 480, X2: w - 360, Y2: 529}})
	bottom := uitree.Bounds{X1: 0, Y1: h - 84, X2: w, Y2: h}
	sys(widget{kind: kFrame, class: "android.widget.FrameLayout", id: "keyguard_bottom_area", full: bottom})
	sys(widget{kind: kText, text: KeyguardHint, id: idKeyguardHint, depth: 2, full: uitree.Bounds{X1: 230, Y1: bottom.Y1, X2: w - 230, Y2: h}})
	sys(widget{kind: kGlyph, class: "android.widget.ImageView", id: "right_button", desc: "相机", clickable: true, depth: 2,
		full: uitree.Bounds{X1: w - 230, Y1: bottom.Y1, X2: w, Y2: h}})
}

// miuiKeyguardDate is the lock screen's date line: "3月2日 星期一".
func (p *Phone) miuiKeyguardDate() string {
	now := p.life.now
	week := []string{"星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"}[now.Weekday()]
	return fmt.Sprintf("%d月%d日 %s", int(now.Month()), now.Day(), week)
}
