package modelserver

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Pixel's Clock (the simulator's pixel skin, docs/phones.md#skins) lays
// an alarm out as DeskClock does: the time in digital_clock ("7:00 AM"),
// a Switch without text on its line (onoff), the label below (label, or
// edit_label on an expanded row). A switch is named by the row it sits
// in; a new alarm's time goes into the framework's time picker, tapped on
// its dial for most times whose minutes are on the dial's ring (onTheDial)
// and typed in its text input mode otherwise, and its label into the label
// dialog.

// pickerToText is the time picker's button from the dial to typing.
const pickerToText = "Switch to text input mode for the time input."

// pixelTimeRe is a time as a 12-hour clock shows it, alone.
var pixelTimeRe = regexp.MustCompile(`(?i)^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?$`)

// shown24 is a 12-hour "7:00 AM" as "07:00", false for any other text.
func shown24(s string) (string, bool) {
	m := pixelTimeRe.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return "", false
	}
	h, _ := strconv.Atoi(m[1])
	if h < 1 || h > 12 {
		return "", false
	}
	h %= 12
	if strings.EqualFold(m[3], "p") {
		h += 12
	}
	return fmt.Sprintf("%02d:%s", h, m[2]), true
}

// clock12 is an "HH:MM" time as the picker takes it: hour 1-12, minute,
// AM or PM.
func clock12(t string) (hour, minute, ampm string) {
	h, _ := strconv.Atoi(t[:2])
	ampm = "AM"
	if h >= 12 {
		ampm = "PM"
	}
	if h %= 12; h == 0 {
		h = 12
	}
	return strconv.Itoa(h), t[3:], ampm
}

// pixelAlarm is one alarm row of a DeskClock list as the screen shows it.
type pixelAlarm struct {
	at, label string         // "07:00", "" for none
	sw        *uitree.Listed // the row's onoff switch, nil when scrolled off
	edit      *uitree.Listed // edit_label of an expanded row
	del       *uitree.Listed // Delete of an expanded row
	arrow     *uitree.Listed
}

// pixelAlarms reads the rows of a DeskClock alarm list in list order:
// each digital_clock and what follows it before the next row's time.
func pixelAlarms(es []uitree.Listed) []pixelAlarm {
	var out []pixelAlarm
	for i := range es {
		l := &es[i]
		if at, ok := shown24(l.Text); ok && l.ID == "digital_clock" {
			out = append(out, pixelAlarm{at: at})
			continue
		}
		if len(out) == 0 {
			continue
		}
		r := &out[len(out)-1]
		switch {
		case l.ID == "onoff" && l.Checkable && l.Text == "" && r.sw == nil:
			r.sw = l
		case l.ID == "label" && r.label == "":
			r.label = strings.TrimSpace(l.Text)
		case l.ID == "edit_label":
			r.edit = l
			if t := strings.TrimSpace(l.Text); t != "Label" { // the hint an empty label shows
				r.label = t
			}
		case l.ID == "arrow":
			r.arrow = l
		case l.ID == "delete" && strings.TrimSpace(l.Text) == "Delete":
			r.del = l
		}
	}
	return out
}

// describeAlarmSwitches is es with each DeskClock row's text-less switch
// described by its row, "07:00 Wake up", as the classic Clock describes
// its switches; so a switch is read by the time and label beside it.
// A MIUI or One UI list's rows are described the same way
// (describeVendorSwitches).
func describeAlarmSwitches(es []uitree.Listed) []uitree.Listed {
	rows := pixelAlarms(es)
	if len(rows) == 0 {
		return describeVendorSwitches(es)
	}
	out := append([]uitree.Listed(nil), es...)
	for _, r := range rows {
		if r.sw == nil {
			continue
		}
		for i := range out {
			if out[i].Index == r.sw.Index {
				out[i].Desc = strings.TrimSpace(r.at + " " + r.label)
			}
		}
	}
	return out
}

// onPixelClock reports a DeskClock screen: the list's fab, the time
// picker or the label dialog.
func (c *solver) onPixelClock() bool {
	fab := c.byID("fab")
	return fab != nil && fab.Desc == "Add alarm" || c.byDesc(pickerToText) != nil || c.byID("input_hour") != nil || c.pixelLabelDialog() != nil
}

// pixelLabelDialog is the label dialog's field, or nil.
func (c *solver) pixelLabelDialog() *uitree.Listed {
	if t := c.byID("alertTitle"); t == nil || t.Text != "Label" {
		return nil
	}
	return c.byClass("EditText")
}

// pixelDialog reports the time picker or the label dialog in front of
// the list.
func (c *solver) pixelDialog() bool {
	return c.byDesc(pickerToText) != nil || c.byID("input_hour") != nil || c.pixelLabelDialog() != nil ||
		c.byID("am_pm_spinner") == nil && c.spinnerChoice("AM") != nil
}

// spinnerChoice is the AM/PM spinner's open drop-down entry, or nil.
func (c *solver) spinnerChoice(ap string) *uitree.Listed {
	for i, l := range c.obs.Elems {
		if l.Class == "CheckedTextView" && l.ID == "text1" && l.Text == ap {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// pixelNewAlarm is the step towards a new alarm on a DeskClock screen,
// false on any other screen.
func (c *solver) pixelNewAlarm(in intent) (step, bool) {
	if !c.onPixelClock() && c.spinnerChoice("AM") == nil {
		return step{}, false
	}
	hour, minute, ampm := clock12(in.Time)
	ok := c.byID("button1")
	if field := c.pixelLabelDialog(); field != nil {
		if in.Label == "" {
			return back("The label dialog is open but the alarm needs no label; I close it."), true
		}
		if st, more := c.fill(field, in.Label, "The label field has the focus; I type the label.", "I tap the label field."); more {
			return st, true
		}
		if ok != nil {
			return tapAt(*ok, fmt.Sprintf("The label field holds %q; I tap OK.", in.Label)), true
		}
		return back("The label dialog has no OK button; I close it."), true
	}
	if choice := c.spinnerChoice(ampm); choice != nil && c.byID("am_pm_spinner") == nil {
		return tapAt(*choice, "The AM/PM list is open; I pick "+ampm+"."), true
	}
	if t := c.byDesc(pickerToText); t != nil {
		if onTheDial(in.Time) {
			if st, ok := c.dialTime(hour, minute, ampm, ok); ok {
				return st, true
			}
		}
		return tapAt(*t, "The time picker shows the dial; I switch to typing the time."), true
	}
	if h := c.byID("input_hour"); h != nil {
		m, spin := c.byID("input_minute"), c.byID("am_pm_spinner")
		if c.byID("label_error") != nil && c.prevTapAt(ok) {
			return back("The picker says the time is not valid; I close it."), true
		}
		if st, more := c.fill(h, hour, "The hour field has the focus; I type the hour.", "I tap the hour field."); more {
			return st, true
		}
		if m != nil {
			if st, more := c.fill(m, minute, "The minute field has the focus; I type the minutes.", "I tap the minute field."); more {
				return st, true
			}
		}
		if spin != nil && c.spinnerText() != ampm {
			return tapAt(*spin, fmt.Sprintf("The picker says %s; I open the AM/PM list.", c.spinnerText())), true
		}
		if m == nil || spin == nil || ok == nil {
			return back("The time picker lacks a field or OK; I close it."), true
		}
		return tapAt(*ok, fmt.Sprintf("The picker holds %s:%s %s; I tap OK.", hour, minute, ampm)), true
	}
	// The alarm list. The todo made the alarm when it typed (its time or
	// label), or when the row at its time is open after its taps: DeskClock
	// opens the row of the alarm the picker's OK added, and the persona
	// opens a row only once the alarm is made.
	rows := pixelAlarms(c.obs.Elems)
	made := c.count("Type") > 0
	for _, r := range rows {
		if r.at == in.Time && r.edit != nil && c.count("Tap") >= 2 {
			made = true
		}
	}
	var bare *pixelAlarm
	for i := range rows {
		r := &rows[i]
		if r.at != in.Time {
			continue
		}
		if made && strings.EqualFold(r.label, in.Label) {
			if in.Label != "" && r.edit != nil && r.arrow != nil {
				// The expanded row shows the label in its edit line; the
				// collapsed row shows it beside the time, as the list
				// does for every alarm.
				return tapAt(*r.arrow, fmt.Sprintf("The new alarm at %s is labelled %q; I collapse its row.", in.Time, r.label)), true
			}
			msg := "Alarm set for " + in.Time
			if in.Label != "" {
				msg += " (" + in.Label + ")"
			}
			return finish(msg, fmt.Sprintf("The list shows the alarm at %s with the label %q.", in.Time, r.label)), true
		}
		if r.label == "" && bare == nil {
			bare = r
		}
	}
	if made && bare != nil && in.Label != "" {
		if bare.edit != nil {
			return tapAt(*bare.edit, "The new alarm has no label yet; I tap its label."), true
		}
		if bare.arrow != nil {
			return tapAt(*bare.arrow, "The new alarm has no label yet; I expand its row."), true
		}
	}
	if fab := c.byID("fab"); fab != nil {
		return tapAt(*fab, "I tap Add alarm to create a new alarm."), true
	}
	return back("This is not the alarm list; I go back."), true
}

// onTheDial reports whether the persona sets an "HH:MM" time on the
// picker's dial rather than typing it, as a model looking at the picker
// often does: only a time whose minutes are on the dial's minute ring (a
// multiple of five), and of those about two in three, drawn from the time,
// so a todo always goes the same way and the typed way stays in use.
func onTheDial(hhmm string) bool {
	m, err := strconv.Atoi(hhmm[len(hhmm)-2:])
	if err != nil || m%5 != 0 {
		return false
	}
	h := fnv.New32a()
	h.Write([]byte(hhmm))
	return h.Sum32()%3 != 0
}

// dialTime is the step on the time picker's dial towards hour:minute
// ampm: the hour's number on the hour ring (the dial then turns to the
// minutes, as the framework's RadialTimePickerView does), the minutes'
// number on the minute ring, AM or PM beside the header, then OK once the
// header (hours, minutes) reads the time. False when the dial lacks what
// that needs.
func (c *solver) dialTime(hour, minute, ampm string, ok *uitree.Listed) (step, bool) {
	hours, minutes := c.byID("hours"), c.byID("minutes")
	if hours == nil || minutes == nil || ok == nil {
		return step{}, false
	}
	ring := map[string]*uitree.Listed{}
	for i, l := range c.obs.Elems {
		if strings.Contains(l.Class, "RadialPickerTouchHelper") && l.Clickable {
			ring[l.Desc] = &c.obs.Elems[i]
		}
	}
	minuteRing := ring["55"] != nil // the hour ring goes 12, 1 … 11
	m, _ := strconv.Atoi(minute)
	switch {
	case strings.TrimSpace(hours.Text) != hour && minuteRing:
		return tapAt(*hours, "The dial shows the minutes; I tap the hour in the header to set it."), true
	case strings.TrimSpace(hours.Text) != hour:
		if n := ring[hour]; n != nil {
			return tapAt(*n, fmt.Sprintf("The dial shows the hours; I tap %s.", hour)), true
		}
		return step{}, false
	case strings.TrimSpace(minutes.Text) != minute && !minuteRing:
		return tapAt(*minutes, "The hour is set; I tap the minutes in the header to turn the dial to them."), true
	case strings.TrimSpace(minutes.Text) != minute:
		if n := ring[strconv.Itoa(m)]; n != nil {
			return tapAt(*n, fmt.Sprintf("The dial shows the minutes; I tap %d.", m)), true
		}
		return step{}, false
	}
	if l := c.byID(strings.ToLower(ampm) + "_label"); l != nil && !l.Checked {
		return tapAt(*l, fmt.Sprintf("The dial reads %s:%s; I tap %s.", hour, minute, ampm)), true
	}
	return tapAt(*ok, fmt.Sprintf("The dial reads %s:%s %s; I tap OK.", hour, minute, ampm)), true
}

// spinnerText is what the AM/PM spinner shows.
func (c *solver) spinnerText() string {
	for i, l := range c.obs.Elems {
		if l.ID == "am_pm_spinner" {
			for _, t := range c.obs.Elems[i+1:] {
				if t.ID == "text1" {
					return t.Text
				}
			}
		}
	}
	return ""
}

func (c *solver) byDesc(desc string) *uitree.Listed {
	for i := range c.obs.Elems {
		if c.obs.Elems[i].Desc == desc {
			return &c.obs.Elems[i]
		}
	}
	return nil
}
