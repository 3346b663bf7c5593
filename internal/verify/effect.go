package verify

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
	"github.com/phoneflow/phoneflow/internal/probe"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Effect is the item a todo adds to the phone, as the app's list shows it
// (docs/design.md §9): a note by its title, an alarm by its time and
// label, a sent message by its text.
type Effect struct {
	Kind string // EffectNote, EffectAlarm or EffectMessage
	// Describe names the item for evidence: `the note "Trip"`.
	Describe string
	// Match finds the item's row or bubble.
	Match probe.Match
	// apps are lower-case pieces of the package or name of the apps that
	// show the item; the item only counts on their screens.
	apps []string
	// Where, when set, must also be on the screen: the conversation's
	// contact.
	Where probe.Match
	// Repeatable is true for items a person adds again on purpose with the
	// same content (a message "On my way" every day), so finding an earlier
	// one does not show this todo's.
	Repeatable bool
}

// Effect kinds.
const (
	EffectNote    = "note"
	EffectAlarm   = "alarm"
	EffectMessage = "message"
)

// Shows reports whether the screen of app (display name and package) is
// one where the effect is listed, with its contact on it when it has one.
func (e Effect) Shows(app, pkg string, elems []uitree.Element) bool {
	name := strings.ToLower(app + " " + pkg)
	ok := false
	for _, a := range e.apps {
		ok = ok || strings.Contains(name, a)
	}
	if !ok {
		return false
	}
	if e.Where == nil {
		return true
	}
	for _, el := range elems {
		if e.Where(el) {
			return true
		}
	}
	return false
}

var (
	// Creation, not a change: "add butter to the note X" edits a note.
	createNoteRe = regexp.MustCompile(`(?i)^(?:please\s+)?(?:create|add|make|write|save|take|new|start)\b.*?\bnote\b`)
	editNoteRe   = regexp.MustCompile(`(?i)\b(?:to|in|into|of|from)\s+(?:the|my)\s+note\b|\b(?:edit|append|update|change|rename|delete|remove|open|read)\b`)
	noteTitleRe  = regexp.MustCompile(`(?i)\b(?:titled|called|named|with (?:the )?title)\s+(?:"([^"]+)"|“([^”]+)”|'([^']+)'|(.+?))(?:\s+(?:with|saying|that says|containing|and the text|whose text)\b|[,:;]|$)`)
	noteZHRe     = regexp.MustCompile(`^(?:请)?(?:新建|创建|写|记)(?:一[条个篇])?(?:笔记|备忘录?)[：:]\s*(.+)$`)
	alarmRe      = regexp.MustCompile(`(?i)^(?:please\s+)?(?:set|create|add|make|schedule|new)\b.*\balarm\b|^(?:please\s+)?wake me\b|^(?:请)?(?:设置|设|定|创建|新建)(?:一个)?.*闹钟`)
	notAlarmRe   = regexp.MustCompile(`(?i)\b(?:delete|remove|turn off|disable|enable|turn on|read|check|change|edit)\b|删除|关闭`)
	clockTimeRe  = regexp.MustCompile(`(?i)\b(\d{1,2})(?:[:.：](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?(?:\b|$)`)
	alarmLabelRe = regexp.MustCompile(`(?i)\b(?:labell?ed|called|named|with (?:the )?label|label)\s+["“']?(.+?)["”']?$`)
	sendRe       = regexp.MustCompile(`(?i)^(?:please\s+)?(?:send|text|message|tell|reply to|write to)\s+(?:a message to\s+|to\s+)?(.+?)(?:\s+(?:a message\s+|an sms\s+|a text\s+)?(?:saying|that says|that)\s+|\s*:\s*)(.+)$`)
	quotedRe2    = regexp.MustCompile(`^["“'](.+)["”']$`)
)

// Expect reads the item a todo creates from its text, or ok false when
// the todo creates none this package can recognise (an edit, a read, a
// switch).
func Expect(task string) (Effect, bool) {
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(task), ".。!！"))
	lower := strings.ToLower(t)
	switch {
	case createNoteRe.MatchString(t) && !editNoteRe.MatchString(t):
		m := noteTitleRe.FindStringSubmatch(t)
		if m == nil {
			return Effect{}, false
		}
		title := strings.TrimSpace(firstNonEmpty(firstNonEmpty(m[1], m[2]), firstNonEmpty(m[3], m[4])))
		if title == "" {
			return Effect{}, false
		}
		return Effect{Kind: EffectNote, Describe: fmt.Sprintf("the note %q", title), Match: probe.Text(title), apps: []string{"note", "keep", "memo"}}, true
	case noteZHRe.MatchString(t):
		title := strings.TrimSpace(noteZHRe.FindStringSubmatch(t)[1])
		return Effect{Kind: EffectNote, Describe: fmt.Sprintf("the note %q", title), Match: probe.Text(title), apps: []string{"note", "keep", "memo", "笔记", "备忘"}}, true
	case alarmRe.MatchString(t) && !notAlarmRe.MatchString(t):
		hhmm, ok := alarmTime(t)
		if !ok {
			return Effect{}, false
		}
		label := ""
		if m := alarmLabelRe.FindStringSubmatch(t); m != nil {
			label = strings.TrimSpace(m[1])
			if _, isTime := alarmTime(label); isTime && clockTimeRe.FindString(label) == label {
				label = ""
			}
		}
		d := "an alarm at " + hhmm
		var also []string
		if label != "" {
			d += " labelled " + label
			also = append(also, label)
		}
		return Effect{Kind: EffectAlarm, Describe: d, Match: alarmOn(probe.Prefix(hhmm, also...)), apps: []string{"clock", "alarm", "时钟", "闹钟"}}, true
	case sendRe.MatchString(t) && !strings.Contains(lower, "note"):
		m := sendRe.FindStringSubmatch(t)
		to, text := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
		if q := quotedRe2.FindStringSubmatch(text); q != nil {
			text = q[1]
		}
		if to == "" || text == "" {
			return Effect{}, false
		}
		first := strings.Fields(to)[0]
		where := func(e uitree.Element) bool {
			return strings.HasPrefix(strings.ToLower(strings.TrimSpace(e.Text)), strings.ToLower(first)) && !e.Scrollable
		}
		return Effect{Kind: EffectMessage, Describe: fmt.Sprintf("the message %q to %s", text, to), Match: probe.Text(text),
			apps: []string{"messag", "sms", "mms", "短信", "信息"}, Where: where, Repeatable: true}, true
	}
	return Effect{}, false
}

// alarmTime reads the first clock time of s as 24-hour "HH:MM".
func alarmTime(s string) (string, bool) {
	for _, m := range clockTimeRe.FindAllStringSubmatch(s, -1) {
		h, _ := strconv.Atoi(m[1])
		min := 0
		if m[2] != "" {
			min, _ = strconv.Atoi(m[2])
		} else if m[3] == "" {
			continue // a bare number is not a time
		}
		h = clocktime.Hour24(h, m[3])
		if strings.Contains(s, "下午") || strings.Contains(s, "晚上") {
			if h < 12 {
				h += 12
			}
		}
		if h > 23 || min > 59 {
			continue
		}
		return fmt.Sprintf("%02d:%02d", h, min), true
	}
	return "", false
}

// alarmOn matches an alarm that rings: the on/off switch of its row,
// labelled with its time (and label) and switched on. An alarm at that
// time that is switched off is not the alarm a todo creates (it does not
// ring), and neither is a row's text alone, which does not say whether it
// rings (docs/design.md §9).
func alarmOn(label probe.Match) probe.Match {
	return func(e uitree.Element) bool {
		if !e.Checkable || !e.Checked {
			return false
		}
		return label(e) || label(uitree.Element{Text: e.Desc})
	}
}
