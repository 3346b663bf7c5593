package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of goals about conversations and the Bank
// app (docs/design.md §9): opening a conversation without sending, the
// Nth conversation, forwarding or replying to what someone last wrote, the
// same text to two people, a phone number sent on, the Bank app opened.
// Each todo is written in one plain form the executor knows, with what
// shows it done; a recipient the goal names only by place in the list is
// read first, and the send that uses it gets its check once it is known.

var (
	// rdOpenConvRes open a conversation: "Open my conversation with Alice",
	// "bring up my Messages thread with Mom", "chat with Bob Li",
	// "打开和张三的聊天记录".
	rdOpenConvRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:open|show(?:\s+me)?|bring\s+up|pull\s+up|go\s+to|display|view|find)\s+(?:up\s+)?(?:my\s+|the\s+)?(?:messages?\s+|sms\s+|text\s+)?(?:conversation|chat|thread|messages|texts)\s+with\s+(.+?)(?:\s+(?:in|on)\s+(?:the\s+)?messages(?:\s+app)?)?$`),
		regexp.MustCompile(`(?i)^(?:open|show|bring\s+up|pull\s+up|go\s+to|display|view)\s+(?:up\s+)?(?:my\s+|the\s+)?(.+?)(?:'s)?\s+(?:conversation|chat|thread)(?:\s+(?:in|on)\s+(?:the\s+)?messages(?:\s+app)?)?$`),
		regexp.MustCompile(`(?i)^chat\s+with\s+(.+?)$`),
		regexp.MustCompile(`^(?:打开|查看|进入|显示)?(?:和|与|跟)(.+?)的(?:聊天记录|聊天|对话|会话|短信|消息|信息)(?:记录|界面|页面)?$`),
		regexp.MustCompile(`^(?:打开|查看|进入|显示)(.+?)的(?:聊天记录|聊天|对话|会话)(?:界面|页面)?$`),
	}
	// rdOnlyOpenRe is what a goal adds to say nothing is to be sent.
	rdOnlyOpenRe = regexp.MustCompile(`(?i)\s*[(（]?\s*(?:don'?t|do\s+not)\s+send\s+(?:anything|a\s+message|any\s+messages?)\s*[)）]?\s*$|[?？.,，]?\s*(?:(?:just|only)\s+open\s+it|without\s+sending(?:\s+anything)?)\s*$|[,，]?\s*(?:不要|别|不用)发(?:送)?(?:消息|短信|信息|任何东西)?$|[,，]?\s*只打开$`)
	rdOpenItRe   = regexp.MustCompile(`(?i)^(?:just\s+|only\s+)?open\s+it$|^只(?:是)?打开(?:它|就行|即可)?$`)

	// rdOrdConvRe is the Nth conversation and what to send it.
	rdOrdConvRe  = regexp.MustCompile(`(?i)\b(?:conversation|chat|thread)\b|对话|会话|聊天`)
	rdOrdTextRes = []*regexp.Regexp{
		regexp.MustCompile(`[:：]\s*["“'‘]?(.+?)["”'’]?$`),
		regexp.MustCompile(`(?i)\b(?:send|saying|say|write)\s+["“'‘](.+?)["”'’]$`),
	}

	// rdForwardRes forward what someone last wrote: "Forward Alice's last
	// message to Bob", "pass on to Bob what Alice last wrote to me",
	// "把张三最后发来的消息转发给妈妈".
	rdForwardRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:forward|send|pass\s+on|share)\s+(.+?)'s\s+(?:last|latest|newest|most\s+recent|recent)\s+(?:message|text|sms|msg)\s+(?:to|with)\s+(.+)$`),
		regexp.MustCompile(`(?i)^(?:forward|send|pass\s+on|share)\s+(?:the\s+)?(?:last|latest|newest|most\s+recent)\s+(?:message|text|sms|msg)\s+from\s+(.+?)\s+(?:to|with)\s+(.+)$`),
		regexp.MustCompile(`(?i)^(?:pass\s+on|forward|send)\s+to\s+(.+?)\s+what\s+(.+?)\s+(?:last\s+|most\s+recently\s+)?(?:wrote|texted|sent|messaged)(?:\s+(?:to\s+)?me)?$`),
		regexp.MustCompile(`^(?:把|将)(.+?)(?:最后|最近|最新)(?:一条)?(?:发来|发给我)的(?:消息|短信|信息)(?:转发|发|转)给(.+)$`),
		regexp.MustCompile(`^(?:把|将)(.+?)的(?:最后一条|最新|最近一条|最新一条)(?:消息|短信|信息)(?:转发|发|转)给(.+)$`),
	}

	// rdReplyRes reply to what someone last wrote: "Reply to Alice's last
	// message with ok", "reply Mom: on my way", "answer Bob's latest text.
	// Say: …", "回复张三的最新消息：好的".
	rdReplyRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:reply|respond|answer|write\s+back)\s+(?:to\s+)?(.+?)(?:'s\s+(?:last|latest|newest|most\s+recent|recent)\s+(?:message|text|sms|msg))?(?:\s+for\s+me)?\s*(?:[?？.。!！]\s*)?(?:with|saying|say|and\s+say|[:：,，])\s*:?\s*["“'‘]?(.+?)["”'’]?$`),
		regexp.MustCompile(`^回复(.+?)(?:的(?:最新|最后一条|最近一条|最新一条)?(?:消息|短信|信息))?(?:说)?[:：,，]\s*(.+)$`),
	}

	// rdSameToRe is a second send of the text before: "send Bob the same".
	rdSameToRe   = regexp.MustCompile(`(?i)^(?:send|text|message|and)\s+(?:it\s+to\s+|to\s+)?(.+?)\s+the\s+same(?:\s+(?:text|message|thing|words))?$|^(?:send|text)\s+the\s+same(?:\s+(?:text|message|thing|words))?\s+to\s+(.+)$`)
	rdBothRe     = regexp.MustCompile(`(?i)\bboth\s+|^给.+?都发`)
	rdBothWordRe = regexp.MustCompile(`(?i)\bboth\s+`)
	// rdLookUpNumRe reads a number: "Look up Alice Chen's number".
	rdLookUpNumRe = regexp.MustCompile(`(?i)^(?:look\s+up|find|get|check|read)\s+(.+?)'s\s+(?:phone\s+|mobile\s+)?number$`)

	// rdShareNumRe shares a number: "share Alice's number with Bob by
	// text", "What's Alice's number? Send it to Bob".
	rdShareNumRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:share|send|text|forward)\s+(.+?)'s\s+(?:phone\s+|mobile\s+)?number\s+(?:with|to)\s+(.+?)(?:\s+(?:by|via|in\s+an?)\s+(?:text|sms|message))?$`),
		regexp.MustCompile(`(?i)^(?:what's|what\s+is|look\s+up|find|get)\s+(.+?)'s\s+(?:phone\s+|mobile\s+)?number\s*[?？,，]?\s*(?:and\s+)?(?:then\s+)?(?:send|text|forward|share)\s+it\s+(?:to|with)\s+(.+)$`),
	}

	// rdBankOpenRe opens the Bank app: "bank app", "open my bank app?
	// I'll sign in myself", "打开银行应用".
	rdBankOpenRe = regexp.MustCompile(`(?i)^(?:(?:open|launch|start|bring\s+up|go\s+to)\s+)?(?:the\s+|my\s+)?bank(?:ing)?(?:\s+app)?(?:\s*[?？.,，]\s*i(?:'ll|\s+will)\s+(?:sign|log)\s+in(?:\s+myself)?)?$|^(?:打开|启动|进入)?银行(?:应用|app|APP)?(?:[,，。]?\s*我自己登录)?$`)

	// rdHomeMoreRe are the short ways a goal says "go home".
	rdHomeMoreRe = regexp.MustCompile(`(?i)^(?:(?:go|get|head|return)\s+)?(?:back\s+)?(?:to\s+)?(?:the\s+)?home(?:\s*screen)?(?:\s+(?:afterwards|after\s+that|again|then))?$|^(?:回到|返回|回)(?:主屏幕|桌面|主页)$`)

	// rdAlarmTextRe is an alarm's value as a message's text after the
	// person: "Text Alice the time of my second alarm".
	rdAlarmTextRe = regexp.MustCompile(`(?i)^(?:text|message|send|tell)\s+(.+?)\s+((?:the\s+|my\s+)?(?:\w+\s+)?alarm'?s?\s+(?:time|label)|(?:the\s+)?(?:time|label)\s+of\s+(?:the\s+|my\s+)?(?:\w+\s+)?alarm)$`)
)

// knownPerson is the name a phone shows for who, and whether the reader
// knows that person or the words look like a name (one to three words, no
// message words).
func knownPerson(who string) (string, bool) {
	who = strings.TrimSpace(strings.Trim(strings.TrimSpace(who), `"“”'`))
	who = strings.TrimPrefix(strings.TrimPrefix(who, "my "), "My ")
	if v, ok := rdContacts[strings.ToLower(who)]; ok {
		return v, true
	}
	if who == "" || len(strings.Fields(who)) > 3 || rdConvWordRe.MatchString(who) || rdMsgWordRe.MatchString(who) || strings.ContainsAny(who, "?？:：,，\"“”") {
		return "", false
	}
	return who, true
}

// messagesClause reads a clause about conversations or the Bank app; ok is
// false for any other clause.
func messagesClause(c string, prev planned) ([]planned, bool) {
	c = strings.TrimSpace(c)
	if rdOpenItRe.MatchString(c) && strings.HasPrefix(prev.Todo, "Open the conversation with ") {
		return nil, true // "chat with Bob, just open it": said by the clause before
	}
	if m := rdSendQuotedRe.FindStringSubmatch(c); m != nil && strings.HasPrefix(prev.Todo, "Open the conversation with ") {
		who := strings.TrimSuffix(strings.TrimPrefix(prev.Todo, "Open the conversation with "), " in Messages")
		text := firstNonEmpty(m[1], m[2])
		if who == "what was read" {
			return []planned{{Todo: "Send what was read a message: " + text}}, true
		}
		return []planned{sendTo(who, text)}, true
	}
	if rdBankOpenRe.MatchString(c) {
		return []planned{{Todo: "Open Bank", Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Bank"}}}}, true
	}
	if rdHomeMoreRe.MatchString(c) {
		return []planned{{Todo: "Go to the home screen", Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Launcher"}}}}, true
	}
	if m := rdAlarmTextRe.FindStringSubmatch(c); m != nil {
		if to, ok := knownPerson(m[1]); ok {
			return []planned{readValue("read " + m[2]), {Todo: fmt.Sprintf("Send %s a message with what was read", to)}}, true
		}
	}
	for _, re := range rdShareNumRes {
		if m := re.FindStringSubmatch(c); m != nil {
			who, ok1 := knownPerson(m[1])
			to, ok2 := knownPerson(m[2])
			if !ok1 || !ok2 {
				return []planned{{Ask: fmt.Sprintf("Whose number should I send, and to whom? I read %q.", c)}}, true
			}
			return []planned{readValue(fmt.Sprintf("read %s's phone number", who)), {Todo: fmt.Sprintf("Send %s a message with what was read", to)}}, true
		}
	}
	open := rdOnlyOpenRe.ReplaceAllString(c, "")
	for _, re := range rdOpenConvRes {
		if m := re.FindStringSubmatch(open); m != nil && ordinal(open) == 0 {
			who, ok := knownPerson(m[1])
			if !ok {
				return []planned{{Ask: fmt.Sprintf("Whose conversation should I open? I read %q.", c)}}, true
			}
			return []planned{openConversation(who)}, true
		}
	}
	for i, re := range rdForwardRes {
		if m := re.FindStringSubmatch(c); m != nil {
			from, to := m[1], m[2]
			if i == 2 {
				from, to = m[2], m[1]
			}
			f, ok1 := knownPerson(from)
			t, ok2 := knownPerson(to)
			if !ok1 || !ok2 {
				return []planned{{Ask: fmt.Sprintf("Whose message should I forward, and to whom? I read %q.", c)}}, true
			}
			read := planned{Todo: fmt.Sprintf("Read the latest message from %s in Messages", f), Reads: true,
				Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel}}}
			return []planned{read, {Todo: fmt.Sprintf("Send %s a message with what was read", t)}}, true
		}
	}
	for _, re := range rdReplyRes {
		if m := re.FindStringSubmatch(c); m != nil {
			text := strings.TrimSpace(m[2])
			if ps, ok := latestSender(m[1], text); ok {
				return ps, true
			}
			to, ok := knownPerson(replyWho(m[1]))
			if !ok || regexp.MustCompile(`(?i)^(?:the\s+)?(?:most\s+recent|latest|last|newest)\b|^最新|^最后`).MatchString(m[1]) {
				return []planned{{Ask: fmt.Sprintf("Whose message should I reply to with %q?", text)}}, true
			}
			return []planned{sendTo(to, text)}, true
		}
	}
	if m := rdSameToRe.FindStringSubmatch(c); m != nil && len(prev.Expect) == 1 && prev.Expect[0].Kind == postcond.LastSent {
		to, ok := knownPerson(firstNonEmpty(m[1], m[2]))
		if !ok {
			return []planned{{Ask: fmt.Sprintf("Who should get the same message %q?", prev.Expect[0].Contains)}}, true
		}
		return []planned{sendTo(to, prev.Expect[0].Contains)}, true
	}
	if rdBothRe.MatchString(c) && sendsMessage(c) {
		return sendTodos(strings.Replace(rdBothWordRe.ReplaceAllString(c, ""), "都发", "发", 1), prev), true
	}
	if m := rdLookUpNumRe.FindStringSubmatch(c); m != nil {
		if who, ok := knownPerson(m[1]); ok {
			return []planned{readValue(fmt.Sprintf("read %s's phone number", who))}, true
		}
	}
	if n := ordinal(c); n != 0 && rdOrdConvRe.MatchString(c) && !rdPersonWordRe.MatchString(c) {
		text := ""
		for _, re := range rdOrdTextRes {
			if m := re.FindStringSubmatch(c); m != nil {
				text = strings.TrimSpace(m[1])
				break
			}
		}
		read := planned{Todo: fmt.Sprintf("Read the name of the %s conversation in Messages", ordinalWord(n)), Reads: true,
			Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel, Ordinal: n}}}
		if text == "" {
			if sendsMessage(c) || strings.Contains(strings.ToLower(c), "send") || strings.Contains(c, "发") {
				return []planned{{Ask: fmt.Sprintf("What should the message to the %s conversation say?", ordinalWord(n))}}, true
			}
			// "open the second conversation": the name is read, then that
			// conversation opened.
			return []planned{read, {Todo: "Open the conversation with what was read in Messages"}}, true
		}
		// The person is known once the read is done: the replan puts the
		// name in and writes the send's check (docs/design.md §9).
		return []planned{read, {Todo: fmt.Sprintf("Send what was read a message: %s", text)}}, true
	}
	return nil, false
}

// sendTo is a send with its check.
func sendTo(to, text string) planned {
	return planned{Todo: fmt.Sprintf("Send %s a message: %s", to, text),
		Expect: []postcond.Check{{Kind: postcond.LastSent, Conversation: to, Contains: text}}}
}

// openConversation opens who's conversation: done when Messages shows it
// with its message field, and nothing was sent.
func openConversation(who string) planned {
	return planned{Todo: fmt.Sprintf("Open the conversation with %s in Messages", who),
		Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Messages"}, {Kind: postcond.ElementExists, Text: who},
			{Kind: postcond.ElementExists, Text: "Text message"}}}
}

// rdSendQuotedRe is a send that names only its text: "send "see you"",
// said after a clause that opened the conversation.
var rdSendQuotedRe = regexp.MustCompile(`(?i)^(?:and\s+)?(?:send|say|write|type)\s+["“'‘](.+?)["”'’]$|^(?:并|然后|再)?发(?:送)?[:：]?\s*["“]?(.+?)["”]?$`)
