package modelserver

import (
	"fmt"
	"regexp"
	"strconv"
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
	rdLabelRe   = regexp.MustCompile(`(?i)\b(?:labell?ed|called|named|with (?:the )?label|label(?:led)? as)\s+["“']?([^"”']+?)["”']?(?:\s+(?:at\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?)?$|(?:标签(?:为|是)?|叫做?|名为)\s*["“]?([^"”]+?)["”]?$`)
	rdTitleRe   = regexp.MustCompile(`(?i)\b(?:titled|called|named|with (?:the )?title)\s+["“']?(.+?)["”']?(?:\s+(?:saying|that says|with (?:the )?(?:text|body)|with|containing|body)\s*:?\s*|[:：]\s*|$)(.*)$|标题(?:为|是)?\s*["“]?(.+?)["”]?(?:[,，、\s]*内容(?:为|是)?\s*[:：]?\s*(.*))?$`)
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
	"notes": "Notes", "笔记": "Notes", "备忘录": "Notes", "bank": "Bank", "银行": "Bank"}

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
	lastApp := "" // the app the clauses before a code wait name
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
		if rdNotRe.MatchString(c) {
			// "不要关闭无线网络", "don't touch Wi-Fi": a clause that says
			// what not to do asks for no action, so it gets no todo (a
			// todo read from its verb would do exactly what it forbids).
			not = append(not, c)
			continue
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
	if strings.ContainsAny(mark, "?？") && rdRequestQRe.MatchString(goal) && messageColon(goal) < 0 && !rdQuotedFirst.MatchString(goal) {
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
		c = politeRe.ReplaceAllString(c, "")
		if i := messageColon(c); i >= 0 {
			c = strings.TrimSpace(c[:i] + strings.TrimRight(c[i:], "。.?？!！ "))
			continue
		}
		c = strings.TrimSpace(tailRe.ReplaceAllString(c, ""))
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

// splitClauses splits at strong separators always and at weak ones only
// before a new clause (a verb, or a switch's name after a switch clause).
func splitClauses(goal string) []string {
	var out []string
	for _, p := range messageWhole(tidy(goal)) {
		pieces := splitOutsideQuotes(p, planWeak)
		// A piece that starts no todo goes back with the separator it had
		// ("晚上好，记得带伞" stays one text), never with another one.
		cur := pieces[0]
		from := max(strings.Index(p, cur), 0)
		end := from + len(cur)
		for _, next := range pieces[1:] {
			j := strings.Index(p[end:], next)
			if startsTodo(tidy(next), cur) || j < 0 {
				out = append(out, tidy(cur))
				cur, from = next, max(end+j, end)
			} else {
				cur = p[from : end+j+len(next)]
			}
			end = from + len(cur)
		}
		out = append(out, tidy(cur))
	}
	return out
}

// messageWhole splits a goal at its strong separators, but a message's
// text after a colon or "saying" keeps its own sentences: a piece that
// starts no todo after such a piece is more of the message ("text Bob:
// 收到。谢谢"), while one that does ("…: see you. Then turn on Bluetooth")
// is the next clause (docs/design.md §9).
func messageWhole(t string) []string {
	pieces := splitOutsideQuotes(t, planStrong)
	if len(pieces) < 2 {
		return pieces
	}
	var out []string
	cur := pieces[0]
	from := max(strings.Index(t, cur), 0)
	end := from + len(cur)
	for _, next := range pieces[1:] {
		j := strings.Index(t[end:], next)
		if j >= 0 && opensMessage(cur) && !startsTodo(tidy(next), cur) {
			cur = t[from : end+j+len(next)]
		} else {
			out = append(out, cur)
			cur = next
			if j >= 0 {
				from = end + j
			} else {
				from = max(strings.Index(t, next), 0)
			}
		}
		end = from + len(cur)
	}
	return append(out, cur)
}

// rdSayingRe introduces a message's words within a clause.
var rdSayingRe = regexp.MustCompile(`(?i)\b(?:saying|that says|to say|with the text)\b|说\s*[：:，,]?`)

// opensMessage reports whether a clause sends a message whose words
// follow a colon or "saying".
func opensMessage(c string) bool {
	c = tidy(c)
	return rdSendRe.MatchString(c) && (messageColon(c) >= 0 || rdSayingRe.MatchString(c))
}

var rdVerbRe = regexp.MustCompile(`(?i)^(?:turn|switch|enable|disable|activate|deactivate|open|launch|start|send|text|message|tell|create|set|add|make|write|read|check|what|tell|find|show|get|go|return|delete|remove|put|raise|lower|increase|decrease|dim|wake)\b|^(?:打开|关闭|关掉|开启|启用|禁用|发|给|告诉|创建|新建|设置|设|查看|看看|读取|添加|删除|回到|返回|把|调)`)

func startsTodo(next, cur string) bool {
	if rdVerbRe.MatchString(next) {
		return true
	}
	return switchName(cur) != "" && switchName(next) != "" && len([]rune(next)) <= 24
}

// switchName names the Settings switch a text is about, or "".
func switchName(t string) string {
	l := strings.ToLower(t)
	switch {
	case strings.Contains(l, "airplane") || strings.Contains(l, "aeroplane") || strings.Contains(l, "flight mode") || strings.Contains(t, "飞行模式"):
		return "Airplane mode"
	case strings.Contains(l, "wi-fi") || strings.Contains(l, "wifi") || strings.Contains(l, "wlan") || strings.Contains(l, "wireless") || strings.Contains(t, "无线"):
		return "Wi-Fi"
	case strings.Contains(l, "bluetooth") || strings.Contains(t, "蓝牙"):
		return "Bluetooth"
	}
	return ""
}

// rdAskStateRe is a question about a state: "on or off?", "is Wi-Fi
// enabled", "whether", "开着还是关着".
var rdAskStateRe = regexp.MustCompile(`(?i)\b(?:on or off|off or on|enabled or disabled|on or not)\b|^(?:is|are|does|do|has|have)\s|\bwhether\b|是否|还是关|开着吗|开了吗|关了吗|(?:开着|关着|开了没|开没开)[吗呢]?[?？]?$`)

func isReadClause(c string) bool {
	return rdReadRe.MatchString(c) || rdAskStateRe.MatchString(c) || strings.HasSuffix(c, "?") || strings.HasSuffix(c, "？")
}

// readClause reads one clause; a clause that needs a value read first
// ("Send Zhang San's number to Mom") becomes two todos.
func readClause(c string, prev planned) []planned {
	lower := strings.ToLower(c)
	if m := rdCodeTodoRe.FindStringSubmatch(c); m != nil {
		// "Enter the code in the Bank app: 482913", as a replan writes
		// it once the code wait read the code.
		return []planned{codeTodo(c, m[1])}
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
	case rdDeleteRe.MatchString(c) && (strings.Contains(lower, "note") || strings.Contains(c, "笔记") || strings.Contains(c, "备忘")):
		ps, _ := noteClauseTodos(c)
		return ps
	case isReadClause(c):
		return []planned{readValue(c)}
	case rdSendRe.MatchString(c) && !strings.Contains(lower, "note") && !strings.Contains(c, "笔记") && !strings.Contains(c, "备忘"):
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
		if ps, ok := alarmClauseTodos(c); ok {
			return ps
		}
		return []planned{alarmTodo(c)}
	case strings.Contains(lower, "note") || strings.Contains(c, "笔记") || strings.Contains(c, "备忘"):
		if ps, ok := noteClauseTodos(c); ok {
			return ps
		}
		return []planned{noteTodo(c)}
	case strings.Contains(lower, "brightness") || strings.Contains(lower, "brighter") || strings.Contains(lower, "dimmer") || strings.Contains(c, "亮度"):
		return []planned{brightnessTodo(c)}
	case switchName(c) != "":
		return []planned{switchTodo(c, prev)}
	}
	return []planned{{Todo: capitalise(c)}}
}

// openedApp is the app an "open X" clause names, when it is one the
// planner knows.
func openedApp(c string) string {
	if m := rdOpenRe.FindStringSubmatch(c); m != nil {
		return rdApps[strings.ToLower(strings.TrimSpace(m[1]))]
	}
	return ""
}

func on(b bool) *bool { return &b }

func switchTodo(c string, prev planned) planned {
	name := switchName(c)
	var state bool
	switch {
	case rdOffRe.MatchString(c):
		state = false
	case rdOnRe.MatchString(c):
		state = true
	case len(prev.Expect) == 1 && prev.Expect[0].Kind == postcond.Switch:
		state = *prev.Expect[0].On // "turn off Wi-Fi and Bluetooth"
	default:
		return planned{Ask: fmt.Sprintf("Should %s be on or off?", name)}
	}
	return planned{Todo: fmt.Sprintf("Turn %s %s", onOff(state), name),
		Expect: []postcond.Check{{Kind: postcond.Switch, Label: name, On: on(state)}}}
}

func brightnessTodo(c string) planned {
	lower := strings.ToLower(c)
	if rdByRe.MatchString(c) {
		return planned{Ask: "By how much exactly should brightness change, or to which percentage should I set it?"}
	}
	pct := -1
	if m := rdPctRe.FindStringSubmatch(c); m != nil {
		pct, _ = strconv.Atoi(m[1])
	} else if regexp.MustCompile(`(?i)\b(?:max(?:imum)?|full|highest|brightest)\b|\ball the way up\b|最大|最高|最亮`).MatchString(c) {
		pct = 100
	} else if regexp.MustCompile(`(?i)\b(?:min(?:imum)?|lowest|darkest)\b|\ball the way down\b|最小|最低|最暗`).MatchString(c) {
		pct = 0
	} else if regexp.MustCompile(`(?i)\bhalf(?:way)?\b|一半`).MatchString(c) {
		pct = 50
	}
	if pct > 100 {
		return planned{Ask: fmt.Sprintf("Brightness goes from 0%% to 100%%; which value do you want instead of %d%%?", pct)}
	}
	if pct >= 0 {
		// The value asked, exactly: a phone that cannot take it fails the
		// check rather than passing at a value nobody asked for.
		return planned{Todo: fmt.Sprintf("Set brightness to %d%%", pct),
			Expect: []postcond.Check{{Kind: postcond.FieldHolds, Field: "Brightness", Value: fmt.Sprintf("%d%%", pct)}}}
	}
	if regexp.MustCompile(`(?i)\b(?:down|lower|decrease|reduce|dim|dimmer|darker)\b|调低|降低|暗`).MatchString(lower) {
		return planned{Todo: "Turn brightness down one step"}
	}
	return planned{Todo: "Turn brightness up one step"}
}

// hhmm reads a time of day ("7am", "7:30 pm", "19:30", "早上7点半").
func hhmm(c string) string {
	if t, ok := wordTime(c); ok {
		return t
	}
	h, m := -1, 0
	if x := rdTimeRe.FindStringSubmatch(c); x != nil {
		if x[4] != "" {
			h, _ = strconv.Atoi(x[4])
			m, _ = strconv.Atoi(x[5])
		} else {
			h, _ = strconv.Atoi(x[1])
			if x[2] != "" {
				m, _ = strconv.Atoi(x[2])
			}
			if strings.EqualFold(x[3], "p") && h < 12 {
				h += 12
			}
			if strings.EqualFold(x[3], "a") && h == 12 {
				h = 0
			}
		}
	} else if x := rdZhTimeRe.FindStringSubmatch(c); x != nil {
		h, _ = strconv.Atoi(x[2])
		if x[3] == "半" {
			m = 30
		} else if x[4] != "" {
			m, _ = strconv.Atoi(x[4])
		}
		if (x[1] == "下午" || x[1] == "晚上") && h < 12 {
			h += 12
		}
	} else if x := rdBareAtRe.FindStringSubmatch(c); x != nil {
		h, _ = strconv.Atoi(x[1])
	}
	if h < 0 || h > 23 || m > 59 {
		return ""
	}
	return fmt.Sprintf("%02d:%02d", h, m)
}

func alarmTodo(c string) planned {
	t := hhmm(c)
	existing := regexp.MustCompile(`(?i)^(?:turn|switch|disable|enable|deactivate|activate)\b|^(?:关闭|关掉|打开|开启|禁用|启用)`).MatchString(c) &&
		!regexp.MustCompile(`(?i)\b(?:new|create|add|set)\b|新建|创建|添加|设置`).MatchString(c)
	if t == "" {
		return planned{Ask: "What time should the alarm ring?"}
	}
	if existing {
		state := !rdOffRe.MatchString(c)
		return planned{Todo: fmt.Sprintf("Turn %s the existing %s alarm", onOff(state), t),
			Expect: []postcond.Check{{Kind: postcond.Switch, Label: t, On: on(state)}}}
	}
	label := ""
	if m := rdLabelRe.FindStringSubmatch(c); m != nil {
		label = strings.TrimSpace(firstNonEmpty(m[1], m[2]))
	} else if m := rdNameItRe.FindStringSubmatch(c); m != nil {
		label = strings.TrimSpace(m[1])
	} else if q := rdQuotedFirst.FindStringSubmatch(c); q != nil {
		label = strings.TrimSpace(q[1])
	}
	todo := "Create an alarm at " + t
	exp := []postcond.Check{{Kind: postcond.ElementExists, Text: t}}
	if label != "" {
		todo += " labelled " + label
		exp = []postcond.Check{{Kind: postcond.RowShows, Row: t, Shows: label}}
	}
	return planned{Todo: todo, Expect: exp}
}

var (
	// rdNoteColonRe is "note T: body" and "new note "T": body".
	rdNoteColonRe = regexp.MustCompile(`(?i)^(?:(?:create|add|make|write|save)\s+)?(?:a\s+)?(?:new\s+)?note\s+["“']?([^"”':：]+?)["”']?\s*[:：]\s*(.+)$`)
	rdNoteNounRe  = regexp.MustCompile(`的(?:笔记|备忘录?)$|(?i)\s+note$`)
	rdNoteEditRe  = regexp.MustCompile(`(?i)\b(?:edit|append|rename|change|update|modify|replace|add\s+.+\s+to)\b|\bexisting\b|改名|重命名|改成|改为|修改|编辑|追加|加上|里加|添加到`)
)

func noteTodo(c string) planned {
	title, body := "", ""
	if m := rdNoteColonRe.FindStringSubmatch(c); m != nil {
		title, body = m[1], m[2]
	} else if m := rdTitleRe.FindStringSubmatch(c); m != nil {
		title, body = firstNonEmpty(m[1], m[3]), firstNonEmpty(m[2], m[4])
		if q := rdQuotedFirst.FindStringSubmatch(c); q != nil && body == "" && !strings.Contains(title, q[1]) {
			body = q[1] // "jot down "X" in a new note called T"
		}
	} else if m := rdBodyRe.FindStringSubmatch(c); m != nil {
		body = firstNonEmpty(firstNonEmpty(m[1], m[2]), firstNonEmpty(m[3], m[4]))
	}
	title, body = strings.Trim(strings.TrimSpace(title), `"“”'`), strings.Trim(strings.TrimSpace(body), `"“”'`)
	title = strings.TrimSpace(rdNoteNounRe.ReplaceAllString(title, ""))
	if rdNoteEditRe.MatchString(c) {
		// The reader writes new notes and deletes; an existing note
		// changed in place is a todo it has no check for.
		return planned{Ask: fmt.Sprintf("I can create or delete a note, but %q changes an existing one; what exactly should the note say afterwards?", c)}
	}
	if regexp.MustCompile(`(?i)^(?:delete|remove)\b|^删除`).MatchString(c) {
		if title == "" {
			title = strings.TrimSpace(regexp.MustCompile(`(?i)^(?:delete|remove)\s+(?:the\s+|my\s+)?note\s+|^删除(?:笔记|备忘录?)?`).ReplaceAllString(c, ""))
		}
		return planned{Todo: fmt.Sprintf("Delete the note %q", title), Expect: []postcond.Check{{Kind: postcond.ElementAbsent, Text: title}}}
	}
	if title == "" && body == "" {
		return planned{Ask: "What should the note say?"}
	}
	if title == "" {
		title = body
		if r := []rune(title); len(r) > 24 {
			title = string(r[:24])
		}
	}
	todo := fmt.Sprintf("Create a note titled %q", title)
	if body != "" {
		todo += fmt.Sprintf(" saying %q", body)
	}
	return planned{Todo: todo, Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.ElementExists, Text: title}}}
}

// ordinal reads "second", "2nd", "第二个"; last is -1, none 0.
func ordinal(c string) int {
	m := rdOrdinalRe.FindStringSubmatch(c)
	if m == nil {
		return 0
	}
	switch strings.ToLower(firstNonEmpty(m[1], m[2])) {
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
	case (strings.Contains(lower, "note") || strings.Contains(c, "笔记") || strings.Contains(c, "备忘")) && !strings.Contains(lower, "build"):
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
		return planned{Todo: fmt.Sprintf("Read the state of the %s switch", switchName(c)), Reads: true}
	}
	// A read the reader has no answer type for: the label check keeps a
	// made-up or app-name answer from passing.
	return answer(capitalise(c), postcond.TypeLabel, ordinal(c))
}

var (
	// rdMsgWordRe: a read about what someone wrote.
	rdMsgWordRe = regexp.MustCompile(`(?i)\b(?:messages?|texts?|texted|sms|wrote|written|messaged)\b|消息|短信|信息`)
	// rdNotMsgReadRe: reads of other things that use the same words.
	rdNotMsgReadRe = regexp.MustCompile(`(?i)\b(?:number|note|alarm)\b|电话|号码|笔记|备忘|闹钟`)
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
	rdMorePeopleRe = regexp.MustCompile(`(?i)^(?:and|&|,)\s+\S`)
	rdTellRe       = regexp.MustCompile(`(?i)^(?:tell|let)\s+(.+?)\s+(?:know\s+)?(?:that\s+)?(.+)$`)
	rdTextXYRe     = regexp.MustCompile(`(?i)^(?:text|message)\s+(\S+(?:\s+[A-Z]\w+)?)\s+(.+)$`)
	rdZhSendRe     = regexp.MustCompile(`^给(.+?)(?:发|回)(?:一条|个|条)?(?:短信|消息|信息|微信)?(?:[，,]?\s*说\s*[，,：:]?|[，,：:])?\s*(.*)$`)
	rdZhTellRe     = regexp.MustCompile(`^(?:告诉|回复)(.+?)(?:[，,]?\s*说\s*[，,：:]?|[，,：:])\s*(.+)$`)
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
	rdAppFirstRe  = regexp.MustCompile(`(?i)^(?:in|on|via|using|through|by)\s+(?:the\s+)?(?:messages|messaging|message|sms|text|texting)(?:\s+app)?\s+`)
	rdViaAppRe    = regexp.MustCompile(`(?i)\s+(?:in|on|via|using|through|by)\s+(?:the\s+)?(?:messages|messaging|message|sms|text|texting)(?:\s+app)?$`)
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
	case rdTextXYRe.MatchString(c):
		m = rdTextXYRe.FindStringSubmatch(c)
		to, text = m[1], m[2]
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
	text = strings.Trim(strings.TrimSpace(text), `"“”'`)
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
