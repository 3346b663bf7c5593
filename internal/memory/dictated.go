package memory

import (
	"regexp"
	"strings"
)

// Dictated reports whether a question asked the person for the words of
// something to send or write: a message's text, a reply, a note's body.
// The answer is that one message's text, not a fact about the person or
// the phone, so it is never kept (docs/design.md#memory-across-goals): a
// later goal that reused it would send yesterday's words. A question that
// asks for whom and what together is dictated too: its answer holds the
// words.
func Dictated(question string) bool {
	q := strings.ToLower(strings.Join(strings.Fields(question), " "))
	if dictatedZhRe.MatchString(q) || contentNounRe.MatchString(q) || whatSayRe.MatchString(q) {
		return true
	}
	m := whatSendRe.FindStringSubmatchIndex(q)
	if m == nil {
		return false
	}
	// "What should I send it to?" and "What number should I text?" ask
	// where, not what.
	rest := q[m[1]:]
	return !recipientTailRe.MatchString(rest) && !whereNounRe.MatchString(q[m[2]:m[3]])
}

var (
	// contentNounRe names the words of a message, reply, note or post.
	contentNounRe = regexp.MustCompile(`\b(?:text|content|contents|body|wording|words)\s+(?:of|for|in)\s+(?:the|your|this|that|my|a|an)?\s*(?:message|text|reply|answer|sms|note|email|e-mail|mail|comment|post|caption|status)\b|\b(?:message|reply|sms|note|email|e-mail|mail|comment|post)(?:'s)?\s+(?:text|content|contents|body|wording)\b`)
	// whatSayRe asks what something should say, read or tell: "What
	// should the message to Bob say?", "what do you want to tell Alice?",
	// "What should I write?", "what should the reply be?".
	whatSayRe = regexp.MustCompile(`\bwhat(?:'s|\s+is|\s+are)?\b[^?.!]*?\b(?:say|says|saying|read|write|writing|tell|reply|replying|respond|answer with|type|typing|put)\b|\bwhat\b[^?.!]*?\b(?:message|text|reply|note|sms)\b[^?.!]*?\b(?:be|contain|include)\b|\bwhat(?:'s|\s+is)\s+(?:the\s+|your\s+)?(?:message|text|reply)\s*\??$`)
	// whatSendRe asks what to send or text: the words, unless what comes
	// next makes it a recipient.
	whatSendRe = regexp.MustCompile(`\bwhat\b([^?.!]*?)\b(?:send|sending|text|texting|message|messaging)\b`)
	// recipientTailRe is a question that ends on its recipient's slot.
	recipientTailRe = regexp.MustCompile(`^\s+(?:it\s+|that\s+|this\s+|them\s+|the message\s+)?to\s*\??\s*$`)
	// whereNounRe is "what number", "what contact": a what that asks for a
	// recipient.
	whereNounRe = regexp.MustCompile(`\b(?:number|contact|person|name|address|conversation|chat|group|app|time|day|date)\b`)
	// dictatedZhRe is the same in Chinese: 说什么, 写什么, 发什么, 回复什么,
	// 内容.
	dictatedZhRe = regexp.MustCompile(`(?:说|写|发|回复?|回答|留言|输入)(?:些)?(?:什么|啥)|(?:消息|短信|信息|回复|留言|笔记|备忘录?|邮件)(?:的)?(?:内容|正文|文字)|内容是`)
)
