package phonesim

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Clock (docs/phones.md#skins): Google Clock's Alarm tab
// on the same alarms the classic Clock shows, as Google Clock dumps it on a
// Pixel-size phone in English (testdata/real/SOURCES.md):
//
//   - the list, Hemanth0411/Navi_Agent @ 53c28e90ebf0 :
//     apps/com_google_android_deskclock/demos/exploration_driven_2025-05-16_13-42-55/xmls/1.xml:
//     alarm_recycler_view holding a CardView per alarm; in its
//     alarm_card_layout the time TextView digital_clock, whose text and
//     description are "5:30\u200aAM" (a hair space before AM), the arrow
//     described "Expand 5:30 AM alarm", alarm_info with the
//     upcoming_instance_label ("Today", "Not scheduled") or days_of_week,
//     and the Switch onoff without text described "5:30 AM alarm", below
//     the arrow on the info line; the fab a Button described "Add alarm"
//     in fab_container; the bottom navigation_bar's tabs described
//     Alarm, Clock, Timer, Stopwatch, Bedtime;
//   - an expanded card, the same repository's
//     task_driven_2025-05-16_13-16-29/xmls/4_after_xml.xml and
//     task_driven_2025-05-16_13-22-56/xmls/1_after_xml.xml: edit_label
//     first ("Add label", described "No label specified", when the alarm
//     has none), the arrow "Collapse 5:30 PM alarm", the time,
//     repeat_summary, the Switch, the day CheckBoxes S M T W T F S
//     described Sunday..Saturday, Schedule alarm, the ringtone, the
//     Vibrate CheckBox, Google Assistant Routine and the Delete Button;
//   - the time picker, Google Clock's Material time picker dialog
//     (task_driven_2025-05-16_13-22-56/xmls/1.xml on the hours,
//     task_driven_2025-05-16_12-59-22/xmls/10_after_xml.xml on the
//     minutes, task_driven_2025-05-16_12-53-10/xmls/3_after_xml.xml and
//     6_after_xml.xml typing): header_title "Select time", the hour and
//     minute chips material_hour_tv "07" (described "7 o'clock") and
//     material_minute_tv "30" ("30 minutes"), the AM/PM toggle described
//     "Select AM or PM" with its two CompoundButtons, the clock face's
//     numbers as TextViews described "7 o'clock" or "15 minutes", the mode
//     button described "Switch to text input mode for the time input.",
//     Cancel and OK; typing, the field with the focus is an EditText in
//     material_hour_text_input or material_minute_text_input above its
//     caption Hour or Minute, the other a chip.
//
// No dump shows the label dialog: it follows AOSP DeskClock's
// LabelDialogFragment, an AlertDialog titled "Label" holding one EditText.
// Nor one of a collapsed card with a label: its label sits where the
// expanded card's edit_label does, above the time.

// Pages of the Pixel Clock's dialogs, reported in State().Screen.Page.
const (
	pageTimePicker = "time_picker"
	pageAlarmLabel = "alarm_label"
)

// Strings of Google Clock's Material time picker.
const (
	toTextMode  = "Switch to text input mode for the time input."
	toClockMode = "Switch to clock mode for the time input."
	// The picker's fields, keys of the view's fields; the tree shows the
	// EditTexts without an id, as the real picker does.
	fieldHour   = "hour"
	fieldMinute = "minute"
)

// hairSpace is what Google Clock writes between a time and AM or PM.
const hairSpace = "\u200a"

// Heights of an alarm card and its parts, and the gap between cards.
const (
	cardGap    = 20
	cardTimeH  = 175 // the time's line, below the card's top margin
	cardTopPad = 40
	cardInfoH  = 120 // alarm_info: the upcoming or days line with the switch
	cardLabelH = 80  // a collapsed card's label line
	cardOpenH  = 1160
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

// clockShown is a time as Google Clock's digital_clock writes it, with a
// hair space before AM or PM: "7:00\u200aAM".
func clockShown(hhmm string) string { return strings.Replace(time12(hhmm), " ", hairSpace, 1) }

// cardH is the height of alarm a's card, collapsed or expanded.
func cardH(a Alarm, open bool) int {
	if open {
		return cardOpenH
	}
	h := cardTopPad + cardTimeH + cardInfoH
	if a.Label != "" {
		h += cardLabelH
	}
	return h
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

// layoutPixelAlarms is the Alarm tab: the list of alarm cards, the fab and
// the tabs. The list view's index is the expanded alarm, -1 for none.
func (p *Phone) layoutPixelAlarms(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	b.add(widget{kind: kAppBar, text: "Alarm", id: "action_bar_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 160, Y2: contentTop}})
	b.add(widget{kind: kButton, class: "android.widget.ImageView", id: "overflow_action_button", desc: "More options", clickable: true,
		full: uitree.Bounds{X1: w - 120, Y1: statusBarH, X2: w, Y2: contentTop}, tap: func() {}})
	li := b.list(contentTop, h-clockTabsH)
	b.s.widgets[li].id = p.pkg(pkgClock) + ":id/alarm_recycler_view"
	x1, x2 := 40, w-40 // the card
	for i := range p.st.Alarms {
		a := &p.st.Alarms[i]
		open := v.index == i
		ch := cardH(*a, open)
		toggle := func() {
			if v.index == i {
				v.index = -1
			} else {
				v.index = i
			}
		}
		plain := time12(a.Time)
		desc := " Alarm"
		if a.Label != "" {
			desc = a.Label + " Alarm"
		}
		b.item(widget{kind: kRow, class: "androidx.cardview.widget.CardView", desc: desc, clickable: true, tap: toggle}, x1, 0, x2, ch)
		b.item(widget{kind: kHidden, class: "android.view.ViewGroup", id: "alarm_card_layout", depth: 3}, x1, 0, x2, ch)
		arrow := widget{kind: kButton, class: "android.widget.ImageButton", id: "arrow", desc: "Expand " + plain + " alarm", clickable: true, depth: 4, tap: toggle}
		sw := widget{kind: kSwitch, class: "android.widget.Switch", id: "onoff", desc: plain + " alarm", checkable: true, checked: a.Enabled, clickable: true, depth: 4,
			tap: func() { a.Enabled = !a.Enabled }}
		clock := widget{kind: kBigText, text: clockShown(a.Time), desc: clockShown(a.Time), id: "digital_clock", clickable: true, depth: 4, tap: toggle}
		y := 0
		if open {
			label, ldesc := a.Label, a.Label
			if label == "" {
				label, ldesc = "Add label", "No label specified"
			}
			b.item(widget{kind: kText, text: label, desc: ldesc, id: "edit_label", clickable: true, depth: 4,
				tap: func() { p.openLabelDialog(i) }}, 80, 0, w-196, 120)
			arrow.desc = "Collapse " + plain + " alarm"
			b.item(arrow, w-196, 0, w-96, 120)
			b.item(clock, 80, 120, 400, 295)
			y = 295
		} else {
			if a.Label != "" {
				b.item(widget{kind: kText, text: a.Label, id: "label", depth: 4}, 80, cardTopPad, w-196, cardTopPad+cardLabelH-10)
				y = cardLabelH
			}
			b.item(arrow, w-196, 0, w-96, 120)
			b.item(clock, 80, y+cardTopPad, 400, y+cardTopPad+cardTimeH)
			y += cardTopPad + cardTimeH
		}
		b.item(widget{kind: kHidden, class: "android.view.ViewGroup", id: "alarm_info", depth: 4}, 80, y, w-224, y+cardInfoH)
		switch {
		case open:
			s := "Not scheduled"
			if a.Enabled {
				s = p.upcoming(a.Time)
			}
			b.item(widget{kind: kSubText, text: s, desc: s, id: "repeat_summary", depth: 5}, 80, y+35, w-224, y+87)
		default:
			b.item(widget{kind: kHidden, class: "android.view.View", depth: 5}, 80, y+35, w-224, y+87)
			s := "Not scheduled"
			if a.Enabled {
				s = p.upcoming(a.Time)
			}
			b.item(widget{kind: kSubText, text: s, id: "upcoming_instance_label", depth: 5}, 80, y+35, 340, y+87)
		}
		b.item(sw, w-224, y, w-84, y+cardInfoH)
		y += cardInfoH
		if !open {
			b.y += ch + cardGap
			continue
		}
		b.item(widget{kind: kHidden, class: "android.view.ViewGroup", id: "repeat_days", depth: 4}, 70, y, w-70, y+120)
		for d, name := range []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"} {
			dx := 70 + d*(w-140-120)/6
			b.item(widget{kind: kButton, class: "android.widget.CheckBox", text: name[:1], desc: name, id: fmt.Sprintf("day_button_%d", d),
				checkable: true, clickable: true, depth: 5, tap: func() {}}, dx, y, dx+120, y+120)
		}
		y += 120
		b.item(widget{kind: kHidden, class: "android.view.ViewGroup", id: "blackout_item", clickable: true, depth: 4, tap: func() {}}, 80, y, w-60, y+120)
		b.item(widget{kind: kText, text: "Schedule alarm", id: "blackout_title", clickable: true, depth: 5, tap: func() {}}, 80, y, 450, y+120)
		b.item(widget{kind: kHidden, class: "android.widget.ImageButton", id: "blackout_action", desc: "remove scheduled date", depth: 5}, w-180, y, w-60, y+120)
		y += 120
		b.item(widget{kind: kText, text: "Default (Cesium)", desc: "Ringtone Default (Cesium)", id: "choose_ringtone", clickable: true, depth: 4, tap: func() {}}, 80, y, w-96, y+120)
		y += 120
		b.item(widget{kind: kButton, class: "android.widget.CheckBox", text: "Vibrate", id: "vibrate_onoff", checkable: true, checked: true, clickable: true, depth: 4,
			tap: func() {}}, 80, y, w-96, y+120)
		y += 120
		b.item(widget{kind: kText, text: "Google Assistant Routine", id: "workflow_label", clickable: true, depth: 4, tap: func() {}}, 80, y, w-96, y+120)
		y += 120
		b.item(widget{kind: kButton, class: "android.widget.Button", text: "Delete", id: "delete", clickable: true, depth: 4,
			tap: func() {
				p.st.Alarms = append(p.st.Alarms[:i], p.st.Alarms[i+1:]...)
				v.index = -1
			}}, 80, y, 336, y+120)
		b.y += ch + cardGap
	}
	// The list pads its end past the fab, so the last card scrolls clear
	// of the fab rather than under it.
	b.y += alarmListPadBottom
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.Button", id: "fab", desc: "Add alarm", clickable: true, color: 0x3367d6,
		full: uitree.Bounds{X1: w/2 - 120, Y1: h - clockTabsH - 280, X2: w/2 + 120, Y2: h - clockTabsH - 40},
		tap:  func() { p.openTimePicker() }})
	tabs := []string{"Alarm", "Clock", "Timer", "Stopwatch", "Bedtime"}
	for i, t := range tabs {
		x1 := i * w / len(tabs)
		b.add(widget{kind: kRow, class: "android.widget.FrameLayout", desc: t, id: "tab_menu_" + strings.ToLower(t), clickable: i != 0,
			full: uitree.Bounds{X1: x1, Y1: h - clockTabsH, X2: x1 + w/len(tabs), Y2: h - 30}, tap: func() {}})
		id := "navigation_bar_item_small_label_view"
		if i == 0 {
			id = "navigation_bar_item_large_label_view"
		}
		b.add(widget{kind: kSubText, text: t, id: id, depth: 2, full: uitree.Bounds{X1: x1, Y1: h - clockTabsH + 120, X2: x1 + w/len(tabs), Y2: h - 30}})
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
// the phone's time, as the app opens it.
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

// twoDigits is a picker field's number as its chip shows it, "07"; the
// text itself when it is no number.
func twoDigits(s string) string {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return s
	}
	return fmt.Sprintf("%02d", n)
}

// chipDesc is how the Material picker describes an hour or a minute: "7
// o'clock", "30 minutes".
func chipDesc(field, s string) string {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return ""
	}
	if field == fieldHour {
		return fmt.Sprintf("%d o'clock", n)
	}
	return fmt.Sprintf("%d minutes", n)
}

func (p *Phone) layoutTimePicker(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	f := v.fields
	text := f["mode"] == "text"
	half := 630 // half the dialog's height
	if text {
		half = 285
	}
	card := uitree.Bounds{X1: 124, Y1: h/2 - half, X2: w - 124, Y2: h/2 + half}
	b.dialog(card)
	cx1, cx2 := card.X1+60, card.X2-60 // the content's edges
	top := card.Y1
	b.add(widget{kind: kSubText, text: "Select time", id: "header_title", depth: 2,
		full: uitree.Bounds{X1: cx1, Y1: top + 40, X2: cx1 + 300, Y2: top + 90}})
	ampm := func(y1 int) {
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "material_clock_period_toggle", desc: "Select AM or PM", depth: 3,
			full: uitree.Bounds{X1: cx2 - 130, Y1: y1, X2: cx2, Y2: y1 + 240}})
		for i, ap := range []string{"AM", "PM"} {
			b.add(widget{kind: kButton, class: "android.widget.CompoundButton", text: ap, id: "material_clock_period_" + strings.ToLower(ap) + "_button",
				checkable: true, checked: f["ampm"] == ap, clickable: true, depth: 4,
				full: uitree.Bounds{X1: cx2 - 130, Y1: y1 + i*120, X2: cx2, Y2: y1 + 120 + i*120},
				tap:  func() { f["ampm"] = ap }})
		}
	}
	hy := top + 120 // the header's top
	if text {
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "material_textinput_timepicker", depth: 2,
			full: uitree.Bounds{X1: cx1, Y1: hy, X2: cx2, Y2: hy + 265}})
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", depth: 3, full: uitree.Bounds{X1: cx1, Y1: hy, X2: cx1 + 540, Y2: hy + 265}})
		for k, field := range []string{fieldHour, fieldMinute} {
			x := cx1 + k*300
			caption, id := "Hour", "material_hour_text_input"
			if field == fieldMinute {
				caption, id = "Minute", "material_minute_text_input"
			}
			if k == 1 {
				b.add(widget{kind: kBigText, text: ":", depth: 4, full: uitree.Bounds{X1: x - 60, Y1: hy + 20, X2: x, Y2: hy + 220}})
			}
			b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", id: id, depth: 4, full: uitree.Bounds{X1: x, Y1: hy + 20, X2: x + 240, Y2: hy + 265}})
			b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", depth: 5, full: uitree.Bounds{X1: x, Y1: hy + 20, X2: x + 240, Y2: hy + 265}})
			b.add(widget{kind: kHidden, class: "android.widget.FrameLayout", depth: 6, full: uitree.Bounds{X1: x, Y1: hy + 20, X2: x + 240, Y2: hy + 220}})
			box := uitree.Bounds{X1: x, Y1: hy + 20, X2: x + 240, Y2: hy + 220}
			if v.focus == field {
				b.add(widget{kind: kEdit, class: "android.widget.EditText", text: f[field], value: f[field], clickable: true, focused: true, depth: 7,
					full: box, tap: func() { v.focus = field }})
			}
			b.add(widget{kind: kSubText, text: caption, id: "material_label", depth: 6,
				full: uitree.Bounds{X1: x, Y1: hy + 220, X2: x + 120, Y2: hy + 265}})
			if v.focus != field {
				// The field without the focus is a chip over it.
				b.add(widget{kind: kBigText, class: "android.view.View", text: twoDigits(f[field]), desc: chipDesc(field, f[field]),
					checkable: true, clickable: true, depth: 5, full: box, tap: func() { v.focus = field }})
			}
		}
		ampm(hy)
	} else {
		b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "material_timepicker_view", depth: 2,
			full: uitree.Bounds{X1: cx1, Y1: hy, X2: cx2, Y2: card.Y2 - 190}})
		b.add(widget{kind: kHidden, class: "android.view.View", id: "material_clock_display_and_toggle", depth: 3,
			full: uitree.Bounds{X1: cx1, Y1: hy, X2: cx2, Y2: hy + 240}})
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "material_clock_display", depth: 3,
			full: uitree.Bounds{X1: cx1, Y1: hy + 20, X2: cx1 + 540, Y2: hy + 220}})
		sel := func(s string) func() { return func() { f["sel"] = s } }
		b.add(widget{kind: kBigText, class: "android.view.View", text: twoDigits(f[fieldHour]), desc: chipDesc(fieldHour, f[fieldHour]), id: "material_hour_tv",
			checkable: true, checked: f["sel"] == "hour", clickable: true, depth: 4,
			full: uitree.Bounds{X1: cx1, Y1: hy + 20, X2: cx1 + 240, Y2: hy + 220}, tap: sel("hour")})
		b.add(widget{kind: kBigText, text: ":", depth: 4, full: uitree.Bounds{X1: cx1 + 240, Y1: hy + 20, X2: cx1 + 300, Y2: hy + 220}})
		b.add(widget{kind: kBigText, class: "android.view.View", text: twoDigits(f[fieldMinute]), desc: chipDesc(fieldMinute, f[fieldMinute]), id: "material_minute_tv",
			checkable: true, checked: f["sel"] == "minute", clickable: true, depth: 4,
			full: uitree.Bounds{X1: cx1 + 300, Y1: hy + 20, X2: cx1 + 540, Y2: hy + 220}, tap: sel("minute")})
		ampm(hy)
		p.layoutDial(b, card, hy+310)
	}
	toggle := toTextMode
	if text {
		toggle = toClockMode
	}
	by := card.Y2 - 130
	b.add(widget{kind: kButton, class: "android.widget.Button", id: "material_timepicker_mode_button", desc: toggle, clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X1 + 30, Y1: by, X2: card.X1 + 150, Y2: by + 120},
		tap: func() {
			if text {
				f["mode"], v.focus = "dial", ""
			} else {
				f["mode"], v.focus = "text", fieldHour
			}
		}})
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "Cancel", id: "material_timepicker_cancel_button", clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X2 - 380, Y1: by, X2: card.X2 - 200, Y2: by + 120}, tap: p.back})
	b.add(widget{kind: kButton, class: "android.widget.Button", text: "OK", id: "material_timepicker_ok_button", clickable: true, depth: 2,
		full: uitree.Bounds{X1: card.X2 - 180, Y1: by, X2: card.X2 - 20, Y2: by + 120}, tap: func() {
			t, ok := pickedTime(f)
			if !ok {
				return // the picker keeps an invalid time's dialog open
			}
			p.back()
			p.st.Alarms = append(p.st.Alarms, Alarm{Time: t, Enabled: true})
			sortAlarms(p.st.Alarms)
			list := p.top()
			for i := len(p.st.Alarms) - 1; i >= 0; i-- {
				if a := p.st.Alarms[i]; a.Time == t && a.Label == "" {
					// The app expands the alarm it added and scrolls the
					// list to it, so a new alarm past the list's edge is
					// in sight; endList clamps the scroll at the list's
					// end.
					list.index = i
					list.scroll = 0
					for _, b := range p.st.Alarms[:i] {
						list.scroll += cardH(b, false) + cardGap
					}
					break
				}
			}
		}})
}

// layoutDial is the Material picker's clock face: a TextView per number
// on its ring (the hours 1-12, or the minutes 00-55 by fives), each
// described "7 o'clock" or "15 minutes". Tapping an hour sets it and turns
// the face to the minutes, as the picker does; tapping a minute sets it.
func (p *Phone) layoutDial(b *builder, card uitree.Bounds, top int) {
	f := b.v.fields
	cx, r := (card.X1+card.X2)/2, 270
	cy := top + r + 50
	b.add(widget{kind: kPanel, class: "android.view.ViewGroup", id: "material_clock_face", depth: 3,
		full: uitree.Bounds{X1: cx - r - 60, Y1: cy - r - 60, X2: cx + r + 60, Y2: cy + r + 60}})
	b.add(widget{kind: kHidden, class: "android.view.View", id: "material_clock_hand", depth: 4,
		full: uitree.Bounds{X1: cx - r - 60, Y1: cy - r - 60, X2: cx + r + 60, Y2: cy + r + 60}})
	for k := range 12 {
		n := k * 5
		label, desc := fmt.Sprintf("%02d", n), fmt.Sprintf("%02d minutes", n)
		tap := func() { f[fieldMinute] = fmt.Sprintf("%02d", n) }
		if f["sel"] == "hour" {
			n = cmp.Or(k, 12)
			label, desc = strconv.Itoa(n), fmt.Sprintf("%d o'clock", n)
			tap = func() { f[fieldHour], f["sel"] = strconv.Itoa(n), "minute" }
		}
		a := float64(k) * math.Pi / 6
		x, y := cx+int(float64(r)*math.Sin(a)), cy-int(float64(r)*math.Cos(a))
		b.add(widget{kind: kDot, text: label, desc: desc, clickable: true, depth: 4,
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
