package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// personIn finds the person a text names: a known name, a possessive
// ("Zhang San's"), "of X", or "X的".
func personIn(c string) string {
	lower := strings.ToLower(c)
	best := ""
	for k, v := range rdContacts {
		if strings.Contains(lower, k) && len(k) > len(best) {
			best = k
			_ = v
		}
	}
	if best != "" {
		return rdContacts[best]
	}
	for _, re := range []*regexp.Regexp{regexp.MustCompile(`(?i)(?:^|\s)([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)'s\b`), regexp.MustCompile(`(?i)\bof\s+([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)`), regexp.MustCompile(`([\p{Han}]{2,4})的`)} {
		if m := re.FindStringSubmatch(c); m != nil {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

var (
	rdSendToRe   = regexp.MustCompile(`(?i)^(?:send|text|message|sms|write(?:\s+back)?)\s+(?:(?:a|an|the)\s+)?(?:message|text|sms|msg)?\s*(?:to\s+)?(.+?)\s*(?:saying|that says|which says|with the text|to say|[:：,，])\s*(.+)$`)
	rdTextThatRe = regexp.MustCompile(`(?i)^(?:text|message|sms)\s+(.+?)\s+that\s+(.+)$`)
	rdSendXtoYRe = regexp.MustCompile(`(?i)^(?:send|text|forward|share)\s+(.+?)\s+to\s+(.+)$`)
	rdLetKnowRe  = regexp.MustCompile(`(?i)^let\s+(.+?)\s+know\b[\s,:]*(?:that\s+)?(.+)$`)
	rdTellThatRe = regexp.MustCompile(`(?i)^(?:tell|let)\s+(.+?)\s+(?:know\s+)?that\s+(.+)$`)
	// rdMorePeopleRe is a text that goes on with more people: "and Bob …".
	rdMorePeopleRe    = regexp.MustCompile(`(?i)^(?:and|&|,)\s+\S`)
	rdTellRe          = regexp.MustCompile(`(?i)^(?:tell|let)\s+(.+?)\s+(?:know\s+)?(?:that\s+)?(.+)$`)
	rdZhSendRe        = regexp.MustCompile(`^给(.+?)(?:发|回)(?:一条|个|条)?(?:短信|消息|信息|微信)?(?:[，,]?\s*说\s*[，,：:]?|[，,：:])?\s*(.*)$`)
	rdZhTellPronounRe = regexp.MustCompile(`^(?:告诉|回复)(他们|她们|他|她)(?:[，,]?\s*说\s*[，,：:]?|[，,：:])?\s*(.+)$`)
	rdZhTellRe        = regexp.MustCompile(`^(?:告诉|回复)(.+?)(?:[，,]?\s*说\s*[，,：:]?|[，,：:])\s*(.+)$`)
	// rdReplyRe is a reply or a "tell" whose text follows a colon or
	// "saying": "reply Bob Li: ok", "Tell Bob Li: see you", "respond to
	// Mom saying yes". The name is everything before the colon.
	rdReplyRe = regexp.MustCompile(`(?i)^(?:tell|reply|respond|answer|write\s+back|ping|dm)\s+(?:to\s+)?(.+?)\s*(?:[:：]|\s(?:saying|that says|to say|with the text|with|and say|and tell (?:him|her|them))\s)\s*(.+)$`)
	// rdReplyObjRe is a reply's object that is a message, not a person.
	rdReplyObjRe = regexp.MustCompile(`(?i)^(?:the|my|a|an|this|that|his|her|their|latest|last|newest|most|recent|every|all)\b`)
	rdZhPutToRe  = regexp.MustCompile(`^把(.+?)(?:发给|发送给|告诉)(.+?)$`)
	rdZhSendToRe = regexp.MustCompile(`^发(?:一条|个|条)?(?:短信|消息|信息)?给(.+?)(?:[，,]?\s*说\s*[，,：:]?|[，,：:])\s*(.+)$`)
	rdMsgNounRe  = regexp.MustCompile(`(?i)\s+(?:(?:an?|the|this|that|following)\s+)*(?:message|text|sms|msg)$`)
	// rdViaAppRe is the app a message goes through, said after the
	// person: "Alice in Messages", "Bob via SMS".
	rdAppFirstRe = regexp.MustCompile(`(?i)^(?:in|on|via|using|through|by)\s+(?:the\s+)?(?:messages|messaging|message|sms|text|texting)(?:\s+app)?(?:\s+|$)`)
	// rdMsgOnlyRe is a message's text that only names a message: "a
	// message", "the text", "an SMS".
	rdMsgOnlyRe   = regexp.MustCompile(`(?i)^(?:(?:an?|the|this|that|my|one|some)\s+)?(?:(?:text|sms|short|quick)\s+)?(?:message|text|sms|msg|note)s?$`)
	rdViaAppRe    = regexp.MustCompile(`(?i)\s+(?:in|on|via|using|through|by)\s+(?:the\s+)?(?:messages|messaging|message|sms|text|texting)(?:\s+app)?$`)
	rdObjectToRe  = regexp.MustCompile(`(?i)^(?:(?:it|this|that|these|those|them|(?:the\s+)?same|(?:the|this|that|my|your)\s+(?:message|text|sms|msg|reply|answer|note|words|result|news))\s+)to\s+(\S.*)$`)
	rdSendOnlyRe  = regexp.MustCompile(`(?i)^(?:send|text|message|write(?:\s+back)?)\s+(?:(?:an?\s+)?(?:message|text|sms|msg)\s+)?(?:to\s+)?(.+?)(?:\s+(?:an?\s+)?(?:message|text|sms|msg))?$`)
	rdPronounRe   = regexp.MustCompile(`(?i)^(?:it|that|this|them|the result|the time|the number|the value|what (?:was|you) read|它|这个|结果)$`)
	rdQuotedFirst = regexp.MustCompile(`["“「]([^"”」]+)["”」]`)
)

// sendTodos plans a message: recipient and text, and a read first when
// the text is a value on the phone ("Zhang San's phone number").
func sendTodos(c string, prev planned) []planned {
	to, text := "", ""
	var m []string
	switch {
	case rdZhPutToRe.MatchString(c):
		m = rdZhPutToRe.FindStringSubmatch(c)
		text, to = m[1], m[2]
	case rdZhSendToRe.MatchString(c):
		m = rdZhSendToRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdZhSendRe.MatchString(c):
		m = rdZhSendRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdZhTellPronounRe.MatchString(c):
		// "告诉她我会晚点": the pronoun is the person, the rest the words.
		m = rdZhTellPronounRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdZhTellRe.MatchString(c):
		m = rdZhTellRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdTextThatRe.MatchString(c):
		m = rdTextThatRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdSendToRe.MatchString(c):
		m = rdSendToRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdSendXtoYRe.MatchString(c):
		m = rdSendXtoYRe.FindStringSubmatch(c)
		text, to = m[1], m[2]
	case rdReplyRe.MatchString(c) && !rdReplyObjRe.MatchString(rdReplyRe.FindStringSubmatch(c)[1]):
		m = rdReplyRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdLetKnowRe.MatchString(c):
		// "Let Bob Li know I'll be late": the name is all before "know".
		m = rdLetKnowRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdTellThatRe.MatchString(c):
		// "Tell Mom and Bob Li that dinner is at 7": the people are all
		// before "that".
		m = rdTellThatRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
	case rdTellRe.MatchString(c):
		m = rdTellRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
		if rdMorePeopleRe.MatchString(text) {
			// "Tell Mom and Bob …" with no word that ends the names: who
			// gets what is not clear, so ask.
			return []planned{{Ask: fmt.Sprintf("Who should get the message, and what exactly should it say? (%q)", c)}}
		}
		if n := nameRun(to + " " + text); len(n) > len(to) {
			// "Tell Dana Park I'm outside": a name this reader does not
			// know is the capitalised words, not the first one alone.
			to, text = n, strings.TrimSpace((to + " " + text)[len(n):])
		}
	default:
		to, text, _ = textPersonWords(c)
	}
	if m := rdObjectToRe.FindStringSubmatch(to); m != nil {
		// "Send it to Alice Chen: on my way": the words before "to" are
		// what is sent, the name is after it.
		to = m[1]
	}
	if to == "" {
		if m := rdSendOnlyRe.FindStringSubmatch(c); m != nil {
			to = m[1] // "Send Alice a message": no text yet
			if regexp.MustCompile(`(?i)^(?:an?|the|(?:an?\s+)?(?:message|text|sms|msg))$`).MatchString(to) {
				to = ""
			}
		}
	}
	if q := rdQuotedFirst.FindStringSubmatch(c); q != nil {
		text = q[1]
		if to == "" || strings.Contains(to, q[0]) {
			to = personIn(strings.Replace(c, q[0], "", 1))
		} else if p := personIn(strings.Replace(c, q[0], "", 1)); len(p) > len(to) && strings.HasPrefix(strings.ToLower(p), strings.ToLower(to)+" ") {
			to = p // "Tell Zhang San "…"": the whole name, not its first word
		}
	}
	to = strings.TrimSpace(rdViaAppRe.ReplaceAllString(strings.TrimSpace(to), ""))
	to = strings.TrimSpace(rdAppFirstRe.ReplaceAllString(to, ""))
	to = strings.TrimSpace(rdMsgNounRe.ReplaceAllString(to, ""))
	to = strings.TrimPrefix(strings.TrimPrefix(to, "to "), "my ")
	if v, ok := rdContacts[strings.ToLower(to)]; ok {
		to = v
	}
	to, text = longestContact(to, text)
	if rdPersonPronounRe.MatchString(to) {
		// "text Alice “on my way” and tell her I'm late": her is the
		// person the todo before sent to; with no such todo, ask.
		name := sentTo(prev)
		if name == "" {
			return []planned{{Ask: fmt.Sprintf("Who is %q in %q? Name the person to send the message to.", to, reveal(c))}}
		}
		to = name
	}
	text = strings.Trim(strings.TrimSpace(text), `"“”'`)
	if rdMsgOnlyRe.MatchString(text) {
		text = "" // "Send a message to Bob": what it says is not given
	}
	if ps, ok := latestSender(to, text); ok {
		return ps
	}
	if to == "" && text == "" {
		return []planned{{Ask: "Who should I send the message to, and what should it say?"}}
	}
	if to == "" {
		return []planned{{Ask: fmt.Sprintf("Who should I send the message %q to?", text)}}
	}
	if text == "" {
		return []planned{{Ask: fmt.Sprintf("What should the message to %s say?", to)}}
	}
	if m := rdKnowRe.FindStringSubmatch(text); m != nil {
		// "let Bob know when my first alarm rings": a value read first.
		read := readValue("read " + m[1])
		if read.Ask != "" || len(read.Expect) == 0 {
			return []planned{{Ask: fmt.Sprintf("What exactly should the message to %s say?", to)}}
		}
		return []planned{read, {Todo: fmt.Sprintf("Send %s a message with what was read", to)}}
	}
	if rdPronounRe.MatchString(text) || rdSameWordsRe.MatchString(text) {
		if body := noteBody(prev); body != "" {
			text = body // "note T: body; text it to Mom"
		} else if !prev.Reads {
			return []planned{{Ask: fmt.Sprintf("What exactly should the message to %s say?", to)}}
		}
	}
	if names := splitPeople(to); len(names) > 1 {
		var out []planned
		for _, n := range names {
			out = append(out, sendTodos(fmt.Sprintf("Send %s a message: %q", n, text), prev)...)
		}
		return out
	}
	if prev.Reads && rdPronounRe.MatchString(text) {
		// "… and send it to Alice": the value is read by the todo before.
		return []planned{{Todo: fmt.Sprintf("Send %s a message with what was read", to)}}
	}
	if rdAlarmRefRe.MatchString(text) {
		// "the second alarm's time": a value on the phone, read first.
		read := readValue("read " + strings.TrimSuffix(text, "?"))
		return []planned{read, {Todo: fmt.Sprintf("Send %s a message with what was read", to)}}
	}
	if ref := rdNumRefRe.FindStringSubmatch(text); ref != nil {
		who := strings.TrimSpace(firstNonEmpty(firstNonEmpty(ref[1], ref[2]), ref[3]))
		if v, ok := rdContacts[strings.ToLower(who)]; ok {
			who = v
		}
		read := readValue(fmt.Sprintf("read %s's phone number", who))
		// The message's text is known only once the read is done: the
		// replan writes it and its check (docs/design.md §9).
		return []planned{read, {Todo: fmt.Sprintf("Send %s a message with what was read", to)}}
	}
	if ps, ok := zhContentRef(to, text); ok {
		return ps
	}
	return []planned{{Todo: fmt.Sprintf("Send %s a message: %s", to, text),
		Expect: []postcond.Check{{Kind: postcond.LastSent, Conversation: to, Contains: text}}}}
}

var (
	rdKnowRe      = regexp.MustCompile(`(?i)^(?:know\b[\s,]*)?(?:(?:by|via|in an?)\s+(?:text|sms|message)[\s,]*)?((?:when|what|what's|which|how|whether|if)\b.+)$`)
	rdSameWordsRe = regexp.MustCompile(`(?i)^(?:the\s+)?same\s+(?:words|text|thing)$|^(?:the\s+)?(?:note|content|contents|body)$|^内容$|^(?:笔记)?内容$`)
	rdPeopleSepRe = regexp.MustCompile(`(?i)\s*(?:,\s*|\s+)(?:and|&)\s+(?:to\s+)?|\s*,\s*(?:to\s+)?|和|跟|、`)
	rdNoteBodyRe  = regexp.MustCompile(` saying "(.+)"$`)
)

// noteBody is the text the todo before wrote into a note, or "".
func noteBody(prev planned) string {
	if !strings.HasPrefix(prev.Todo, "Create a note") {
		return ""
	}
	if m := rdNoteBodyRe.FindStringSubmatch(prev.Todo); m != nil {
		return m[1]
	}
	return ""
}

// splitPeople splits "Mom and to Bob" into the people it names, when each
// part is a person the reader knows.
func splitPeople(to string) []string {
	parts := rdPeopleSepRe.Split(to, -1)
	if len(parts) < 2 {
		return nil
	}
	var out []string
	for _, p := range parts {
		v, ok := rdContacts[strings.ToLower(strings.TrimSpace(p))]
		if !ok {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// longestContact moves into the person the rest of a contact's name that
// a short match left at the start of the text ("Tell Alice Chen the time":
// to "Alice", text "Chen the time"), and drops a "that" left before it.
// nameRun is the run of capitalised words a text starts with ("Dana Park
// I'm outside" → "Dana Park"), at most three, when its first word is no
// contact's this reader knows (their names are matched whole elsewhere).
func nameRun(s string) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return ""
	}
	for k := range rdContacts {
		if f := strings.Fields(k); len(f) > 0 && strings.EqualFold(f[0], words[0]) {
			return ""
		}
	}
	n := 0
	for _, w := range words {
		if n == 3 || !nameWordRe.MatchString(w) || pronounIRe.MatchString(w) {
			break
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return strings.Join(words[:n], " ")
}

var (
	nameWordRe = regexp.MustCompile(`^\p{Lu}[\p{L}'-]*$`)
	pronounIRe = regexp.MustCompile(`^I(?:['’](?:m|ll|d|ve))?$`)
)

func longestContact(to, text string) (string, string) {
	if to == "" || text == "" {
		return to, text
	}
	both := to + " " + text
	lower := strings.ToLower(both)
	best := ""
	for k := range rdContacts {
		if len(k) > len(to) && len(k) > len(best) && strings.HasPrefix(lower, k+" ") {
			best = k
		}
	}
	if best != "" {
		to, text = both[:len(best)], strings.TrimSpace(both[len(best):])
	}
	text = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, "know that "), "that "))
	return to, text
}

// rdPersonPronounRe is a recipient that is only a pronoun.
var rdPersonPronounRe = regexp.MustCompile(`(?i)^(?:him|her|them|他|她|他们|她们|ta)$`)

// rdSendTodoRe is a todo that sends a message, and its recipient.
var rdSendTodoRe = regexp.MustCompile(`^Send (.+?) a message(?::| with what was read)`)

// sentTo is the person the todo before sent a message to, or "".
func sentTo(prev planned) string {
	for _, e := range prev.Expect {
		if e.Kind == postcond.LastSent && e.Conversation != "" {
			return e.Conversation
		}
	}
	if m := rdSendTodoRe.FindStringSubmatch(prev.Todo); m != nil && !rdPersonPronounRe.MatchString(m[1]) {
		return m[1]
	}
	return ""
}
