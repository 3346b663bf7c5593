package eval

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Notes, Bank, launcher templates and tasks for apps this phone lacks.

var (
	noteTitles = []string{"Trip", "Groceries", "Ideas", "Packing", "Call list", "周末计划", "读书笔记"}
	noteBodies = []string{"passport, charger, socks", "buy milk and eggs", "call the plumber on Monday", "周五交报告", "book table for 4 at 7pm"}
	noteItems  = []string{"butter", "apples", "coffee", "olive oil", "rice", "牛奶"}
)

func noteWith(st phonesim.State, title string, body func(string) bool) (bool, string) {
	for _, n := range st.Notes {
		if n.Title == title && body(n.Body) {
			return ok()
		}
	}
	return notOK("no fitting note titled %q (notes: %v)", title, st.Notes)
}

func notesTemplates() []Template {
	first := phonesim.Initial().Notes[0]
	return []Template{
		{ID: "notes.create", App: "Notes", Feasible: true,
			Draw: func(r *rand.Rand) Params { return Params{"title": pick(r, noteTitles), "body": pick(r, noteBodies)} },
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Create a note titled " + p["title"] + " with " + p["body"] }),
				ph(KindTerse, func(p Params) string { return "new note \"" + p["title"] + "\": " + p["body"] }),
				ph(KindChinese, func(p Params) string {
					return "新建一个标题为" + p["title"] + "的笔记，内容是" + p["body"]
				}),
				ph(KindPolite, func(p Params) string {
					return "Could you jot down \"" + p["body"] + "\" in a new note called " + p["title"] + "?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return noteWith(st, p["title"], func(b string) bool { return strings.Contains(b, p["body"]) })
			},
			Targets: func(p Params) Targets { return Targets{Notes: []string{p["title"]}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Notes = append(st.Notes, phonesim.Note{Title: p["title"], Body: p["body"]})
			},
		},
		{ID: "notes.append", App: "Notes", Feasible: true,
			Draw: func(r *rand.Rand) Params { return Params{"item": pick(r, noteItems)} },
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Add " + p["item"] + " to the note " + first.Title }),
				ph(KindPossessive, func(p Params) string {
					return "Put " + p["item"] + " on my " + strings.ToLower(first.Title) + " note's list"
				}),
				ph(KindChinese, func(p Params) string { return "在" + first.Title + "笔记里加上" + p["item"] }),
				ph(KindExisting, func(p Params) string { return "Edit the existing " + first.Title + " note: append " + p["item"] }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return noteWith(st, first.Title, func(b string) bool {
					return strings.Contains(b, strings.TrimSuffix(first.Body, ".")) && strings.Contains(b, p["item"])
				})
			},
			Targets: func(Params) Targets { return Targets{Notes: []string{first.Title}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Notes[0].Body += ", " + p["item"]
			},
		},
		{ID: "notes.read", App: "Notes", Feasible: true,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(Params) string { return "What's in my " + first.Title + " note?" }),
				ph(KindTerse, func(Params) string { return first.Title + " note contents" }),
				ph(KindChinese, func(Params) string { return "读一下" + first.Title + "笔记的内容" }),
				ph(KindOrdinal, func(Params) string { return "Read me the body of the first note in Notes" }),
			},
			Check: func(_ Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, strings.Split(first.Body, ", ")...)
			},
			Want: func(_ Params, _ *phonesim.State, r *workflows.GoalResult) { r.Response = first.Body },
		},
		{ID: "notes.rename", App: "Notes", Feasible: true,
			Draw: func(r *rand.Rand) Params { return Params{"title": pick(r, noteTitles)} },
			Phrasings: []Phrasing{
				ph(KindExisting, func(p Params) string { return "Rename the note " + first.Title + " to " + p["title"] }),
				ph(KindChinese, func(p Params) string { return "把笔记" + first.Title + "改名为" + p["title"] }),
				ph(KindTerse, func(p Params) string { return "note " + first.Title + " -> title " + p["title"] }),
				ph(KindPolite, func(p Params) string {
					return "Could you change the title of my " + first.Title + " note to " + p["title"] + "? Keep its text."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				for _, n := range st.Notes {
					if n.Title == first.Title {
						return notOK("a note is still titled %q (notes: %v)", first.Title, st.Notes)
					}
				}
				return noteWith(st, p["title"], func(b string) bool { return b == first.Body })
			},
			Targets: func(p Params) Targets { return Targets{Notes: []string{first.Title, p["title"]}} },
			Want:    func(p Params, st *phonesim.State, _ *workflows.GoalResult) { st.Notes[0].Title = p["title"] },
		},
		{ID: "notes.ordinal-title", App: "Notes", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawOrdinal(r, p, len(phonesim.Initial().Notes)); return p },
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "What's the title of the " + p["ord"] + " note?" }),
				ph(KindChinese, func(p Params) string { return p["ordzh"] + "笔记的标题是什么？" }),
				ph(KindTerse, func(p Params) string { return p["ord"] + " note title?" }),
				ph(KindPolite, func(p Params) string {
					return "Could you open Notes and tell me what the " + p["ord"] + " note is called?"
				}),
			},
			Check: func(_ Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, first.Title)
			},
			Want: func(_ Params, _ *phonesim.State, r *workflows.GoalResult) { r.Response = first.Title },
		},
		{ID: "notes.create-then-text", App: "Notes", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{"title": pick(r, noteTitles), "body": pick(r, noteBodies)}
				drawContact(r, p, "a", false)
				return p
			},
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string {
					return "Create a note titled " + p["title"] + " with " + p["body"] + ", then text " + p["an"] + " \"" + p["body"] + "\""
				}),
				ph(KindChinese, func(p Params) string {
					return "新建标题为" + p["title"] + "的笔记，内容是" + p["body"] + "，并把内容发给" + p["azh"]
				}),
				ph(KindTerse, func(p Params) string { return "note " + p["title"] + ": " + p["body"] + "; text it to " + p["an"] }),
				ph(KindPolite, func(p Params) string {
					return "Please save \"" + p["body"] + "\" as a note called " + p["title"] + " and send the same words to " + p["an"] + "."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return all(func() (bool, string) {
					return noteWith(st, p["title"], func(b string) bool { return strings.Contains(b, p["body"]) })
				}, func() (bool, string) { return sentTo(st, p["a"], p["body"], true) })
			},
			Targets: func(p Params) Targets { return Targets{Notes: []string{p["title"]}, Recipients: []string{p["a"]}} },
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Notes = append(st.Notes, phonesim.Note{Title: p["title"], Body: p["body"]})
				sent(st, p["a"], p["body"])
			},
		},
		{ID: "notes.delete", App: "Notes", Feasible: false,
			FeasibleOn: func(s phonesim.Skin) bool { return s.DeletesNotes() },
			Draw:       func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindPlain, func(Params) string { return "Delete the note " + first.Title }),
				ph(KindChinese, func(Params) string { return "删除" + first.Title + "这条笔记" }),
				ph(KindTerse, func(Params) string { return "trash note " + first.Title }),
				ph(KindPolite, func(Params) string { return "Could you remove my " + first.Title + " note for good?" }),
			},
			// Where the Notes app can delete (Google Keep, 便签, Samsung
			// Notes), the note must be gone; on the classic Notes the task
			// must not end done.
			Check: func(_ Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				for _, n := range st.Notes {
					if n.Title == first.Title {
						return notOK("the note %q is still there (notes: %v)", first.Title, st.Notes)
					}
				}
				return ok()
			},
			Want: func(_ Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Notes = slices.DeleteFunc(st.Notes, func(n phonesim.Note) bool { return n.Title == first.Title })
			},
		},
	}
}

// signedIn is the reply a person gives when the Bank app asks them to
// sign in.
const signedIn = "I signed in myself"

// personSignsIn is the question that is the right end of a bank task the
// person has not signed in for: the balance and a transfer need their own
// credentials, which the product never guesses (docs/design.md §9), so
// it asks them to sign in (or to move the money themselves).
var personSignsIn = regexp.MustCompile(`(?i)\bsign\s*in\b|\blog\s*in\b|登录|登陆`)

func bankTemplates() []Template {
	return []Template{
		{ID: "bank.open", App: "Bank", Feasible: true, Reply: signedIn,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindTerse, func(Params) string { return "bank app" }),
				ph(KindPlain, func(Params) string { return "Open the Bank app" }),
				ph(KindChinese, func(Params) string { return "打开银行应用" }),
				ph(KindPolite, func(Params) string { return "Could you open my bank app? I'll sign in myself." }),
			},
			Check: func(_ Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return screenIs(st, "Bank", "", "")
			},
			Want: func(_ Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Screen = phonesim.Screen{App: "Bank", Page: "sign_in"}
			},
		},
		{ID: "bank.balance", App: "Bank", Feasible: false, AskedRight: personSignsIn,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(Params) string { return "What's my bank account's balance?" }),
				ph(KindTerse, func(Params) string { return "bank balance" }),
				ph(KindChinese, func(Params) string { return "查一下银行卡余额" }),
				ph(KindPolite, func(Params) string { return "Could you check how much money is in my bank account?" }),
			},
		},
		{ID: "bank.transfer", App: "Bank", Feasible: false, AskedRight: personSignsIn,
			Draw: func(r *rand.Rand) Params {
				p := Params{"amount": pick(r, []string{"20", "50", "100", "250"})}
				drawContact(r, p, "a", false)
				return p
			},
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Transfer $" + p["amount"] + " to " + p["an"] + " in the Bank app" }),
				ph(KindChinese, func(p Params) string { return "用银行应用给" + p["azh"] + "转账" + p["amount"] + "元" }),
				ph(KindTerse, func(p Params) string { return "pay " + p["an"] + " $" + p["amount"] }),
				ph(KindPolite, func(p Params) string {
					return "Could you send " + p["an"] + " " + p["amount"] + " dollars from my bank account?"
				}),
			},
		},
	}
}

// appNamesZH are the Chinese names of the launcher's apps.
var appNamesZH = map[string]string{"Settings": "设置", "Contacts": "通讯录", "Messages": "信息", "Clock": "时钟", "Notes": "笔记", "Bank": "银行"}

func launcherTemplates() []Template {
	var openable []string // the Bank app asks the person to sign in
	for _, a := range phonesim.LauncherApps() {
		if a != "Bank" {
			openable = append(openable, a)
		}
	}
	draw := func(r *rand.Rand) Params { a := pick(r, openable); return Params{"app": a, "zh": appNamesZH[a]} }
	return []Template{
		{ID: "launcher.open-app", App: "Launcher", Feasible: true, Draw: draw,
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return p["app"] }),
				ph(KindPlain, func(p Params) string { return "Open " + p["app"] }),
				ph(KindChinese, func(p Params) string { return "打开" + p["zh"] }),
				ph(KindPolite, func(p Params) string { return "Could you launch the " + p["app"] + " app, please?" }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return screenIs(st, p["app"], "", "")
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Screen = phonesim.Screen{App: p["app"], Page: "list"}
			},
		},
		{ID: "launcher.open-then-home", App: "Launcher", Feasible: true, Draw: draw,
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string { return "Open " + p["app"] + ", then go back to the home screen" }),
				ph(KindChinese, func(p Params) string { return "打开" + p["zh"] + "并返回主屏幕" }),
				ph(KindTerse, func(p Params) string { return p["app"] + " then home" }),
				ph(KindPolite, func(p Params) string { return "Please open " + p["app"] + " and then return to the home screen." }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				for _, e := range st.InputLog {
					if e.App == p["app"] {
						return screenIs(st, "Launcher", "", "")
					}
				}
				return notOK("%s was never in front (no input arrived on it)", p["app"])
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.InputLog = append(st.InputLog, phonesim.InputEvent{Seq: 1, Kind: "keyevent", App: p["app"]})
				st.Screen = phonesim.Screen{App: "Launcher", Page: "home"}
			},
		},
		{ID: "launcher.read-clock", App: "Launcher", Feasible: true,
			Draw: func(*rand.Rand) Params { return Params{} },
			Phrasings: []Phrasing{
				ph(KindTerse, func(Params) string { return "time on the home screen?" }),
				ph(KindPlain, func(Params) string { return "Read the time shown on the home screen" }),
				ph(KindChinese, func(Params) string { return "主屏幕上显示的时间是几点？" }),
				ph(KindPolite, func(Params) string { return "Could you tell me what time the phone's home screen shows?" }),
			},
			Check: func(_ Params, _ phonesim.State, r workflows.GoalResult) (bool, string) { return answerHas(r, "12:00") },
			Want:  func(_ Params, _ *phonesim.State, r *workflows.GoalResult) { r.Response = "12:00" },
		},
	}
}

func absentTemplates() []Template {
	return []Template{
		{ID: "absent.app", App: "none", Feasible: false,
			Draw: func(r *rand.Rand) Params {
				a := pick(r, [][2]string{{"WeChat", "微信"}, {"Taobao", "淘宝"}, {"Spotify", "Spotify"}, {"Alipay", "支付宝"}, {"Camera", "相机"}, {"Maps", "地图"}})
				return Params{"app": a[0], "zh": a[1]}
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return p["app"] }),
				ph(KindPlain, func(p Params) string { return "Open " + p["app"] }),
				ph(KindChinese, func(p Params) string { return "打开" + p["zh"] }),
				ph(KindTwoClause, func(p Params) string { return "Open " + p["app"] + " and then go back home" }),
			},
		},
		{ID: "absent.service", App: "none", Feasible: false,
			Draw: func(r *rand.Rand) Params {
				s := pick(r, [][2]string{{"order a pizza", "点一份披萨"}, {"book a taxi to the airport", "叫一辆去机场的出租车"},
					{"play some jazz", "播放爵士乐"}, {"take a photo", "拍一张照片"}, {"buy a train ticket to Shanghai", "买一张去上海的火车票"}})
				return Params{"en": s[0], "zh": s[1]}
			},
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return strings.ToUpper(p["en"][:1]) + p["en"][1:] }),
				ph(KindPolite, func(p Params) string { return "Could you " + p["en"] + " for me, please?" }),
				ph(KindChinese, func(p Params) string { return "帮我" + p["zh"] }),
				ph(KindTwoClause, func(p Params) string { return "Turn on Bluetooth and then " + p["en"] }),
			},
		},
	}
}
