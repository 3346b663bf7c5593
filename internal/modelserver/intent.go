package modelserver

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
)

// Intent kinds: what a todo (or one clause of a goal) asks for.
const (
	kindOpen       = "open"
	kindToggle     = "toggle"
	kindBrightness = "brightness"
	kindMessage    = "message"
	kindAlarm      = "alarm"
	kindNote       = "note"
	kindRead       = "read"
	kindBank       = "bank"
	kindTap        = "tap"
	kindGeneral    = "general"
)

// intent is a parsed todo.
type intent struct {
	Kind string
	App  string // display name of the app the todo happens in, "" if unknown

	Setting string // toggle: "Wi-Fi", "Bluetooth" or "Airplane mode"
	On      bool   // toggle: wanted state

	Step   int // brightness: +1 / -1 for one step up or down
	Target int // brightness: wanted percentage as said, -1 when not given

	To   string // message: recipient as written
	Text string // message: text to send

	Time  string // alarm: HH:MM (24 h), "" if missing
	Label string // alarm label

	Title  string // note title
	Body   string // note body (new body, or the text to add when Append)
	Edit   bool   // note: change an existing note
	Append bool   // note: add Body to the existing body

	Ord      int    // alarm or note: its place in the list (1 first, -1 last), 0 when named otherwise
	NewTitle string // note rename: the title it gets

	What    string // read: "Android version", "Build number", "Model", "first alarm", "phone", "brightness", or a setting name
	Contact string // read phone: whose number

	TapTarget string // tap: element label
}

// apps maps lower-case names (English and Chinese) to the simulator's app
// display names. Names not listed are passed through as written.
var apps = map[string]string{
	"settings": "Settings", "setting": "Settings", "设置": "Settings",
	"contacts": "Contacts", "contact": "Contacts", "联系人": "Contacts", "通讯录": "Contacts",
	"messages": "Messages", "message": "Messages", "sms": "Messages", "信息": "Messages", "短信": "Messages",
	"clock": "Clock", "alarm": "Clock", "alarms": "Clock", "时钟": "Clock", "闹钟": "Clock",
	"notes": "Notes", "note": "Notes", "笔记": "Notes", "备忘录": "Notes", "便签": "Notes",
	"bank": "Bank", "银行": "Bank",
	"launcher": "Launcher", "home": "Launcher",
}

// packages maps the simulator's app display names to the packages its
// looks install them under, the classic look's first: a Xiaomi phone's
// Messages is com.android.mms, a Samsung phone's Clock
// com.sec.android.app.clockpackage (docs/phones.md#skins). The persona
// launches by name; a package only tells which app is in front.
var packages = map[string][]string{
	"Launcher": {"com.android.launcher3", "com.google.android.apps.nexuslauncher", "com.miui.home", "com.sec.android.app.launcher"},
	"Settings": {"com.android.settings"},
	"Contacts": {"com.android.contacts", "com.google.android.contacts", "com.samsung.android.app.contacts"},
	"Messages": {"com.google.android.apps.messaging", "com.android.mms", "com.samsung.android.messaging"},
	"Clock":    {"com.google.android.deskclock", "com.android.deskclock", "com.sec.android.app.clockpackage"},
	"Notes":    {"com.example.notes", "com.google.android.keep", "com.miui.notes", "com.samsung.android.app.notes"},
	"Bank":     {"com.example.bank"},
}

// packageOf is the package an app has on the classic look, or "" for a
// name the simulator has no app for: what an observation that names the
// app but not its package is given.
func packageOf(app string) string {
	if p := packages[app]; len(p) > 0 {
		return p[0]
	}
	return ""
}

// contacts are the names the persona recognises as recipients when a
// sentence does not delimit the name itself ("Tell Zhang San the meeting
// moved"). English first names match the simulator's full names.
var contacts = []string{"Alice Chen", "Bob Li", "Zhang San", "张三", "李四", "Mom", "Alice", "Bob"}

var (
	timeRe      = regexp.MustCompile(`(?i)\b(\d{1,2})(?:[:.：](\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?(?:\b|$)`)
	percentRe   = regexp.MustCompile(`(\d{1,3})\s*%`)
	labelRe     = regexp.MustCompile(`(?i)\b(?:labell?ed|called|named|with (?:the )?label|label)\s+(.+)$`)
	readVerbRe  = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:read|check|look up|find out|find|get|what is|what's|what was|tell me|show me)\b|查看|读取|看看|告诉我)`)
	sendVerbRe  = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:send|text|message|tell|reply|write to)\b|给|告诉|发)`)
	openVerbRe  = regexp.MustCompile(`(?i)^(?:please\s+)?(?:open|launch|start|go to|switch to|打开|启动|进入)\s*(?:the\s+)?(.+?)(?:\s+app)?$`)
	tapVerbRe   = regexp.MustCompile(`(?i)^(?:please\s+)?(?:tap|click|press|点击)\s+(?:on\s+)?(?:the\s+)?(.+?)(?:\s+button)?$`)
	toggleOffRe = regexp.MustCompile(`(?i)\b(?:off|disable|deactivate)\b|关`)
	maxRe       = regexp.MustCompile(`(?i)\b(?:max(?:imum)?|highest|full|brightest)\b|最大|最高|最亮`)
	minRe       = regexp.MustCompile(`(?i)\b(?:min(?:imum)?|lowest|darkest)\b|最小|最低|最暗`)
	halfRe      = regexp.MustCompile(`(?i)\b(?:half(?:way)?)\b|一半`)
	homeRe      = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:go|return|get|head|navigate)\s+(?:back\s+)?(?:to\s+)?(?:the\s+)?home(?:\s*screen|\s+page)?|press\s+home)$|^(?:回到|返回|回)(?:主屏幕|桌面|主页|首页)$`)
	stepDownRe  = regexp.MustCompile(`(?i)\b(?:down|decrease|lower|reduce|dim|darker)\b|调低|降低`)
)

// settingOf names the switch a text is about, or "".
func settingOf(lower string) string {
	switch {
	case strings.Contains(lower, "airplane") || strings.Contains(lower, "flight mode") || strings.Contains(lower, "飞行模式"):
		return "Airplane mode"
	case strings.Contains(lower, "wi-fi") || strings.Contains(lower, "wifi") || strings.Contains(lower, "wlan") || strings.Contains(lower, "无线"):
		return "Wi-Fi"
	case strings.Contains(lower, "bluetooth") || strings.Contains(lower, "蓝牙"):
		return "Bluetooth"
	}
	return ""
}

// appIn returns the simulator app a text names ("in Clock", "Open Notes"),
// or "". Bare nouns such as "message" or "alarm" do not count.
func appIn(text string) string {
	lower := strings.ToLower(text)
	for _, name := range []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"} {
		l := strings.ToLower(name)
		for _, pre := range []string{"in ", "open ", "launch ", "from ", "using ", "the "} {
			if strings.Contains(lower, pre+l) {
				return name
			}
		}
	}
	for _, zh := range []string{"设置", "联系人", "通讯录", "短信", "信息", "时钟", "备忘录", "笔记", "便签", "银行"} {
		if strings.Contains(text, zh) {
			return apps[zh]
		}
	}
	return ""
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func words(lower string) []string {
	return strings.FieldsFunc(lower, func(r rune) bool {
		return !(r == '-' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 0x80)
	})
}

// parseIntent reads a todo. It never fails: what it cannot place is a
// general intent.
func parseIntent(task string) intent {
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(task), ".。!！"))
	lower := strings.ToLower(t)
	in := intent{Kind: kindGeneral, Target: -1, App: appIn(t)}
	switch {
	case homeRe.MatchString(t):
		in.Kind, in.App = kindOpen, "Launcher"
	case strings.Contains(lower, "bank") || strings.Contains(t, "银行"):
		in.Kind, in.App = kindBank, "Bank"
	case readVerbRe.MatchString(t):
		parseRead(t, lower, &in)
	case sendVerbRe.MatchString(t) && !strings.Contains(lower, "note"):
		in.Kind, in.App = kindMessage, "Messages"
		// The message's words keep the marks they end with ("谢谢！").
		in.To, in.Text = parseMessage(strings.TrimSpace(task))
	case strings.Contains(lower, "alarm") || strings.Contains(lower, "wake me") || strings.Contains(t, "闹钟"):
		parseAlarmTodo(t, &in)
	case strings.Contains(lower, "note") || strings.Contains(t, "笔记") || strings.Contains(t, "备忘") || strings.Contains(t, "便签"):
		in.Kind, in.App = kindNote, "Notes"
		if !parseNoteTodo(t, &in) {
			parseNote(t, &in)
		}
	case strings.Contains(lower, "brightness") || strings.Contains(t, "亮度"):
		in.Kind, in.App = kindBrightness, "Settings"
		if m := percentRe.FindStringSubmatch(t); m != nil {
			in.Target, _ = strconv.Atoi(m[1])
			in.Target = min(max(in.Target, 0), 100)
		} else if maxRe.MatchString(t) {
			in.Target = 100
		} else if minRe.MatchString(t) {
			in.Target = 0
		} else if halfRe.MatchString(t) {
			in.Target = 50
		} else if stepDownRe.MatchString(t) {
			in.Step = -1
		} else {
			in.Step = 1
		}
	case settingOf(lower) != "" && !(openVerbRe.MatchString(t) && strings.Contains(lower, "settings")):
		in.Kind, in.App, in.Setting = kindToggle, "Settings", settingOf(lower)
		in.On = !toggleOffRe.MatchString(t)
	case openVerbRe.MatchString(t):
		in.Kind = kindOpen
		name := openVerbRe.FindStringSubmatch(t)[1]
		if a, ok := apps[strings.ToLower(name)]; ok {
			name = a
		} else if a := appIn(name); a != "" {
			name = a
		}
		in.App = name
	case tapVerbRe.MatchString(t):
		in.Kind = kindTap
		in.TapTarget = unquote(tapVerbRe.FindStringSubmatch(t)[1])
	}
	return in
}

func parseRead(t, lower string, in *intent) {
	in.Kind = kindRead
	switch {
	case strings.Contains(lower, "build") || strings.Contains(t, "版本号"):
		in.What, in.App = "Build number", "Settings"
	case strings.Contains(lower, "android version") || strings.Contains(lower, "version") || strings.Contains(t, "版本"):
		in.What, in.App = "Android version", "Settings"
	case strings.Contains(lower, "model") || strings.Contains(t, "型号"):
		in.What, in.App = "Model", "Settings"
	case strings.Contains(lower, "alarm") || strings.Contains(t, "闹钟"):
		parseAlarmRead(t, in)
	case strings.Contains(lower, "note") || strings.Contains(t, "笔记") || strings.Contains(t, "便签"):
		parseNoteRead(t, in)
	case strings.Contains(lower, "phone number") || strings.Contains(lower, "number") || strings.Contains(t, "电话"):
		in.What, in.App = "phone", "Contacts"
		in.Contact = findContact(t)
		if in.Contact == "" {
			if m := ofWhomRe.FindStringSubmatch(t); m != nil {
				in.Contact = strings.TrimSpace(m[1])
			} else if m := possessiveRe.FindStringSubmatch(t); m != nil {
				in.Contact = strings.TrimSpace(m[1])
			}
		}
	case msgReadRe.MatchString(t) && messageSender(t) != "":
		in.What, in.App, in.Contact = "latest message", "Messages", messageSender(t)
	case strings.Contains(lower, "brightness") || strings.Contains(t, "亮度"):
		in.What, in.App = "brightness", "Settings"
	case settingOf(lower) != "":
		in.What, in.App = settingOf(lower), "Settings"
	default:
		in.What = strings.TrimSpace(readVerbRe.ReplaceAllString(t, ""))
		in.What = strings.TrimPrefix(strings.TrimPrefix(in.What, "the "), "The ")
	}
}

// msgReadRe tells a read of what someone wrote: "Bob's latest text", "the
// last message from Alice", "what Mom last texted me", "李四发给我的最后一条消息".
var msgReadRe = regexp.MustCompile(`(?i)\b(?:messages?|texts?|texted|sms|wrote|written|write|writes)\b|消息|短信|信息`)

var (
	msgFromRe   = regexp.MustCompile(`(?i)\bfrom\s+(.+?)(?:\s+(?:in|on|and|then)\b|[?.!,]|$)`)
	msgWhoDidRe = regexp.MustCompile(`(?i)\bwhat\s+(.+?)\s+(?:last\s+|most recently\s+)?(?:texted|wrote|sent|messaged)\b`)
	msgOfRe     = regexp.MustCompile(`(?i)(?:^|\s)(?:read|check|get|find|what is|what's|what was|tell me|show me|see)?\s*([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)'s\s+(?:last|latest|newest|most recent|recent)\b`)
)

// messageSender is whose message a read is about: a known contact named
// in the text, else the name after "from", before "'s last", or in "what X
// texted"; "" when none is named.
func messageSender(t string) string {
	if c := findContact(t); c != "" {
		return c
	}
	for _, re := range []*regexp.Regexp{msgOfRe, msgFromRe, msgWhoDidRe} {
		if m := re.FindStringSubmatch(t); m != nil {
			if who := strings.TrimSpace(m[1]); who != "" && !strings.EqualFold(who, "me") {
				return who
			}
		}
	}
	return ""
}

// findContact returns the known contact named in text (longest match), or "".
func findContact(text string) string {
	lower := strings.ToLower(text)
	best := ""
	for _, c := range contacts {
		if strings.Contains(lower, strings.ToLower(c)) && len(c) > len(best) {
			best = c
		}
	}
	return best
}

func unquote(s string) string {
	s = strings.TrimSpace(s)
	if q, ok := findQuoted(s); ok && q.start == 0 && q.end == len(s) {
		return s[q.innerStart:q.innerEnd]
	}
	return s
}

// quoted is one quoted span of a text: s[start:end] with the quotes,
// s[innerStart:innerEnd] without.
type quoted struct{ start, end, innerStart, innerEnd int }

// quotePairs are the quote marks the persona reads: straight and curly
// double quotes, corner brackets, guillemets, and single quotes that open after a
// space (so "don't" and "I'll" are apostrophes, not quotes).
var quotePairs = [][2]string{{`"`, `"`}, {"“", "”"}, {"「", "」"}, {"『", "』"}, {"«", "»"}, {"‘", "’"}, {"'", "'"}}

// findQuoted returns the first quoted span of s.
func findQuoted(s string) (quoted, bool) {
	for i := 0; i < len(s); i++ {
		for _, p := range quotePairs {
			if !strings.HasPrefix(s[i:], p[0]) {
				continue
			}
			if p[0] == "'" && !singleQuoteOpens(s, i) {
				continue
			}
			in := i + len(p[0])
			for j := in; j < len(s); j++ {
				if !strings.HasPrefix(s[j:], p[1]) || p[1] == "'" && !singleQuoteCloses(s, j) {
					continue
				}
				return quoted{start: i, end: j + len(p[1]), innerStart: in, innerEnd: j}, true
			}
		}
	}
	return quoted{}, false
}

// singleQuoteOpens: a ' opens a quote at the start or after a space or
// colon, and not right before a space.
func singleQuoteOpens(s string, i int) bool {
	if i+1 >= len(s) || s[i+1] == ' ' {
		return false
	}
	return i == 0 || strings.ContainsRune(" :(\t", rune(s[i-1]))
}

// singleQuoteCloses: a ' closes a quote at the end or before a space or
// punctuation, and not right after a space.
func singleQuoteCloses(s string, j int) bool {
	if s[j-1] == ' ' {
		return false
	}
	return j+1 == len(s) || strings.ContainsRune(" ,.;:!?)", rune(s[j+1]))
}

var (
	// Markers that introduce the text of a message, in order of preference.
	textMarkers    = []string{" saying ", " that says ", " which says ", " says ", ": ", "：", " with the text ", " with ", " that ", "说"}
	sendVerbPrefix = regexp.MustCompile(`(?i)^(?:please\s+)?(?:send|text|message|tell|reply|write to|告诉)\s*`)
	msgNouns       = regexp.MustCompile(`(?i)^(?:an?\s+)?(?:message|text|sms|msg|note)\b`)
)

// markerAt finds the first text marker of t ("saying", "说", …).
// The first marker in the text wins, so words after a colon that say
// "saying" or "with" are the message's own ("Send Bob a message: I keep
// saying no"); at one place the preferred marker wins.
func markerAt(t string) (int, string, bool) {
	lower := strings.ToLower(t)
	at, which := -1, ""
	for _, mk := range textMarkers {
		if i := strings.Index(lower, mk); i >= 0 && (at < 0 || i < at) {
			at, which = i, mk
		}
	}
	return max(at, 0), which, at >= 0
}

// opensQuote reports whether s starts with a quote mark.
func opensQuote(s string) bool {
	q, ok := findQuoted(s)
	return ok && q.start == 0
}

// startsComma reports whether s goes on with a comma or an enumeration mark.
func startsComma(s string) bool {
	return strings.HasPrefix(s, ",") || strings.HasPrefix(s, "，") || strings.HasPrefix(s, "、")
}

// parseMessage extracts recipient and text from a message todo. Either may
// come back empty when the todo does not say.
func parseMessage(t string) (to, text string) {
	// Quoted text wins wherever it is, unless the quote only opens the
	// text after a marker and the text goes on after a comma
	// ("saying “你好”，我到了").
	// Words after a marker that do not open with a quote are the message
	// whole, quotes inside and all (": The code is 'blue-7', ok?").
	rest := t
	if i, mk, ok := markerAt(t); ok {
		after := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(t[i+len(mk):]), ":："))
		if q, ok := findQuoted(after); ok && q.start == 0 && startsComma(after[q.end:]) || after != "" && !opensQuote(after) {
			text, rest = after, t[:i]
		}
	}
	if text == "" {
		if q, ok := findQuoted(t); ok {
			text = t[q.innerStart:q.innerEnd]
			rest = t[:q.start] + t[q.end:]
		} else if i, mk, ok := markerAt(t); ok {
			text = strings.TrimSpace(t[i+len(mk):])
			rest = t[:i]
		}
	}
	rest = strings.TrimSpace(rest)
	// Recipient: a known name right after the verb, "to X", "给X发",
	// "Send X a message", or the first word after "Tell"/"Text".
	verb := sendVerbPrefix.FindString(rest)
	after := strings.TrimSpace(rest[len(verb):])
	if c := findContact(after); c != "" && strings.HasPrefix(strings.ToLower(after), strings.ToLower(c)) {
		// "Tell Zhang San the meeting moved": the name is known.
		if text == "" {
			text = strings.TrimSpace(msgNouns.ReplaceAllString(strings.TrimSpace(after[len(c):]), ""))
		}
		to = c
	} else if m := toWhomRe.FindStringSubmatch(rest); m != nil && len(strings.Fields(m[1])) <= 3 {
		to = m[1]
	} else if m := zhToWhomRe.FindStringSubmatch(rest); m != nil {
		to = m[1]
	} else {
		if msgNouns.MatchString(after) {
			after = "" // "Send a message" with no name before the noun
		} else if i := msgNounAfterRe.FindStringIndex(after); i != nil {
			after = after[:i[0]] // "Send Alice a message"
		} else if text == "" && strings.Contains(after, " ") {
			// "Tell Bob hello": first word is the name.
			f := strings.Fields(after)
			after, text = f[0], strings.Join(f[1:], " ")
		}
		to = after
	}
	to = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(to), ",:："))
	if strings.EqualFold(to, "it") || strings.EqualFold(to, "them") {
		to = ""
	}
	text = strings.TrimSpace(text)
	return to, text
}

// parseAlarm extracts an alarm's time (normalised to 24 h HH:MM) and label.
func parseAlarm(t string) (hhmm, label string) {
	body := t
	if m := labelRe.FindStringSubmatchIndex(t); m != nil {
		label = unquote(strings.TrimSpace(t[m[2]:m[3]]))
		body = t[:m[0]]
	}
	for _, m := range timeRe.FindAllStringSubmatch(body, -1) {
		h, _ := strconv.Atoi(m[1])
		mm := 0
		if m[2] != "" {
			mm, _ = strconv.Atoi(m[2])
		}
		ampm := strings.ToLower(strings.ReplaceAll(m[3], ".", ""))
		if m[2] == "" && ampm == "" {
			// A bare number is a time only after "at" / "for".
			idx := strings.Index(body, m[0])
			before := strings.ToLower(strings.TrimSpace(body[:max(idx, 0)]))
			if !strings.HasSuffix(before, "at") && !strings.HasSuffix(before, "for") {
				continue
			}
		}
		h = clocktime.Hour24(h, ampm)
		if h > 23 || mm > 59 {
			continue
		}
		hhmm = pad2(h) + ":" + pad2(mm)
		break
	}
	return hhmm, label
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// parseNote fills the note fields: title, body, and whether an existing
// note is edited.
func parseNote(t string, in *intent) {
	in.Edit = noteEditRe.MatchString(t) &&
		!noteNewRe.MatchString(t)
	if m := noteAppendRe.FindStringSubmatch(t); m != nil {
		in.Edit, in.Append = true, true
		in.Body, in.Title = unquote(m[1]), unquote(m[2])
		return
	}
	if m := noteTitleRe.FindStringSubmatch(t); m != nil {
		in.Title, in.Body = unquote(m[1]), unquote(m[2])
	} else if m := noteToSayRe.FindStringSubmatch(t); in.Edit && m != nil {
		in.Title, in.Body = unquote(m[1]), unquote(m[2])
	} else if i := strings.IndexAny(t, ":："); i >= 0 {
		in.Body = unquote(strings.TrimSpace(t[i+1:]))
		if r := strings.IndexRune(t[i:], '：'); r == 0 {
			in.Body = unquote(strings.TrimSpace(t[i+len("："):]))
		}
	} else if m := noteBodyRe.FindStringSubmatch(t); m != nil {
		in.Body = unquote(m[1])
	}
	if in.Title == "" && in.Body != "" && !in.Edit {
		in.Title = in.Body
		if len([]rune(in.Title)) > 24 {
			in.Title = string([]rune(in.Title)[:24])
		}
	}
}

// Patterns used by the functions above.
var (
	ofWhomRe       = regexp.MustCompile(`(?i)(?:of|for)\s+(.+?)$`)
	possessiveRe   = regexp.MustCompile(`(?i)(?:read|check|get|find|what is|what's|tell me)\s+(.+?)'s`)
	toWhomRe       = regexp.MustCompile(`(?i)\bto\s+(\D.*?)(?:\s+(?:in|on|via|using)\s+\S+)?$`)
	zhToWhomRe     = regexp.MustCompile(`^给(.+?)发`)
	msgNounAfterRe = regexp.MustCompile(`(?i)\s+(?:an?\s+)?(?:message|text|sms|msg)\b`)
	noteEditRe     = regexp.MustCompile(`(?i)^(?:please\s+)?(?:edit|update|change|modify|append|add|修改|编辑)`)
	noteNewRe      = regexp.MustCompile(`(?i)^(?:add|create|make|write)\s+(?:a\s+)?new\b`)
	noteAppendRe   = regexp.MustCompile(`(?i)^(?:please\s+)?(?:add|append)\s+(.+?)\s+to\s+(?:the\s+)?note\s+(.+)$`)
	noteTitleRe    = regexp.MustCompile(`(?i)\b(?:titled|called|named|title)\s+(.+?)(?:\s+(?:with|saying|that says|to say|to read|body|containing)\b\s*(?:the\s+)?(?:body|text)?\s*:?\s*|[:：]\s*|$)(.*)$`)
	noteToSayRe    = regexp.MustCompile(`(?i)\bnote\s+(.+?)\s+(?:to say|to read|to|so it says)\s+(.+)$`)
	noteBodyRe     = regexp.MustCompile(`(?i)\b(?:saying|that says|with|about)\s+(.+)$`)
)
