package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// readClause reads one clause; a clause that needs a value read first
// ("Send Zhang San's number to Mom") becomes two todos.
func readClause(c string, prev planned) []planned {
	c = zhVerbFirst(c)
	lower := strings.ToLower(c)
	if m := rdCodeTodoRe.FindStringSubmatch(c); m != nil {
		// "Enter the code in the Bank app: 482913", as a replan writes
		// it once the code wait read the code.
		return []planned{codeTodo(c, m[1])}
	}
	if p, ok := pronounSwitch(c, prev); ok {
		return []planned{p}
	}
	if ps, ok := senderClause(reveal(c)); ok {
		return ps
	}
	if ps, ok := messagesClause(reveal(c), prev); ok {
		return ps
	}
	if ps, ok := messageClause(c, prev); ok {
		return ps
	}
	if p, ok := contactsClause(c); ok {
		return []planned{p}
	}
	if ps, ok := aboutClauseTodos(c); ok {
		return ps
	}
	if ps, ok := sendReadTo(c, prev); ok {
		return ps
	}
	switch {
	case rdHomeRe.MatchString(c):
		return []planned{{Todo: "Go to the home screen", Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Launcher"}}}}
	case rdDeleteRe.MatchString(c) && (strings.Contains(lower, "alarm") || strings.Contains(c, "闹钟")):
		ps, _ := alarmClauseTodos(c)
		return ps
	case rdDeleteRe.MatchString(c) && (strings.Contains(lower, "note") || strings.Contains(c, "笔记") || strings.Contains(c, "备忘") || strings.Contains(c, "便签")):
		ps, _ := noteClauseTodos(c)
		return ps
	case isReadClause(c):
		return []planned{readValue(c)}
	case rdSendRe.MatchString(c) && !strings.Contains(lower, "note") && !strings.Contains(c, "笔记") && !strings.Contains(c, "备忘") && !strings.Contains(c, "便签"):
		return sendTodos(c, prev)
	case openedApp(c) != "":
		app := openedApp(c)
		return []planned{{Todo: "Open " + app, Expect: []postcond.Check{{Kind: postcond.AppInFront, App: app}}}}
	case settingsClause(c):
		ps, _ := settingsClauseTodos(c)
		return ps
	case strings.Contains(lower, "alarm") || strings.Contains(lower, "wake me") || strings.Contains(c, "闹钟"):
		if rdBareNewAlarmRe.MatchString(c) && hhmm(c) == "" && strings.HasPrefix(prev.Todo, "Create an alarm") {
			return nil // "比07:00的闹钟晚30分钟，再设一个闹钟": said by the clause before
		}
		if ps, ok := zhAlarmChange(c); ok {
			return ps
		}
		if ps, ok := alarmClauseTodos(c); ok {
			return ps
		}
		return []planned{alarmTodo(c)}
	case strings.Contains(lower, "note") || strings.Contains(c, "笔记") || strings.Contains(c, "备忘") || strings.Contains(c, "便签"):
		if ps, ok := noteClauseTodos(c); ok {
			return ps
		}
		return []planned{noteTodo(c)}
	case strings.Contains(lower, "brightness") || strings.Contains(lower, "brighter") || strings.Contains(lower, "dimmer") || strings.Contains(c, "亮度"):
		if ps, ok := stepBrightness(c); ok {
			return ps
		}
		return []planned{brightnessTodo(c)}
	case switchName(c) != "":
		return []planned{switchTodo(c, prev)}
	}
	return []planned{{Todo: capitalise(c)}}
}

// ordinal reads "second", "2nd", "第二个"; last is -1, none 0.
func ordinal(c string) int {
	m := rdOrdinalRe.FindStringSubmatch(c)
	if m == nil {
		return superlative(c)
	}
	return ordinalPlace(firstNonEmpty(m[1], m[2]))
}

// ordinalPlace is the place an ordinal's word or digit names ("second",
// "2nd", "二", "2"): 1 to 5, or -1 for any other word, which the ordinal
// patterns only match for "last" and "最后".
func ordinalPlace(w string) int {
	switch strings.ToLower(w) {
	case "first", "1st", "一", "1":
		return 1
	case "second", "2nd", "二", "2":
		return 2
	case "third", "3rd", "三", "3":
		return 3
	case "fourth", "4th", "四", "4":
		return 4
	case "fifth", "5th", "五", "5":
		return 5
	}
	return -1
}

// rdLabelWordRe asks for a label or name rather than a time.
var rdLabelWordRe = regexp.MustCompile(`(?i)\b(?:called|named|name|label|labell?ed|title)\b|标签|叫什么|名字|名称`)

// readValue plans a todo that reads something, with the type its answer
// must have.
func readValue(c string) planned {
	lower := strings.ToLower(c)
	answer := func(todo, typ string, n int) planned {
		ch := postcond.Check{Kind: postcond.AnswerSeen, Type: typ}
		if n != 0 {
			ch.Ordinal = n
		}
		return planned{Todo: todo, Reads: true, Expect: []postcond.Check{ch}}
	}
	switch {
	case rdMsgWordRe.MatchString(c) && !rdNotMsgReadRe.MatchString(c) && messageFrom(c) != "":
		// What someone wrote: their newest message, not the last row
		// of a list (a conversation ends with what was sent to them).
		return answer(fmt.Sprintf("Read the latest message from %s in Messages", messageFrom(c)), postcond.TypeLabel, 0)
	case strings.Contains(lower, "number") && !strings.Contains(lower, "build") || strings.Contains(c, "电话") || strings.Contains(c, "号码"):
		who := personIn(c)
		if who == "" {
			return planned{Ask: "Whose phone number should I read?"}
		}
		return answer(fmt.Sprintf("Read %s's phone number in Contacts", who), postcond.TypePhone, 0)
	case strings.Contains(lower, "alarm") || strings.Contains(c, "闹钟"):
		return alarmReadTodo(c)
	case (strings.Contains(lower, "note") || strings.Contains(c, "笔记") || strings.Contains(c, "备忘") || strings.Contains(c, "便签")) && !strings.Contains(lower, "build"):
		return noteReadTodo(c)
	case strings.Contains(lower, "build"):
		return answer("Read the build number in Settings", postcond.TypeLabel, 0)
	case strings.Contains(lower, "version") || strings.Contains(c, "版本"):
		return answer("Read the Android version in Settings", postcond.TypeNumber, 0)
	case strings.Contains(lower, "model") || strings.Contains(c, "型号"):
		return answer("Read the phone model in Settings", postcond.TypeLabel, 0)
	case strings.Contains(lower, "bright") || strings.Contains(c, "亮度"):
		return answer("Read the brightness in Settings", postcond.TypeNumber, 0)
	case switchName(c) != "":
		// Worded without "on" or "off", so the answer that repeats it
		// says one state only.
		// The answer is checked against the switch a screen showed.
		return planned{Todo: fmt.Sprintf("Read the state of the %s switch", switchName(c)), Reads: true,
			Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeState, Label: switchName(c)}}}
	}
	// A read the reader has no answer type for: the label check keeps a
	// made-up or app-name answer from passing.
	return answer(capitalise(c), postcond.TypeLabel, ordinal(c))
}

var (
	// rdMsgWordRe: a read about what someone wrote.
	rdMsgWordRe = regexp.MustCompile(`(?i)\b(?:messages?|texts?|texted|sms|wrote|written|messaged)\b|消息|短信|信息`)
	// rdNotMsgReadRe: reads of other things that use the same words.
	rdNotMsgReadRe = regexp.MustCompile(`(?i)\b(?:number|note|alarm)\b|电话|号码|笔记|备忘|便签|闹钟`)
	rdFromRe       = regexp.MustCompile(`(?i)\bfrom\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)|([\p{Han}]{2,4}?)(?:发给我|发来|给我发)`)
)

// messageFrom is whose message a read is about: a person the text names
// (by name, "X's", "from X", "X发来"), or "".
func messageFrom(c string) string {
	if who := personIn(c); who != "" {
		return who
	}
	if m := rdFromRe.FindStringSubmatch(c); m != nil {
		return strings.TrimSpace(firstNonEmpty(m[1], m[2]))
	}
	return ""
}

// rdStateWordRe asks whether something is on or off.
var rdStateWordRe = regexp.MustCompile(`(?i)\b(?:on|off|enabled|disabled|active|set)\s*[?？]?\s*$|\b(?:on or off|off or on|enabled or disabled|on or not|whether)\b|开着|开了|关了|关着|开启了|是否开|是否关`)

// rdAlarmNameRe is the label a question names an alarm by: "my Wake up alarm".
var rdAlarmNameRe = regexp.MustCompile(`(?i)\b(?:my|the)\s+(.+?)\s+alarm\b`)

// alarmState plans reading whether one alarm is on: the alarm named by
// its ordinal, time or label; a question when it names none.
func alarmState(c string) planned {
	which := ""
	switch n := ordinal(c); {
	case n != 0:
		which = map[int]string{1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last"}[n] + " alarm"
	case hhmm(c) != "":
		which = hhmm(c) + " alarm"
	default:
		if m := rdAlarmNameRe.FindStringSubmatch(c); m != nil && !rdStateWordRe.MatchString(m[1]) {
			which = "alarm labelled " + strings.TrimSpace(m[1])
		}
	}
	if which == "" {
		return planned{Ask: "Which alarm should I check: its time, its label, or the first, second, … in the list?"}
	}
	return planned{Todo: fmt.Sprintf("Read whether the %s is on or off in Clock", which), Reads: true}
}
