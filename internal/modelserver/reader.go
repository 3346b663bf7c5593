package modelserver

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// The planner persona's own reading of a goal (docs/design.md §9). It
// shares nothing with the executor persona's parse of a todo: the planner
// writes each todo in plain words for the executor, and the postconditions
// that will show it done, from what the goal says; when the executor
// misreads a todo, the checks still say what the goal asked.

// planned is one todo as the planner reads it.
type planned struct {
	Clause string // the goal's words
	Todo   string
	Expect []postcond.Check
	Ask    string // a question for the user when something needed is missing
	Reads  bool   // the todo reads a value the goal uses later
	// Rewrite: once a value read before is in it, the todo goes to the
	// executor in the words the planner reads it into ("Create an alarm
	// at 07:30"), not as written with the value put in.
	Rewrite bool
}

var (
	politeRe = regexp.MustCompile(`(?i)^(?:(?:could|can|would|will)\s+you\s+(?:please\s+)?(?:kindly\s+)?|please\s+|kindly\s+|pls\s+|i(?:'d| would)\s+like\s+(?:you\s+)?to\s+|i\s+(?:want|need)\s+(?:you\s+)?to\s+|help\s+me\s+(?:to\s+)?|go\s+ahead\s+and\s+|just\s+|麻烦你?|请你?|帮我|帮忙|能不能|可不可以|可以)+`)
	tailRe   = regexp.MustCompile(`(?i)(?:\s*,?\s*(?:for\s+me|please|thanks|thank\s+you))*\s*[?？。.!！]*\s*(?:好吗|吗|谢谢|吧)?[?？。.!！]*$`)
	// Clause separators: always, and only before a new clause.
	planStrong = []string{", and then ", " and then ", ", and afterwards ", " and afterwards ", ", afterwards ", " afterwards ", ", then ", " then ", " after that ", "; ", ";", "，然后", "然后", "并且", "，再", "；", "。", "之后"}
	planWeak   = []string{", and ", " and ", ", ", "，", "并", "再", "、"}

	rdOnRe      = regexp.MustCompile(`(?i)\b(?:on|enable|enabled|activate|switch on)\b|打开|开启|启用|开`)
	rdOffRe     = regexp.MustCompile(`(?i)\b(?:off|disable|disabled|deactivate|stop)\b|关闭|关掉|禁用|关`)
	rdReadRe    = regexp.MustCompile(`(?i)^(?:(?:read|check|what|what's|which|when|whose|tell me|find out|find|look up|show me|get|how)\b|查看|看看|看一下|查一下|告诉我|读取|读一下|查询)|(?:是多少|是什么|几点|多少)$`)
	rdSendRe    = regexp.MustCompile(`(?i)^(?:send|text|message|sms|tell|reply|respond|write back|write to|let|ping|dm)\b|^(?:给|告诉|发|回复)|^把.+(?:发给|发送给|告诉)`)
	rdOpenRe    = regexp.MustCompile(`(?i)^(?:open|launch|start|go to|switch to|bring up|打开|启动|进入)\s*(?:the\s+|my\s+)?(.+?)(?:\s+app)?$`)
	rdHomeRe    = regexp.MustCompile(`(?i)^(?:go|return|get|head|navigate)\s+(?:back\s+)?(?:to\s+)?(?:the\s+)?home(?:\s*screen)?$|^(?:回到|返回)(?:主屏幕|桌面|主页)$`)
	rdPctRe     = regexp.MustCompile(`(\d{1,3})\s*(?:%|percent|％)`)
	rdByRe      = regexp.MustCompile(`(?i)\bby\s+\d+|增加\d+|调高\d+|降低\d+|调低\d+`)
	rdTimeRe    = regexp.MustCompile(`(?i)(\d{1,2})(?:[:：.](\d{2}))?\s*([ap])\.?\s*m\.?\b|(\d{1,2})[:：](\d{2})`)
	rdZhTimeRe  = regexp.MustCompile(`(凌晨|早上|上午|中午|下午|晚上)?\s*(\d{1,2})\s*[点:：]\s*(半|(\d{1,2})\s*分?)?`)
	rdBareAtRe  = regexp.MustCompile(`(?i)\b(?:at|for)\s+(\d{1,2})\b(?:\s*o'?clock)?`)
	rdOrdinalRe = regexp.MustCompile(`(?i)\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\b|第\s*([一二三四五12345])\s*个?|最后一个`)
	rdLabelRe   = regexp.MustCompile(`(?i)\b(?:labell?ed|called|named|with (?:the )?label|label(?:led)? as)\s+["“']?([^"”']+?)["”']?(?:\s+(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?)?$|(?:标签(?:为|是|叫做?|名为|名叫|写)?|叫做?|名为)\s*[:：]?\s*["“「]?([^"”」]+?)["”」]?$`)
	rdTitleRe   = regexp.MustCompile(`(?i)\b(?:titled|called|named|with (?:the )?title)\s+["“']?(.+?)["”']?(?:\s+(?:saying|that says|with (?:the )?(?:text|body)|with|containing|body)\s*:?\s*|[:：]\s*|$)(.*)$|标题(?:为|是|叫做?)?\s*[:：]?\s*["“「]?(.+?)["”」]?(?:[,，、\s]*内容(?:为|是)?\s*[:：]?\s*(.*))?$`)
	rdBodyRe    = regexp.MustCompile(`(?i)\b(?:saying|that says|with the text|containing|about)\s*:?\s*(.+)$|[:：]\s*(.+)$|内容(?:为|是)?\s*[:：]?\s*(.+)$|记(?:下|录)?\s*[:：]?\s*(.+)$`)
	// rdAlarmRefRe is an alarm's value named as a message's text: "the
	// second alarm's time", "the time of my first alarm".
	rdAlarmRefRe = regexp.MustCompile(`(?i)^(?:the\s+|my\s+)?(?:\w+\s+)?alarm'?s?\s+(?:time|label)$|^(?:the\s+)?(?:time|label)\s+of\s+(?:the\s+|my\s+)?(?:\w+\s+)?alarm$`)
	rdNameItRe   = regexp.MustCompile(`(?i)\b(?:name|call|label|title)\s+it\s+["“']?(.+?)["”']?$`)
	rdNumRefRe   = regexp.MustCompile(`(?i)^(?:(.+?)'s\s+(?:phone\s+)?number|(?:the\s+)?(?:phone\s+)?number\s+of\s+(.+?)|(.+?)的(?:电话号码|电话|手机号码?|号码))$`)
)

// rdContacts maps the ways a goal names a person to the name a phone
// shows; names not listed are taken as written.
var rdContacts = map[string]string{"mom": "Mom", "mum": "Mom", "mother": "Mom", "妈妈": "Mom", "妈": "Mom", "老妈": "Mom",
	"alice": "Alice", "alice chen": "Alice Chen", "bob": "Bob", "bob li": "Bob Li", "zhang san": "Zhang San", "张三": "Zhang San",
	"李四": "李四", "dad": "Dad", "爸爸": "Dad"}

var rdApps = map[string]string{"settings": "Settings", "设置": "Settings", "contacts": "Contacts", "联系人": "Contacts", "通讯录": "Contacts",
	"messages": "Messages", "短信": "Messages", "信息": "Messages", "clock": "Clock", "时钟": "Clock", "闹钟": "Clock", "alarms": "Clock",
	"notes": "Notes", "笔记": "Notes", "备忘录": "Notes", "便签": "Notes", "bank": "Bank", "银行": "Bank"}

// readGoal reads a goal into todos.
func readGoal(goal string) []planned {
	goal = strings.TrimSpace(goal)
	if goal == "" {
		return nil
	}
	if w, rest, ok := waits.Lead(goal); ok {
		return append([]planned{{Todo: w.TodoText()}}, readGoal(rest)...)
	}
	if w, rest, ok := waits.PhoneLead(goal); ok {
		return append([]planned{{Todo: w.TodoText()}}, readGoal(rest)...)
	}
	if ps, ok := zhConditional(goal); ok {
		return ps
	}
	var out []planned
	var not []string
	prev := planned{}
	var clauses []string
	for _, c := range splitClauses(protectMessages(goal)) {
		for {
			head, tail, ok := waits.CutBeforePhoneWait(c)
			if !ok {
				break
			}
			clauses, c = append(clauses, head), tail
		}
		clauses = append(clauses, c)
	}
	lastApp := ""          // the app the clauses before a code wait name
	var pending *condition // a condition whose action is the next clause
	for _, c := range clauses {
		// "wait for the SMS code and enter it": the goal waits for the
		// phone, and what arrives is read for the rest (docs/design.md §7).
		w, rest, ok := waits.SplitPhoneWait(c)
		if a := appIn(c); a != "" && !ok {
			lastApp = a
		}
		if ok {
			p := planned{Todo: w.TodoText(), Reads: true, Clause: c}
			out = append(out, p)
			prev = p
			if rest == "" {
				continue
			}
			c = rest
		}
		if bankPasswordRe.MatchString(c) && rdBankRe.MatchString(c) {
			// A sign-in with the password the goal gives: done when the
			// bank no longer asks for it (it may ask for a code next).
			p := planned{Todo: c, Clause: c, Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Bank"}, {Kind: postcond.ElementAbsent, Text: "password"}}}
			out = append(out, p)
			prev, lastApp = p, "Bank"
			continue
		}
		if prev.Reads && strings.HasPrefix(prev.Todo, "Wait for a one-time code") && rdEnterItRe.MatchString(c) {
			todo := "Enter the code with what was read"
			if lastApp != "" {
				todo = "Enter the code in the " + lastApp + " app with what was read"
			}
			p := codeTodo(todo, lastApp)
			p.Clause = c
			if lastApp != "" {
				p.Todo = "Enter the code in the " + lastApp + " app with what was read"
			}
			out = append(out, p)
			prev = p
			continue
		}
		if cond, rest, ok := conditionLead(c); ok {
			// "If Wi-Fi is off, turn it on": the action is the rest of the
			// clause or the next one.
			pending = &cond
			if rest == "" {
				continue
			}
			c = rest
		}
		if pending != nil || conditionTailOK(c) {
			p := conditionalClause(c, pending, prev)
			p.Clause = c
			out = append(out, p)
			prev, pending = p, nil
			continue
		}
		if rdNotRe.MatchString(c) {
			// "不要关闭无线网络", "don't touch Wi-Fi": a clause that says
			// what not to do asks for no action, so it gets no todo (a
			// todo read from its verb would do exactly what it forbids).
			not = append(not, c)
			continue
		}
		if w, head, ok := quoteTail(c); ok {
			// "text Alice “on my way” at 7pm": the quote is the message,
			// the time a wait before it; words that ask for nothing go.
			if !w.IsZero() {
				out = append(out, planned{Todo: w.TodoText(), Clause: c})
			}
			c = head
		}
		ps := readClause(c, prev)
		for i := range ps {
			ps[i] = revealPlanned(ps[i])
		}
		for _, p := range unsure(reveal(c), ps) {
			p.Clause = c
			p = revealPlanned(p)
			out = append(out, keepMark(goal, p))
			prev = p
		}
	}
	if pending != nil {
		out = append(out, conditional(*pending, "", prev))
	}
	for i := range out {
		out[i] = revealPlanned(out[i])
	}
	if len(out) == 0 && len(not) > 0 {
		return []planned{{Ask: fmt.Sprintf("%q only says what not to do (%s). What should I do?", goal, strings.Join(not, "; ")), Clause: goal}}
	}
	return out
}

// rdCodeTodoRe is a todo that enters a code read before, once the code
// is in it.
var rdCodeTodoRe = regexp.MustCompile(`^Enter the code(?: in the (\S+) app)?: \S+$`)

// codeTodo is a todo that enters a one-time code: done when the page that
// asked for it, and its Verify, are gone.
func codeTodo(todo, app string) planned {
	p := planned{Todo: todo, Expect: []postcond.Check{{Kind: postcond.ElementAbsent, Text: "Verify"}}}
	if app != "" {
		p.Expect = append(p.Expect, postcond.Check{Kind: postcond.AppInFront, App: app})
	}
	return p
}

// rdBankRe names the Bank app.
var rdBankRe = regexp.MustCompile(`(?i)\bbank\b|银行`)

// rdEnterItRe is a clause that types what a code wait read: "enter it",
// "type the code in", "输入验证码".
var rdEnterItRe = regexp.MustCompile(`(?i)^(?:and\s+|then\s+)?(?:enter|type|input|fill\s+in|use|submit|put\s+in)\s+(?:it|the\s+code|that|this)\b|^(?:并|然后|再)?(?:输入|填入|填写)(?:它|验证码)?`)

// rdNotRe is a clause that says what not to do: "don't …", "do not …",
// "never …", "never mind …", "leave … alone", "no need to …", "不要…",
// "别…", "不用…", "无需…", "不必…", "勿…".
var rdNotRe = regexp.MustCompile(`(?i)^(?:(?:but|and|just|also|please|then)\s+)*(?:don'?t|do\s+not|never|no\s+need\s+to|leave\s+.+\s+(?:alone|as\s+(?:it\s+)?is|untouched))\b|^(?:但是?|并且?|而且|也|请)?(?:不要|别|不用|无需|不必|勿|千万别|切勿)`)

// keepMark gives a message's text back the "?" or "!" it ends with in the
// goal, which tidying the clause took off with the goal's own.
func keepMark(goal string, p planned) planned {
	if len(p.Expect) != 1 || p.Expect[0].Kind != postcond.LastSent {
		return p
	}
	text := p.Expect[0].Contains
	i := strings.LastIndex(goal, text)
	if i < 0 {
		return p
	}
	mark := rdMarkRe.FindString(goal[i+len(text):])
	if mark == "" {
		return p
	}
	if strings.ContainsAny(mark, "?？") && rdRequestQRe.MatchString(dropGreeting(goal)) && messageColon(goal) < 0 && !rdQuotedFirst.MatchString(goal) {
		// "Could you tell Bob I'm late?": the question is the request's.
		return p
	}
	p.Expect = []postcond.Check{p.Expect[0]}
	p.Expect[0].Contains = text + mark
	p.Todo = strings.TrimSuffix(p.Todo, text) + text + mark
	return p
}

var rdMarkRe = regexp.MustCompile(`^[?!？！]+`)

// rdRequestQRe is a request asked as a question: "Could you …?", "能不能…？".
var rdRequestQRe = regexp.MustCompile(`(?i)^(?:please\s+)?(?:could|can|would|will)\s+you\b|^(?:请问)?(?:能不能|可不可以|可以|能|麻烦)`)

// tidy drops politeness around a clause. After a colon everything is the
// message, so a closing "thanks" or "谢谢" there is words to send, not
// politeness to the agent: only the final marks go, and keepMark gives a
// "?" or "!" back to the message (docs/design.md §9).
func tidy(c string) string {
	c = strings.TrimSpace(c)
	for range 3 {
		c = politeRe.ReplaceAllString(dropGreeting(c), "")
		if i := messageColon(c); i >= 0 {
			c = strings.TrimSpace(c[:i] + strings.TrimRight(c[i:], "。.?？!！ "))
			continue
		}
		t := strings.TrimSpace(tailRe.ReplaceAllString(c, ""))
		if rdWordsNextRe.MatchString(t) {
			// "reply with thanks": the closing word is the message.
			t = strings.TrimSpace(strings.TrimRight(c, "。.?？!！ "))
		}
		c = t
	}
	return c
}

// messageColon is the index of the first colon of c that introduces words
// (not one inside a time such as 7:30) with text after it, or -1.
func messageColon(c string) int {
	rs := []rune(c)
	off := 0
	for i, r := range rs {
		if r == ':' || r == '：' {
			digits := i > 0 && i+1 < len(rs) && unicode.IsDigit(rs[i-1]) && unicode.IsDigit(rs[i+1])
			if !digits && strings.TrimSpace(string(rs[i+1:])) != "" {
				return off
			}
		}
		off += utf8.RuneLen(r)
	}
	return -1
}
