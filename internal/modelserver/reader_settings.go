package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of Settings goals that depend on how the
// phone is now (docs/design.md §9): a switch flipped to the other state,
// brightness moved by an amount. The planner cannot know the state before
// the phone shows it, so a todo reads it first, and the todo that changes
// it is written again, with its check on the exact end state, once the
// value is read.

var (
	rdFlipRe = regexp.MustCompile(`(?i)\b(?:flip|flips|flipping|toggle|toggles|toggling|reverse|invert)\b|\bopposite\b|\bother\s+way\b|相反|切换|反过来`)
	// rdOppositeOfRe is a flip written again with the state read: "Turn
	// Wi-Fi to the opposite of Wi-Fi is on".
	rdOppositeOfRe = regexp.MustCompile(`(?i)^turn\s+(.+?)\s+to\s+the\s+opposite\s+of\s+(.+)$`)
	// rdPointsRe is an amount of brightness: "by 30 percentage points",
	// "20 points less than now", "30个百分点".
	rdPointsRe   = regexp.MustCompile(`(?i)(?:\bby\s+)?(\d{1,3})\s*(?:个)?\s*(percentage\s+points?|points?|百分点|%|percent)(?:\s+(?:more|less|higher|lower|brighter|dimmer|darker)(?:\s+than\s+(?:now|it\s+is(?:\s+now)?|before))?)?`)
	rdBrightUpRe = regexp.MustCompile(`(?i)\b(?:up|raise|increase|brighter|more|higher)\b|调高|提高|增加|调亮|加`)
	rdBrightDnRe = regexp.MustCompile(`(?i)\b(?:down|lower|decrease|reduce|dim|dimmer|darker|less)\b|调低|降低|减少|调暗|减`)
	// rdPointsDoneRe is a relative change written again with the value
	// read: "Set brightness 30 points below 50%".
	rdPointsDoneRe = regexp.MustCompile(`(?i)^set brightness (\d{1,3}) points (above|below) (?:brightness\s*:?\s*)?(\d{1,3})\s*%`)
	rdToPctRe      = regexp.MustCompile(`(?i)\bto\s+\d{1,3}\s*(?:%|percent)|调到|设为|设置为`)
)

// settingsClauseTodos reads the Settings clauses this file handles; ok is
// false for one it leaves to switchTodo and brightnessTodo.
func settingsClauseTodos(c string) ([]planned, bool) {
	c = zhPercentDigits(c)
	if m := rdOppositeOfRe.FindStringSubmatch(c); m != nil && switchName(m[1]) != "" {
		name, was, _ := strings.Cut(m[2], " (")
		name, was = switchName(m[1]), strings.TrimSpace(name)
		var state bool
		switch {
		case rdOffRe.MatchString(was):
			state = true
		case rdOnRe.MatchString(was):
			state = false
		default:
			return []planned{{Ask: fmt.Sprintf("I could not tell whether %s is on or off now (%q); should it be on or off?", name, was)}}, true
		}
		return []planned{{Todo: fmt.Sprintf("Turn %s %s", onOff(state), name), Rewrite: true,
			Expect: []postcond.Check{{Kind: postcond.Switch, Label: name, On: on(state)}}}}, true
	}
	if name := switchName(c); name != "" && rdFlipRe.MatchString(c) && !rdAskStateRe.MatchString(c) {
		return []planned{{Todo: fmt.Sprintf("Read the state of the %s switch", name), Reads: true},
			{Todo: fmt.Sprintf("Turn %s to the opposite of what was read", name)}}, true
	}
	if m := rdPointsDoneRe.FindStringSubmatch(c); m != nil {
		d, _ := strconv.Atoi(m[1])
		was, _ := strconv.Atoi(m[3])
		if strings.EqualFold(m[2], "below") {
			d = -d
		}
		v := was + d
		if v < 0 || v > 100 {
			return []planned{{Ask: fmt.Sprintf("Brightness is %d%%, so %+d points would be %d%%, outside 0–100%%; which value do you want?", was, d, v)}}, true
		}
		return []planned{{Todo: fmt.Sprintf("Set brightness to %d%%", v), Rewrite: true,
			Expect: []postcond.Check{{Kind: postcond.FieldHolds, Field: "Brightness", Value: fmt.Sprintf("%d%%", v)}}}}, true
	}
	lower := strings.ToLower(c)
	if !(strings.Contains(lower, "bright") || strings.Contains(lower, "dimmer") || strings.Contains(lower, "screen") || strings.Contains(c, "亮度")) {
		return nil, false
	}
	if pct, ok := absoluteBrightness(c); ok {
		if pct > 100 {
			return []planned{{Ask: fmt.Sprintf("Brightness goes from 0%% to 100%%; which value do you want instead of %d%%?", pct)}}, true
		}
		// The value asked, exactly: a phone that cannot take it fails the
		// check rather than passing at a value nobody asked for.
		return []planned{{Todo: fmt.Sprintf("Set brightness to %d%%", pct),
			Expect: []postcond.Check{{Kind: postcond.FieldHolds, Field: "Brightness", Value: fmt.Sprintf("%d%%", pct)}}}}, true
	}
	m := rdPointsRe.FindStringSubmatch(c)
	if m == nil || rdToPctRe.MatchString(c) {
		return nil, false
	}
	up, down := rdBrightUpRe.MatchString(c), rdBrightDnRe.MatchString(c)
	if up == down {
		return []planned{{Ask: fmt.Sprintf("Should brightness go up or down by %s points?", m[1])}}, true
	}
	dir := map[bool]string{true: "above", false: "below"}[up]
	return []planned{{Todo: "Read the brightness in Settings", Reads: true, Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeNumber}}},
		{Todo: fmt.Sprintf("Set brightness %s points %s what was read (%s)", m[1], dir, strings.TrimSpace(m[0]))}}, true
}

// settingsClause reports a clause settingsClauseTodos reads.
func settingsClause(c string) bool {
	_, ok := settingsClauseTodos(c)
	return ok
}

var (
	// rdAbsPctRe is a percentage: "40%", "40 percent", "百分之40".
	rdAbsPctRe = regexp.MustCompile(`(?i)(\d{1,3})\s*(?:%|％|percent\b|per\s+cent\b)|百分之\s*(\d{1,3})`)
	// rdRelWordRe says a percentage is an amount to move by, not a level.
	rdRelWordRe = regexp.MustCompile(`(?i)\bpoints?\b|百分点|\bby\s+\d|\b(?:more|less)\s+than\b`)
	// rdAtLevelRe puts brightness at a level: "to 40%", "at 40 percent", "调到".
	rdAtLevelRe = regexp.MustCompile(`(?i)\b(?:to|at)\s+(?:exactly\s+|precisely\s+)?(?:\d{1,3}|百分之)|调到|调成|调至|设为|设成|设置为|设置成|设到|=`)
)

// absoluteBrightness is the level a brightness clause asks for as a
// percentage ("brightness 40%", "at 40 percent", "屏幕亮度设为百分之40"),
// or false when the clause moves it by an amount ("20 points more", "up
// 20%", "调高20%"), which the relative reading above takes.
func absoluteBrightness(c string) (int, bool) {
	m := rdAbsPctRe.FindStringSubmatch(c)
	if m == nil || rdRelWordRe.MatchString(c) {
		return 0, false
	}
	if (rdBrightUpRe.MatchString(c) || rdBrightDnRe.MatchString(c)) && !rdAtLevelRe.MatchString(c) {
		return 0, false
	}
	v, _ := strconv.Atoi(firstNonEmpty(m[1], m[2]))
	return v, true
}

// openedApp is the app an "open X" clause names, when it is one the
// planner knows.
func openedApp(c string) string {
	if m := rdOpenRe.FindStringSubmatch(c); m != nil {
		return rdApps[strings.ToLower(strings.TrimSpace(m[1]))]
	}
	return ""
}

func on(b bool) *bool { return &b }

func switchTodo(c string, prev planned) planned {
	name := switchName(c)
	var state bool
	switch {
	case rdOffRe.MatchString(c):
		state = false
	case rdOnRe.MatchString(c):
		state = true
	case len(prev.Expect) == 1 && prev.Expect[0].Kind == postcond.Switch:
		state = *prev.Expect[0].On // "turn off Wi-Fi and Bluetooth"
	default:
		return planned{Ask: fmt.Sprintf("Should %s be on or off?", name)}
	}
	return planned{Todo: fmt.Sprintf("Turn %s %s", onOff(state), name),
		Expect: []postcond.Check{{Kind: postcond.Switch, Label: name, On: on(state)}}}
}

func brightnessTodo(c string) planned {
	c = zhPercentDigits(c)
	lower := strings.ToLower(c)
	if rdByRe.MatchString(c) {
		return planned{Ask: "By how much exactly should brightness change, or to which percentage should I set it?"}
	}
	pct := -1
	if m := rdPctRe.FindStringSubmatch(c); m != nil {
		pct, _ = strconv.Atoi(m[1])
	} else if regexp.MustCompile(`(?i)\b(?:max(?:imum)?|full|highest|brightest)\b|\ball the way up\b|最大|最高|最亮`).MatchString(c) {
		pct = 100
	} else if regexp.MustCompile(`(?i)\b(?:min(?:imum)?|lowest|darkest)\b|\ball the way down\b|最小|最低|最暗`).MatchString(c) {
		pct = 0
	} else if regexp.MustCompile(`(?i)\bhalf(?:way)?\b|一半`).MatchString(c) {
		pct = 50
	}
	if pct > 100 {
		return planned{Ask: fmt.Sprintf("Brightness goes from 0%% to 100%%; which value do you want instead of %d%%?", pct)}
	}
	if pct >= 0 {
		// The value asked, exactly: a phone that cannot take it fails the
		// check rather than passing at a value nobody asked for.
		return planned{Todo: fmt.Sprintf("Set brightness to %d%%", pct),
			Expect: []postcond.Check{{Kind: postcond.FieldHolds, Field: "Brightness", Value: fmt.Sprintf("%d%%", pct)}}}
	}
	if rdAtLevelRe.MatchString(c) {
		// A level the reader cannot read ("调到七成"): moving one step
		// instead would end at a value nobody asked for.
		return planned{Ask: "Which brightness, as a percentage from 0% to 100%, should I set?"}
	}
	if regexp.MustCompile(`(?i)\b(?:down|lower|decrease|reduce|dim|dimmer|darker)\b|调低|降低|暗`).MatchString(lower) {
		return planned{Todo: "Turn brightness down one step"}
	}
	return planned{Todo: "Turn brightness up one step"}
}
