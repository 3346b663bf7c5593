package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Chinese goals whose object names something on the phone rather than
// saying it (docs/design.md §9). "把购物清单的内容发给妈妈" sent the words
// "购物清单的内容" to Mom; "把我的Wake up闹钟改到六点半" created a new
// alarm at 06:30 and left the Wake up alarm as it was, both ending done.

var (
	// rdZhContentRefRe is a message text that names a note's content:
	// "购物清单的内容", "Shopping list笔记里的内容", "那条备忘录的正文".
	rdZhContentRefRe = regexp.MustCompile(`^(.+?)\s*(?:这条|那条|这个|那个)?(?:笔记|备忘录?|便签)?\s*(?:里面?|中)?的?(?:内容|正文|文字|文本|全文)$`)
	// rdZhChangeToRe moves something that exists to another value:
	// "改到六点半", "改成7点半", "推迟到八点".
	rdZhChangeToRe = regexp.MustCompile(`(?:改到|改成|改为|换成|换到|调到|调成|调整到|推迟到|推后到|提前到|挪到|移到)`)
)

// zhContentRef plans a message whose text names a note's content: the
// note's body is read first, and the message written once it is read.
// ok is false for a text that names nothing.
func zhContentRef(to, text string) ([]planned, bool) {
	m := rdZhContentRefRe.FindStringSubmatch(text)
	if m == nil {
		return nil, false
	}
	title := strings.Trim(strings.TrimSpace(m[1]), `"“”「」'`)
	if title == "" || rdPronounRe.MatchString(title) {
		return []planned{{Ask: fmt.Sprintf("Which note's text should I send to %s?", to)}}, true
	}
	read := planned{Todo: fmt.Sprintf("Read the body of the note %q in Notes", title), Reads: true,
		Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel}}}
	return []planned{read, {Todo: fmt.Sprintf("Send %s a message with what was read", to)}}, true
}

// zhAlarmChange asks about a clause that moves an existing alarm to
// another time: the planner has no todo that edits an alarm, and creating
// one at the new time would leave the old one ringing.
func zhAlarmChange(c string) ([]planned, bool) {
	if !rdZhChangeToRe.MatchString(c) || !strings.Contains(c, "闹钟") || rdCreateWordRe.MatchString(c) {
		return nil, false
	}
	return []planned{{Ask: fmt.Sprintf("I cannot change an existing alarm's time (%q). Should I create a new alarm at that time and turn the old one off?", c)}}, true
}
