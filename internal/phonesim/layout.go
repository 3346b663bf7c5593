package phonesim

import (
	"cmp"
	"strings"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Layout geometry (pixels at the default 1080-wide screen).
const (
	statusBarH = 84
	appBarH    = 168
	contentTop = statusBarH + appBarH
	rowH       = 180
	keyboardH  = 180
	bottomBarH = 300 // room for a bottom button
)

type kind int

const (
	kFrame kind = iota
	kAppBar
	kUp
	kList
	kRow
	kSubText
	kSwitchRow
	kSwitch
	kText
	kButton
	kEdit
	kIcon
	kBubbleIn
	kBubbleOut
	kBigText
	kBanner // a notification card: text is its title, desc its text
	kHidden // in the UI tree only: drawn by its parent
	kScrim  // dims what is under a dialog
	kDialog // a dialog's card
	kDot    // a pattern lock's dot
	// The Pixel skin's (layout_pixel.go, shade.go):
	kSlider    // a SeekBar: track and thumb at the level
	kSwitchBar // a main switch bar's coloured frame
	kTile      // a Quick Settings tile
	kPanel     // the Quick Settings shade behind its tiles
	// The miui skin's (layout_vendor_notes.go, layout_vendor_launcher.go):
	kGlyph     // a toolbar's icon: the first character of its description
	kAppIcon   // a launcher icon's picture: a disc with its name's first character
	kIconTitle // a launcher icon's name under its picture
)

// widget is one drawn and dumped element. full is where it is drawn,
// bounds the visible part reported by uiautomator (clipped to its list).
type widget struct {
	kind                                   kind
	class, text, desc, id                  string
	pkg                                    string // owning package when not the screen's (system windows)
	full, bounds                           uitree.Bounds
	checkable, checked, clickable, focused bool
	scrollable                             bool
	value, hint                            string // text fields: content and hint drawn when empty
	drawn                                  string // a tile's "label, state" when its text says only the state (MIUI's 关闭)
	// password marks a field that hides its text: the tree says
	// password="true" and shows a dot per character, as Android does.
	password bool
	// disabled: the tree says enabled="false" and a tap on it does
	// nothing (便签's 撤销 with nothing to undo, Samsung Messages' Send
	// while there is nothing to send).
	disabled  bool
	depth     int
	color     uint32 // icons
	maxScroll int    // lists
	scrollOf  *view  // lists: whose scroll offset this is
	tap       func()
	// tag marks an id that is a Compose test tag ("message_list"), which
	// the tree reports as it is, not as the package's resource name.
	tag bool
	// drag moves a slider to the x (layout units) where a finger ends,
	// tapping or swiping on it; level is where its thumb is drawn, 0-100.
	drag  func(x int)
	level int
	// spin turns a wheel picker (a NumberPicker) by a vertical swipe that
	// starts on it, dy layout units up.
	spin func(dy int)
	// hold is what a long press on the element does (One UI's alarm card
	// opens the list's select mode, 便签's row selects its note); nil where
	// a long press does nothing.
	hold func()
}

// screen is a complete description of what the display shows.
type screen struct {
	w, h     int // in layout units
	density  int // the screen's: the tree's bounds and the image scale by density/DefaultDensity
	pkg      string
	widgets  []widget
	keyboard string // label of the keyboard hint; "" when no field is focused
	secure   bool
	asleep   bool
	status   Toggles
	clock    string // the status bar's time
	// wallpaper is the seed of the photo behind the home screen, 0 for
	// none (docs/design.md §15).
	wallpaper uint64
	// treeFrom is the first widget of the window that has the focus: a
	// UI dump holds that window only, as uiautomator dumps the focused
	// window (a system dialog's, say); the screenshot shows them all.
	treeFrom int
	// hints: the tree gives fields their hint attribute, as Android 14's
	// uiautomator dump does (the Pixel skin's); the classic tree has none.
	hints bool
}

type builder struct {
	p   *Phone
	v   *view
	s   *screen
	top int // list viewport
	bot int
	y   int // list content cursor
}

func (b *builder) add(w widget) {
	if w.class == "" {
		w.class = "android.widget.TextView"
	}
	if w.depth == 0 {
		w.depth = 1
	}
	if w.bounds == (uitree.Bounds{}) {
		w.bounds = w.full
	}
	if w.id != "" && !w.tag && !strings.Contains(w.id, ":id/") {
		w.id = cmp.Or(w.pkg, b.s.pkg) + ":id/" + w.id
	}
	b.s.widgets = append(b.s.widgets, w)
}

func (b *builder) appBar(title string, up bool) {
	if up {
		b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "Navigate up", clickable: true,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: b.p.back})
	}
	x := 48
	if up {
		x = 160
	}
	b.add(widget{kind: kAppBar, text: title, id: "title", full: uitree.Bounds{X1: x, Y1: statusBarH, X2: b.s.w - 48, Y2: contentTop}})
}

// list starts a scrollable list between top and bot and returns the index
// of its container widget; rows follow with item, then endList.
func (b *builder) list(top, bot int) int {
	b.top, b.bot, b.y = top, bot, 0
	b.add(widget{kind: kList, class: "androidx.recyclerview.widget.RecyclerView", full: uitree.Bounds{X1: 0, Y1: top, X2: b.s.w, Y2: bot}, scrollOf: b.v})
	return len(b.s.widgets) - 1
}

// item places a list child at x1..x2 and y1..y2 relative to the current
// row (b.y), clipped to the list; children wholly outside it are left out.
func (b *builder) item(w widget, x1, y1, x2, y2 int) {
	off := b.top + b.y - b.v.scroll
	w.full = uitree.Bounds{X1: x1, Y1: off + y1, X2: x2, Y2: off + y2}
	vis := w.full
	vis.Y1, vis.Y2 = max(vis.Y1, b.top), min(vis.Y2, b.bot)
	if vis.Y2 <= vis.Y1 {
		return
	}
	w.bounds = vis
	w.depth = max(w.depth, 2) // a row's own children sit deeper
	b.add(w)
}

func (b *builder) endList(idx int) {
	viewport := b.bot - b.top
	maxScroll := max(0, b.y-viewport)
	if b.v.scroll > maxScroll {
		// Content shrank: clamp and lay the rows out again.
		b.v.scroll = maxScroll
	}
	lw := &b.s.widgets[idx]
	lw.maxScroll = maxScroll
	lw.scrollable = maxScroll > 0
}

// layout describes the current screen. It may clamp the top view's scroll.
func (p *Phone) layout() *screen {
	v := p.top()
	s := &screen{w: p.lw, h: p.lh, density: p.cfg.Density, pkg: p.pkg(v.app), status: p.st.Toggles, asleep: !p.st.Awake, clock: p.clockText(), hints: p.pixel()}
	b := &builder{p: p, v: v, s: s}
	full := uitree.Bounds{X2: s.w, Y2: s.h}
	if p.life.locked {
		s.pkg = pkgSystemUI
		s.widgets = append(s.widgets, widget{kind: kFrame, class: "android.widget.FrameLayout", full: full, bounds: full})
		if p.life.bouncer {
			p.layoutBouncer(b)
		} else {
			p.layoutKeyguard(b)
		}
		return s
	}
	s.widgets = append(s.widgets, widget{kind: kFrame, class: "android.widget.FrameLayout", full: full, bounds: full})
	switch v.app {
	case pkgSettings:
		switch p.cfg.Skin {
		case SkinPixel:
			p.layoutPixelSettings(b)
		case SkinMIUI:
			p.layoutMIUISettings(b)
		case SkinOneUI:
			p.layoutOneUISettings(b)
		default:
			p.layoutSettings(b)
		}
	case pkgContacts:
		p.layoutContacts(b)
	case pkgMessages:
		p.layoutMessages(b)
	case pkgClock:
		if p.pixel() {
			p.layoutPixelClock(b)
			break
		}
		if p.vendorClock(b) {
			break
		}
		p.layoutClock(b)
	case pkgNotes:
		if p.pixel() {
			p.layoutPixelNotes(b)
			break
		}
		if p.vendorNotes(b) {
			break
		}
		p.layoutNotes(b)
	case pkgBank:
		p.layoutBank(b)
		s.secure = true
	default:
		p.layoutLauncher(b)
		s.wallpaper = p.wallpaper
	}
	if v.popup != "" {
		// Modal: a full-screen scrim takes every tap outside the dialog.
		b.add(widget{kind: kFrame, class: "android.view.View", id: "scrim", clickable: true, full: full, tap: func() {}})
		top := s.h/2 - 300
		b.add(widget{kind: kText, text: v.popup, id: "popup_message", full: uitree.Bounds{X1: 96, Y1: top, X2: s.w - 96, Y2: top + 300}})
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Not now", id: "popup_dismiss", clickable: true,
			full: uitree.Bounds{X1: s.w/2 - 240, Y1: top + 340, X2: s.w/2 + 240, Y2: top + 500}, tap: func() { v.popup = "" }})
	}
	if p.shade.open {
		p.layoutShade(b)
	}
	p.overlays(b)
	if v.focus != "" && p.life.dialog == nil {
		s.keyboard = "Keyboard"
		if p.st.InputMethod == imeADB && p.st.IMEInstalled {
			s.keyboard = "ADB Keyboard {ON}"
		}
	}
	return s
}

// screenNow is the current screen; when layout had to clamp the scroll
// offset it lays out again so rows use the clamped offset.
func (p *Phone) screenNow() *screen {
	v := p.top()
	before := v.scroll
	s := p.layout()
	if v.scroll != before {
		s = p.layout()
	}
	return s
}

// editField adds a text field whose element text is its value, or its
// label while empty (as Android reports a hint).
func (b *builder) editField(id, label, hint string, x1, y1, x2, y2 int) {
	b.field(id, label, hint, false, x1, y1, x2, y2)
}

// passwordField is a text field that hides its text.
func (b *builder) passwordField(id, label, hint string, x1, y1, x2, y2 int) {
	b.field(id, label, hint, true, x1, y1, x2, y2)
}

func (b *builder) field(id, label, hint string, password bool, x1, y1, x2, y2 int) {
	v := b.v
	val := v.fields[id]
	text := val
	if password {
		text = strings.Repeat("•", utf8.RuneCountInString(val))
	}
	if text == "" {
		text = label
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: text, desc: hint, hint: hint, id: id, value: val,
		clickable: true, focused: v.focus == id, full: uitree.Bounds{X1: x1, Y1: y1, X2: x2, Y2: y2}, password: password,
		tap: func() { v.focus = id }})
}

// pixels converts bounds in layout units to screen pixels.
func (s *screen) pixels(b uitree.Bounds) uitree.Bounds {
	if s.density == 0 || s.density == DefaultDensity {
		return b
	}
	px := func(v int) int { return toPixels(v, s.density) }
	return uitree.Bounds{X1: px(b.X1), Y1: px(b.Y1), X2: px(b.X2), Y2: px(b.Y2)}
}

// elements converts a screen to its uiautomator tree.
func (s *screen) elements() []uitree.Element {
	out := make([]uitree.Element, 0, len(s.widgets))
	for _, w := range s.widgets[s.treeFrom:] {
		out = append(out, uitree.Element{
			Class: w.class, Package: cmp.Or(w.pkg, s.pkg), Text: w.text, Desc: w.desc, ResourceID: w.id, Bounds: s.pixels(w.bounds),
			Clickable: w.clickable, Checkable: w.checkable, Checked: w.checked, Enabled: !w.disabled,
			Focused: w.focused, Scrollable: w.scrollable, Depth: w.depth, Password: w.password,
		})
		if s.hints && w.kind == kEdit {
			out[len(out)-1].Hint = w.hint
		}
	}
	return out
}
