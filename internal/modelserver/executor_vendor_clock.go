package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Xiaomi phone's 时钟 and Samsung Clock (the simulator's miui and oneui
// skins, docs/phones.md#skins) lay an alarm out as the time alone ("8:30"),
// its mark on its own ("上午", "PM"), the label and a switch without
// text; a new alarm's time is set on wheels (NumberPickers showing their
// value in numberpicker_input between the values before and after it).
// The persona reads them by their words and classes: a wheel is turned by
// a swipe, or by a tap on the value next to it; One UI's hour and minute
// are typed after a tap on their value, as a person on a Galaxy does. The
// label goes into the field hinted 备注 or "Alarm name"; ✓ (确定) or Save
// saves.

var (
	bareTimeRe = regexp.MustCompile(`^(\d{1,2}):(\d{2})$`)
	zhAM       = map[string]bool{"上午": true, "早上": true, "凌晨": true}
	zhPM       = map[string]bool{"下午": true, "晚上": true, "中午": true}
)

// markHalf is the half of the day a mark word says: "a", "p" or "".
func markHalf(s string) string {
	t := strings.ToLower(strings.TrimSpace(s))
	switch {
	case t == "am" || zhAM[t]:
		return "a"
	case t == "pm" || zhPM[t]:
		return "p"
	}
	return ""
}

// markedHour is a 12-hour clock's hour h on a 24-hour clock, by the mark
// word beside it ("下午", "PM"); h as it is beside no mark.
func markedHour(h int, mark string) int {
	switch markHalf(mark) {
	case "p":
		if h < 12 {
			return h + 12
		}
	case "a":
		if h == 12 {
			return 0
		}
	}
	return h
}

// markedApart reports a time alone ("9:30") whose 12-hour mark follows it
// as the next element's text ("下午", "PM"), as MIUI and One UI rows write
// it: the time is read with its mark, never alone.
func markedApart(es []uitree.Listed, l uitree.Listed) bool {
	if !bareTimeRe.MatchString(strings.TrimSpace(l.Text)) {
		return false
	}
	for i := range es {
		if es[i].Index == l.Index {
			return i+1 < len(es) && markHalf(es[i+1].Text) != ""
		}
	}
	return false
}

// vendorAlarm is one alarm row of a vendor Clock list as the screen
// shows it.
type vendorAlarm struct {
	at, label string
	sw        *uitree.Listed
	row       *uitree.Listed // the time's text
}

// vendorAlarms reads the rows of a MIUI or One UI alarm list in list
// order: a time alone, its mark, the label, the switch.
func vendorAlarms(es []uitree.Listed) []vendorAlarm {
	var out []vendorAlarm
	for i := range es {
		l := &es[i]
		if m := bareTimeRe.FindStringSubmatch(strings.TrimSpace(l.Text)); m != nil && !l.Checkable && l.ID != "numberpicker_input" {
			h, _ := strconv.Atoi(m[1])
			if i+1 < len(es) && h >= 1 && h <= 12 {
				h = markedHour(h, es[i+1].Text)
			}
			out = append(out, vendorAlarm{at: fmt.Sprintf("%02d:%s", h, m[2]), row: l})
			continue
		}
		if len(out) == 0 {
			continue
		}
		r := &out[len(out)-1]
		switch {
		case l.Checkable && l.Text == "" && l.Class != "CheckBox" && r.sw == nil:
			r.sw = l
		case !l.Checkable && !l.Clickable && l.Text != "" && markHalf(l.Text) == "" && r.label == "" && r.sw == nil:
			r.label = strings.TrimSpace(l.Text)
		}
	}
	return out
}

// describeVendorSwitches describes each vendor row's text-less switch by
// its row, "20:30 Gym", as the classic Clock describes its switches.
func describeVendorSwitches(es []uitree.Listed) []uitree.Listed {
	rows := vendorAlarms(es)
	if len(rows) == 0 {
		return es
	}
	var out []uitree.Listed
	for _, r := range rows {
		if r.sw == nil || r.sw.Desc != "" {
			continue
		}
		if out == nil {
			out = append([]uitree.Listed(nil), es...)
		}
		for i := range out {
			if out[i].Index == r.sw.Index {
				out[i].Desc = strings.TrimSpace(r.at + " " + r.label)
			}
		}
	}
	if out == nil {
		return es
	}
	return out
}

// vendorAdd is a vendor Clock list's add button ("+" 添加闹钟, One UI's
// "Add alarm"), or nil.
func (c *solver) vendorAdd() *uitree.Listed {
	for i, l := range c.obs.Elems {
		if l.Clickable && l.Text == "" && (l.Desc == "添加闹钟" || l.Desc == "Add alarm") {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// wheel is one picker column: its value and the values before and after.
type wheel struct {
	val, prev, next *uitree.Listed
}

// value is what the wheel shows: "7" for One UI's "7, Hour".
func (w wheel) value() string {
	v, _, _ := strings.Cut(w.val.Text, ",")
	return strings.TrimSpace(v)
}

func (w wheel) typeable() bool { return strings.Contains(w.val.Text, ",") || w.val.Focused }

// vendorWheels are the wheels of an alarm's edit page, left to right.
func (c *solver) vendorWheels() []wheel {
	var out []wheel
	es := c.obs.Elems
	for i := range es {
		if es[i].ID != "numberpicker_input" {
			continue
		}
		w := wheel{val: &es[i]}
		near := func(j int) bool {
			return j >= 0 && j < len(es) && es[j].Class == "Button" && abs(es[j].At[0]-es[i].At[0]) < 20
		}
		if near(i-1) && es[i-1].At[1] < es[i].At[1] {
			w.prev = &es[i-1]
		}
		if near(i+1) && es[i+1].At[1] > es[i].At[1] {
			w.next = &es[i+1]
		}
		out = append(out, w)
	}
	return out
}

// onVendorAlarmEdit reports a vendor alarm's edit page: wheels and a
// commit control.
func (c *solver) onVendorAlarmEdit() bool {
	return len(c.vendorWheels()) == 3 && c.vendorCommit() != nil
}

// vendorCommit is the edit page's ✓ (确定) or Save.
func (c *solver) vendorCommit() *uitree.Listed {
	for i, l := range c.obs.Elems {
		if l.Clickable && (l.Desc == "确定" || l.Text == "Save" || l.Desc == "Save") {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// turn is the step that turns w from its value to want among vals, or
// false when it shows want.
func (c *solver) turn(w wheel, vals []string, want string, wrap bool, name string) (step, bool) {
	got := w.value()
	if got == want {
		return step{}, false
	}
	at, to := -1, -1
	for i, v := range vals {
		if v == got {
			at = i
		}
		if v == want {
			to = i
		}
	}
	if at < 0 || to < 0 {
		return step{}, false
	}
	n := to - at
	if wrap {
		f := ((n % len(vals)) + len(vals)) % len(vals)
		n = f
		if b := len(vals) - f; (b+12)/13 < (f+4)/5 {
			n = -b
		}
	}
	switch {
	case n == 1 && w.next != nil:
		return tapAt(*w.next, fmt.Sprintf("The %s wheel shows %s; I tap %s below it.", name, got, w.next.Text)), true
	case n == -1 && w.prev != nil:
		return tapAt(*w.prev, fmt.Sprintf("The %s wheel shows %s; I tap %s above it.", name, got, w.prev.Text)), true
	}
	item := 60
	if w.next != nil {
		item = w.next.At[1] - w.val.At[1]
	} else if w.prev != nil {
		item = w.val.At[1] - w.prev.At[1]
	}
	x, y := w.val.At[0], w.val.At[1]
	if n > 0 {
		n = min(n, 5)
		if w.next != nil {
			y = w.next.At[1]
		}
	} else {
		n = max(n, -13)
		if w.prev != nil {
			y = w.prev.At[1]
		}
	}
	end := min(max(y-n*item, 0), 999)
	return step{think: fmt.Sprintf("The %s wheel shows %s; I swipe it towards %s.", name, got, want),
		action: fmt.Sprintf(`do(action="Swipe", start=[%d,%d], end=[%d,%d])`, x, y, x, end)}, true
}

// vendorNewAlarm is the step towards a new alarm on a MIUI or One UI
// Clock screen, false on any other screen.
func (c *solver) vendorNewAlarm(in intent) (step, bool) {
	add := c.vendorAdd()
	if add == nil && !c.onVendorAlarmEdit() {
		return step{}, false
	}
	hour, minute, ampm := clock12(in.Time)
	if c.onVendorAlarmEdit() && c.byText("编辑闹钟") != nil {
		return back("This page edits a saved alarm, not a new one; I leave it unchanged."), true
	}
	if c.onVendorAlarmEdit() {
		ws := c.vendorWheels()
		marks := []string{"AM", "PM"}
		if markHalf(ws[0].value()) != "" && !strings.EqualFold(ws[0].value(), "am") && !strings.EqualFold(ws[0].value(), "pm") {
			marks = []string{"上午", "下午"}
		}
		mark := marks[0]
		if ampm == "PM" {
			mark = marks[1]
		}
		if st, more := c.turn(ws[0], marks, mark, false, "AM/PM"); more {
			return st, true
		}
		for k, want := range []string{hour, minute} {
			w, name := ws[k+1], []string{"hour", "minute"}[k]
			if w.value() == want || w.val.Focused && strings.TrimSpace(w.val.Text) == want {
				continue
			}
			if w.typeable() {
				if w.val.Focused && !c.prevIs("Type") {
					return typeText(want, fmt.Sprintf("The %s is open for typing; I type %s.", name, want)), true
				}
				if !w.val.Focused {
					return tapAt(*w.val, fmt.Sprintf("The %s wheel shows %s; I tap it to type %s.", name, w.value(), want)), true
				}
			}
			vals := hourValues
			if k == 1 {
				vals = minuteValues
			}
			if st, more := c.turn(w, vals, want, true, name); more {
				return st, true
			}
		}
		if field := c.vendorLabelField(); field != nil && in.Label != "" {
			shown := strings.TrimSpace(field.Text)
			if shown == "备注" || shown == "Alarm name" {
				shown = ""
			}
			if shown != in.Label {
				if c.focused(field) && !c.prevIs("Type") {
					return typeText(in.Label, "The label field has the focus; I type the label."), true
				}
				return tapAt(*field, "I tap the label field."), true
			}
		}
		return tapAt(*c.vendorCommit(), fmt.Sprintf("The wheels read %s:%s %s; I save the alarm.", hour, minute, ampm)), true
	}
	// The alarm list: done once this todo has set the wheels and saved,
	// and the list shows an alarm that rings at the time with the label.
	made := c.count("Swipe")+c.count("Type") > 0 || c.count("Tap") >= 2
	for _, r := range vendorAlarms(c.obs.Elems) {
		if made && r.at == in.Time && strings.EqualFold(r.label, in.Label) && r.sw != nil && r.sw.Checked {
			msg := "Alarm set for " + in.Time
			if in.Label != "" {
				msg += " (" + in.Label + ")"
			}
			return finish(msg, fmt.Sprintf("The list shows the alarm at %s with the label %q, switched on.", in.Time, r.label)), true
		}
	}
	return tapAt(*add, "I tap the add button to create a new alarm."), true
}

// vendorLabelField is the edit page's label field.
func (c *solver) vendorLabelField() *uitree.Listed {
	for i, l := range c.obs.Elems {
		if l.Class == "EditText" && l.ID != "numberpicker_input" {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

var (
	hourValues   = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}
	minuteValues = func() []string {
		var m []string
		for i := range 60 {
			m = append(m, fmt.Sprintf("%02d", i))
		}
		return m
	}()
)
