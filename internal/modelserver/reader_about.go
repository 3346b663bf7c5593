package modelserver

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of goals about the phone itself and its
// home screen (docs/design.md §9): a Settings page to open, what the
// About phone page says (Android version, build number, model), a bare
// app name, a bare "home", and money moved through the Bank. Each is read
// from the goal's own words into todos whose checks show the end state,
// whatever the phrasing; a clause that fits none is left to the rest of
// the reader.

// rdSections are the pages the Settings list opens, by the names people
// use for them, in the order the list shows them.
var rdSections = []struct {
	name string
	en   []string
	zh   []string
}{
	{"Display", []string{"display", "screen display"}, []string{"显示"}},
	{"Sound", []string{"sound", "sounds", "sound and vibration"}, []string{"声音", "提示音"}},
	{"Notifications", []string{"notifications", "notification"}, []string{"通知"}},
	{"Battery", []string{"battery"}, []string{"电池"}},
	{"Storage", []string{"storage"}, []string{"存储", "储存", "存储空间"}},
	{"Location", []string{"location"}, []string{"位置", "定位"}},
	{"Security", []string{"security"}, []string{"安全"}},
	{"Accounts", []string{"accounts", "account"}, []string{"账号", "账户", "帐户", "帐号"}},
	{"Accessibility", []string{"accessibility"}, []string{"无障碍", "辅助功能"}},
	{"System", []string{"system"}, []string{"系统"}},
	{"About phone", []string{"about phone", "about the phone", "about this phone", "about"}, []string{"关于手机", "关于本机", "关于"}},
}

var (
	// rdSectionOpenRe is an English clause that opens a page: a verb of
	// going there, the page's name, and words that say it is a page of
	// Settings. NAME stands for the page's name.
	rdSectionOpenEn = `(?i)^(?:(?:open|go\s+to|go\s+into|get\s+me\s+to|take\s+me\s+to|bring\s+up|show(?:\s+me)?|navigate\s+to|jump\s+to|head\s+to|switch\s+to|pull\s+up)\s+)?` +
		`(?:the\s+)?(?:settings?(?:\s+app)?(?:'s)?\s*(?:>|›|→|/|,|:)?\s*)?(?:the\s+)?(?:NAME)` +
		`(?:\s+(?:page|section|screen|settings|menu|tab|pane|options))*` +
		`(?:\s+(?:in|of|under|from|inside)\s+(?:the\s+)?settings(?:\s+app)?)?$`
	// rdSectionZh is the same in Chinese: "打开设置里的显示页面", "显示设置".
	rdSectionOpenZh = `(?i)^(?:打开|进入|去|转到|跳到|切到|调出|看看|显示)?(?:手机)?(?:系统)?(?:设置)?(?:应用)?(?:里|中|里面|当中)?(?:的|>|›|/|\s)*(?:NAME)(?:设置)?(?:页面|页|界面|选项|菜单)?$`
	// rdGoRe is a verb of going somewhere, or a Settings word: a bare
	// "display" or "battery" is not a page to open.
	rdGoRe = regexp.MustCompile(`(?i)^(?:open|go|get|take|bring|show|navigate|jump|head|switch|pull)\b|\b(?:page|section|screen|settings|menu|tab|pane|options)\b|>|›|→|^(?:打开|进入|去|转到|跳到|切到|调出|看看)|设置|页面|界面|菜单|选项`)
)

var rdSectionRes = func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, s := range rdSections {
		var en, zh []string
		// A goal may name the page as a vendor titles it (存储空间,
		// 更多设置): the names phones give it.
		names, vendor := slices.Clone(s.en), slices.Clone(s.zh)
		for _, n := range postcond.SectionNames(s.name) {
			if strings.IndexFunc(n, func(r rune) bool { return r > unicode.MaxASCII }) >= 0 {
				vendor = append(vendor, n)
			} else {
				names = append(names, strings.ToLower(n))
			}
		}
		for _, n := range names {
			en = append(en, strings.ReplaceAll(regexp.QuoteMeta(n), " ", `\s+`))
		}
		// A Chinese goal may name the page as the phone shows it, in English.
		zh = append(zh, en...)
		for _, n := range vendor {
			zh = append(zh, regexp.QuoteMeta(n))
		}
		out = append(out,
			regexp.MustCompile(strings.Replace(rdSectionOpenEn, "NAME", strings.Join(en, "|"), 1)),
			regexp.MustCompile(strings.Replace(rdSectionOpenZh, "NAME", strings.Join(zh, "|"), 1)))
	}
	return out
}()

// settingsSection is the Settings page a clause asks to open, or "".
func settingsSection(c string) string {
	c = strings.TrimSpace(c)
	if !rdGoRe.MatchString(c) {
		return ""
	}
	for i, re := range rdSectionRes {
		if re.MatchString(c) {
			return rdSections[i/2].name
		}
	}
	return ""
}

// sectionTodos opens a Settings page: Settings first, then its row. The
// page shows its name as its title (a row naming it on a list is not the
// page, postcond's element_exists on Settings), and neither row next to
// it on the list, so a page whose title only holds the name does not
// pass. Display's page shows its brightness on every skin, so Brightness,
// the row above Display on the classic list, is not one of them.
func sectionTodos(name string) []planned {
	exp := []postcond.Check{{Kind: postcond.AppInFront, App: "Settings"}, {Kind: postcond.ElementExists, Text: name}}
	for i, s := range rdSections {
		if s.name != name {
			continue
		}
		if i > 0 {
			exp = append(exp, postcond.Check{Kind: postcond.ElementAbsent, Text: rdSections[i-1].name})
		}
		after := "Wi-Fi"
		if i+1 < len(rdSections) {
			after = rdSections[i+1].name
		}
		exp = append(exp, postcond.Check{Kind: postcond.ElementAbsent, Text: after})
	}
	return []planned{{Todo: "Open Settings", Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Settings"}}},
		{Todo: "Tap " + name, Expect: exp}}
}

var (
	// rdBuildRe, rdVersionRe and rdModelRe name what About phone shows.
	// "版本号" is the build number on a Chinese phone; "安卓版本号" is
	// still the Android version.
	rdBuildRe   = regexp.MustCompile(`(?i)\bbuild(?:\s+(?:number|no\.?|id|version))?\b|(?:^|[^卓统])版本号|内部版本`)
	rdVersionRe = regexp.MustCompile(`(?i)\bandroid\s+version\b|\bversion\s+of\s+android\b|\b(?:which|what)\s+android\b|\bandroid\b.*\bversion\b|\bversion\b.*\bandroid\b|\bos\s+version\b|\bsoftware\s+version\b|安卓版本|安卓系统|系统版本|android\s*版本|版本`)
	rdModelRe   = regexp.MustCompile(`(?i)\b(?:phone|device|handset)\s+model\b|\bmodel\b|\bwhat\s+(?:phone|device)\s+(?:is\s+this|am\s+i|do\s+i)\b|型号|机型|什么手机`)
	// rdNotAboutRe are clauses that do something else with those words.
	rdNotAboutRe = regexp.MustCompile(`(?i)\b(?:send|text|message|sms|forward|email|share|set|change|update|upgrade|install|delete|remove|create|write|note|alarm)\b|发给|发送|告诉.+(?:妈|爸|张|李)|更新|升级|设置为|笔记|闹钟`)
)

// aboutRead is the read of what About phone shows that clause c asks
// for, with its answer's type, or false.
func aboutRead(c string) (planned, bool) {
	if rdNotAboutRe.MatchString(c) && !strings.HasPrefix(strings.ToLower(c), "tell me") || rdBankRe.MatchString(c) {
		return planned{}, false
	}
	read := func(todo, typ string) (planned, bool) {
		return planned{Todo: todo, Reads: true, Expect: []postcond.Check{{Kind: postcond.AnswerSeen, Type: typ}}}, true
	}
	switch {
	case rdBuildRe.MatchString(c):
		return read("Read the build number in Settings", postcond.TypeLabel)
	case rdVersionRe.MatchString(c):
		return read("Read the Android version in Settings", postcond.TypeNumber)
	case rdModelRe.MatchString(c):
		return read("Read the phone model in Settings", postcond.TypeLabel)
	}
	return planned{}, false
}

// rdBareHomeRe is a clause that only says "home": "home", "back home",
// "the home screen", "回桌面", "主屏幕".
var rdBareHomeRe = regexp.MustCompile(`(?i)^(?:(?:go|get|head|return|navigate|press|hit|come)\s+)?(?:back\s+)?(?:to\s+)?(?:the\s+)?(?:home(?:\s*screen)?|launcher|desktop)(?:\s+button)?$|^(?:回|返回|回到|退回|退到)?(?:桌面|主屏幕|主屏|主页|主界面)$`)

// rdBareAppRe is a clause that is only an app's name: "Notes", "the Clock
// app", "时钟".
var rdBareAppRe = regexp.MustCompile(`(?i)^(?:the\s+|my\s+)?(.+?)(?:\s+app)?$|^(.+?)(?:应用|app)$`)

var (
	// rdMoneyRe is an amount of money; rdMoveMoneyRe moves it.
	rdMoneyRe     = regexp.MustCompile(`(?i)[$¥€£]\s*\d+|\d+(?:\.\d+)?\s*(?:dollars?|bucks|usd|euros?|pounds?|yuan|rmb|元|块钱?|美元)`)
	rdMoveMoneyRe = regexp.MustCompile(`(?i)\b(?:transfer|pay|send|wire|move|give)\b|转账|汇款|转给|付给|打给|支付|付款|转`)
	// rdBalanceRe asks how much the account holds.
	rdBalanceRe = regexp.MustCompile(`(?i)\bbalance\b|\bhow\s+much\s+(?:money|cash)\b|余额|多少钱`)
)

// aboutClauseTodos reads the clauses this file handles; ok is false for
// any other clause.
func aboutClauseTodos(c string) ([]planned, bool) {
	if name := settingsSection(c); name != "" {
		return sectionTodos(name), true
	}
	if p, ok := aboutRead(c); ok {
		return []planned{p}, true
	}
	if rdBareHomeRe.MatchString(c) {
		return []planned{{Todo: "Go to the home screen", Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Launcher"}}}}, true
	}
	if m := rdBareAppRe.FindStringSubmatch(c); m != nil {
		if app := rdApps[strings.ToLower(strings.TrimSpace(firstNonEmpty(m[1], m[2])))]; app != "" {
			return []planned{{Todo: "Open " + app, Expect: []postcond.Check{{Kind: postcond.AppInFront, App: app}}}}, true
		}
	}
	if rdBankRe.MatchString(c) && rdBalanceRe.MatchString(c) || rdBalanceRe.MatchString(c) && strings.Contains(strings.ToLower(c), "account") {
		// The balance shows only once the person has signed in; the
		// executor asks them to (docs/design.md §9, asking is honest).
		return []planned{{Todo: "Read the account balance (how much money it holds) in the Bank app", Reads: true,
			Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Bank"}, {Kind: postcond.AnswerSeen, Type: postcond.TypeNumber}}}}, true
	}
	if amt := rdMoneyRe.FindString(c); amt != "" && rdMoveMoneyRe.MatchString(c) {
		// Money moved is a commit no check in the vocabulary can show
		// done, to a payee the planner cannot confirm: the person does it.
		return []planned{{Ask: fmt.Sprintf("Moving money (%s, from %q) needs you: please sign in to the Bank app and make the transfer yourself, or tell me what else to do.", strings.TrimSpace(amt), c)}}, true
	}
	return nil, false
}
