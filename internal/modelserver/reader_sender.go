package modelserver

import (
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of who a message goes to when the goal
// names the person in passing (docs/design.md §9): "Text Mom what Zhang
// San said" (the person is the known name or the capitalised words after
// the verb, never a fixed number of words), "reply to Bob Li's message",
// "reply to the most recent message" and "the last person who texted me"
// (the newest conversation, whose name is read first: the send gets its
// check once the name is known), and "a quick note to Bob: …" (a message,
// not a Notes note).

var (
	// rdTextWordsRe is "Text X …" with no word between the person and the
	// message's words.
	rdTextWordsRe = regexp.MustCompile(`(?i)^(?:text|message|sms)\s+(.+)$`)
	// rdLatestSenderRe names the person of the newest conversation.
	rdLatestSenderRe = regexp.MustCompile(`(?i)^(?:to\s+)?(?:the\s+|my\s+)?(?:(?:most\s+recent|latest|last|newest)\s+(?:message|text|sms|msg|conversation|chat|thread|person|one|contact|sender)(?:\s+(?:who|that)\s+(?:texted|messaged|wrote|sent|contacted)(?:\s+(?:me|to\s+me))?(?:\s+(?:a\s+)?(?:message|text))?)?(?:\s+(?:I\s+)?(?:got|received))?|(?:person|one|contact)\s+(?:who|that)\s+(?:texted|messaged|wrote)(?:\s+(?:to\s+)?me)?\s+(?:last|most\s+recently)|whoever\s+(?:texted|messaged|wrote)(?:\s+(?:to\s+)?me)?\s+(?:last|most\s+recently))$`)
	// rdWhoLatestRe asks who wrote last: "Who sent me the most recent
	// message?", "who texted me last".
	rdWhoLatestRe = regexp.MustCompile(`(?i)^(?:tell\s+me\s+|check\s+)?who\s+(?:sent|texted|messaged|wrote)(?:\s+(?:to\s+)?me)?\s+(?:(?:the|my)\s+)?(?:(?:most\s+recent|latest|last|newest)\s+(?:message|text|sms|msg)|last|most\s+recently)(?:\s+(?:I\s+)?(?:got|received))?$|^who(?:'s|\s+is|\s+was)\s+(?:the\s+|my\s+)?(?:most\s+recent|latest|last|newest)\s+(?:message|text)\s+from$`)
	// rdNoteToRe is a note or a line to a person: "Send a quick note to Bob
	// Li: …", "drop Mom a line: …".
	rdNoteToRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:send|write|drop|shoot)\s+(?:a\s+)?(?:quick\s+|short\s+|little\s+|brief\s+)?(?:note|line|word)\s+to\s+(.+?)\s*(?:[:：]|\s(?:saying|that says|to say)\s)\s*(.+)$`),
		regexp.MustCompile(`(?i)^(?:send|write|drop|shoot)\s+(.+?)\s+(?:a\s+)?(?:quick\s+|short\s+|little\s+|brief\s+)?(?:note|line)\s*(?:[:：]|\s(?:saying|that says|to say)\s)\s*(.+)$`),
	}
)

// textPersonWords splits the words after "Text" into the person and the
// message: the longest known contact they start with, else the run of
// capitalised words, else the first word. ok is false when no words are
// left for the message.
func textPersonWords(c string) (to, text string, ok bool) {
	m := rdTextWordsRe.FindStringSubmatch(strings.TrimSpace(c))
	if m == nil {
		return "", "", false
	}
	rest := strings.TrimSpace(m[1])
	lower := strings.ToLower(rest)
	best := ""
	for k := range rdContacts {
		if len(k) > len(best) && strings.HasPrefix(lower, k+" ") {
			best = k
		}
	}
	switch {
	case best != "":
		to = rdContacts[best]
		text = rest[len(best):]
	case nameRun(rest) != "":
		to = nameRun(rest)
		text = rest[len(to):]
	default:
		f := strings.Fields(rest)
		if len(f) < 2 {
			return "", "", false
		}
		to, text = f[0], strings.TrimSpace(rest[len(f[0]):])
	}
	text = strings.TrimSpace(text)
	return to, text, text != ""
}

// latestSender is the plan for a message to the newest conversation's
// person: its name read first, the send written with it (and checked)
// once known. ok is false when who names someone else.
func latestSender(who, text string) ([]planned, bool) {
	if !rdLatestSenderRe.MatchString(strings.TrimSpace(who)) {
		return nil, false
	}
	if strings.TrimSpace(text) == "" {
		return []planned{{Ask: "What should the message to the most recent conversation say?"}}, true
	}
	return []planned{readLatestSender(), {Todo: "Send what was read a message: " + text}}, true
}

// readLatestSender reads the name of the newest conversation: the first
// row of the conversation list, newest first as messaging apps show it.
func readLatestSender() planned {
	return planned{Todo: "Read the name of the first conversation in Messages", Reads: true,
		Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel, Ordinal: 1}}}
}

// senderClause reads the clauses of this file; ok is false for any other.
func senderClause(c string) ([]planned, bool) {
	c = strings.TrimSpace(c)
	if rdWhoLatestRe.MatchString(c) {
		return []planned{readLatestSender()}, true
	}
	for _, re := range rdNoteToRes {
		m := re.FindStringSubmatch(c)
		if m == nil {
			continue
		}
		who := strings.TrimSpace(m[1])
		if ps, ok := latestSender(who, m[2]); ok {
			return ps, true
		}
		to, known := rdContacts[strings.ToLower(who)]
		if !known && nameRun(who) == who {
			to, known = who, true
		}
		if !known {
			return nil, false // "a note to self: …" is a note
		}
		return []planned{sendTo(to, strings.Trim(strings.TrimSpace(m[2]), `"“”'`))}, true
	}
	return nil, false
}

// replyWho is the person a reply names by their message ("Bob Li's
// message", "Mom's text"), or who as written.
func replyWho(who string) string {
	if m := rdReplyMsgOfRe.FindStringSubmatch(strings.TrimSpace(who)); m != nil {
		return m[1]
	}
	return who
}

var rdReplyMsgOfRe = regexp.MustCompile(`(?i)^(.+?)'s\s+(?:(?:last|latest|newest|most\s+recent|recent)\s+)?(?:message|text|sms|msg)$`)
