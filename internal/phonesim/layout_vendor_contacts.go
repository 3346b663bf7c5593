package phonesim

import (
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The MIUI and One UI skins' Contacts (docs/phones.md#skins): Xiaomi's
// 联系人 and Samsung Contacts on the same contacts, in the same order,
// the classic and AOSP Contacts list. The package stays the simulator's
// Contacts package.
//
// No real dump nor test code of either app's list or contact page was
// found in a public repository, so the trees carry no resource ids; they
// follow the apps as their users see them: 联系人's list under letter
// headers with the index of letters down its right edge, a contact's page
// with the name, the 电话 section whose row holds the number above its
// type 手机 and a 发送信息 button; Samsung Contacts' list titled
// Contacts, a contact's page with the name above the Call, Message and
// Video call buttons and the number's row (the number above Mobile).

// vendorContacts lays out Contacts on a vendor skin; ok is false on the
// others.
func (p *Phone) vendorContacts(b *builder) bool {
	switch p.cfg.Skin {
	case SkinMIUI:
		if b.v.page == pageDetail {
			p.layoutMIUIContact(b)
		} else {
			p.contactList(b, "联系人")
		}
	case SkinOneUI:
		if b.v.page == pageDetail {
			p.layoutOneUIContact(b)
		} else {
			p.contactList(b, "Contacts")
		}
	default:
		return false
	}
	return true
}

// contactList is a vendor's list of contacts: the title, a row per
// contact under its letter's header (a clickable row holding the name),
// and on MIUI the index of letters at the right edge.
func (p *Phone) contactList(b *builder, title string) {
	w, h := b.s.w, b.s.h
	b.add(widget{kind: kAppBar, text: title, full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	right := w
	if p.cfg.Skin == SkinMIUI {
		right = w - 72
	}
	li := b.list(contentTop, h)
	lw := &b.s.widgets[li]
	lw.class = "android.widget.ListView"
	prev := ""
	var letters []string
	for _, c := range contacts {
		name := c.Name
		if letter := initial(name); letter != prev {
			b.item(widget{kind: kSubText, text: letter}, 48, 10, 200, 90)
			b.y += 100
			prev = letter
			letters = append(letters, letter)
		}
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true,
			tap: func() { p.push(newView(pkgContacts, pageDetail, name)) }}, 0, 0, right, rowH)
		b.item(widget{kind: kDot, class: "android.widget.ImageView", depth: 3}, 48, 36, 156, rowH-36)
		b.item(widget{kind: kText, text: name, depth: 3}, 192, 40, right-48, rowH-40)
		b.y += rowH
	}
	b.endList(li)
	if p.cfg.Skin != SkinMIUI {
		return
	}
	bar := uitree.Bounds{X1: w - 72, Y1: contentTop + 40, X2: w, Y2: contentTop + 40 + 80*len(letters)}
	b.add(widget{kind: kHidden, class: "android.view.View", clickable: true, full: bar, tap: func() {}})
	for i, l := range letters {
		y := bar.Y1 + 80*i
		b.add(widget{kind: kSubText, text: l, depth: 2, full: uitree.Bounds{X1: bar.X1, Y1: y, X2: bar.X2, Y2: y + 80}})
	}
}

// layoutMIUIContact is 联系人's page of a contact: 返回, the name, the
// 电话 section with the number's row (the number above 手机) and its
// 发送信息 button.
func (p *Phone) layoutMIUIContact(b *builder) {
	w := b.s.w
	c, _ := findContact(b.v.arg)
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "返回", clickable: true,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	b.add(widget{kind: kIcon, class: "android.widget.ImageView", desc: "编辑", clickable: true,
		full: uitree.Bounds{X1: w - 144, Y1: statusBarH + 20, X2: w - 24, Y2: contentTop - 20}, tap: func() {}})
	b.add(widget{kind: kBigText, text: c.Name, full: uitree.Bounds{X1: 48, Y1: contentTop + 60, X2: w - 48, Y2: contentTop + 260}})
	b.add(widget{kind: kSubText, text: "电话", full: uitree.Bounds{X1: 48, Y1: contentTop + 320, X2: w - 48, Y2: contentTop + 390}})
	row := uitree.Bounds{X1: 0, Y1: contentTop + 400, X2: w, Y2: contentTop + 620}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", clickable: true, full: row, tap: func() {}})
	b.add(widget{kind: kText, text: c.Phone, depth: 2, full: uitree.Bounds{X1: 48, Y1: row.Y1 + 30, X2: w - 240, Y2: row.Y1 + 120}})
	b.add(widget{kind: kSubText, text: "手机", depth: 2, full: uitree.Bounds{X1: 48, Y1: row.Y1 + 120, X2: w - 240, Y2: row.Y2 - 30}})
	b.add(widget{kind: kButton, class: "android.widget.ImageView", desc: "发送信息", clickable: true, depth: 2,
		full: uitree.Bounds{X1: w - 200, Y1: row.Y1 + 40, X2: w - 60, Y2: row.Y2 - 40}, tap: func() { p.pushConversation(c.Name) }})
}

// layoutOneUIContact is Samsung Contacts' page of a contact: Navigate
// up, the name, the Call, Message and Video call buttons and the
// number's row (the number above Mobile).
func (p *Phone) layoutOneUIContact(b *builder) {
	w := b.s.w
	c, _ := findContact(b.v.arg)
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	b.add(widget{kind: kBigText, text: c.Name, full: uitree.Bounds{X1: 48, Y1: contentTop + 60, X2: w - 48, Y2: contentTop + 260}})
	y := contentTop + 300
	for i, a := range []struct {
		text string
		tap  func()
	}{{"Call", func() {}}, {"Message", func() { p.pushConversation(c.Name) }}, {"Video call", func() {}}} {
		x := 48 + i*(w-96)/3
		b.add(widget{kind: kButton, class: "android.widget.Button", text: a.text, clickable: true,
			full: uitree.Bounds{X1: x + 12, Y1: y, X2: x + (w-96)/3 - 12, Y2: y + 160}, tap: a.tap})
	}
	row := uitree.Bounds{X1: 0, Y1: y + 200, X2: w, Y2: y + 420}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", clickable: true, full: row, tap: func() {}})
	b.add(widget{kind: kText, text: c.Phone, depth: 2, full: uitree.Bounds{X1: 48, Y1: row.Y1 + 30, X2: w - 48, Y2: row.Y1 + 120}})
	b.add(widget{kind: kSubText, text: "Mobile", depth: 2, full: uitree.Bounds{X1: 48, Y1: row.Y1 + 120, X2: w - 48, Y2: row.Y2 - 30}})
}
