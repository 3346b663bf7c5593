package modelserver

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// A message's words, as the planner persona reads them (docs/design.md
// §9). After a send verb, the words a colon, "saying", "that", "说" (and
// the like) introduce are the message: they are sent as written, with
// every mark inside and at the end ("收到。谢谢", "see you. Bring the
// keys", "明天见，谢谢！", emoji, quotes), and never split into todos.
// The message ends at the end of the goal, or where a sequencing word
// ("then", "and then", "after that", "然后", "，再") starts a clause with a
// phone verb ("… thanks! Then turn on Bluetooth"): that clause is a todo
// of its own. One full stop ending the message ("." or "。", not "..."
// or "…") is the goal's sentence end and is left out; the last_sent check
// accepts the message with or without it (postcond.SameMessage).
//
// While the goal is split into clauses and tidied, each message's words
// travel hidden in a token (hex between two private-use runes) that no
// separator, politeness rule or mark trimming can touch; reveal puts them
// back.

const (
	tokOpen  = '\uE000'
	tokClose = '\uE001'
)

var (
	tokRe = regexp.MustCompile("\uE000([0-9a-f]*)\uE001")

	// msgMarkerRe introduces a message's words after a send verb.
	msgMarkerRe = regexp.MustCompile(`(?i)\s*[:：]\s*|\s+(?:saying|that says|which says|to say|with the (?:text|words|message))\s*[:：]?\s*|\s+that\s+|\s+know\s+(?:that\s+)?|说(?:\s*(?:一声|一下))?\s*[:：，,]?\s*`)

	// msgVerbRe is a clause that sends a message, whatever its verb:
	// send, text, message, tell, reply, answer, respond, write (back),
	// ping, DM, let … know, 回复, 告诉, 给…发, 跟…说, 发…给.
	msgVerbRe   = regexp.MustCompile(`(?i)^(?:(?:and|then|also|and then)\s+)?(?:send|text|message|msg|sms|tell|reply|respond|answer|write|ping|dm|pm|let|shoot|drop|notify|inform)\b`)
	msgVerbZhRe = regexp.MustCompile(`^(?:并|然后|再|并且)?(?:回复|回个?|告诉|转告|私信|通知|(?:给|跟|和|对|向).{1,16}?(?:发|说|回复|回)|发(?:一条|个|条)?(?:短信|消息|信息|微信)?给)`)
	// msgNotRe: a colon that opens a note's, an alarm's or a title's
	// words, not a message's.
	msgNotRe = regexp.MustCompile(`(?i)\b(?:note|notes|memo|alarm|label|title|titled|reminder)\b|笔记|备忘|便签|闹钟|标签|标题`)
	// msgClauseStart is where the clause of a marker starts: after the
	// last separator before it.
	msgClauseStartRe = regexp.MustCompile(`(?i)(?:[;；。.!！?？]\s+|[;；。！？]|,?\s+(?:and then|then|after that|afterwards)\s+|，(?:然后|再)?|然后|并且|,\s+|\s+and\s+)`)

	// msgEndRe is where a message's words stop: a sequencing word
	// before a clause of its own (checked with startsTodo).
	msgEndRe = regexp.MustCompile(`(?i)(?:\s*[,;.，；。]\s*|\s+)(?:and\s+then|then|after\s+that|afterwards)\s+|\s*[,;.，；。]?\s*(?:然后|之后|接着|随后|并且)|\s*[，,；;。]\s*(?:再|并|还要|顺便)`)
)

// protectMessages hides the words of each message s sends in a token.
func protectMessages(s string) string {
	var b strings.Builder
	for {
		start, end, ok := messageSpan(s)
		if !ok {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:start])
		b.WriteRune(tokOpen)
		b.WriteString(hex.EncodeToString([]byte(s[start:end])))
		b.WriteRune(tokClose)
		s = s[end:]
	}
}

// messageSpan finds the first message's words in s: a quote right after
// the person a send verb names ("text Bob 'hi, see you at 8'"), quote
// marks and all, or the words after a marker that follows a send verb, up
// to the end or a sequencing word. A quote that opens before the marker
// holds the words whole: a colon or a "that" inside it is the message's.
func messageSpan(s string) (int, int, bool) {
	ms, me, mok := markerSpan(s)
	if qs, qe, ok := quotedSpan(s); ok && (!mok || qs < ms) {
		return qs, qe, true
	}
	return ms, me, mok
}

// quotedSpan finds the first quote of s that stands where a send clause's
// words go: after a send verb and its person, with no marker between
// ("Message Mom ‘I'm home, don't worry’", "给李四发消息「晚上好，记得带伞」").
func quotedSpan(s string) (int, int, bool) {
	for off := 0; off < len(s); {
		q, ok := findQuoted(s[off:])
		if !ok {
			return 0, 0, false
		}
		start, end := off+q.start, off+q.end
		off = end
		if strings.HasPrefix(s[end:], string(tokOpen)) || strings.TrimSpace(s[start+1:end-1]) == "" {
			continue
		}
		if msgMarkerTailRe.MatchString(s[:start]) {
			continue // a marker's words: markerSpan reads them
		}
		if head, ok := sendHead(s[:start]); ok && !msgNotRe.MatchString(head) && !strings.ContainsRune(head, tokClose) {
			return start, end, true
		}
	}
	return 0, 0, false
}

// sendHead is the clause that ends s when it sends a message: from the
// nearest clause start whose words begin with a send verb, across the
// "and"s and commas of a list of people ("Text Bob and Alice"), but not
// across a clause of its own ("turn on Wi-Fi and …").
func sendHead(s string) (string, bool) {
	starts := msgClauseStartRe.FindAllStringIndex(s, -1)
	for i := len(starts); i >= 0; i-- {
		from := 0
		if i > 0 {
			from = starts[i-1][1]
		}
		head := strings.TrimSpace(politeRe.ReplaceAllString(strings.TrimSpace(s[from:]), ""))
		if msgVerbRe.MatchString(head) || msgVerbZhRe.MatchString(head) {
			return head, true
		}
		if i > 0 && !rdPeopleSepRe.MatchString(s[starts[i-1][0]:starts[i-1][1]]) || startsTodo(head, "") {
			return "", false
		}
	}
	return "", false
}

// markerSpan finds the first message's words in s after a marker that
// follows a send verb, up to the end or a sequencing word.
func markerSpan(s string) (int, int, bool) {
	for off := 0; off < len(s); {
		loc := msgMarkerRe.FindStringIndex(s[off:])
		if loc == nil {
			return 0, 0, false
		}
		at, from := off+loc[0], off+loc[1]
		off = from
		if inTime(s, at) || from >= len(s) || strings.HasPrefix(s[from:], string(tokOpen)) {
			continue
		}
		head := s[:at]
		if ss := msgClauseStartRe.FindAllStringIndex(head, -1); len(ss) > 0 {
			head = head[ss[len(ss)-1][1]:]
		}
		head = strings.TrimSpace(politeRe.ReplaceAllString(strings.TrimSpace(head), ""))
		withMarker := head + strings.TrimSpace(s[at:from])
		if !(msgVerbRe.MatchString(head) || msgVerbZhRe.MatchString(withMarker)) || msgNotRe.MatchString(head) {
			continue
		}
		if m := strings.ToLower(strings.TrimSpace(s[at:from])); strings.HasPrefix(m, "that") && !regexp.MustCompile(`(?i)^(?:tell|let|text|message|inform|notify)\b`).MatchString(head) {
			continue // "that" opens the words only after tell, let … know
		}
		if m := strings.ToLower(strings.TrimSpace(s[at:from])); strings.HasPrefix(m, "that") && msgVerbRe.FindString(head) == head {
			continue // "text that to Bob": "that" is what is sent, not its words' marker
		}
		if q, ok := findQuoted(s[from:]); ok && q.start == 0 && (!startsComma(s[from+q.end:]) || politeTail(s[from+q.end:])) {
			// "saying "…" and go home": the quote holds the words.
			return from, from + q.end, true
		}
		end := len(s)
		for rest := from; ; {
			l := msgEndRe.FindStringIndex(s[rest:])
			if l == nil {
				break
			}
			if next := strings.TrimSpace(s[rest+l[1]:]); next != "" && startsTodo(next, "") && rest+l[0] > from {
				end = rest + l[0]
				break
			}
			rest += max(l[1], 1)
		}
		text := strings.TrimRight(s[from:end], " \t")
		text = dropSentenceEnd(text)
		if end == len(s) {
			text = dropRequestMark(s, text)
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		return from, from + len(text), true
	}
	return 0, 0, false
}

// inTime reports a colon between digits (7:30), which opens no words.
func inTime(s string, at int) bool {
	if at <= 0 || at+1 >= len(s) || s[at] != ':' {
		return false
	}
	return s[at-1] >= '0' && s[at-1] <= '9' && s[at+1] >= '0' && s[at+1] <= '9'
}

// dropSentenceEnd leaves out one full stop ending the words ("." or "。",
// not an ellipsis).
func dropSentenceEnd(t string) string {
	switch {
	case strings.HasSuffix(t, "..") || strings.HasSuffix(t, "。。"):
		return t
	case strings.HasSuffix(t, "."), strings.HasSuffix(t, "。"):
		_, n := lastRune(t)
		return t[:len(t)-n]
	}
	return t
}

func lastRune(s string) (rune, int) {
	rs := []rune(s)
	if len(rs) == 0 {
		return 0, 0
	}
	r := rs[len(rs)-1]
	return r, len(string(r))
}

// reveal puts the words of every token in s back.
func reveal(s string) string {
	if !strings.ContainsRune(s, tokOpen) {
		return s
	}
	return tokRe.ReplaceAllStringFunc(s, func(t string) string {
		b, err := hex.DecodeString(tokRe.FindStringSubmatch(t)[1])
		if err != nil {
			return t
		}
		return string(b)
	})
}

// revealPlanned reveals a planned todo's words everywhere it holds them.
func revealPlanned(p planned) planned {
	p.Clause, p.Todo, p.Ask = reveal(p.Clause), reveal(p.Todo), reveal(p.Ask)
	if len(p.Expect) > 0 {
		cs := make([]postcond.Check, len(p.Expect))
		for i, c := range p.Expect {
			c.Contains, c.Text, c.Shows, c.Value = reveal(c.Contains), reveal(c.Text), reveal(c.Shows), reveal(c.Value)
			cs[i] = c
		}
		p.Expect = cs
	}
	return p
}

// msgPlaceholder stands for a message's words while a clause is read: a
// plain word no rule of the reader takes for anything.
const msgPlaceholder = "Qzxmsgwords"

var (
	// msgWhoTailRe is what follows a person's name before the message's
	// words: "'s last message", "back", "a text", "for me", "的最新消息".
	msgWhoTailRe   = regexp.MustCompile(`(?i)(?:'s|’s)\s+(?:last|latest|newest|most\s+recent|recent)?\s*(?:message|text|sms|msg|chat)s?\b.*$|\s+(?:with\s+)?(?:an?\s+)?(?:quick\s+)?(?:message|text|sms|msg|line|note|dm)s?$|\s+(?:back|for me|now|please|know)$|[?？.!,，]\s*(?:say|write|tell (?:him|her|them))?$|\s+(?:in|on|via|using|through|by)\s+(?:the\s+)?(?:messages|messaging|sms|text)(?:\s+app)?$|的(?:最新|最后一条|最近的?|上一条)?(?:消息|短信|信息)$|(?:发|说|回复|回)(?:一条|个|条)?(?:短信|消息|信息|微信)?$`)
	msgWhoHeadRe   = regexp.MustCompile(`(?i)^(?:(?:and|then|also|and then)\s+)?(?:send|text|message|msg|sms|tell|reply|respond|answer|write(?:\s+back)?|ping|dm|pm|let|shoot|drop|notify|inform)\s+(?:back\s+)?(?:an?\s+)?(?:quick\s+)?(?:(?:message|text|sms|msg|line|note|dm)s?\b\s*)?(?:to\s+)?|^(?:并|然后|再|并且)?(?:回复|回个?|告诉|转告|私信|通知|给|跟|和|对|向|发(?:一条|个|条)?(?:短信|消息|信息|微信)?给)`)
	msgNotPersonRe = regexp.MustCompile(`(?i)\b(?:conversation|chat|thread|first|second|third|fourth|fifth|last|latest|him|her|them|it)\b|对话|聊天|第`)
)

// messageClause reads a clause whose message's words are hidden in a
// token: the recipient from the words before them, whatever the verb
// ("reply Bob", "回复张三", "跟李四说", "DM Bob Li"), and the words
// exactly. A message that names a value to read first ("Zhang San's
// number", "it") goes to the usual reading with its words revealed.
func messageClause(c string, prev planned) ([]planned, bool) {
	loc := tokRe.FindStringIndex(c)
	if loc == nil {
		return nil, false
	}
	text := reveal(c[loc[0]:loc[1]])
	plain := strings.TrimSpace(strings.Trim(strings.TrimSpace(text), `"“”'`))
	if rdPronounRe.MatchString(plain) || rdSameWordsRe.MatchString(plain) || rdKnowRe.MatchString(plain) ||
		rdAlarmRefRe.MatchString(plain) || rdNumRefRe.MatchString(plain) {
		return readClause(reveal(c), prev), true
	}
	text = unwrapQuotes(strings.TrimSpace(text))
	head := strings.TrimSpace(msgMarkerTailRe.ReplaceAllString(c[:loc[0]], ""))
	who := strings.TrimSpace(msgWhoHeadRe.ReplaceAllString(head+" ", ""))
	for range 3 {
		who = strings.TrimSpace(msgWhoTailRe.ReplaceAllString(who, ""))
	}
	var ps []planned
	noOne := msgNoOneRe.MatchString(who)
	if !noOne && !msgNotPersonRe.MatchString(who) && len(strings.Fields(who)) <= 4 {
		ps = sendTodos("Send "+who+" a message: "+msgPlaceholder, prev)
	} else if noOne && strings.TrimSpace(c[loc[1]:]) == "" && msgVerbRe.MatchString(head) {
		// `Send the message "running late"`: the words, and no one to
		// send them to.
		return []planned{{Ask: fmt.Sprintf("Who should I send the message %q to?", text)}}, true
	} else {
		ps = readClause(c[:loc[0]]+msgPlaceholder+c[loc[1]:], prev)
	}
	for i := range ps {
		ps[i] = withWords(ps[i], text)
	}
	return ps, true
}

// msgNoOneRe is what stands before a message's words when they name no
// one: nothing, "the message", "a text".
var msgNoOneRe = regexp.MustCompile(`(?i)^(?:an?|the|this|that|these|my)?\s*(?:(?:message|text|sms|msg|words?|line)s?)?$`)

// msgMarkerTailRe is the marker that ends the words before a token.
var msgMarkerTailRe = regexp.MustCompile(`(?i)(?:\s*[:：]\s*|\s+(?:saying|that says|which says|to say|with the (?:text|words|message))\s*[:：]?\s*|\s+that\s*|\s+know\s+(?:that\s+)?|说(?:\s*(?:一声|一下))?\s*[:：，,]?\s*)$`)

// withWords puts a message's words where the placeholder stands.
func withWords(p planned, text string) planned {
	r := func(s string) string { return strings.ReplaceAll(s, msgPlaceholder, text) }
	p.Todo, p.Ask = r(p.Todo), r(p.Ask)
	for i := range p.Expect {
		p.Expect[i].Contains = r(p.Expect[i].Contains)
	}
	return p
}

// apostropheRe is an apostrophe within a word ("don't", "I'll").
var apostropheRe = regexp.MustCompile(`\pL'\pL`)

// unwrapQuotes takes off quotes around the whole of a message's words.
func unwrapQuotes(t string) string {
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}, {"'", "'"}, {"「", "」"}, {"‘", "’"}, {"«", "»"}, {"『", "』"}} {
		if len(t) >= len(q[0])+len(q[1])+1 && strings.HasPrefix(t, q[0]) && strings.HasSuffix(t, q[1]) {
			inner := t[len(q[0]) : len(t)-len(q[1])]
			if q[0] == "'" {
				inner2 := apostropheRe.ReplaceAllString(inner, "")
				if !strings.Contains(inner2, "'") {
					return strings.TrimSpace(inner)
				}
			}
			if !strings.Contains(inner, q[0]) && !strings.Contains(inner, q[1]) {
				return strings.TrimSpace(inner)
			}
		}
	}
	return t
}
