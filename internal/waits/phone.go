package waits

import (
	"fmt"
	"regexp"
	"strings"
)

// Kinds of PhoneWait.
const (
	PhoneMessage = "message" // a message (or its notification) from someone
	PhoneCode    = "code"    // a one-time code in an SMS or a notification
)

// PhoneWait is a wait for something to happen on the phone rather than for
// a time (docs/design.md §7): a message from someone, a one-time code.
type PhoneWait struct {
	Kind string `json:"kind"`
	// From is who the message or code comes from, as the phone names the
	// sender ("Alice Chen", "Bank"); empty = anyone.
	From string `json:"from,omitempty"`
}

// String says what the wait is for: "a message from Alice Chen", "a
// one-time code from Bank".
func (w PhoneWait) String() string {
	s := "a message"
	if w.Kind == PhoneCode {
		s = "a one-time code"
	}
	if w.From != "" {
		s += " from " + w.From
	}
	return s
}

// TodoText is the todo that waits: "Wait for a message from Alice Chen".
func (w PhoneWait) TodoText() string { return "Wait for " + w.String() }

// Phrasings of a todo that is only a wait for the phone, English and
// Chinese. Names keep the goal's spelling.
var (
	phoneMsgEN = regexp.MustCompile(`(?i)^(?:please\s+|then\s+|and\s+)?(?:wait|keep waiting|watch|listen)(?:\s+for|\s+until)?\s+(?:an?\s+|the\s+|any\s+)?(?:new\s+|next\s+|incoming\s+)?(?:text\s+message|message|text|reply|sms|notification|response|answer|word)\s+(?:from|by)\s+(.+?)[\s.!。]*$`)
	phoneVerbs = `(?:reply|replies|respond|responds|answer|answers|write|writes|text|texts|message|messages|send|sends|get back|gets back)`
	phoneWhoEN = regexp.MustCompile(`(?i)^(?:please\s+|then\s+|and\s+)?wait\s+(?:for|until|till)\s+(.+?)\s+(?:to\s+)?` + phoneVerbs + `(?:\s+(?:to\s+)?me)?(?:\s+back)?(?:\s+(?:with\s+)?(?:an?|a\s+new)\s+(?:message|text|reply|sms))?[\s.!。]*$`)
	phoneCode  = `(?:(?:sms|text|verification|one-time|one\s+time|login|log-in|sign-in|sign\s+in|security|confirmation|2fa|otp|bank)\s+)*(?:code|otp|passcode|pin\s+code)`
	phoneCodeE = regexp.MustCompile(`(?i)^(?:please\s+|then\s+|and\s+)?wait\s+(?:for|until)\s+(?:the\s+|an?\s+)?(?:(.+?)(?:'s|’s)\s+)?` + phoneCode + `(?:\s+(?:sms|message|text))?(?:\s+(?:from|by)\s+(?:the\s+)?(.+?))?(?:\s+(?:to\s+)?(?:arrive|arrives|come|comes))?[\s.!。]*$`)
	phoneMsgZH = regexp.MustCompile(`^(?:请)?(?:等待|等候|等着|等)(.+?)(?:给我)?(?:发来|发|回)?(?:了)?(?:的)?(?:新)?(?:消息|短信|信息|回复|回信|微信)(?:后|之后)?[。.！!]*$`)
	phoneRepZH = regexp.MustCompile(`^(?:请)?(?:等待|等候|等着|等)(.+?)(?:回复|回信|回消息|回话)(?:我)?[。.！!]*$`)
	phoneCodZH = regexp.MustCompile(`^(?:请)?(?:等待|等候|等着|等|接收|收)(?:(.+?)(?:发来)?的)?(?:短信)?(?:验证码|动态码|校验码|动态密码)(?:短信)?[。.！!]*$`)
)

// PhoneTodo reads a todo that is only a wait for the phone: "Wait for a
// message from Alice Chen", "wait for Bob to reply", "Wait for the SMS
// code", "等待李四的消息", "等张三回复", "等短信验证码". ok is false for
// anything else.
func PhoneTodo(text string) (PhoneWait, bool) {
	t := strings.Join(strings.Fields(strings.TrimSpace(text)), " ")
	if m := phoneCodeE.FindStringSubmatch(t); m != nil {
		return PhoneWait{Kind: PhoneCode, From: sender(firstOf(m[2], m[1]))}, true
	}
	if m := phoneCodZH.FindStringSubmatch(t); m != nil {
		return PhoneWait{Kind: PhoneCode, From: sender(m[1])}, true
	}
	for _, re := range []*regexp.Regexp{phoneMsgEN, phoneWhoEN, phoneRepZH, phoneMsgZH} {
		if m := re.FindStringSubmatch(t); m != nil {
			if from := sender(m[1]); from != "" && !strings.ContainsAny(from, "0123456789") {
				return PhoneWait{Kind: PhoneMessage, From: from}, true
			}
		}
	}
	return PhoneWait{}, false
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sender tidies who a wait names: no quotes, no leading article, and
// "anyone"/"someone" for anyone.
func sender(s string) string {
	s = strings.Trim(strings.TrimSpace(s), `"'“”‘’「」`)
	low := strings.ToLower(s)
	for _, p := range []string{"the ", "my "} {
		if strings.HasPrefix(low, p) {
			s, low = s[len(p):], low[len(p):]
		}
	}
	switch low {
	case "anyone", "anybody", "someone", "somebody", "任何人", "有人", "":
		return ""
	}
	return s
}

// zhSender reports whether a Chinese clause's subject can be who writes:
// not "给妈妈", "向李四" (to whom something is sent).
func zhSender(s string) bool {
	s = sender(s)
	for _, p := range []string{"给", "向", "跟", "对", "和", "我"} {
		if strings.HasPrefix(s, p) {
			return false
		}
	}
	return s != ""
}

// Goal phrasings that start with a wait for the phone, and the reply that
// follows them ("reply 'got it'").
var (
	leadMsgEN  = regexp.MustCompile(`(?i)^(?:when(?:ever)?|once|as soon as|after|if)\s+(.+?)\s+(?:sends?(?:\s+me)?(?:\s+an?)?\s+(?:new\s+)?(?:message|text|sms)|(?:messages|texts|writes(?:\s+to)?|replies(?:\s+to)?|responds(?:\s+to)?|answers|gets\s+back\s+to)(?:\s+me)?|(?:has\s+)?(?:replied|written|texted|messaged)(?:\s+me)?)\s*[,，;:]?\s*(?:then\s+)?(.+)$`)
	leadCodeEN = regexp.MustCompile(`(?i)^(?:when|once|as soon as|after|if)\s+(?:the\s+|an?\s+)?(?:(.+?)(?:'s|’s)\s+)?` + phoneCode + `(?:\s+(?:sms|message|text))?(?:\s+(?:from\s+(?:the\s+)?(.+?)))?\s+(?:arrives|comes|comes in|is received|shows up)\s*[,，;:]?\s*(?:then\s+)?(.+)$`)
	leadMsgZH  = regexp.MustCompile(`^(当|等到|等|如果|一旦|要是)?(.+?)(?:给我)?(发来|发|回)(?:了)?(?:新)?(?:消息|短信|信息|微信)(后|以后|之后|时|的时候)?[，,、]?\s*(?:就|再|请|便)?(.+)$`)
	leadRecvZH = regexp.MustCompile(`^(?:当|等|等到|如果|一旦)?收到(.+?)(?:发来)?的(?:消息|短信|信息|微信)(?:后|以后|之后|时|的时候)?[，,、]?\s*(?:就|再|请|便)?(.+)$`)
	leadCodeZH = regexp.MustCompile(`^(当|等到|等|如果|一旦|收到)?(?:收到)?(?:(.+?)(?:发来)?的)?(?:短信)?(?:验证码|动态码|校验码)(?:短信)?(到了|来了|到达|后|以后|之后|时|的时候)?[，,、]?\s*(?:就|再|请|便)?(.+)$`)
	replyEN    = regexp.MustCompile(`(?i)^(?:please\s+)?(?:reply|respond|answer|write\s+back|text\s+back)(?:\s+(?:to\s+(?:her|him|them|it)|back))?(?:\s+(?:with|saying))?\s*[:：]?\s*(.+?)[.!。]?$`)
	replyZH    = regexp.MustCompile(`^(?:回复|回)(?:他|她|对方)?(?:说)?[:：]?\s*(.+?)[。.]?$`)
)

// PhoneLead splits a goal that starts with a wait for the phone: "When
// Alice Chen sends a message, reply 'got it'", "once Bob replies, forward
// it to Alice", "when the SMS code arrives, enter it", "李四发来消息后回复
// 收到". It returns the wait and the rest of the goal; a bare reply ("reply
// 'got it'") becomes a message to the sender ("Send 'got it' to Alice
// Chen"). ok is false when the goal does not start with such a wait.
func PhoneLead(goal string) (w PhoneWait, rest string, ok bool) {
	g := strings.Join(strings.Fields(strings.TrimSpace(goal)), " ")
	switch m := leadCodeEN.FindStringSubmatch(g); {
	case m != nil:
		w, rest = PhoneWait{Kind: PhoneCode, From: sender(firstOf(m[2], m[1]))}, m[3]
	default:
		// Chinese leads need a word that makes them a condition: one
		// before (当, 等, 如果, 收到) or after (后, 时, 到了); "给妈妈发短信说…"
		// is a message to send, not one to wait for.
		if m := leadCodeZH.FindStringSubmatch(g); m != nil && !strings.HasPrefix(g, "等待") && (m[1] != "" || m[3] != "") {
			w, rest = PhoneWait{Kind: PhoneCode, From: sender(m[2])}, m[4]
			break
		}
		if m := leadMsgZH.FindStringSubmatch(g); m != nil && (m[1] != "" || m[4] != "" && m[3] != "发") && zhSender(m[2]) {
			w, rest = PhoneWait{Kind: PhoneMessage, From: sender(m[2])}, m[5]
			break
		}
		for _, re := range []*regexp.Regexp{leadMsgEN, leadRecvZH} {
			if m := re.FindStringSubmatch(g); m != nil && sender(m[1]) != "" {
				w, rest = PhoneWait{Kind: PhoneMessage, From: sender(m[1])}, m[2]
				break
			}
		}
	}
	rest = strings.TrimSpace(rest)
	if w.Kind == "" || rest == "" {
		return PhoneWait{}, "", false
	}
	if w.Kind == PhoneMessage {
		for _, re := range []*regexp.Regexp{replyEN, replyZH} {
			if m := re.FindStringSubmatch(rest); m != nil {
				text := strings.Trim(strings.TrimSpace(m[1]), `"'“”‘’「」`)
				rest = fmt.Sprintf("Send %q to %s", text, w.From)
				break
			}
		}
	}
	return w, rest, true
}

// clauseSep is where a wait for the phone may end inside a clause: "wait
// for the SMS code and enter it", "等短信验证码然后输入".
var clauseSep = regexp.MustCompile(`(?i)\s*[,，;；]?\s*(?:\band then\b|\bthen\b|\band\b)\s*|\s*[,，;；]\s*|然后|并且|并|再|后`)

// SplitPhoneWait splits a clause that starts with a wait for the phone
// and goes on: "wait for the SMS code and enter it" → the code wait and
// "enter it". A clause that is only the wait has rest "".
func SplitPhoneWait(clause string) (w PhoneWait, rest string, ok bool) {
	c := strings.TrimSpace(clause)
	if w, ok := PhoneTodo(c); ok {
		return w, "", true
	}
	for _, loc := range clauseSep.FindAllStringIndex(c, -1) {
		if w, ok := PhoneTodo(c[:loc[0]]); ok {
			if rest = strings.TrimSpace(c[loc[1]:]); rest != "" {
				return w, rest, true
			}
		}
	}
	return PhoneWait{}, "", false
}

// CutBeforePhoneWait cuts a clause where a wait for the phone begins after
// something else: "sign in with the password x, wait for the bank's code
// and type it in" → "sign in with the password x" and the rest from the
// wait on.
func CutBeforePhoneWait(clause string) (head, tail string, ok bool) {
	c := strings.TrimSpace(clause)
	for _, loc := range clauseSep.FindAllStringIndex(c, -1) {
		if loc[0] == 0 {
			continue
		}
		if _, _, found := SplitPhoneWait(c[loc[1]:]); found {
			return strings.TrimSpace(c[:loc[0]]), strings.TrimSpace(c[loc[1]:]), true
		}
	}
	return c, "", false
}
