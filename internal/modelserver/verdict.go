package modelserver

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/clocktime"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// The verifier persona's own reading of a todo (docs/design.md §9). It
// shares nothing with the executor persona's parse (intent.go) or the
// planner's reader (reader.go): from the task's words it takes only what a
// final screen can show — the app in front, a switch on or off, a
// percentage, a clock time, a text that was sent, a quoted name — and a
// done stands only when an element of the final screen shows every one of
// them, quoted in the evidence. A task it cannot read into anything a
// screen shows is failed: the verifier does not take the executor's word.

// claim is what a task says the final screen shows.
type claim struct {
	home   bool
	app    string // an app of this phone the task names
	only   bool   // the task opens the app and asks nothing else
	absent string // an app the task names that this phone lacks
	on     *bool  // something is switched on or off
	subj   string // the words of the task that name what is switched
	pct    string // "50%"; "100%" for a maximum, "0%" for a minimum
	time   string // "07:30"
	sent   string // text the task sends or writes
	names  []string
	read   bool   // the task asks for a value
	tap    string // the element a task taps ("Tap the Sign in button" → "Sign in")
}

var (
	vdReadRe     = regexp.MustCompile(`(?i)^(?:read|check|what|what's|which|when|who|whose|how|tell me|find out|look up|get|show me)\b|[?？]$|^(?:查看|看看|查一下|告诉我|读取|读一下|查询)|(?:是多少|是什么|几点|多少|吗)[?？]?$`)
	vdSignInRe   = regexp.MustCompile(`(?i)^(?:please\s+)?(?:sign|log)\s*(?:in|on)(?:to)?\b|^登录`)
	vdSignedInRe = regexp.MustCompile(`(?i)\b(?:signed|logged)\s+in\b|已登录`)
	vdHomeRe     = regexp.MustCompile(`(?i)\bhome\s*screen\b|\b(?:go|return|get)\s+(?:back\s+)?home\b|主屏幕|桌面`)
	vdOpenRe     = regexp.MustCompile(`(?i)^(?:open|launch|start|bring up|go to|switch to|打开|启动|进入)\s*(?:the\s+|my\s+)?(\S+(?:\s\S+)?)(?:\s+app)?\s*$`)
	vdAppRe      = regexp.MustCompile(`(?i)\b(?:in|on|with|using|open|launch)\s+(?:the\s+|my\s+)?([\w-]+)\s+app\b|\b([\w-]+)\s+app\b`)
	vdOnRe       = regexp.MustCompile(`(?i)\b(?:turn|switch|set|toggle|put)\s+(?:\S+\s+){0,4}?on\b|\b(?:enable|activate)\b|\bon\s*$|打开|开启|启用`)
	vdOffRe      = regexp.MustCompile(`(?i)\b(?:turn|switch|set|toggle|put)\s+(?:\S+\s+){0,4}?off\b|\b(?:disable|deactivate)\b|\boff\s*$|关闭|关掉|禁用`)
	vdPctRe      = regexp.MustCompile(`(\d{1,3})\s*(?:%|％|percent)`)
	vdMaxRe      = regexp.MustCompile(`(?i)\b(?:max|maximum|highest|full)\b|最大|最高`)
	vdMinRe      = regexp.MustCompile(`(?i)\b(?:min|minimum|lowest)\b|最小|最低`)
	vdTimeRe     = regexp.MustCompile(`(?i)\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m\.?\b|\b(\d{1,2}):(\d{2})\b`)
	vdSendRe     = regexp.MustCompile(`(?i)^(?:send|text|message|sms|reply|write|tell|let)\b|发短信|发消息|发送|告诉`)
	vdSayRe      = regexp.MustCompile(`(?i)\b(?:saying|that says|with the text|the text|reading)\s*:?\s*(.+)$|[:：]\s*(.+)$|说\s*[:：]?\s*(.+)$`)
	vdStateOnRe  = regexp.MustCompile(`(?i)\b(?:on|enabled)\b|已开启|打开`)
	vdStateOffRe = regexp.MustCompile(`(?i)\b(?:off|disabled)\b|已关闭|关闭`)
	vdQuoteRe    = regexp.MustCompile(`"([^"]+)"|“([^”]+)”|「([^」]+)」`)
	vdTapRe      = regexp.MustCompile(`(?i)^(?:tap|press|click|hit|touch)\s+(?:on\s+)?(?:the\s+)?["“]?(.+?)["”]?(?:\s+(?:button|link|tab|icon|option))?(?:\s+(?:in|on)\s+(?:the\s+)?(?:[\w-]+\s+app|bank|settings|contacts|messages|clock|notes))?\s*$|^点击\s*[“"]?(.+?)[”"]?\s*(?:按钮)?$`)
	vdNameRe     = regexp.MustCompile(`(?i)\b(?:titled|called|named|labell?ed)\s+([^,;]+?)\s*(?:$|,|;|\b(?:saying|with|that|at)\b)`)
)

// vdApps are the apps of this phone in the words a task uses for them.
var vdApps = map[string]string{"settings": "Settings", "设置": "Settings", "contacts": "Contacts", "联系人": "Contacts",
	"messages": "Messages", "messaging": "Messages", "sms": "Messages", "短信": "Messages", "clock": "Clock", "alarm": "Clock",
	"alarms": "Clock", "时钟": "Clock", "闹钟": "Clock", "notes": "Notes", "note": "Notes", "笔记": "Notes", "备忘录": "Notes", "便签": "Notes",
	"bank": "Bank", "银行": "Bank", "launcher": "Launcher", "home": "Launcher"}

// vdSwitchWords are other words for a switch's label.
var vdSwitchWords = map[string][]string{"wi-fi": {"wifi", "wi-fi", "wlan", "wireless", "无线", "网络"},
	"bluetooth": {"bluetooth", "蓝牙"}, "airplane mode": {"airplane", "flight", "aeroplane", "飞行"},
	// The names vendor skins give the same switches: MIUI's WLAN, 蓝牙 and
	// 飞行模式, One UI's Flight mode.
	"wlan": {"wifi", "wi-fi", "wlan", "wireless", "无线"}, "蓝牙": {"bluetooth", "蓝牙"},
	"飞行模式": {"airplane", "flight", "aeroplane", "飞行"}, "flight mode": {"airplane", "flight", "aeroplane", "飞行"}}

// vdNotRe is a part of a task that says what not to do ("don't turn off
// Wi-Fi", "without turning off Wi-Fi", "不要关闭无线网络"): it claims
// nothing the final screen shows, and its verb is not the task's.
var vdNotRe = regexp.MustCompile(`(?i)(?:\b(?:don'?t|do\s+not|never|without)\b|不要|别|不用|无需|不必|勿)[^,;，；。]*`)

// vdContentRe starts the text a task sends or writes, whose words are
// content, not instructions.
var vdContentRe = regexp.MustCompile(`(?i)["“「:：]|\bsaying\b|说`)

// withoutNot drops from a task the parts that say what not to do, outside
// the content it sends.
func withoutNot(t string) string {
	cut := len(t)
	if loc := vdContentRe.FindStringIndex(t); loc != nil {
		cut = loc[0]
	}
	return strings.TrimSpace(vdNotRe.ReplaceAllString(t[:cut], "") + t[cut:])
}

// readClaim reads a task into what its final screen shows.
func readClaim(task string) claim {
	t := withoutNot(strings.TrimSpace(task))
	lower := strings.ToLower(t)
	var c claim
	c.read = vdReadRe.MatchString(t)
	c.home = vdHomeRe.MatchString(t)
	if m := vdOpenRe.FindStringSubmatch(t); m != nil && !c.home {
		name := strings.ToLower(strings.TrimSpace(m[1]))
		if a, ok := vdApps[name]; ok {
			c.app, c.only = a, true
		} else {
			c.absent, c.only = strings.TrimSpace(m[1]), true
		}
	}
	for _, m := range vdAppRe.FindAllStringSubmatch(t, -1) {
		name := strings.ToLower(firstNonEmpty(m[1], m[2]))
		if a, ok := vdApps[name]; ok {
			c.app = a
		} else if c.absent == "" {
			c.absent = firstNonEmpty(m[1], m[2])
		}
	}
	if !c.read {
		on, off := vdOnRe.MatchString(t), vdOffRe.MatchString(t)
		if on != off {
			c.on = &on
			c.subj = lower
		}
	}
	if m := vdPctRe.FindStringSubmatch(t); m != nil {
		c.pct = m[1] + "%"
	} else if !c.read && strings.Contains(lower, "bright") || strings.Contains(t, "亮度") {
		if vdMaxRe.MatchString(t) {
			c.pct = "100%"
		} else if vdMinRe.MatchString(t) {
			c.pct = "0%"
		}
	}
	if m := vdTimeRe.FindStringSubmatch(t); m != nil {
		c.time = clock24(m)
	}
	if q := vdQuoteRe.FindStringSubmatch(t); q != nil {
		c.names = append(c.names, strings.TrimSpace(firstNonEmpty(q[1], firstNonEmpty(q[2], q[3]))))
	}
	if vdSendRe.MatchString(t) {
		if len(c.names) > 0 {
			c.sent, c.names = c.names[0], nil
		} else if m := vdSayRe.FindStringSubmatch(t); m != nil {
			c.sent = strings.Trim(strings.TrimSpace(firstNonEmpty(m[1], firstNonEmpty(m[2], m[3]))), `"'“”.。`)
		}
	}
	if m := vdTapRe.FindStringSubmatch(t); m != nil && !c.read && c.on == nil {
		c.tap = strings.TrimSpace(firstNonEmpty(m[1], m[2]))
		c.names = slices.DeleteFunc(c.names, func(n string) bool { return strings.EqualFold(n, c.tap) })
	}
	if m := vdNameRe.FindStringSubmatch(t); m != nil && len(c.names) == 0 {
		c.names = append(c.names, strings.Trim(strings.TrimSpace(m[1]), `"'“”`))
	}
	return c
}

// clock24 writes a time match of vdTimeRe as "HH:MM".
func clock24(m []string) string {
	if m[4] != "" {
		h, _ := strconv.Atoi(m[4])
		return fmt.Sprintf("%02d:%s", h, m[5])
	}
	h, _ := strconv.Atoi(m[1])
	mm := firstNonEmpty(m[2], "00")
	return fmt.Sprintf("%02d:%s", clocktime.Hour24(h, m[3]), mm)
}

// screenTimes are the clock times an element shows, as "HH:MM".
func screenTimes(s string) []string {
	var out []string
	for _, m := range vdTimeRe.FindAllStringSubmatch(s, -1) {
		out = append(out, clock24(m))
	}
	return out
}

// judgeClaim judges one task on the final screen by the verifier's own
// reading. Every done names the elements it stands on.
func judgeClaim(obs observation, task, msg string) verify.Verdict {
	task, told := splitAnswered(task)
	task = lookClaim(task)
	c := readClaim(task)
	if text, to := toldMessage(told); vdSendRe.MatchString(withoutNot(task)) {
		// What the executor was told the message says and whom it goes
		// to stands for the words the task left out.
		if c.sent == "" {
			c.sent = text
		}
		if to != "" {
			task += " " + to
		}
	}
	front := firstNonEmpty(obs.App, "an unknown app")
	if c.absent != "" && c.app == "" {
		return failed("there is no %s app on this phone: no app on this phone (%s) does %q", c.absent, strings.Join(simApps, ", "), task)
	}
	var shown []string // the elements the verdict stands on
	find := func(ok func(uitree.Listed) bool) *uitree.Listed {
		for i := range obs.Elems {
			if ok(obs.Elems[i]) {
				return &obs.Elems[i]
			}
		}
		return nil
	}
	if c.home || c.app == "Launcher" {
		if !strings.EqualFold(obs.App, "Launcher") {
			return failed("the home screen is not in front; %s is", front)
		}
		if l := find(func(l uitree.Listed) bool { return len([]rune(l.Text)) >= 3 }); l != nil {
			return done("Launcher is in front, showing %q", l.Text)
		}
		return failed("the home screen shows nothing to quote")
	}
	if c.app != "" && !strings.EqualFold(obs.App, c.app) {
		return failed("%s is not in front; %s is", c.app, front)
	}
	if c.read {
		return judgeAnswer(obs, task, msg, front)
	}
	if c.app != "" && c.only {
		if l := find(func(l uitree.Listed) bool { return len([]rune(l.Text)) >= 3 }); l != nil {
			return done("%s is in front, showing %q", c.app, l.Text)
		}
		return failed("%s is in front but shows nothing to quote", c.app)
	}
	if c.on != nil {
		// A tile whose text is only its state (a Chinese tile's 关闭) is
		// named by its description ("蓝牙。"), never by that word.
		tileName := func(l uitree.Listed) string {
			if stateWord(l.Text) {
				return strings.TrimRight(strings.TrimSpace(l.Desc), ".。")
			}
			return l.Text
		}
		sw := find(func(l uitree.Listed) bool { return l.Checkable && namesSwitch(c.subj, tileName(l)) })
		label := ""
		if sw != nil {
			label = tileName(*sw)
		} else {
			// A Settings switch has no text: its title beside it, or
			// its main switch bar's text, labels it.
			for _, t := range titledSwitches(obs.Elems) {
				if namesSwitch(c.subj, t.label) {
					sw, label = t.sw, t.label
					break
				}
			}
		}
		if sw == nil {
			// An alarm's switch is named by its row: the time and label
			// beside it (a Pixel's DeskClock row has no words of its own).
			if r := askedSwitch(describeAlarmSwitches(obs.Elems), c.subj); r != nil {
				sw, label = r, r.Desc
			}
		}
		if sw == nil {
			return failed("no switch the task names is on the final screen (%s)", front)
		}
		if sw.Checked != *c.on {
			return failed("the %s switch is %s, not %s", label, onOff(sw.Checked), onOff(*c.on))
		}
		shown = append(shown, fmt.Sprintf("the %q switch is %s", label, onOff(sw.Checked)))
	}
	if c.pct != "" {
		l := find(func(l uitree.Listed) bool { return hasPct(l.Text, c.pct) })
		if l == nil {
			return failed("the final screen (%s) shows %s, not %s", front, pctShown(obs), c.pct)
		}
		shown = append(shown, fmt.Sprintf("%q", l.Text))
	}
	if c.sent != "" {
		l := find(func(l uitree.Listed) bool {
			return (postcond.Outgoing(uitree.Element{Text: l.Text, Desc: l.Desc, ResourceID: l.ID}) || rightBubble(obs.Elems, l)) && strings.EqualFold(strings.TrimSpace(l.Text), c.sent)
		})
		if l == nil {
			return failed("no sent message %q on the final screen (%s)", c.sent, front)
		}
		to := find(func(l uitree.Listed) bool {
			// The title names whom: a text described by nothing else
			// (Samsung's composer_title is described by its own text).
			return (l.Desc == "" || l.Desc == l.Text) && !l.Clickable && !strings.EqualFold(strings.TrimSpace(l.Text), c.sent) && namesPerson(task, l.Text)
		})
		if to == nil {
			return failed("the conversation on the final screen is not with anyone the task names (the sent message %q is there)", l.Text)
		}
		shown = append(shown, fmt.Sprintf("the conversation with %q shows the sent message %q", to.Text, l.Text))
	}
	if c.time != "" {
		l := find(func(l uitree.Listed) bool {
			if markedApart(obs.Elems, l) {
				return false // "9:30" then "下午" is not 09:30; its row's switch says the time
			}
			for _, s := range screenTimes(l.Text) {
				if s == c.time {
					return l.Class != "EditText"
				}
			}
			return false
		})
		if l == nil {
			// A MIUI or One UI row writes the time apart from its mark
			// ("9:30", "下午"): its switch, described by its row, says it.
			for _, d := range describeAlarmSwitches(obs.Elems) {
				if d.Checkable && slices.Contains(screenTimes(d.Desc), c.time) {
					l = &d
					break
				}
			}
		}
		if l == nil {
			return failed("no element on the final screen (%s) shows %s", front, c.time)
		}
		shown = append(shown, fmt.Sprintf("%q", l.Text))
	}
	for _, n := range c.names {
		l := find(func(l uitree.Listed) bool {
			return l.Class != "EditText" && strings.Contains(strings.ToLower(l.Text), strings.ToLower(n))
		})
		if l == nil {
			return failed("nothing on the final screen (%s) shows %q", front, n)
		}
		shown = append(shown, fmt.Sprintf("%q", l.Text))
	}
	if len(shown) == 0 && c.tap != "" {
		// A tap's effect is the screen it leads to, which the task does not
		// name: the tap is shown taken when nothing tappable with its label
		// is left on the final screen (a page titled like the button it
		// came from is the tap's effect, not the button), and the screen
		// still shows something else to quote.
		same := func(l uitree.Listed) bool { return strings.EqualFold(strings.TrimSpace(l.Text), c.tap) }
		if l := find(func(l uitree.Listed) bool { return same(l) && l.Clickable }); l != nil {
			return failed("%q is still on the final screen (%s): the tap did not take effect", l.Text, front)
		}
		if l := find(func(l uitree.Listed) bool { return !same(l) && len([]rune(l.Text)) >= 3 }); l != nil {
			return done("%q is no longer on the screen; the final screen (%s) shows %q", c.tap, front, l.Text)
		}
	}
	if len(shown) == 0 && vdSignInRe.MatchString(strings.TrimSpace(task)) {
		// A sign-in shows as the app saying so (a person may have done it,
		// taking over): the screen must say signed or logged in.
		if l := find(func(l uitree.Listed) bool { return l.Class != "EditText" && vdSignedInRe.MatchString(l.Text) }); l != nil {
			return done("the final screen (%s) shows %q", front, l.Text)
		}
		return failed("nothing on the final screen (%s) says it is signed in", front)
	}
	if len(shown) == 0 {
		return failed("nothing the final screen (%s) can show is named in %q, so it is not shown to be done", front, task)
	}
	return done("the final screen shows %s", strings.Join(shown, "; "))
}

// judgeAnswer judges a read: the answer is a value an element of the final
// screen shows, and a switch's state agrees with the switch. Neither an
// app's name (on every screen of it, on the home screen's icons), nor the
// name of an app's top screen, nor what the task itself says is a value
// the task asks for (docs/design.md §9).
func judgeAnswer(obs observation, task, msg, front string) verify.Verdict {
	ans := strings.TrimSpace(msg)
	if ans == "" {
		return failed("the executor reported no value")
	}
	la := strings.ToLower(ans)
	lt := strings.ToLower(strings.TrimSpace(task))
	if q := strings.TrimRight(lt, ".?？。!！ "); len([]rune(q)) >= 3 {
		la = strings.Replace(la, q, " ", 1) // the answer repeats the question around its value
	}
	la = strings.TrimSpace(la)
	if sw := askedSwitch(describeAlarmSwitches(obs.Elems), lt); sw != nil {
		name := firstNonEmpty(sw.Text, sw.Desc)
		on, off := vdStateOnRe.MatchString(la), vdStateOffRe.MatchString(la)
		if on == off || on != sw.Checked {
			return failed("the %s switch is %s, the executor reported %q", name, onOff(sw.Checked), ans)
		}
		return done("the %q switch is %s", name, onOff(sw.Checked))
	}
	top := ""
	if !slices.ContainsFunc(obs.Elems, func(l uitree.Listed) bool { return strings.EqualFold(l.Desc, "Navigate up") }) {
		top = topTitle(obs.Elems)
	}
	for _, l := range obs.Elems {
		t := strings.ToLower(strings.TrimSpace(l.Text))
		if len([]rune(t)) < 2 || l.Class == "Button" || l.Class == "EditText" || strings.EqualFold(t, obs.App) ||
			t == top || postcond.IsAppName(t) || strings.Contains(lt, t) {
			continue
		}
		if t == la || strings.Contains(t, la) && len([]rune(la)) >= 2 || strings.Contains(la, t) && len([]rune(t)) >= 3 {
			return done("the screen shows %q", l.Text)
		}
		// A time the screen writes on 12 hours ("7:00 AM") is the
		// answer's "07:00".
		if at := postcond.ClockTime(l.Text); at != "" && at == postcond.ClockTime(ans) {
			return done("the screen shows %q, the time %s", l.Text, at)
		}
	}
	return failed("the value %q is not on the final screen (%s)", ans, front)
}

// vdAsksStateRe is a read that asks whether something is on or off.
var vdAsksStateRe = regexp.MustCompile(`(?i)\b(?:on|off|enabled|disabled)\b|开着|关着|开启|关闭`)

// vdOrdinalRe is an ordinal a task names a row by.
var vdOrdinalRe = regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|last)\b|第([一二三四五])个|最后一个`)

// askedSwitch is the switch a read asks about: one labelled with words of
// the task (Wi-Fi), a row's switch whose time or label the task names
// ("the 07:00 alarm", "the alarm labelled Gym"), or the n-th switch of a
// list for an ordinal. nil when the task names none.
func askedSwitch(es []uitree.Listed, lt string) *uitree.Listed {
	var rows []*uitree.Listed
	for i := range es {
		l := &es[i]
		if !l.Checkable {
			continue
		}
		if namesSwitch(lt, l.Text) {
			return l
		}
		if l.Text == "" && l.Desc != "" {
			rows = append(rows, l)
		}
	}
	if !vdAsksStateRe.MatchString(lt) {
		return nil // a row's switch answers only a question about a state
	}
	for _, l := range rows {
		d := strings.ToLower(strings.TrimSpace(l.Desc))
		times := screenTimes(d)
		rest := strings.TrimSpace(vdTimeRe.ReplaceAllString(d, ""))
		for _, t := range times {
			for _, want := range screenTimes(lt) {
				if t == want {
					return l
				}
			}
		}
		if len([]rune(rest)) >= 2 && strings.Contains(lt, rest) {
			return l
		}
	}
	if m := vdOrdinalRe.FindStringSubmatch(lt); m != nil && len(rows) > 0 {
		i := map[string]int{"first": 0, "second": 1, "third": 2, "fourth": 3, "fifth": 4, "一": 0, "二": 1, "三": 2, "四": 3, "五": 4}[firstNonEmpty(m[1], m[2])]
		if m[1] == "last" || m[0] == "最后一个" {
			i = len(rows) - 1
		}
		if i < len(rows) {
			return rows[i]
		}
	}
	return nil
}

// topTitle is the title a screen shows in its app bar, lowercased, or "".
func topTitle(es []uitree.Listed) string {
	for _, l := range es {
		if l.ID == "title" || strings.HasSuffix(l.ID, "_title") {
			return strings.ToLower(strings.TrimSpace(l.Text))
		}
	}
	return ""
}

// namesPerson reports whether a task names the person a conversation's
// title shows, whole: "Bob" does not name "Bob Li", who may be another
// person than the one meant.
func namesPerson(task, title string) bool {
	n := strings.ToLower(strings.TrimSpace(title))
	return len([]rune(n)) >= 2 && strings.Contains(strings.ToLower(task), n)
}

// namesSwitch reports whether a task's words name the switch labelled label.
func namesSwitch(task, label string) bool {
	l := strings.ToLower(strings.TrimSpace(label))
	if l == "" || stateWord(l) {
		return false
	}
	if strings.Contains(task, l) {
		return true
	}
	for _, w := range vdSwitchWords[l] {
		if strings.Contains(task, w) {
			return true
		}
	}
	return false
}

func hasPct(text, pct string) bool {
	for _, m := range vdPctRe.FindAllStringSubmatch(text, -1) {
		if m[1]+"%" == pct {
			return true
		}
	}
	return false
}

// pctShown names the percentages the final screen shows, for evidence.
func pctShown(obs observation) string {
	var out []string
	for _, l := range obs.Elems {
		if vdPctRe.MatchString(l.Text) {
			out = append(out, strconv.Quote(l.Text))
		}
	}
	if len(out) == 0 {
		return "no percentage at all"
	}
	return strings.Join(out, ", ")
}
