package modelserver

import (
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Deleting an alarm, as each Clock does it (docs/phones.md#skins): a
// Pixel's Google Clock expands the alarm's card, whose Delete removes it; 便签's
// sibling, MIUI's 时钟, opens the alarm's 编辑闹钟 page, whose 删除闹钟
// removes it; Samsung Clock selects the alarm by a press and hold and
// deletes the selection by Delete at the foot. The classic Clock has no way
// to delete an alarm, and the persona says so. The alarm is named by its
// time, its label or its place in the list; it is gone once the list no
// longer shows it after this todo tapped a Delete.

// kindAlarmDelete is a todo that deletes an alarm.
const kindAlarmDelete = "alarm-delete"

// deleteAlarm is the step towards deleting the alarm in names.
func (c *solver) deleteAlarm(in intent) step {
	if st, ok := c.ensureApp("Clock"); ok {
		return st
	}
	if st, ok := c.oneUIDeleteAlarm(in); ok {
		return st
	}
	if c.onVendorAlarmEdit() {
		return c.vendorEditDelete(in)
	}
	if st, ok := c.alarmListStep(); ok {
		return st
	}
	if rows := pixelAlarms(c.obs.Elems); len(rows) > 0 {
		return c.pixelDeleteAlarm(in, rows)
	}
	if rows := vendorAlarms(c.obs.Elems); len(rows) > 0 {
		r, name := namedVendorAlarm(rows, in)
		if r == nil {
			return c.goneOrMissing(name)
		}
		if r.row.At[1] > 900 && c.trailing("Swipe") < 2 {
			// The row's time sits on the list's edge, its card cut off
			// below it: bring it up before pressing it.
			return swipe(true, fmt.Sprintf("%s is at the foot of the screen; I scroll it into view.", upperFirst(name)))
		}
		if add := c.vendorAdd(); add != nil && add.Desc == "添加闹钟" {
			// 时钟 deletes from the alarm's own page.
			return tapAt(*r.row, fmt.Sprintf("I open %s to delete it.", name))
		}
		// Samsung Clock's page of an alarm has no Delete: a press and
		// hold selects the alarm.
		return longPress(*r.row, fmt.Sprintf("I press and hold %s to select it.", name))
	}
	sw, name := c.namedAlarm(in)
	if sw == nil && c.tappedDelete() {
		return finish(fmt.Sprintf("Deleted %s", name), "I tapped Delete and the list no longer shows the alarm.")
	}
	if sw != nil || c.vendorAdd() != nil || c.byText("Add alarm") != nil {
		return finish("Cannot do it: this Clock app has no way to delete an alarm", "Neither the alarm list nor its rows offer Delete.")
	}
	return back("This is not the alarm list; I go back.")
}

// goneOrMissing ends a delete whose alarm the list no longer shows: done
// when this todo tapped a Delete, else the alarm is looked for down the list.
func (c *solver) goneOrMissing(name string) step {
	if c.tappedDelete() {
		return finish(fmt.Sprintf("Deleted %s", name), "I tapped Delete and the list no longer shows the alarm.")
	}
	return c.missingAlarm(name)
}

// pixelDeleteAlarm expands the named alarm's card on a Google Clock list
// and taps its Delete.
func (c *solver) pixelDeleteAlarm(in intent, rows []pixelAlarm) step {
	at := -1
	for i, r := range rows {
		if alarmNamedBy(in, r.at, r.label, i, len(rows)) {
			at = i
			break
		}
	}
	name := alarmName(in)
	if at < 0 {
		return c.goneOrMissing(name)
	}
	r := rows[at]
	fab := c.byID("fab")
	if r.del != nil && (fab == nil || abs(r.del.At[1]-fab.At[1]) > 60) {
		return tapAt(*r.del, fmt.Sprintf("The row of %s is open; I tap Delete to delete it.", name))
	}
	if r.del != nil || r.edit != nil {
		// An open card taller than what is left of the screen: its
		// Delete is below the list's edge, or behind the fab.
		return swipe(true, fmt.Sprintf("The row of %s is open; I scroll to its Delete.", name))
	}
	if r.arrow != nil {
		return tapAt(*r.arrow, fmt.Sprintf("I expand the row of %s to reach its Delete.", name))
	}
	return c.scroll(true, name)
}

// oneUIDeleteAlarm is the step on Samsung Clock: a press and hold on the
// alarm's card selects it, Delete deletes what is selected. False on
// another screen.
func (c *solver) oneUIDeleteAlarm(in intent) (step, bool) {
	selecting := false
	for _, l := range c.obs.Elems {
		selecting = selecting || strings.HasSuffix(l.Text, " selected")
	}
	if !selecting {
		return step{}, false
	}
	rows := selectedAlarms(c.obs.Elems)
	name := alarmName(in)
	var want, seen, other bool
	for i, r := range rows {
		if alarmNamedBy(in, r.at, r.label, i, len(rows)) {
			want, seen = want || r.checked, true
			continue
		}
		other = other || r.checked
	}
	del := c.byText("Delete")
	switch {
	case other:
		return back(fmt.Sprintf("Another alarm than %s is selected; I leave the selection.", name)), true
	case want && del != nil:
		return tapAt(*del, fmt.Sprintf("%s is selected, and only it; I tap Delete.", upperFirst(name))), true
	case !seen && in.Ord == 0 && c.trailing("Swipe") < maxScrolls:
		// The selection bar covers the list's foot: the alarm pressed may
		// sit under it.
		return swipe(true, fmt.Sprintf("%s is not on the screen; I scroll to see whether it is selected.", upperFirst(name))), true
	}
	return back(fmt.Sprintf("%s is not selected; I leave the selection.", upperFirst(name))), true
}

// selectedAlarm is a card of Samsung Clock's select mode.
type selectedAlarm struct {
	at, label string
	checked   bool
}

// selectedAlarms reads the cards of a select mode: each card's CheckBox,
// then its time, its mark and its label.
func selectedAlarms(es []uitree.Listed) []selectedAlarm {
	var out []selectedAlarm
	checked, boxed := false, false
	rows := vendorAlarms(es)
	k := 0
	for i := range es {
		l := es[i]
		if l.Class == "CheckBox" && l.Checkable {
			checked, boxed = l.Checked, true
			continue
		}
		if k < len(rows) && rows[k].row != nil && rows[k].row.Index == l.Index {
			out = append(out, selectedAlarm{at: rows[k].at, label: rows[k].label, checked: boxed && checked})
			checked, boxed = false, false
			k++
		}
	}
	return out
}

// vendorEditDelete is the step on a vendor alarm's edit page: 删除闹钟 when
// the page is the named alarm's, back otherwise (a new alarm's page, or
// another alarm's).
func (c *solver) vendorEditDelete(in intent) step {
	name := alarmName(in)
	del := c.byText("删除闹钟")
	if del == nil {
		return back("This page cannot delete the alarm; I go back to the list.")
	}
	at := c.wheelTime()
	label := ""
	if f := c.vendorLabelField(); f != nil && f.Text != "备注" && f.Text != "Alarm name" {
		label = strings.TrimSpace(f.Text)
	}
	ok := false
	switch {
	case in.Time != "":
		ok = at == in.Time
	case in.Label != "":
		ok = strings.EqualFold(label, in.Label)
	default:
		// An alarm named by its place: this page is the one the last tap
		// opened for it.
		p, had := c.prev()
		ok = had && p.Name == "Tap" && !c.tappedDelete()
	}
	if !ok {
		return back(fmt.Sprintf("This page edits the %s alarm, not %s; I leave it unchanged.", strings.TrimSpace(at+" "+label), name))
	}
	return tapAt(*del, fmt.Sprintf("This is the page of %s; I tap 删除闹钟 to delete it.", name))
}

// wheelTime is the time an edit page's wheels show, "HH:MM", or "".
func (c *solver) wheelTime() string {
	ws := c.vendorWheels()
	if len(ws) != 3 {
		return ""
	}
	var h, m int
	if _, err := fmt.Sscanf(ws[1].value()+" "+ws[2].value(), "%d %d", &h, &m); err != nil {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", markedHour(h, ws[0].value()), m)
}

// namedVendorAlarm is the vendor list row the todo names.
func namedVendorAlarm(rows []vendorAlarm, in intent) (*vendorAlarm, string) {
	for i := range rows {
		if alarmNamedBy(in, rows[i].at, rows[i].label, i, len(rows)) {
			return &rows[i], alarmName(in)
		}
	}
	return nil, alarmName(in)
}

// alarmNamedBy reports whether the alarm at place i of n, ringing at at
// with label, is the one in names.
func alarmNamedBy(in intent, at, label string, i, n int) bool {
	switch {
	case in.Time != "":
		return at == in.Time
	case in.Label != "":
		return strings.EqualFold(strings.TrimSpace(label), in.Label)
	case in.Ord == -1:
		return i == n-1
	case in.Ord > 0:
		return i == in.Ord-1
	}
	return false
}

// alarmName says which alarm in names.
func alarmName(in intent) string {
	switch {
	case in.Time != "":
		return "the " + in.Time + " alarm"
	case in.Label != "":
		return "the alarm labelled " + in.Label
	case in.Ord == -1:
		return "the last alarm"
	case in.Ord > 0:
		return "alarm number " + fmt.Sprint(in.Ord)
	}
	return "the alarm"
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
