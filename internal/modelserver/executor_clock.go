package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The executor persona's work on alarms that already exist: reading one
// alarm's time, label or state, and switching one on or off. An alarm is
// named by its place in the list ("the second alarm", "alarm number 2",
// "第二个"), its time, or its label (docs/design.md §9: the planner's
// postconditions check the result, not this parse).

// Kinds of todo on an existing alarm or note.
const (
	kindAlarmSwitch = "alarm-switch"
	kindNoteRename  = "note-rename"
	kindNoteOpen    = "note-open"
)

var (
	exOrdRe         = regexp.MustCompile(`(?i)\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\b|\b(?:alarm|note)\s+(?:number|no\.?|#)\s*(\d)\b|第\s*([一二三四五1-5])|最后`)
	exAlarmLabel    = regexp.MustCompile(`(?i)\balarm\s+(?:labell?ed|called|named)\s+["“']?(.+?)["”']?(?:\s+(?:is|in|on|off|to)\b.*)?$`)
	exStateWordRe   = regexp.MustCompile(`(?i)\bwhether\b|\bon or off\b|\b(?:state|status)\s+of\b|状态|\benabled or disabled\b|开着还是关着|是否开`)
	exLabelWordRe   = regexp.MustCompile(`(?i)\b(?:label|called|name|named)\b|标签|名字|叫什么`)
	exExistingRe    = regexp.MustCompile(`(?i)^(?:please\s+)?(?:turn|switch|disable|enable|deactivate|activate)\b|^(?:关闭|关掉|打开|开启|禁用|启用)`)
	exNewAlarmRe    = regexp.MustCompile(`(?i)\b(?:new|create|add|set)\b|新建|创建|添加|设置|设一个`)
	exNoTimeRe      = regexp.MustCompile(`(?i)\b(\d{1,2}[:：]\d{2})\b`)
	exNoTimeOfDayRe = regexp.MustCompile(`(?i)\bno time of day\b`)
	exDeleteRe      = regexp.MustCompile(`(?i)^(?:please\s+)?(?:delete|remove|trash|erase|get rid of)\b|^(?:删除|删掉|去掉)`)
)

// exOrdinal reads the place an ordinal names: 1 for first, -1 for last,
// 0 for none.
func exOrdinal(t string) int {
	m := exOrdRe.FindStringSubmatch(t)
	if m == nil {
		return 0
	}
	return ordinalPlace(m[1] + m[2] + m[3])
}

// parseAlarmRead fills a read of one alarm: its time or label, and
// which alarm.
func parseAlarmRead(t string, in *intent) {
	in.App = "Clock"
	switch {
	case exStateWordRe.MatchString(t):
		in.What = "alarm state"
	case exLabelWordRe.MatchString(t) && !exAlarmLabel.MatchString(t):
		in.What = "alarm label"
	default:
		in.What = "alarm time"
	}
	alarmWhich(t, in)
	if in.What != "alarm label" && in.Ord == 0 && in.Time == "" && in.Label == "" {
		in.Ord = 1
	}
}

// alarmWhich fills which alarm a todo names.
func alarmWhich(t string, in *intent) {
	if m := exAlarmLabel.FindStringSubmatch(t); m != nil {
		in.Label = unquote(strings.TrimSpace(m[1]))
	}
	if m := exNoTimeRe.FindStringSubmatch(t); m != nil {
		in.Time, _ = parseAlarm("at " + m[1])
	} else if in.Label == "" {
		in.Ord = exOrdinal(t)
	}
}

// parseAlarmTodo reads a todo about alarms: switching an existing one, or
// creating one (the alarm intent of before).
func parseAlarmTodo(t string, in *intent) {
	in.Kind, in.App = kindAlarm, "Clock"
	if exDeleteRe.MatchString(t) {
		in.Kind = kindAlarmDelete
		alarmWhich(t, in)
		return
	}
	if exExistingRe.MatchString(t) && !exNewAlarmRe.MatchString(t) {
		in.Kind = kindAlarmSwitch
		in.On = !toggleOffRe.MatchString(t)
		alarmWhich(t, in)
		return
	}
	if exNoTimeOfDayRe.MatchString(t) {
		return // "Create an alarm at 25:30, which is no time of day": no time to type
	}
	in.Time, in.Label = parseAlarm(t)
}

// alarmSwitches are the alarm list's switches, in list order; on a
// screen whose alarm rows have no switch, the rows (their state unknown).
// A Pixel's text-less switches are described by their rows first.
func (c *solver) alarmSwitches() []*uitree.Listed {
	var out, rows []*uitree.Listed
	es := describeAlarmSwitches(c.obs.Elems)
	for i, l := range es {
		switch {
		case l.Checkable && clockRe.MatchString(l.Desc):
			out = append(out, &es[i])
		case !l.Checkable && clockRe.MatchString(l.Text):
			rows = append(rows, &es[i])
		}
	}
	if len(out) == 0 {
		return rows
	}
	return out
}

// alarmText is what an alarm's switch or row says: "07:00 Wake up".
func alarmText(l *uitree.Listed) string { return firstNonEmpty(l.Desc, l.Text) }

// namedAlarm finds the switch of the alarm a todo names, and how to say it.
func (c *solver) namedAlarm(in intent) (*uitree.Listed, string) {
	sws := c.alarmSwitches()
	switch {
	case in.Time != "":
		for _, s := range sws {
			if alarmText(s) == in.Time || strings.HasPrefix(alarmText(s), in.Time+" ") {
				return s, "the " + in.Time + " alarm"
			}
		}
		return nil, "the " + in.Time + " alarm"
	case in.Label != "":
		for _, s := range sws {
			if _, label, _ := strings.Cut(alarmText(s), " "); strings.EqualFold(strings.TrimSpace(label), in.Label) {
				return s, "the alarm labelled " + in.Label
			}
		}
		return nil, "the alarm labelled " + in.Label
	case in.Ord == -1:
		if len(sws) > 0 {
			return sws[len(sws)-1], "the last alarm"
		}
		return nil, "the last alarm"
	case in.Ord > 0:
		name := "alarm number " + strconv.Itoa(in.Ord)
		if in.Ord <= len(sws) {
			return sws[in.Ord-1], name
		}
		return nil, name
	}
	return nil, "the alarm"
}

// alarmListStep is the step towards the alarm list when it is not shown,
// or ok=false on the list.
func (c *solver) alarmListStep() (step, bool) {
	if st, ok := c.ensureApp("Clock"); ok {
		return st, true
	}
	if c.byID("alarm_time") != nil {
		return back("This is the new alarm page; the alarms are on the list."), true
	}
	if c.pixelDialog() {
		return back("A dialog is in front of the alarm list; I close it."), true
	}
	if c.onVendorAlarmEdit() {
		return back("This is an alarm's edit page; the alarms are on the list."), true
	}
	return step{}, false
}

// missingAlarm scrolls for an alarm not on screen, and says it is not on
// the phone once the whole list is seen.
// It looks down the list first, then back up past where it began: a
// list left scrolled down by an earlier todo hides the alarms at its top.
func (c *solver) missingAlarm(name string) step {
	down, up := 0, 0
	for _, a := range c.hist {
		if a.Name == "Swipe" {
			if strings.Contains(a.Raw, "start=[500,750]") {
				down++
			} else {
				up++
			}
		}
	}
	switch {
	case c.allListed() || up >= 2*maxScrolls:
		return finish(fmt.Sprintf("Cannot do it: there is no %s on this phone", name), "The alarm list does not have it.")
	case down < maxScrolls && up == 0:
		return c.scroll(true, name)
	}
	return swipe(false, fmt.Sprintf("%s is not further down; I scroll back up to look above.", upperFirst(name)))
}

func (c *solver) readAlarm(in intent) step {
	if st, ok := c.alarmListStep(); ok {
		return st
	}
	sw, name := c.namedAlarm(in)
	if sw == nil {
		return c.missingAlarm(name)
	}
	at, label, _ := strings.Cut(alarmText(sw), " ")
	switch in.What {
	case "alarm state":
		if !sw.Checkable {
			return c.missingAlarm(name)
		}
		return finish(fmt.Sprintf("The %s alarm is %s", alarmText(sw), onOff(sw.Checked)), fmt.Sprintf("The switch of %s is %s.", name, onOff(sw.Checked)))
	case "alarm label":
		if label = strings.TrimSpace(label); label == "" {
			return finish(fmt.Sprintf("The %s alarm has no label", at), fmt.Sprintf("The row of %s shows only its time.", name))
		}
		return finish(label, fmt.Sprintf("The row of %s reads %q.", name, alarmText(sw)))
	}
	return finish(at, fmt.Sprintf("The row of %s reads %q.", name, alarmText(sw)))
}

func (c *solver) alarmSwitch(in intent) step {
	if st, ok := c.alarmListStep(); ok {
		return st
	}
	sw, name := c.namedAlarm(in)
	if sw == nil || !sw.Checkable {
		return c.missingAlarm(name)
	}
	if sw.Checked == in.On {
		return finish(fmt.Sprintf("The %s alarm is %s", sw.Desc, onOff(in.On)), fmt.Sprintf("The switch of %s is %s, as asked.", name, onOff(in.On)))
	}
	return tapAt(*sw, fmt.Sprintf("The switch of %s is %s; I tap it to turn the alarm %s.", name, onOff(sw.Checked), onOff(in.On)))
}

func (c *solver) alarm(in intent) step {
	if in.Time == "" {
		return finish("Cannot create the alarm: the task gives no time", "The task lacks a time; the planner should ask the user.")
	}
	if st, ok := c.ensureApp("Clock"); ok {
		return st
	}
	if st, ok := c.pixelNewAlarm(in); ok {
		return st
	}
	if st, ok := c.vendorNewAlarm(in); ok {
		return st
	}
	timeF := c.byID("alarm_time")
	if timeF != nil {
		labelF, save := c.byID("alarm_label"), c.byID("save_button")
		if save == nil {
			save = c.byText("Save")
		}
		switch {
		case value(timeF) != in.Time && c.focused(timeF) && !c.prevIs("Type"):
			return typeText(in.Time, "The time field has the focus; I type the time.")
		case value(timeF) != in.Time:
			return tapAt(*timeF, "I tap the time field to enter "+in.Time+".")
		case in.Label != "" && labelF != nil && value(labelF) != in.Label && c.focused(labelF) && !c.prevIs("Type"):
			return typeText(in.Label, "The label field has the focus; I type the label.")
		case in.Label != "" && labelF != nil && value(labelF) != in.Label:
			return tapAt(*labelF, "I tap the label field.")
		case save != nil:
			return tapAt(*save, "Time and label are filled in; I save the alarm.")
		}
		return back("The new alarm page has no Save button; I go back.")
	}
	if add := c.byText("Add alarm"); add != nil {
		saved := c.typed(in.Time) && (in.Label == "" || c.typed(in.Label)) && c.prevIs("Tap") && !c.isErr()
		if c.typed(in.Time) && c.alarmRow(in.Time, in.Label) != nil || saved {
			msg := "Alarm set for " + in.Time
			if in.Label != "" {
				msg += " (" + in.Label + ")"
			}
			return finish(msg, "The new alarm is in the list.")
		}
		return tapAt(*add, "I tap Add alarm to create a new alarm.")
	}
	return back("This is not the alarm list; I go back.")
}

func (c *solver) alarmRow(hhmm, label string) *uitree.Listed {
	for i, l := range c.obs.Elems {
		if strings.HasPrefix(l.Text, hhmm) && (label == "" || strings.Contains(l.Text, label)) {
			return &c.obs.Elems[i]
		}
	}
	return nil
}
