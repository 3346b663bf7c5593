package phonesim

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Clock (docs/phones.md#skins): DeskClock's Alarm tab on
// the same alarms the classic Clock shows. A row follows AOSP DeskClock's
// res/layout/alarm_time_collapsed.xml (digital_clock of
// alarm_time_summary.xml, the onoff switch without text, label,
// upcoming_instance_label, the arrow "Expand alarm") and, expanded,
// res/layout/alarm_time_expanded.xml (repeat_onoff, edit_label, delete,
// the arrow "Collapse alarm"); the add button is desk_clock.xml's fab,
// "Add alarm". A new alarm's time is picked in the framework's
// TimePickerDialog: the dial of time_picker_material.xml (hours, minutes,
// am_label, pm_label, radial_picker with a RadialPickerTouchHelper node per
// number, toggle_mode) or the keyboard of
// time_picker_text_input_material.xml (input_hour, input_minute,
// am_pm_spinner, label_error), with OK (button1) and Cancel (button2).
// A label is typed in DeskClock's LabelDialogFragment: an AlertDialog
// titled "Label" holding one EditText.

// Pages of the Pixel Clock's dialogs, reported in State().Screen.Page.
const (
	pageTimePicker = "time_picker"
	pageAlarmLabel = "alarm_label"
)

// Strings of the framework's time picker (core/res/res/values/strings.xml).
const (
	toTextMode  = "Switch to text input mode for the time input."
	toClockMode = "Switch to clock mode for the time input."
	fieldHour   = "android:id/input_hour"
	fieldMinute = "android:id/input_minute"
)

// Heights of an alarm row, collapsed and expanded.
const (
	alarmRowH  = 330
	alarmOpenH = 640
	clockTabsH = 220
	// alarmListPadBottom is the list's bottom padding: the fab's height and
	// its margins.
	alarmListPadBottom = 300
)

// time12 is an "HH:MM" time as a 12-hour clock shows it: "7:00 AM".
func time12(hhmm string) string {
	h, err1 := strconv.Atoi(hhmm[:2])
	m, err2 := strconv.Atoi(hhmm[3:])
	if len(hhmm) != 5 || err1 != nil || err2 != nil {
		return hhmm
	}
	ap := "AM"
	if h >= 12 {
		ap = "PM"
	}
	if h = h % 12; h == 0 {
		h = 12
	}
	return fmt.Sprintf("%d:%02d %s", h, m, ap)
}

func (p *Phone) layoutPixelClock(b *builder) {
	v := b.v
	if v.page == pageTimePicker || v.page == pageAlarmLabel {
		if len(p.stack) >= 2 {
			under := *b
			under.v = p.stack[len(p.stack)-2]
			p.layoutPixelAlarms(&under)
		}
		if v.page == pageTimePicker {
			p.layoutTimePicker(b)
		} else {
			p.layoutLabelDialog(b)
		}
		return
	}
	p.layoutPixelAlarms(b)
}

// layoutPixelAlarms is the Alarm tab: the list of alarms, the fab and the
// tabs. The list view's index is the expanded alarm, -1 for none.
func (p *Phone) layoutPixelAlarms(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	b.add(widget{kind: kAppBar, text: "Alarm", id: "action_bar_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop, h-clockTabsH)
	b.s.widgets[li].id = p.pkg(pkgClock) + ":id/alarms_recycler_view"
	for i := range p.st.Alarms {
		a := &p.st.Alarms[i]
		open := v.index == i
		rh := alarmRowH
		if open {
			rh = alarmOpenH
		}
		toggle := func() {
			if v.index == i {
				v.index = -1
			} else {
				v.index = i
			}
		}
		b.item(widget{kind: kRow, class: "android.view.ViewGroup", clickable: true, tap: toggle}, 0, 0, w, rh)
		b.item(widget{kind: kBigText, text: time12(a.Time), id: "digital_clock", depth: 3}, 72, 30, w-300, 170)
		b.item(widget{kind: kSwitch, class: "android.widget.Switch", id: "onoff", checkable: true, checked: a.Enabled, clickable: true, depth: 3,
			tap: func() { a.Enabled = !a.Enabled }}, w-260, 50, w-72, 150)
		arrow := widget{kind: kButton, class: "android.widget.ImageButton", id: "arrow", desc: "Expand alarm", clickable: true, depth: 3, tap: toggle}
		if !open {
			y := 180
			if a.Label != "" {
				b.item(widget{kind: kText, text: a.Label, id: "label", depth: 3}, 72, y, w-260, y+60)
				y += 60
			}
			if a.Enabled {
				b.item(widget{kind: kSubText, text: p.upcoming(a.Time), id: "upcoming_instance_label", depth: 3}, 72, y, w-260, y+60)
			}
			b.item(arrow, w-200, 190, w-72, 310)
			b.y += rh
			continue
		}
		b.item(widget{kind: kButton, class: "android.widget.CheckBox", text: "Repeat", id: "repeat_onoff", checkable: true, clickable: true, depth: 3,
			tap: func() {}}, 72, 190, 420, 310)
		label := a.Label
		if label == "" {
			label = "Label" // the hint an empty TextView reports
		}
		b.item(widget{kind: kRow, text: label, id: "edit_label", clickable: true, depth: 3,
			tap: func() { p.openLabelDialog(i) }}, 72, 330, w-72, 460)
		b.item(widget{kind: kButton, class: "android.widget.Button", text: "Delete", id: "delete", clickable: true, depth: 3,
			tap: func() {
				p.st.Alarms = append(p.st.Alarms[:i], p.st.Alarms[i+1:]...)
				v.index = -1
			}}, 72, 500, 420, 620)
		arrow.desc = "Collapse alarm"
		b.item(arrow, w-200, 500, w-72, 620)
		b.y += rh
	}
	// The list pads its end past the fab (alarm_clock.xml gives
	// alarms_recycler_view a bottom padding and clipToPadding="false"), so
	// the last row scrolls clear of the fab rather than under it.
	b.y += alarmListPadBottom
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.ImageButton", id: "fab", desc: "Add alarm", clickable: true, color: 0x3367d6,
		full: uitree.Bounds{X1: w/2 - 110, Y1: h - clockTabsH - 260, X2: w/2 + 110, Y2: h - clockTabsH - 40},
		tap:  func() { p.openTimePicker() }})
	tabs := []string{"Alarm", "Clock", "Timer", "Stopwatch", "Bedtime"}
	for i, t := range tabs {
		x1 := i * w / len(tabs)
		b.add(widget{kind: kRow, class: "android.widget.FrameLayout", desc: t, clickable: true, checked: i == 0,
			full: uitree.Bounds{X1: x1, Y1: h - clockTabsH, X2: x1 + w/len(tabs), Y2: h}, tap: func() {}})
		b.add(widget{kind: kSubText, text: t, depth: 2, full: uitree.Bounds{X1: x1, Y1: h - clockTabsH + 120, X2: x1 + w/len(tabs), Y2: h - 30}})
	}
}

// upcoming is when an enabled alarm rings next, as its row says it.
func (p *Phone) upcoming(hhmm string) string {
	if p.cfg.Life.On() && hhmm > p.life.now.Format("15:04") {
		return "Today"
	}
	return "Tomorrow"
}

// openTimePicker shows the time picker for a new alarm, on the dial, at
// the phone's time as DeskClock opens it.
func (p *Phone) openTimePicker() {
	t := newView(pkgClock, pageTimePicker, "")
	now := p.clockText()
	h, _ := strconv.Atoi(now[:2])
	t.fields["ampm"] = "AM"
	if h >= 12 {
		t.fields["ampm"] = "PM"
	}
	if h = h % 12; h == 0 {
		h = 12
	}
	t.fields[fieldHour], t.fields[fieldMinute] = strconv.Itoa(h), now[3:]
	t.fields["mode"], t.fields["sel"] = "dial", "hour"
	p.push(t)
}

// pickedTime is the time a picker's fields hold as "HH:MM", false when
// they hold none.
func pickedTime(f map[string]string) (string, bool) {
	h, err1 := strconv.Atoi(strings.TrimSpace(f[fieldHour]))
	m, err2 := strconv.Atoi(strings.TrimSpace(f[fieldMinute]))
	if err1 != nil || err2 != nil || h < 1 || h > 12 || m < 0 || m > 59 {
		return "", false
	}
	h %= 12
	if f["ampm"] == "PM" {
		h += 12
	}
	return fmt.Sprintf("%02d:%02d", h, m), true
}

// dialog adds a dialog window's scrim and card; the tree holds the
// dialog's window only, as uiautomator dumps the focused window.
func (b *builder) dialog(card uitree.Bounds) {
	b.add(widget{kind: kScrim, class: "android.view.View", clickable: true, full: uitree.Bounds{X2: b.s.w, Y2: b.s.h}, tap: func() {}})
	b.s.treeFrom = len(b.s.widgets)
	b.add(widget{kind: kDialog, class: "android.widget.FrameLayout", full: card})
}

// dialogButtons adds an AlertDialog's Cancel (button2) and OK (button1).
func (b *builder) dialogButtons(card uitree.Bounds, y int, cancel, ok func()) {
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "Cancel", id: "android:id/button2", clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X2 - 520, Y1: y, X2: card.X2 - 290, Y2: y + 130}, tap: cancel})
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "OK", id: "android:id/button1", clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X2 - 270, Y1: y, X2: card.X2 - 40, Y2: y + 130}, tap: ok})
}

func (p *Phone) layoutTimePicker(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	f := v.fields
	text := f["mode"] == "text"
	top := h/2 - 900
	if text {
		top = h/2 - 420
	}
	card := uitree.Bounds{X1: 60, Y1: top, X2: w - 60, Y2: h - top}
	b.dialog(card)
	ampm := func(x1, y1 int) {
		for i, ap := range []string{"AM", "PM"} {
			id := "android:id/am_label"
			if ap == "PM" {
				id = "android:id/pm_label"
			}
			b.add(widget{kind: kButton, class: "android.widget.CheckedTextView", text: ap, id: id, checkable: true, checked: f["ampm"] == ap,
				clickable: true, depth: 3, full: uitree.Bounds{X1: x1, Y1: y1 + i*110, X2: x1 + 180, Y2: y1 + 100 + i*110},
				tap: func() { f["ampm"] = ap }})
		}
	}
	if text {
		b.add(widget{kind: kText, text: "Type in time", id: "android:id/top_label", depth: 2,
			full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 40, X2: card.X2 - 60, Y2: top + 120}})
		b.add(widget{kind: kHidden, class: "android.widget.RelativeLayout", id: "android:id/input_header", depth: 2,
			full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 150, X2: card.X2 - 60, Y2: top + 420}})
		b.field(fieldHour, "", "", false, card.X1+60, top+160, card.X1+300, top+320)
		b.s.widgets[len(b.s.widgets)-1].depth = 3
		b.add(widget{kind: kText, text: ":", id: "android:id/input_separator", depth: 3,
			full: uitree.Bounds{X1: card.X1 + 300, Y1: top + 160, X2: card.X1 + 360, Y2: top + 320}})
		b.field(fieldMinute, "", "", false, card.X1+360, top+160, card.X1+600, top+320)
		b.s.widgets[len(b.s.widgets)-1].depth = 3
		b.add(widget{kind: kButton, class: "android.widget.Spinner", id: "android:id/am_pm_spinner", clickable: true, depth: 3,
			full: uitree.Bounds{X1: card.X1 + 640, Y1: top + 180, X2: card.X2 - 60, Y2: top + 300},
			tap:  func() { f["spinner"] = "open" }})
		b.add(widget{kind: kText, text: f["ampm"], id: "android:id/text1", depth: 4,
			full: uitree.Bounds{X1: card.X1 + 660, Y1: top + 190, X2: card.X2 - 80, Y2: top + 290}})
		b.add(widget{kind: kSubText, text: "hour", id: "android:id/label_hour", depth: 3,
			full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 330, X2: card.X1 + 300, Y2: top + 400}})
		b.add(widget{kind: kSubText, text: "minute", id: "android:id/label_minute", depth: 3,
			full: uitree.Bounds{X1: card.X1 + 360, Y1: top + 330, X2: card.X1 + 600, Y2: top + 400}})
		if f["error"] != "" {
			b.add(widget{kind: kText, text: "Enter a valid time", id: "android:id/label_error", depth: 3,
				full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 410, X2: card.X2 - 60, Y2: top + 480}})
		}
	} else {
		header := uitree.Bounds{X1: card.X1 + 60, Y1: top + 60, X2: card.X2 - 60, Y2: top + 340}
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "android:id/time_header", depth: 2, full: header})
		sel := func(s string) func() { return func() { f["sel"] = s } }
		b.add(widget{kind: kBigText, text: f[fieldHour], id: "android:id/hours", clickable: true, checked: f["sel"] == "hour", depth: 3,
			full: uitree.Bounds{X1: header.X1, Y1: header.Y1, X2: header.X1 + 300, Y2: header.Y2}, tap: sel("hour")})
		b.add(widget{kind: kBigText, text: ":", id: "android:id/separator", depth: 3,
			full: uitree.Bounds{X1: header.X1 + 300, Y1: header.Y1, X2: header.X1 + 360, Y2: header.Y2}})
		b.add(widget{kind: kBigText, text: f[fieldMinute], id: "android:id/minutes", clickable: true, checked: f["sel"] == "minute", depth: 3,
			full: uitree.Bounds{X1: header.X1 + 360, Y1: header.Y1, X2: header.X1 + 660, Y2: header.Y2}, tap: sel("minute")})
		ampm(header.X2-200, header.Y1+30)
		p.layoutDial(b, card, top+420)
	}
	toggle := toTextMode
	if text {
		toggle = toClockMode
	}
	by := card.Y2 - 170
	b.add(widget{kind: kButton, class: "android.widget.ImageButton", id: "android:id/toggle_mode", desc: toggle, clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X1 + 40, Y1: by, X2: card.X1 + 170, Y2: by + 130},
		tap: func() {
			if text {
				f["mode"], v.focus = "dial", ""
			} else {
				f["mode"], v.focus = "text", fieldHour
			}
		}})
	b.dialogButtons(card, by, p.back, func() {
		t, ok := pickedTime(f)
		if !ok {
			f["error"] = "1"
			return
		}
		p.back()
		p.st.Alarms = append(p.st.Alarms, Alarm{Time: t, Enabled: true})
		sortAlarms(p.st.Alarms)
		list := p.top()
		for i := len(p.st.Alarms) - 1; i >= 0; i-- {
			if a := p.st.Alarms[i]; a.Time == t && a.Label == "" {
				// DeskClock expands the alarm it added and scrolls
				// the list to it (AlarmUpdateHandler.asyncAddAlarm
				// sets the ScrollHandler's stable id, and
				// AlarmClockFragment scrolls that row to the list's
				// top), so a new alarm past the list's edge is in
				// sight; endList clamps the scroll at the list's end.
				list.index = i
				list.scroll = i * alarmRowH
				break
			}
		}
	})
	if text && f["spinner"] == "open" {
		// The spinner's drop-down: a list window over the dialog.
		x1, y1 := card.X1+640, top+300
		b.s.treeFrom = len(b.s.widgets)
		b.add(widget{kind: kDialog, class: "android.widget.ListView", full: uitree.Bounds{X1: x1, Y1: y1, X2: card.X2 - 60, Y2: y1 + 260}})
		for i, ap := range []string{"AM", "PM"} {
			b.add(widget{kind: kRow, class: "android.widget.CheckedTextView", text: ap, id: "android:id/text1", checkable: true, checked: f["ampm"] == ap,
				clickable: true, depth: 2, full: uitree.Bounds{X1: x1, Y1: y1 + i*130, X2: card.X2 - 60, Y2: y1 + 130 + i*130},
				tap: func() { f["ampm"], f["spinner"] = ap, "" }})
		}
	}
}

// layoutDial is the RadialTimePickerView: a node per number on its ring
// (the hours 1-12, or the minutes 0-55 by fives), each described by its
// number. Tapping an hour sets it and turns the dial to the minutes, as
// the framework's picker does; tapping a minute sets it.
func (p *Phone) layoutDial(b *builder, card uitree.Bounds, top int) {
	f := b.v.fields
	cx, r := (card.X1+card.X2)/2, (card.X2-card.X1)/2-120
	cy := top + r + 60
	b.add(widget{kind: kPanel, class: "android.view.View", id: "android:id/radial_picker", depth: 2,
		full: uitree.Bounds{X1: cx - r - 60, Y1: cy - r - 60, X2: cx + r + 60, Y2: cy + r + 60}})
	for k := range 12 {
		n, label := k*5, fmt.Sprintf("%d", k*5)
		tap := func() { f[fieldMinute] = fmt.Sprintf("%02d", n) }
		if f["sel"] == "hour" {
			n = cmp.Or(k, 12)
			label = strconv.Itoa(n)
			tap = func() { f[fieldHour], f["sel"] = strconv.Itoa(n), "minute" }
		}
		a := float64(k) * math.Pi / 6
		x, y := cx+int(float64(r)*math.Sin(a)), cy-int(float64(r)*math.Cos(a))
		b.add(widget{kind: kDot, class: "android.widget.RadialTimePickerView$RadialPickerTouchHelper", desc: label, clickable: true, depth: 3,
			full: uitree.Bounds{X1: x - 60, Y1: y - 60, X2: x + 60, Y2: y + 60}, tap: tap})
	}
}

// openLabelDialog shows the label dialog for alarm i, its field holding
// the label and the focus.
func (p *Phone) openLabelDialog(i int) {
	d := newView(pkgClock, pageAlarmLabel, "")
	d.index = i
	d.fields["label"] = p.st.Alarms[i].Label
	d.focus = "label"
	p.push(d)
}

func (p *Phone) layoutLabelDialog(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	top := h/2 - 320
	card := uitree.Bounds{X1: 72, Y1: top, X2: w - 72, Y2: top + 560}
	b.dialog(card)
	b.add(widget{kind: kText, text: "Label", id: "android:id/alertTitle", depth: 2,
		full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 50, X2: card.X2 - 60, Y2: top + 140}})
	val := v.fields["label"]
	text := val
	if text == "" {
		text = "Label" // the EditText's hint
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: text, hint: "Label", value: val, clickable: true, focused: v.focus == "label", depth: 2,
		full: uitree.Bounds{X1: card.X1 + 60, Y1: top + 180, X2: card.X2 - 60, Y2: top + 320}, tap: func() { v.focus = "label" }})
	b.dialogButtons(card, top+390, p.back, func() {
		if v.index >= 0 && v.index < len(p.st.Alarms) {
			p.st.Alarms[v.index].Label = strings.TrimSpace(v.fields["label"])
		}
		p.back()
	})
}
