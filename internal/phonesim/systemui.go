package phonesim

import (
	"fmt"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The system's own windows that Life brings up over the apps: the
// keyguard, heads-up banners and system dialogs. Their elements belong to
// the system's packages in the UI tree, as on a phone.
const (
	pkgSystemUI = "com.android.systemui"
	pageLocked  = "keyguard"

	idKeyguardClock  = pkgSystemUI + ":id/keyguard_clock"
	idKeyguardHint   = pkgSystemUI + ":id/keyguard_indication_text"
	idKeyguardNotif  = pkgSystemUI + ":id/keyguard_notification"
	idHeadsUp        = pkgSystemUI + ":id/expandableNotificationRow"
	idHeadsUpTitle   = "android:id/title"
	idHeadsUpText    = "android:id/text"
	idDialogTitle    = "android:id/alertTitle"
	idDialogMessage  = "android:id/message"
	idDialogPositive = "android:id/button1"
	idDialogNegative = "android:id/button2"
)

// KeyguardHint is the keyguard's instruction, shown under its clock.
const KeyguardHint = "Swipe up to unlock"

// bannerH is the height of a heads-up banner below the status bar.
const bannerH = 240

// layoutKeyguard is the lock screen: the clock, the date, the unread
// notifications and the unlock hint. Nothing on it is clickable; a swipe
// up dismisses it.
func (p *Phone) layoutKeyguard(b *builder) {
	if p.cfg.Skin == SkinMIUI {
		p.layoutMIUIKeyguard(b)
		return
	}
	w, h := b.s.w, b.s.h
	l := &p.life
	b.add(widget{kind: kBigText, text: p.clockText(), id: idKeyguardClock, pkg: pkgSystemUI, full: uitree.Bounds{X1: 0, Y1: 300, X2: w, Y2: 560}})
	b.add(widget{kind: kText, text: l.now.Format("Monday, 2 January"), pkg: pkgSystemUI, full: uitree.Bounds{X1: w/2 - 300, Y1: 580, X2: w/2 + 300, Y2: 660}})
	y := 760
	for i := len(l.notifs) - 1; i >= 0 && y < h-600; i-- {
		n := l.notifs[i]
		if n.Read {
			continue
		}
		b.add(widget{kind: kBanner, text: n.From, desc: n.Text, id: idKeyguardNotif, pkg: pkgSystemUI,
			full: uitree.Bounds{X1: 48, Y1: y, X2: w - 48, Y2: y + 200}})
		y += 220
	}
	b.add(widget{kind: kText, text: KeyguardHint, id: idKeyguardHint, pkg: pkgSystemUI, full: uitree.Bounds{X1: w/2 - 300, Y1: h - 300, X2: w/2 + 300, Y2: h - 200}})
}

// overlays adds the heads-up banner and a system dialog over the app.
func (p *Phone) overlays(b *builder) {
	w, h := b.s.w, b.s.h
	l := &p.life
	if bn := l.banner; bn != nil {
		from := bn.from
		open := func() {
			l.banner = nil
			p.openConversation(from)
		}
		box := uitree.Bounds{X1: 24, Y1: statusBarH + 8, X2: w - 24, Y2: statusBarH + 8 + bannerH}
		b.add(widget{kind: kBanner, class: "android.widget.FrameLayout", text: bn.from, desc: bn.text, id: idHeadsUp, pkg: pkgSystemUI,
			clickable: true, full: box, tap: open})
		b.add(widget{kind: kHidden, text: bn.from, id: idHeadsUpTitle, pkg: pkgSystemUI, depth: 2,
			full: uitree.Bounds{X1: box.X1 + 48, Y1: box.Y1 + 30, X2: box.X2 - 48, Y2: box.Y1 + 110}})
		b.add(widget{kind: kHidden, text: bn.text, id: idHeadsUpText, pkg: pkgSystemUI, depth: 2,
			full: uitree.Bounds{X1: box.X1 + 48, Y1: box.Y1 + 120, X2: box.X2 - 48, Y2: box.Y2 - 30}})
	}
	if d := l.dialog; d != nil {
		full := uitree.Bounds{X2: w, Y2: h}
		b.add(widget{kind: kScrim, class: "android.view.View", pkg: d.pkg, clickable: true, full: full, tap: func() {}})
		top := h/2 - 360
		card := uitree.Bounds{X1: 72, Y1: top, X2: w - 72, Y2: top + 720}
		b.s.treeFrom = len(b.s.widgets) // the dialog's window has the focus
		b.add(widget{kind: kDialog, class: "android.widget.FrameLayout", pkg: d.pkg, full: card})
		b.add(widget{kind: kText, text: d.title, id: idDialogTitle, pkg: d.pkg, depth: 2,
			full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 60, X2: card.X2 - 60, Y2: top + 160}})
		b.add(widget{kind: kText, text: d.text, id: idDialogMessage, pkg: d.pkg, depth: 2,
			full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 180, X2: card.X2 - 60, Y2: top + 420}})
		closeDlg := func() { l.dialog = nil }
		pos := closeDlg
		if d.pos == "Close app" {
			pos = func() {
				l.dialog = nil
				p.launch(pkgLauncher)
			}
		}
		b.add(widget{kind: kButton, class: "android.widget.Button", text: d.neg, id: idDialogNegative, pkg: d.pkg, clickable: true, depth: 2,
			full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 520, X2: w/2 - 20, Y2: top + 660}, tap: closeDlg})
		b.add(widget{kind: kButton, class: "android.widget.Button", text: d.pos, id: idDialogPositive, pkg: d.pkg, clickable: true, depth: 2,
			full: uitree.Bounds{X1: w/2 + 20, Y1: top + 520, X2: card.X2 - 60, Y2: top + 660}, tap: pos})
	}
}

// openConversation shows the conversation with a contact in Messages, as
// a tap on its notification does.
func (p *Phone) openConversation(name string) {
	p.stack = []*view{newView(pkgLauncher, pageHome, ""), newView(pkgMessages, pageList, "")}
	p.pushConversation(name)
}

// lockedSwipe is a swipe on the keyguard: one that goes up by at least a
// fifth of the screen from its lower half unlocks the phone, or shows the
// bouncer of a secure keyguard.
func (p *Phone) lockedSwipe(y1, y2 int) {
	h := p.lh
	if y1 >= h/2 && y1-y2 >= h/5 {
		p.dismissKeyguard()
	}
}

// bannerSwipe dismisses the heads-up banner when a swipe starts on it and
// goes up; it reports whether it did.
func (p *Phone) bannerSwipe(x1, y1, y2 int) bool {
	if p.life.banner == nil {
		return false
	}
	if x1 >= 24 && x1 < p.lw-24 && y1 >= statusBarH && y1 < statusBarH+8+bannerH && y2 < y1 {
		p.life.banner = nil
		return true
	}
	return false
}

// focusWindow is the window `dumpsys window` reports as focused while a
// system window is in front ("" while the app has the focus), and whether
// the keyguard shows.
func (p *Phone) focusWindow() (string, bool) {
	switch {
	case p.life.locked:
		return "NotificationShade", true
	case p.life.dialog != nil:
		return p.life.dialog.pkg, false
	case p.shade.open:
		return shadeWindow, false
	}
	return "", false
}

// dumpNotifications writes the posted notifications that are still
// showing (their conversation not opened since) the way `dumpsys
// notification --noredact` does: one NotificationRecord each, its sender
// and text in the extras, its post time in mCreationTimeMs.
func (p *Phone) dumpNotifications(e *cmdEnv) {
	e.out("Current Notification Manager state:\n  Notification List:\n")
	msgs := p.pkg(pkgMessages)
	for _, n := range p.life.notifs {
		if n.Read {
			continue
		}
		key := fmt.Sprintf("0|%s|%d|null|10%03d", msgs, n.Seq, n.Seq%1000)
		e.out("    NotificationRecord(0x%08x: pkg=%s user=UserHandle{0} id=%d tag=null importance=4 key=%s: Notification(channel=messages pri=1))\n",
			n.Seq, msgs, n.Seq, key)
		e.out("      uid=10123 userId=0\n      opPkg=%s\n      key=%s\n      seen=false\n", msgs, key)
		e.out("      notification=\n        pri=1\n        extras={\n")
		e.out("          android.title=String (%s)\n          android.text=String (%s)\n", n.From, n.Text)
		e.out("        }\n      mCreationTimeMs=%d\n", n.At.UnixMilli())
	}
}
