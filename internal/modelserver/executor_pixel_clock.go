package modelserver

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// A Pixel's Clock (the simulator's pixel skin, docs/phones.md#skins) lays
// an alarm out as Google Clock does: a CardView per alarm holding the time
// in digital_clock ("7:00\u200aAM", a hair space before AM), a Switch
// without text described "7:00 AM alarm" (onoff) and, when the alarm has
// one, its label (label, or edit_label on an expanded card, "Add label"
// when it has none). A switch is named by the card it sits in; a new
// alarm's time goes into the Material time picker, tapped on its clock
// face for most times whose minutes are on the face's ring (onTheDial)
// and typed in its text input mode otherwise, and its label into the label
// dialog.

// The time picker's buttons from the dial to typing and back.
const (
	pickerToText  = "Switch to text input mode for the time input."
	pickerToClock = "Switch to clock mode for the time input."
)

// noLabel is what an expanded card's label line shows for an alarm that
// has none.
const noLabel = "Add label"

// pixelTimeRe is a time as a 12-hour clock shows it, alone.
var pixelTimeRe = regexp.MustCompile(`(?i)^(\d{1,2}):(\d{2})\s*([ap])\.?m\.?$`)

// plainSpaces is s with every kind of space (the hair space Google Clock
// writes before AM, a no-break space) as a plain one.
func plainSpaces(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Zs, r) {
			return ' '
		}
		return r
	}, s)
}

// shown24 is a 12-hour "7:00 AM" as "07:00", false for any other text.
func shown24(s string) (string, bool) {
	m := pixelTimeRe.FindStringSubmatch(strings.TrimSpace(plainSpaces(s)))
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

// pixelAlarm is one alarm card of a Google Clock list as the screen shows
// it.
type pixelAlarm struct {
	at, label string         // "07:00", "" for none
	sw        *uitree.Listed // the card's onoff switch, nil when scrolled off
	edit      *uitree.Listed // edit_label of an expanded card
	del       *uitree.Listed // Delete of an expanded card
	arrow     *uitree.Listed
}

// pixelAlarms reads the cards of a Google Clock alarm list in list order:
// what each CardView holds before the next one. A card scrolled so far
// that its time is off the screen is left out.
func pixelAlarms(es []uitree.Listed) []pixelAlarm {
	var out []pixelAlarm
	var r *pixelAlarm
	flush := func() {
		if r != nil && r.at != "" {
			out = append(out, *r)
		}
		r = nil
	}
	for i := range es {
		l := &es[i]
		if strings.HasSuffix(l.Class, "CardView") {
			flush()
			r = &pixelAlarm{}
			continue
		}
		if r == nil {
			continue
		}
		switch {
		case l.ID == "digital_clock" && r.at == "":
			r.at, _ = shown24(l.Text)
		case l.ID == "onoff" && l.Checkable && l.Text == "" && r.sw == nil:
			r.sw = l
		case l.ID == "label" && r.label == "":
			r.label = strings.TrimSpace(l.Text)
		case l.ID == "edit_label":
			r.edit = l
			if t := strings.TrimSpace(l.Text); t != noLabel {
				r.label = t
			}
		case l.ID == "arrow":
			r.arrow = l
		case l.ID == "delete" && strings.TrimSpace(l.Text) == "Delete":
			r.del = l
		}
	}
	flush()
	return out
}

// describeAlarmSwitches is es with each Google Clock card's text-less switch
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

// onPixelClock reports a Google Clock screen: the list's fab, the time
// picker or the label dialog.
func (c *solver) onPixelClock() bool {
	fab := c.byID("fab")
	return fab != nil && fab.Desc == "Add alarm" || c.pixelDialog()
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
	return c.byDesc(pickerToText) != nil || c.byDesc(pickerToClock) != nil || c.pixelLabelDialog() != nil
}

// pickerField is the time picker's hour or minute in its text input mode,
// read as a person reads it: the number (the EditText with the focus, or
// the chip of the other) just above its caption, "Hour" or "Minute".
func (c *solver) pickerField(caption string) *uitree.Listed {
	var cap *uitree.Listed
	for i, l := range c.obs.Elems {
		if l.Text == caption && !l.Clickable {
			cap = &c.obs.Elems[i]
		}
	}
	if cap == nil {
		return nil
	}
	var best *uitree.Listed
	for i, l := range c.obs.Elems {
		if _, err := strconv.Atoi(strings.TrimSpace(l.Text)); !l.Clickable || err != nil && l.Class != "EditText" || l.At[1] >= cap.At[1] {
			continue
		}
		if best == nil || abs(l.At[0]-cap.At[0])+cap.At[1]-l.At[1] < abs(best.At[0]-cap.At[0])+cap.At[1]-best.At[1] {
			best = &c.obs.Elems[i]
		}
	}
	return best
}

// sameNumber reports whether a picker's field or chip shows the number n
// ("07" is 7).
func sameNumber(l *uitree.Listed, n string) bool {
	a, err1 := strconv.Atoi(strings.TrimSpace(l.Text))
	b, err2 := strconv.Atoi(n)
	return err1 == nil && err2 == nil && a == b
}

// pickerPeriod is the picker's AM or PM button.
func (c *solver) pickerPeriod(ampm string) *uitree.Listed {
	for i, l := range c.obs.Elems {
		if l.Checkable && l.Clickable && strings.EqualFold(strings.TrimSpace(l.Text), ampm) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}

// pixelNewAlarm is the step towards a new alarm on a Google Clock screen,
// false on any other screen.
func (c *solver) pixelNewAlarm(in intent) (step, bool) {
	if !c.onPixelClock() {
		return step{}, false
	}
	hour, minute, ampm := clock12(in.Time)
	ok := c.byText("OK")
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
	if t := c.byDesc(pickerToText); t != nil {
		if onTheDial(in.Time) {
			if st, ok := c.dialTime(hour, minute, ampm, ok); ok {
				return st, true
			}
		}
		return tapAt(*t, "The time picker shows the clock face; I switch to typing the time."), true
	}
	if c.byDesc(pickerToClock) != nil {
		h, m, period := c.pickerField("Hour"), c.pickerField("Minute"), c.pickerPeriod(ampm)
		if h == nil || m == nil || period == nil || ok == nil {
			return back("The time picker lacks a field or OK; I close it."), true
		}
		if c.prevTapAt(ok) {
			return back("The picker kept the time I typed; I close it."), true
		}
		for _, f := range []struct {
			l         *uitree.Listed
			want, say string
		}{{h, hour, "hour"}, {m, minute, "minutes"}} {
			if sameNumber(f.l, f.want) {
				continue
			}
			if f.l.Focused && !c.prevIs("Type") {
				return typeText(f.want, "The "+f.say+" field has the focus; I type the "+f.say+"."), true
			}
			return tapAt(*f.l, "I tap the "+f.say+" field."), true
		}
		if !period.Checked {
			return tapAt(*period, "The picker says the other half of the day; I tap "+ampm+"."), true
		}
		return tapAt(*ok, fmt.Sprintf("The picker holds %s:%s %s; I tap OK.", hour, minute, ampm)), true
	}
	// The alarm list. The todo made the alarm when it typed (its time or
	// label), or when the card at its time is open after its taps: the app
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

// dialTime is the step on the time picker's clock face towards
// hour:minute ampm: the hour's number on the hour ring (the face then
// turns to the minutes, as the Material picker does), the minutes' number
// on the minute ring, AM or PM beside the header, then OK once the
// header's chips read the time. The rings' numbers are read by their
// descriptions, "7 o'clock" and "15 minutes". False when the face lacks
// what that needs.
func (c *solver) dialTime(hour, minute, ampm string, ok *uitree.Listed) (step, bool) {
	hours, minutes := c.byID("material_hour_tv"), c.byID("material_minute_tv")
	if hours == nil || minutes == nil || ok == nil {
		return step{}, false
	}
	hourRing, minuteRing := map[int]*uitree.Listed{}, map[int]*uitree.Listed{}
	for i, l := range c.obs.Elems {
		if !l.Clickable || l.Checkable || l.ID != "" {
			continue // the header's chips are checkable
		}
		if n, ok := strings.CutSuffix(l.Desc, " o'clock"); ok {
			if v, err := strconv.Atoi(n); err == nil {
				hourRing[v] = &c.obs.Elems[i]
			}
		} else if n, ok := strings.CutSuffix(l.Desc, " minutes"); ok {
			if v, err := strconv.Atoi(n); err == nil {
				minuteRing[v] = &c.obs.Elems[i]
			}
		}
	}
	h, _ := strconv.Atoi(hour)
	m, _ := strconv.Atoi(minute)
	switch {
	case !sameNumber(hours, hour) && len(hourRing) == 0:
		return tapAt(*hours, "The face shows the minutes; I tap the hour in the header to set it."), true
	case !sameNumber(hours, hour):
		if n := hourRing[h]; n != nil {
			return tapAt(*n, fmt.Sprintf("The face shows the hours; I tap %s.", hour)), true
		}
		return step{}, false
	case !sameNumber(minutes, minute) && len(minuteRing) == 0:
		return tapAt(*minutes, "The hour is set; I tap the minutes in the header to turn the face to them."), true
	case !sameNumber(minutes, minute):
		if n := minuteRing[m]; n != nil {
			return tapAt(*n, fmt.Sprintf("The face shows the minutes; I tap %02d.", m)), true
		}
		return step{}, false
	}
	if l := c.pickerPeriod(ampm); l != nil && !l.Checked {
		return tapAt(*l, fmt.Sprintf("The face reads %s:%s; I tap %s.", hour, minute, ampm)), true
	}
	return tapAt(*ok, fmt.Sprintf("The face reads %s:%s %s; I tap OK.", hour, minute, ampm)), true
}

func (c *solver) byDesc(desc string) *uitree.Listed {
	for i := range c.obs.Elems {
		if c.obs.Elems[i].Desc == desc {
			return &c.obs.Elems[i]
		}
	}
	return nil
}
