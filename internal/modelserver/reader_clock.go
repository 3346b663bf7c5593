package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of goals about alarms that exist already
// (docs/design.md §9): an alarm named by its place in the list, its time
// or its label; switching it on or off; a new alarm at an offset from
// one; reading one alarm's time, label or state. What the planner cannot
// know before the phone shows it (the time of "my Gym alarm") is read by a
// todo first, and the todo that uses it is written again, with its
// postconditions, once the value is read.

var (
	// rdRelRe is an offset from another time: "30 minutes after", "an
	// hour later than", "half an hour before", "1.5 hours earlier than".
	rdRelRe = regexp.MustCompile(`(?i)\b(\d+|an?|one|two|three|half\s+an)\s*(minutes?|mins?|hours?|hrs?|h)\s+(after|before|later\s+than|earlier\s+than|past|from)\b`)
	// rdZhRelRe is a Chinese offset: "晚30分钟", "早1小时", "提前半小时", "推迟45分钟".
	rdZhRelRe = regexp.MustCompile(`(晚|早|提前|推迟|延后)\s*(\d+|半|一|两)\s*(?:个)?\s*(分钟|小时)`)
	// rdDeleteRe asks to remove something.
	rdDeleteRe = regexp.MustCompile(`(?i)^(?:delete|remove|trash|erase|get\s+rid\s+of|clear)\b|^(?:删除|删掉|去掉|清除)`)
	// rdSwitchVerbRe starts a clause that switches something that exists.
	rdSwitchVerbRe = regexp.MustCompile(`(?i)^(?:turn|switch|disable|enable|deactivate|activate|toggle)\b|^(?:关闭|关掉|打开|开启|禁用|启用)`)
	rdCreateWordRe = regexp.MustCompile(`(?i)\b(?:new|create|add|set|another)\b|新建|创建|添加|设置|设一个|再设`)
	// rdTerseSwitchRe is "Gym alarm off", "second alarm on".
	rdTerseSwitchRe = regexp.MustCompile(`(?i)^(?:the\s+|my\s+)?(.+?)\s+alarm\s+(on|off)$`)
	// rdAlarmLabelNameRe is the label a clause names an alarm by: "my Gym
	// alarm", "the Wake up alarm", "the alarm labelled Gym", "Gym闹钟".
	rdAlarmLabelNameRe = regexp.MustCompile(`(?i)\b(?:my|the)\s+(.+?)\s+alarm\b|\balarm\s+(?:labell?ed|called|named)\s+["“']?(.+?)["”']?(?:\s+(?:on|off|in\s+Clock))?$|^(?:关闭|关掉|打开|开启|禁用|启用|删除)?\s*(?:我的)?([^\d第的]+?)的?闹钟`)
	rdAlarmAskRe       = regexp.MustCompile(`(?i)\b(?:time|label|name)$|几点|标签是|叫什么|什么时间`)
	// rdBareNewAlarmRe is "再设一个闹钟" after the clause that says when.
	rdBareNewAlarmRe = regexp.MustCompile(`(?i)^(?:(?:and\s+)?(?:set|create|add|make)\s+(?:a\s+|an\s+|another\s+|one\s+)?(?:new\s+)?alarm|(?:再|并)?(?:设|设置|新建|创建|添加|定)(?:一个|个)?(?:新的?)?闹钟)$`)
	rdInvalidTimeRe  = regexp.MustCompile(`\b(\d{1,2})[:：.](\d{2})\b|(\d{1,2})\s*点\s*(\d{1,2})\s*分|(\d{2})\s*点`)
)

// ordinalWord names a place in a list as the todos write it.
func ordinalWord(n int) string {
	return map[int]string{1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last"}[n]
}

// alarmNamed says which existing alarm a clause names, as a todo writes it
// ("the 08:30 alarm", "the second alarm", "the alarm labelled Gym"), and
// its time when the clause gives it; "" when it names none.
func alarmNamed(c string) (which, at string) {
	if t := hhmm(c); t != "" {
		return "the " + t + " alarm", t
	}
	if n := ordinal(c); n != 0 {
		return "the " + ordinalWord(n) + " alarm", ""
	}
	if m := rdTerseSwitchRe.FindStringSubmatch(c); m != nil && !rdSwitchVerbRe.MatchString(c) {
		return "the alarm labelled " + strings.TrimSpace(m[1]), ""
	}
	if m := rdAlarmLabelNameRe.FindStringSubmatch(c); m != nil {
		label := strings.TrimSpace(firstNonEmpty(firstNonEmpty(m[1], m[2]), m[3]))
		label = strings.TrimSpace(regexp.MustCompile(`(?i)^(?:existing|current|old)\s+|^(?:on|off)\s+(?:my\s+|the\s+)?`).ReplaceAllString(label, ""))
		if label != "" && !rdStateWordRe.MatchString(label) && !strings.EqualFold(label, "existing") && !rdCreateWordRe.MatchString(label) {
			return "the alarm labelled " + label, ""
		}
	}
	return "", ""
}

// readTimeOf is the todo that reads the time of an alarm named otherwise.
func readTimeOf(which string) planned {
	ch := postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeTime}
	switch {
	case strings.HasPrefix(which, "the last "):
		ch.Ordinal = postcond.Last
	case !strings.Contains(which, "labelled"):
		for n := 1; n <= 5; n++ {
			if strings.HasPrefix(which, "the "+ordinalWord(n)+" ") {
				ch.Ordinal = n
			}
		}
	}
	return planned{Todo: fmt.Sprintf("Read the time of %s in Clock", which), Reads: true, Expect: []postcond.Check{ch}}
}

// existingAlarmTodo reads a clause that switches an alarm that exists; ok
// is false for a clause that does not.
func existingAlarmTodo(c string) ([]planned, bool) {
	terse := rdTerseSwitchRe.MatchString(c)
	if !(rdSwitchVerbRe.MatchString(c) || terse) || rdCreateWordRe.MatchString(c) {
		return nil, false
	}
	state := !rdOffRe.MatchString(c)
	if m := rdTerseSwitchRe.FindStringSubmatch(c); m != nil {
		state = strings.EqualFold(m[2], "on")
	}
	which, at := alarmNamed(c)
	switch {
	case which == "":
		return []planned{{Ask: fmt.Sprintf("Which alarm should I turn %s: its time, its label, or the first, second, … in the list?", onOff(state))}}, true
	case at != "":
		return []planned{{Todo: fmt.Sprintf("Turn %s the existing %s alarm", onOff(state), at), Rewrite: true,
			Expect: []postcond.Check{{Kind: postcond.Switch, Label: at, On: on(state)}}}}, true
	}
	// The planner cannot know the alarm's time before the phone shows it:
	// read it, then switch the alarm at that time (checked then).
	return []planned{readTimeOf(which), {Todo: fmt.Sprintf("Turn %s the existing alarm at the time read (%s)", onOff(state), which), Rewrite: true}}, true
}

// offsetMinutes reads an offset in minutes, signed (after is positive);
// ok is false when the clause has none.
func offsetMinutes(c string) (int, bool) {
	if m := rdRelRe.FindStringSubmatch(c); m != nil {
		n := 0
		switch w := strings.ToLower(strings.Join(strings.Fields(m[1]), " ")); w {
		case "a", "an", "one":
			n = 1
		case "two":
			n = 2
		case "three":
			n = 3
		case "half an":
			n = -30 // half an hour: minutes already
		default:
			n, _ = strconv.Atoi(w)
		}
		unit := strings.ToLower(m[2])
		if n == -30 {
			n = 30
		} else if strings.HasPrefix(unit, "h") {
			n *= 60
		}
		if d := strings.ToLower(m[3]); strings.HasPrefix(d, "before") || strings.HasPrefix(d, "earlier") {
			n = -n
		}
		return n, true
	}
	if m := rdZhRelRe.FindStringSubmatch(c); m != nil {
		n := 0
		switch m[2] {
		case "半":
			n = 30
		case "一":
			n = 1
		case "两":
			n = 2
		default:
			n, _ = strconv.Atoi(m[2])
		}
		if m[3] == "小时" && m[2] != "半" {
			n *= 60
		}
		if m[1] == "早" || m[1] == "提前" {
			n = -n
		}
		return n, true
	}
	return 0, false
}

// addMinutes moves "HH:MM" by d minutes around the clock.
func addMinutes(t string, d int) string {
	var h, m int
	fmt.Sscanf(t, "%d:%d", &h, &m)
	x := ((h*60+m+d)%1440 + 1440) % 1440
	return fmt.Sprintf("%02d:%02d", x/60, x%60)
}

// relativeAlarmTodo reads "an alarm 30 minutes after my Gym alarm"; ok is
// false for a clause with no offset.
func relativeAlarmTodo(c string) ([]planned, bool) {
	d, ok := offsetMinutes(c)
	if !ok {
		return nil, false
	}
	rest := rdRelRe.ReplaceAllString(rdZhRelRe.ReplaceAllString(c, " "), " ")
	which, at := alarmNamed(rest)
	// "Set an alarm 20 minutes after the first alarm": the alarm named is
	// the one after the offset, not the new one.
	if i := rdRelRe.FindStringIndex(c); i != nil {
		if w, a := alarmNamed(c[i[1]:]); w != "" {
			which, at = w, a
		}
	}
	// The offset as the goal says it goes with the todo, so no word of it
	// is left out ("an hour later than").
	said := fmt.Sprintf("%d minutes %s", abs(d), map[bool]string{true: "after", false: "before"}[d > 0])
	if m := rdRelRe.FindString(c); m != "" {
		said = m
	}
	switch {
	case at != "":
		t := addMinutes(at, d)
		return []planned{{Todo: "Create an alarm at " + t + fmt.Sprintf(" (%s %s)", said, at), Expect: newAlarm(t)}}, true
	case which == "" || which == "the alarm labelled alarm":
		return []planned{{Ask: fmt.Sprintf("The new alarm is %d minutes from which alarm: its time, label, or the first, second, … in the list?", abs(d))}}, true
	}
	return []planned{readTimeOf(which), {Todo: fmt.Sprintf("Create an alarm %d minutes %s the time read (%s %s)", abs(d), map[bool]string{true: "after", false: "before"}[d > 0], said, which), Rewrite: true}}, true
}

// rdReadTimeDoneRe is a todo written again once the alarm's time is read:
// "Create an alarm 30 minutes after 07:00 (the alarm labelled Gym)".
var rdAfterReadRe = regexp.MustCompile(`(?i)^create an alarm (\d+) minutes (after|before) (\d{1,2}:\d{2})`)

// alarmClauseTodos reads the alarm clauses this file handles; ok is false
// for one it leaves to alarmTodo (a new alarm at a time).
func alarmClauseTodos(c string) ([]planned, bool) {
	if m := rdAfterReadRe.FindStringSubmatch(c); m != nil {
		d, _ := strconv.Atoi(m[1])
		if strings.EqualFold(m[2], "before") {
			d = -d
		}
		t := addMinutes(m[3], d)
		return []planned{{Todo: "Create an alarm at " + t, Rewrite: true, Expect: newAlarm(t)}}, true
	}
	if rdAlarmAskRe.MatchString(c) && !rdCreateWordRe.MatchString(c) && !rdSwitchVerbRe.MatchString(c) {
		// "second alarm time?", "第二个闹钟是几点的": a question without a
		// question word.
		return []planned{alarmReadTodo(c)}, true
	}
	if rdDeleteRe.MatchString(c) {
		which, at := alarmNamed(c)
		if which == "" {
			return []planned{{Ask: "Which alarm should I delete: its time, its label, or the first, second, … in the list?"}}, true
		}
		p := planned{Todo: fmt.Sprintf("Delete %s in Clock", which)}
		if label, ok := strings.CutPrefix(which, "the alarm labelled "); ok && at == "" {
			at = label // the alarm's label is gone with it
		}
		if at != "" {
			p.Expect = []postcond.Check{{Kind: postcond.AppInFront, App: "Clock"}, {Kind: postcond.ElementAbsent, Text: at}}
		}
		return []planned{p}, true
	}
	if ps, ok := relativeAlarmTodo(c); ok {
		return ps, true
	}
	if ps, ok := existingAlarmTodo(c); ok {
		return ps, true
	}
	if hhmm(c) == "" {
		if m := rdInvalidTimeRe.FindStringSubmatch(c); m != nil {
			// A time no clock has ("25:30"): the executor is told it as it
			// is, and a phone that refuses it fails the todo.
			t := strings.TrimSpace(m[0])
			todo := "Create an alarm at " + t
			if l := rdLabelRe.FindStringSubmatch(c); l != nil {
				todo += " labelled " + strings.TrimSpace(firstNonEmpty(l[1], l[2]))
			}
			return []planned{{Todo: todo + ", which is no time of day",
				Expect: []postcond.Check{{Kind: postcond.ElementExists, Text: t}}}}, true
		}
	}
	return nil, false
}

// alarmReadTodo reads a question about one alarm: its state, label or
// time.
func alarmReadTodo(c string) planned {
	if rdStateWordRe.MatchString(c) || rdStateOfRe.MatchString(c) {
		return alarmStateTodo(c)
	}
	which, _ := alarmNamed(c)
	if rdLabelWordRe.MatchString(c) && !strings.Contains(which, "labelled") {
		if which == "" {
			return planned{Ask: "Which alarm's label should I read: its time, or the first, second, … in the list?"}
		}
		ch := postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel}
		if n := ordinal(c); n != 0 && hhmm(c) == "" {
			ch.Ordinal = n
		}
		return planned{Todo: fmt.Sprintf("Read the label of %s in Clock", which), Reads: true, Expect: []postcond.Check{ch}}
	}
	if which == "" {
		which = "the first alarm"
	}
	return readTimeOf(which)
}

// rdStateLeadRe is the question's lead before the alarm it names: "Is
// my Gym alarm on", "Check whether the first alarm is enabled".
var rdStateLeadRe = regexp.MustCompile(`(?i)^(?:is|are|was|(?:check|see|tell\s+me|find\s+out)\s+(?:if|whether))\s+|^read\s+the\s+state\s+of\s+`)

// rdStateOfRe asks for an alarm's state in so many words ("the state of
// the 07:00 alarm", as the todo says it, "闹钟的状态").
var rdStateOfRe = regexp.MustCompile(`(?i)\b(?:state|status)\s+of\b|状态`)

// alarmStateTodo reads a question whether one alarm is on. The answer is
// checked against the alarm's own switch as a screen of the todo showed
// it: by its time or label, or by its place in the list.
func alarmStateTodo(c string) planned {
	which, at := alarmNamed(rdStateLeadRe.ReplaceAllString(c, ""))
	ch := postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeState}
	switch {
	case which == "":
		return planned{Ask: "Which alarm should I check: its time, its label, or the first, second, … in the list?"}
	case at != "":
		ch.Label = at
	case strings.HasPrefix(which, "the alarm labelled "):
		ch.Label = strings.TrimPrefix(which, "the alarm labelled ")
	case strings.HasPrefix(which, "the last "):
		ch.Ordinal = postcond.Last
	default:
		ch.Ordinal = ordinal(which)
	}
	// Worded without "on" or "off", so the answer that repeats the todo
	// says one state only.
	return planned{Todo: fmt.Sprintf("Read the state of %s in Clock", which), Reads: true, Expect: []postcond.Check{ch}}
}

// hhmm reads a time of day ("7am", "7:30 pm", "19:30", "早上7点半").
func hhmm(c string) string {
	if t, ok := wordTime(c); ok {
		return t
	}
	h, m := -1, 0
	if x := rdTimeRe.FindStringSubmatch(c); x != nil {
		if x[4] != "" {
			h, _ = strconv.Atoi(x[4])
			m, _ = strconv.Atoi(x[5])
		} else {
			h, _ = strconv.Atoi(x[1])
			if x[2] != "" {
				m, _ = strconv.Atoi(x[2])
			}
			h = clocktime.Hour24(h, x[3])
		}
	} else if x := rdZhTimeRe.FindStringSubmatch(c); x != nil {
		h, _ = strconv.Atoi(x[2])
		if x[3] == "半" {
			m = 30
		} else if x[4] != "" {
			m, _ = strconv.Atoi(x[4])
		}
		if (x[1] == "下午" || x[1] == "晚上") && h < 12 {
			h += 12
		}
	} else if x := rdBareAtRe.FindStringSubmatch(c); x != nil {
		h, _ = strconv.Atoi(x[1])
	}
	if h < 0 || h > 23 || m > 59 {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", h, m)
}

func alarmTodo(c string) planned {
	t := hhmm(c)
	existing := regexp.MustCompile(`(?i)^(?:turn|switch|disable|enable|deactivate|activate)\b|^(?:关闭|关掉|打开|开启|禁用|启用)`).MatchString(c) &&
		!regexp.MustCompile(`(?i)\b(?:new|create|add|set)\b|新建|创建|添加|设置`).MatchString(c)
	if t == "" {
		return planned{Ask: "What time should the alarm ring?"}
	}
	if existing {
		state := !rdOffRe.MatchString(c)
		return planned{Todo: fmt.Sprintf("Turn %s the existing %s alarm", onOff(state), t),
			Expect: []postcond.Check{{Kind: postcond.Switch, Label: t, On: on(state)}}}
	}
	label := ""
	if m := rdLabelRe.FindStringSubmatch(c); m != nil {
		label = strings.TrimSpace(firstNonEmpty(m[1], m[2]))
	} else if m := rdNameItRe.FindStringSubmatch(c); m != nil {
		label = strings.TrimSpace(m[1])
	} else if q := rdQuotedFirst.FindStringSubmatch(c); q != nil {
		label = strings.TrimSpace(q[1])
	}
	todo := "Create an alarm at " + t
	exp := newAlarm(t)
	if label != "" {
		todo += " labelled " + label
		exp = []postcond.Check{{Kind: postcond.RowShows, Row: t, Shows: label}, rings(t)}
	}
	return planned{Todo: todo, Expect: exp}
}

// newAlarm is what a new alarm at t shows: its time, and a switch at that
// time that is on.
func newAlarm(t string) []postcond.Check {
	return []postcond.Check{{Kind: postcond.ElementExists, Text: t}, rings(t)}
}

// rings is an alarm at t that rings: one that is off (made before, or
// switched off) is not the alarm a todo makes (docs/design.md §9).
func rings(t string) postcond.Check {
	return postcond.Check{Kind: postcond.Switch, Label: t, On: on(true), Any: true}
}
