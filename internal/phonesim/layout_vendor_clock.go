package phonesim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The MIUI and One UI skins' Clock (docs/phones.md#skins): a Xiaomi
// phone's 时钟 (闹钟 tab) and Samsung Clock (Alarm tab) on the same alarms
// the classic Clock shows. The package stays the simulator's Clock
// package on every skin; the ids are the vendor apps' own where a source
// names them.
//
// One UI's list and alarm page follow a Samsung phone's recorded dumps
// (testdata/real/hrxagent-samsung-clock-*-transcribed.xml, SOURCES.md
// there: a card holds alarm_list_item, which holds alarm_item_time and a
// text-less alarm_onoff_switch; Cancel and Save are Buttons described by
// their word with the word in a TextView inside; TestOneUIAlarmListIsTheRealOne,
// TestOneUIAlarmPageIsTheRealOne). That phone writes 24-hour times in
// Chinese; the English look keeps 12-hour times with the mark apart. No
// dump of MIUI's Clock was found. Beyond that the trees follow what public
// test code drives real phones by:
//   - One UI (com.sec.android.app.clockpackage): the Alarm list's cards
//     (alarm_list_cardView), the add button menu_alarm_add described
//     "Add alarm", the edit page's time picker (sesl_timepicker_layout
//     holding the AM/PM NumberPicker and sesl_timepicker_hour_minute_layout
//     holding the hour and minute NumberPickers sesl_timepicker_hour and
//     sesl_timepicker_minute, each showing its value in numberpicker_input:
//     an EditText reading "7, Hour" for the hour, a TextView reading "AM"
//     for AM/PM), the name field alarm_name inside alarm_name_input_layout,
//     and Save (menu_done) and Cancel, as Appium and UiAutomator tests of
//     Samsung Clock name them (public Python Appium locators of a Galaxy's
//     Clock, "ClockLocators", and a UiAutomator ClockTest tapping
//     alarm_floating_btn, alarm_name_box and Menu_Done on an older One UI).
//     A wheel's value tapped opens typing, as Samsung's picker does; a
//     swipe on a wheel turns it. Samsung deletes alarms from the list's
//     select mode, which a long press on a card opens: a CheckBox per
//     card, "N selected" and Delete at the foot.
//   - MIUI (com.android.deskclock): the 闹钟 list's rows (the time, then
//     上午 or 下午, the label, a miuix SlidingButton), the 添加闹钟 "+"
//     button, and the new-alarm page titled 添加闹钟 (编辑闹钟 for a saved
//     alarm) with × (取消) and ✓ (确定) in its bar, the wheels for 上午/下午,
//     the hour and the minute, 重复 (只响一次) and 备注, and 删除闹钟 at the
//     foot of a saved alarm's page, as people describe the app; no source
//     names its ids. A wheel's nodes follow the framework NumberPicker's
//     accessibility tree (the value before, numberpicker_input, the value
//     after), which Appium tests of NumberPickers tap; MIUI's wheels are
//     turned by a swipe or a tap on a neighbouring value, never typed.

const (
	vclockItemH     = 150 // one value of a wheel
	vclockWheelsY   = contentTop + 80
	miuiAddAlarm    = "添加闹钟"
	miuiEditAlarm   = "编辑闹钟"
	miuiDeleteAlarm = "删除闹钟"
	miuiNoteTitle   = "备注"
	oneuiAlarmAdd   = "Add alarm"
	oneuiNameHint   = "Alarm name"
	numberPicker    = "android.widget.NumberPicker"
)

// vendorClock lays out Clock on a vendor skin; ok is false on the others.
func (p *Phone) vendorClock(b *builder) bool {
	switch p.cfg.Skin {
	case SkinMIUI, SkinOneUI:
	default:
		return false
	}
	b.s.hints = true
	if b.v.page == pageNewAlarm {
		p.layoutVendorAlarmEdit(b)
		return true
	}
	if p.cfg.Skin == SkinMIUI {
		p.layoutMIUIAlarms(b)
	} else {
		p.layoutOneUIAlarms(b)
	}
	return true
}

// pageAlarmSelect is One UI's alarm list in select mode.
const pageAlarmSelect = "alarm_select"

// openAlarmSelect opens One UI's select mode with alarm i ticked.
func (p *Phone) openAlarmSelect(i int) {
	v := newView(pkgClock, pageAlarmSelect, "")
	v.fields[strconv.Itoa(i)] = "1"
	p.push(v)
}

// clock12Parts is an "HH:MM" time as a 12-hour clock shows it: "7:00"
// and whether it is after noon.
func clock12Parts(hhmm string) (hm string, pm bool) {
	h, err1 := strconv.Atoi(hhmm[:2])
	if len(hhmm) != 5 || err1 != nil {
		return hhmm, false
	}
	pm = h >= 12
	if h = h % 12; h == 0 {
		h = 12
	}
	return fmt.Sprintf("%d:%s", h, hhmm[3:]), pm
}

// openAlarmEdit opens the edit page of alarm i, or of a new alarm (i < 0)
// set to the phone's time, as both apps open it.
func (p *Phone) openAlarmEdit(i int) {
	e := newView(pkgClock, pageNewAlarm, "")
	e.index = i
	t := p.clockText()
	if i >= 0 && i < len(p.st.Alarms) {
		t = p.st.Alarms[i].Time
		e.fields["label"] = p.st.Alarms[i].Label
	}
	hm, pm := clock12Parts(t)
	h, m, _ := strings.Cut(hm, ":")
	e.fields["hour"], e.fields["minute"], e.fields["ampm"] = h, m, "0"
	if pm {
		e.fields["ampm"] = "1"
	}
	p.push(e)
}

// layoutMIUIAlarms is 时钟's 闹钟 list as people describe MIUI's app (no
// source names its ids): a row per alarm, the "+" 添加闹钟 button.
func (p *Phone) layoutMIUIAlarms(b *builder) {
	w, h := b.s.w, b.s.h
	b.add(widget{kind: kAppBar, text: "闹钟", id: "action_bar_title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
	li := b.list(contentTop, h-bottomBarH)
	for i := range p.st.Alarms {
		a := &p.st.Alarms[i]
		hm, pm := clock12Parts(a.Time)
		mark := "上午"
		if pm {
			mark = "下午"
		}
		b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: func() { p.openAlarmEdit(i) }}, 0, 0, w, rowH)
		b.item(widget{kind: kBigText, text: hm, depth: 3}, 48, 20, 340, 120)
		b.item(widget{kind: kSubText, text: mark, depth: 3}, 350, 50, 480, 120)
		if a.Label != "" {
			b.item(widget{kind: kSubText, text: a.Label, depth: 3}, 48, 120, w-300, 170)
		}
		b.item(widget{kind: kSwitch, class: miuiSlidingButton, checkable: true, checked: a.Enabled, clickable: true, depth: 3,
			tap: func() { a.Enabled = !a.Enabled }}, w-220, 40, w-48, rowH-40)
		b.y += rowH
	}
	b.endList(li)
	b.add(widget{kind: kButton, class: "android.widget.ImageButton", desc: miuiAddAlarm, clickable: true, color: 0x3482ff,
		full: uitree.Bounds{X1: w/2 - 100, Y1: h - bottomBarH + 60, X2: w/2 + 100, Y2: h - bottomBarH + 260},
		tap:  func() { p.openAlarmEdit(-1) }})
}

// layoutOneUIAlarms is Samsung Clock's Alarm list (alarm_list_cardView
// cards, menu_alarm_add, as the Appium locators above name them), or its
// select mode (pageAlarmSelect).
func (p *Phone) layoutOneUIAlarms(b *builder) {
	v, w, h := b.v, b.s.w, b.s.h
	sel := v.page == pageAlarmSelect
	bottom := h
	if sel {
		n := 0
		for i := range p.st.Alarms {
			if v.fields[strconv.Itoa(i)] != "" {
				n++
			}
		}
		b.add(widget{kind: kAppBar, text: fmt.Sprintf("%d selected", n), id: "title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 48, Y2: contentTop}})
		bottom = h - bottomBarH
		b.add(widget{kind: kButton, class: "android.widget.Button", text: "Delete", desc: "Delete", clickable: true,
			full: uitree.Bounds{X1: w/2 - 200, Y1: bottom + 60, X2: w/2 + 200, Y2: bottom + 240},
			tap: func() {
				var keep []Alarm
				for i, a := range p.st.Alarms {
					if v.fields[strconv.Itoa(i)] == "" {
						keep = append(keep, a)
					}
				}
				p.st.Alarms = keep
				p.back()
			}})
	} else {
		b.add(widget{kind: kAppBar, text: "Alarm", id: "title", full: uitree.Bounds{X1: 48, Y1: statusBarH, X2: w - 260, Y2: contentTop}})
		b.add(widget{kind: kButton, class: "android.widget.Button", desc: oneuiAlarmAdd, id: "menu_alarm_add", clickable: true,
			full: uitree.Bounds{X1: w - 240, Y1: statusBarH + 20, X2: w - 120, Y2: contentTop - 20},
			tap:  func() { p.openAlarmEdit(-1) }})
	}
	li := b.list(contentTop, bottom)
	b.s.widgets[li].class, b.s.widgets[li].id = "android.widget.GridView", "alarm_list"
	for i := range p.st.Alarms {
		a := &p.st.Alarms[i]
		hm, pm := clock12Parts(a.Time)
		mark := "AM"
		if pm {
			mark = "PM"
		}
		key := strconv.Itoa(i)
		card := widget{kind: kRow, class: "android.widget.FrameLayout", id: "alarm_list_cardView", clickable: true,
			tap: func() { p.openAlarmEdit(i) }, hold: func() { p.openAlarmSelect(i) }}
		if sel {
			card.tap, card.hold = func() {
				if v.fields[key] == "" {
					v.fields[key] = "1"
				} else {
					delete(v.fields, key)
				}
			}, nil
		}
		b.item(card, 24, 12, w-24, rowH+12)
		// The card holds alarm_list_item, which holds the time
		// (alarm_item_time) and the switch (alarm_onoff_switch), as the
		// real list does (testdata/real/SOURCES.md).
		b.item(widget{kind: kHidden, class: "android.view.ViewGroup", id: "alarm_list_item", depth: 3}, 24, 12, w-24, rowH+12)
		if sel {
			b.item(widget{kind: kSwitch, class: "android.widget.CheckBox", checkable: true, checked: v.fields[key] != "", depth: 4}, 48, 60, 130, 140)
		}
		dx := 0
		if sel {
			dx = 100 // the CheckBox before the time
		}
		b.item(widget{kind: kBigText, text: hm, id: "alarm_item_time", depth: 4}, 72+dx, 30, 380+dx, 130)
		b.item(widget{kind: kSubText, text: mark, depth: 4}, 390+dx, 60, 500+dx, 130)
		if a.Label != "" {
			b.item(widget{kind: kSubText, text: a.Label, depth: 4}, 72+dx, 130, w-300, 180)
		}
		if !sel {
			b.item(widget{kind: kSwitch, class: "android.widget.Switch", id: "alarm_onoff_switch", checkable: true, checked: a.Enabled, clickable: true, depth: 4,
				tap: func() { a.Enabled = !a.Enabled }}, w-240, 60, w-72, rowH-30)
		}
		b.y += rowH + 24
	}
	b.endList(li)
}

// wheelCol is one wheel of a picker: its values in order and the field
// holding the index of the one shown.
type wheelCol struct {
	key  string
	vals []string
	wrap bool
	// suffix is what One UI's numberpicker_input says after the value
	// ("7, Hour"); "" on MIUI.
	suffix string
	id     string // the column's NumberPicker id, "" for none
	// typed: a tap on the value opens typing (One UI's hour and minute).
	typed bool
	// input is the value node's class.
	input string
}

var (
	hourVals   = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}
	minuteVals = func() []string {
		var m []string
		for i := range 60 {
			m = append(m, fmt.Sprintf("%02d", i))
		}
		return m
	}()
)

// index is where a wheel stands: the field's value among its values.
func (c wheelCol) index(f map[string]string) int {
	if c.key == "ampm" {
		n, _ := strconv.Atoi(f["ampm"])
		return n
	}
	for i, v := range c.vals {
		if v == f[c.key] || c.key == "minute" && v == "0"+f[c.key] {
			return i
		}
	}
	return 0
}

func (c wheelCol) set(f map[string]string, i int) {
	n := len(c.vals)
	if c.wrap {
		i = ((i % n) + n) % n
	} else {
		i = min(max(i, 0), n-1)
	}
	if c.key == "ampm" {
		f["ampm"] = strconv.Itoa(i)
		return
	}
	f[c.key] = c.vals[i]
}

func (c wheelCol) at(i int) (string, bool) {
	n := len(c.vals)
	if c.wrap {
		return c.vals[((i%n)+n)%n], true
	}
	if i < 0 || i >= n {
		return "", false
	}
	return c.vals[i], true
}

// commitTyped sets a wheel from what was typed into it, when that is one
// of its values; the typing ends either way.
func (p *Phone) commitTyped(v *view, cols []wheelCol) {
	for _, c := range cols {
		k := c.key + "_typed"
		if v.focus != k {
			continue
		}
		t := strings.TrimSpace(v.fields[k])
		if n, err := strconv.Atoi(t); err == nil {
			for i, val := range c.vals {
				if m, _ := strconv.Atoi(val); m == n && t != "" {
					c.set(v.fields, i)
				}
			}
		}
		delete(v.fields, k)
		v.focus = ""
	}
}

// wheel lays out one picker column at x1..x2: the NumberPicker, the value
// before, the value shown and the value after.
func (p *Phone) wheel(b *builder, c wheelCol, cols []wheelCol, x1, x2 int) {
	v := b.v
	f := v.fields
	y := vclockWheelsY + 40
	cur := c.index(f)
	move := func(d int) func() {
		return func() {
			p.commitTyped(v, cols)
			c.set(f, c.index(f)+d)
		}
	}
	b.add(widget{kind: kHidden, class: numberPicker, id: c.id, scrollable: true, depth: 3,
		full: uitree.Bounds{X1: x1, Y1: y, X2: x2, Y2: y + 3*vclockItemH},
		spin: func(dy int) {
			p.commitTyped(v, cols)
			n := (dy + sign(dy)*vclockItemH/2) / vclockItemH
			c.set(f, c.index(f)+n)
		}})
	if prev, ok := c.at(cur - 1); ok {
		b.add(widget{kind: kSubText, class: "android.widget.Button", text: prev, clickable: true, depth: 4,
			full: uitree.Bounds{X1: x1, Y1: y, X2: x2, Y2: y + vclockItemH}, tap: move(-1)})
	}
	shown, _ := c.at(cur)
	val := widget{kind: kBigText, class: c.input, text: shown + c.suffix, depth: 4,
		full: uitree.Bounds{X1: x1, Y1: y + vclockItemH, X2: x2, Y2: y + 2*vclockItemH}}
	if p.cfg.Skin == SkinOneUI {
		val.id = "numberpicker_input"
	} else {
		val.id = "android:id/numberpicker_input"
	}
	if c.typed {
		k := c.key + "_typed"
		val.clickable = true
		if v.focus == k {
			val.text, val.value, val.focused = f[k], f[k], true
		}
		val.tap = func() {
			if v.focus != k {
				p.commitTyped(v, cols)
				f[k], v.focus = "", k
			}
		}
	}
	b.add(val)
	if next, ok := c.at(cur + 1); ok {
		b.add(widget{kind: kSubText, class: "android.widget.Button", text: next, clickable: true, depth: 4,
			full: uitree.Bounds{X1: x1, Y1: y + 2*vclockItemH, X2: x2, Y2: y + 3*vclockItemH}, tap: move(1)})
	}
}

func sign(n int) int {
	if n < 0 {
		return -1
	}
	return 1
}

// pickedAlarmTime is the time the edit page's wheels stand at, "HH:MM".
func pickedAlarmTime(cols []wheelCol, f map[string]string) string {
	h, _ := strconv.Atoi(cols[1].vals[cols[1].index(f)])
	m := cols[2].vals[cols[2].index(f)]
	h %= 12
	if cols[0].index(f) == 1 {
		h += 12
	}
	return fmt.Sprintf("%02d:%s", h, m)
}

// saveAlarmEdit saves the edit page: a new alarm, or the alarm it was
// opened for with its new time and label, on either way.
func (p *Phone) saveAlarmEdit(v *view, cols []wheelCol) {
	p.commitTyped(v, cols)
	a := Alarm{Time: pickedAlarmTime(cols, v.fields), Label: strings.TrimSpace(v.fields["label"]), Enabled: true}
	if v.index >= 0 && v.index < len(p.st.Alarms) {
		p.st.Alarms[v.index] = a
	} else {
		p.st.Alarms = append(p.st.Alarms, a)
	}
	sortAlarms(p.st.Alarms)
	p.back()
}

// layoutVendorAlarmEdit is the alarm's page: MIUI's 添加闹钟/编辑闹钟 with
// ×, ✓ and 删除闹钟, or One UI's edit page (sesl_timepicker_layout,
// alarm_name, menu_done, as the locators above name them).
func (p *Phone) layoutVendorAlarmEdit(b *builder) {
	v, w := b.v, b.s.w
	miui := p.cfg.Skin == SkinMIUI
	var cols []wheelCol
	if miui {
		cols = []wheelCol{
			{key: "ampm", vals: []string{"上午", "下午"}, input: "android.widget.EditText"},
			{key: "hour", vals: hourVals, wrap: true, input: "android.widget.EditText"},
			{key: "minute", vals: minuteVals, wrap: true, input: "android.widget.EditText"},
		}
	} else {
		cols = []wheelCol{
			{key: "ampm", vals: []string{"AM", "PM"}, input: "android.widget.TextView"},
			{key: "hour", vals: hourVals, wrap: true, suffix: ", Hour", id: "sesl_timepicker_hour", typed: true, input: "android.widget.EditText"},
			{key: "minute", vals: minuteVals, wrap: true, suffix: ", Minute", id: "sesl_timepicker_minute", typed: true, input: "android.widget.EditText"},
		}
	}
	save := func() { p.saveAlarmEdit(v, cols) }
	y := vclockWheelsY + 40
	pickerBox := uitree.Bounds{X1: 48, Y1: y, X2: w - 48, Y2: y + 3*vclockItemH}
	if miui {
		title := miuiAddAlarm
		if v.index >= 0 {
			title = miuiEditAlarm
		}
		b.add(widget{kind: kUp, class: "android.widget.ImageButton", desc: "取消", clickable: true,
			full: uitree.Bounds{X1: 0, Y1: statusBarH, X2: 144, Y2: contentTop}, tap: p.back})
		b.add(widget{kind: kAppBar, text: title, id: "action_bar_title", full: uitree.Bounds{X1: 160, Y1: statusBarH, X2: w - 160, Y2: contentTop}})
		b.add(widget{kind: kButton, class: "android.widget.ImageButton", desc: "确定", clickable: true,
			full: uitree.Bounds{X1: w - 144, Y1: statusBarH, X2: w, Y2: contentTop}, tap: save})
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", depth: 2, full: pickerBox})
		third := (w - 96) / 3
		for i, c := range cols {
			p.wheel(b, c, cols, 48+i*third, 48+(i+1)*third)
		}
	} else {
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "sesl_timepicker_layout", depth: 2, full: pickerBox})
		p.wheel(b, cols[0], cols, 48, 300)
		b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "sesl_timepicker_hour_minute_layout", depth: 3,
			full: uitree.Bounds{X1: 320, Y1: y, X2: w - 48, Y2: y + 3*vclockItemH}})
		half := (w - 48 - 320) / 2
		p.wheel(b, cols[1], cols, 320, 320+half)
		p.wheel(b, cols[2], cols, 320+half, w-48)
	}
	ry := y + 3*vclockItemH + 80
	if miui {
		b.add(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, full: uitree.Bounds{X1: 0, Y1: ry, X2: w, Y2: ry + rowH}, tap: func() {}})
		b.add(widget{kind: kText, text: "重复", depth: 2, full: uitree.Bounds{X1: 48, Y1: ry + 40, X2: 400, Y2: ry + 140}})
		b.add(widget{kind: kSubText, text: "只响一次", depth: 2, full: uitree.Bounds{X1: w - 400, Y1: ry + 40, X2: w - 48, Y2: ry + 140}})
		ry += rowH
		b.add(widget{kind: kText, text: miuiNoteTitle, depth: 2, full: uitree.Bounds{X1: 48, Y1: ry + 40, X2: 300, Y2: ry + 140}})
		p.alarmLabelField(b, miuiNoteTitle, uitree.Bounds{X1: 300, Y1: ry + 20, X2: w - 48, Y2: ry + 160}, "", cols)
		ry += rowH
		if v.index >= 0 {
			i := v.index
			b.add(widget{kind: kButton, class: "android.widget.Button", text: miuiDeleteAlarm, clickable: true,
				full: uitree.Bounds{X1: 48, Y1: ry + 60, X2: w - 48, Y2: ry + 200},
				tap: func() {
					if i < len(p.st.Alarms) {
						p.st.Alarms = append(p.st.Alarms[:i], p.st.Alarms[i+1:]...)
					}
					p.back()
				}})
		}
		return
	}
	b.add(widget{kind: kHidden, class: "android.widget.LinearLayout", id: "alarm_name_input_layout", depth: 2,
		full: uitree.Bounds{X1: 48, Y1: ry, X2: w - 48, Y2: ry + 160}})
	p.alarmLabelField(b, oneuiNameHint, uitree.Bounds{X1: 72, Y1: ry + 10, X2: w - 72, Y2: ry + 150}, "alarm_name", cols)
	bot := b.s.h - 200
	// Cancel and Save are Buttons described by their word, which a
	// TextView inside each shows, as the real edit page's are.
	for _, c := range []struct {
		word, id string
		x1, x2   int
		tap      func()
	}{{"Cancel", "menu_cancel", 48, w/2 - 24, p.back}, {"Save", "menu_done", w/2 + 24, w - 48, save}} {
		b.add(widget{kind: kButton, class: "android.widget.Button", desc: c.word, id: c.id, clickable: true,
			full: uitree.Bounds{X1: c.x1, Y1: bot, X2: c.x2, Y2: bot + 160}, tap: c.tap})
		b.add(widget{kind: kHidden, class: "android.view.ViewGroup", id: "navigation_bar_item_labels_group", depth: 3,
			full: uitree.Bounds{X1: c.x1 + 40, Y1: bot + 30, X2: c.x2 - 40, Y2: bot + 130}})
		b.add(widget{kind: kText, class: "android.widget.TextView", text: c.word, id: "navigation_bar_item_small_label_view", depth: 4,
			full: uitree.Bounds{X1: c.x1 + 40, Y1: bot + 30, X2: c.x2 - 40, Y2: bot + 130}})
	}
}

// alarmLabelField is the edit page's label field: its text the label, or
// the hint while empty. A tap on it ends typing into a wheel.
func (p *Phone) alarmLabelField(b *builder, hint string, at uitree.Bounds, id string, cols []wheelCol) {
	v := b.v
	val := v.fields["label"]
	shown := val
	if shown == "" {
		shown = hint
	}
	b.add(widget{kind: kEdit, class: "android.widget.EditText", text: shown, hint: hint, id: id, value: val, clickable: true,
		focused: v.focus == "label", depth: 3, full: at, tap: func() {
			p.commitTyped(v, cols)
			v.focus = "label"
		}})
}
