package phonesim

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Contacts (docs/phones.md#skins): AOSP Contacts' list
// and contact card, on the same contacts the classic Contacts lists and
// in the same order (the simulator's, not sorted by name).

// layoutPixelContacts lays out the page on top of Contacts' stack.
func (p *Phone) layoutPixelContacts(b *builder) {
	if b.v.page == pageDetail {
		p.layoutPixelContactCard(b)
		return
	}
	p.layoutPixelContactList(b)
}

// initial is the letter a contact's row is filed under.
func initial(name string) string {
	for _, r := range strings.ToUpper(name) {
		return string(r)
	}
	return ""
}

// layoutPixelContactList is PeopleActivity's list as AOSP Contacts lays
// it out: the toolbar titled "Contacts", the list (android:id/list, a
// PinnedHeaderListView) of ContactListItemView rows, each a clickable
// ViewGroup holding its section's letter header where a new letter starts,
// the photo badge and the name in cliv_name_textview
// (res/layout/contact_list_content.xml, ContactListItemView.java), and
// the floating_action_button to add a contact.
func (p *Phone) layoutPixelContactList(b *builder) {
	w, h := b.s.w, b.s.h
	b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "toolbar", full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: w, Y2: contentTop}})
	b.add(widget{kind: kAppBar, text: "Contacts", depth: 2, full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop, h)
	lw := &b.s.widgets[li]
	lw.class, lw.id = "android.widget.ListView", "android:id/list"
	prev := ""
	for _, c := range contacts {
		name := c.Name
		letter := initial(name)
		b.item(widget{kind: kHidden, class: "android.view.ViewGroup", clickable: true,
			tap: func() { p.push(newView(pkgContacts, pageDetail, name)) }}, 0, 0, w, rowH)
		if letter != prev {
			b.item(widget{kind: kText, text: letter, depth: 3}, 48, 40, 140, rowH-40)
			prev = letter
		}
		b.item(widget{kind: kDot, class: "android.widget.QuickContactBadge", depth: 3}, 168, 30, 288, rowH-30)
		b.item(widget{kind: kText, text: name, id: "cliv_name_textview", depth: 3}, 330, 40, w-48, rowH-40)
		b.y += rowH
	}
	b.endList(li)
	fab := uitree.Bounds{X1: w - 216, Y1: h - 264, X2: w - 48, Y2: h - 96}
	b.add(widget{kind: kButton, class: "android.widget.ImageButton", desc: "Create new contact", id: "floating_action_button",
		clickable: true, full: fab, tap: func() {}})
}

// layoutPixelContactCard is QuickContactActivity's card as AOSP Contacts
// lays it out: Navigate up and the name in large_title above the
// communication card, whose phone entry is a clickable row (the call)
// holding the number in header, its type "Mobile" in sub_header and the
// icon_alternate button that texts the number
// (res/layout/quickcontact_activity.xml,
// res/layout/expanding_entry_card_item.xml). The row describes itself
// "Call Mobile <number>" and the button "Text Mobile <number>", as
// TalkBack reads them.
func (p *Phone) layoutPixelContactCard(b *builder) {
	w := b.s.w
	c, _ := findContact(b.v.arg)
	b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
		full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
	b.add(widget{kind: kBigText, text: c.Name, id: "large_title", full: uitree.Bounds{X1: 48, Y1: contentTop + 60, X2: w - 48, Y2: contentTop + 300}})
	card := uitree.Bounds{X1: 24, Y1: contentTop + 360, X2: w - 24, Y2: contentTop + 600}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "communication_card", full: card})
	entry := uitree.Bounds{X1: card.X1, Y1: card.Y1 + 20, X2: card.X2, Y2: card.Y2 - 20}
	b.add(widget{kind: kHidden, class: "android.widget.RelativeLayout", desc: "Call Mobile " + c.Phone, clickable: true, depth: 2, full: entry, tap: func() {}})
	b.add(widget{kind: kDot, class: "android.widget.ImageView", id: "icon", depth: 3,
		full: uitree.Bounds{X1: entry.X1 + 48, Y1: entry.Y1 + 50, X2: entry.X1 + 120, Y2: entry.Y1 + 122}})
	b.add(widget{kind: kText, text: c.Phone, id: "header", depth: 3,
		full: uitree.Bounds{X1: entry.X1 + 192, Y1: entry.Y1 + 20, X2: entry.X2 - 200, Y2: entry.Y1 + 110}})
	b.add(widget{kind: kSubText, text: "Mobile", id: "sub_header", depth: 3,
		full: uitree.Bounds{X1: entry.X1 + 192, Y1: entry.Y1 + 110, X2: entry.X2 - 200, Y2: entry.Y2 - 20}})
	b.add(widget{kind: kButton, class: "android.widget.ImageView", desc: "Text Mobile " + c.Phone, id: "icon_alternate", clickable: true, depth: 3,
		full: uitree.Bounds{X1: entry.X2 - 176, Y1: entry.Y1 + 30, X2: entry.X2 - 48, Y2: entry.Y2 - 30},
		tap:  func() { p.pushConversation(c.Name) }})
}
