package eval

import (
	"math/rand/v2"
	"strings"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Contacts and Messages templates.

// messageTexts are what tasks send: commas, apostrophes, digits, Chinese.
var messageTexts = []string{
	"Running 10 minutes late, sorry", "Don't forget the tickets", "Can you call me back?", "See you at 7, near the gate",
	"Thanks, got it!", "I'll bring the cake", "Lunch at noon?", "On my way",
	"明天见", "我晚点到", "记得带伞", "会议改到三点了", "收到，谢谢",
}

// ghosts are people who are not in the phone's contacts.
var ghosts = []string{"Carol", "Dave Wu", "王五", "Eve", "Frank Zhao", "Uncle Tom", "赵六"}

// drawContact picks a contact (one with received messages when withInbox)
// and the ways to call them: n in English (full or first name), zh in a
// Chinese sentence.
func drawContact(r *rand.Rand, p Params, prefix string, withInbox bool, not ...string) phonesim.Contact {
	var cs []phonesim.Contact
	for _, c := range phonesim.Contacts() {
		if (!withInbox || len(c.Received) > 0) && !containsStr(not, c.Name) {
			cs = append(cs, c)
		}
	}
	c := pick(r, cs)
	p[prefix] = c.Name
	p[prefix+"n"], p[prefix+"zh"] = c.Name, c.Name
	if first, _, ok := strings.Cut(c.Name, " "); ok && c.Alias == "" && r.IntN(2) == 0 {
		p[prefix+"n"] = first
	}
	if c.Alias != "" {
		p[prefix+"zh"] = c.Alias
	}
	return c
}

func containsStr(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func contactNamed(name string) phonesim.Contact {
	for _, c := range phonesim.Contacts() {
		if c.Name == name {
			return c
		}
	}
	return phonesim.Contact{}
}

func lastReceived(name string) string {
	r := contactNamed(name).Received
	return r[len(r)-1]
}

func sent(st *phonesim.State, to, text string) {
	st.MessagesSent = append(st.MessagesSent, phonesim.SentMessage{To: to, Text: text, Seq: len(st.MessagesSent) + 1})
}

func to(keys ...string) func(Params) Targets {
	return func(p Params) Targets {
		var t Targets
		for _, k := range keys {
			t.Recipients = append(t.Recipients, p[k])
		}
		return t
	}
}

func contactsTemplates() []Template {
	n := len(phonesim.Contacts())
	return []Template{
		{ID: "contacts.read-number", App: "Contacts", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", false); return p },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "What is " + p["an"] + "'s phone number?" }),
				ph(KindTerse, func(p Params) string { return p["an"] + " phone number" }),
				ph(KindPolite, func(p Params) string { return "Could you look up " + p["an"] + "'s number for me, please?" }),
				ph(KindChinese, func(p Params) string { return "查一下" + p["azh"] + "的电话号码" }),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHasNumber(r, contactNamed(p["a"]).Phone)
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) { r.Response = contactNamed(p["a"]).Phone },
		},
		{ID: "contacts.open-card", App: "Contacts", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", false); return p },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "Open " + p["an"] + "'s contact card" }),
				ph(KindTerse, func(p Params) string { return "contact " + p["an"] }),
				ph(KindChinese, func(p Params) string { return "打开" + p["azh"] + "的联系人页面" }),
				ph(KindPolite, func(p Params) string { return "Please show me " + p["an"] + " in Contacts" }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return screenIs(st, "Contacts", "detail", p["a"])
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Screen = phonesim.Screen{App: "Contacts", Page: "detail", Detail: p["a"]}
			},
		},
		{ID: "contacts.ordinal-name", App: "Contacts", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawOrdinal(r, p, n); return p },
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "Who is the " + p["ord"] + " contact in Contacts?" }),
				ph(KindChinese, func(p Params) string { return "通讯录里" + p["ordzh"] + "联系人是谁？" }),
				ph(KindTerse, func(p Params) string { return p["ord"] + " contact's name?" }),
				ph(KindPolite, func(p Params) string {
					return "Could you read me the name of the " + p["ord"] + " person in my contacts?"
				}),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				c := phonesim.Contacts()[atoi(p["i"])]
				return answerHasAny(r, nonEmpty(c.Name, c.Alias)...)
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = phonesim.Contacts()[atoi(p["i"])].Name
			},
		},
		{ID: "contacts.ordinal-number", App: "Contacts", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawOrdinal(r, p, n); return p },
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "What's the phone number of the " + p["ord"] + " contact?" }),
				ph(KindChinese, func(p Params) string { return "通讯录中" + p["ordzh"] + "联系人的电话是多少" }),
				ph(KindPossessive, func(p Params) string { return "Read the " + p["ord"] + " contact's number" }),
				ph(KindPolite, func(p Params) string { return "Please tell me the number of whoever is " + p["ord"] + " in Contacts" }),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHasNumber(r, phonesim.Contacts()[atoi(p["i"])].Phone)
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) {
				r.Response = phonesim.Contacts()[atoi(p["i"])].Phone
			},
		},
		{ID: "contacts.reverse-lookup", App: "Contacts", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				drawContact(r, p, "a", false)
				p["phone"] = contactNamed(p["a"]).Phone
				return p
			},
			Phrasings: []Phrasing{
				ph(KindTerse, func(p Params) string { return "whose number is " + p["phone"] + "?" }),
				ph(KindPlain, func(p Params) string { return "Find the contact with the number " + p["phone"] }),
				ph(KindChinese, func(p Params) string { return p["phone"] + "是谁的号码？" }),
				ph(KindPolite, func(p Params) string { return "Could you check who " + p["phone"] + " belongs to in my contacts?" }),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				c := contactNamed(p["a"])
				return answerHasAny(r, nonEmpty(c.Name, c.Alias)...)
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) { r.Response = p["a"] },
		},
		{ID: "contacts.absent-person", App: "Contacts", Feasible: false,
			Draw: func(r *rand.Rand) Params { return Params{"g": pick(r, ghosts)} },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "What is " + p["g"] + "'s phone number?" }),
				ph(KindTerse, func(p Params) string { return p["g"] + " number" }),
				ph(KindChinese, func(p Params) string { return "查看" + p["g"] + "的电话号码" }),
				ph(KindPolite, func(p Params) string { return "Could you open " + p["g"] + "'s contact card, please?" }),
			},
		},
	}
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

func messagesTemplates() []Template {
	n := len(phonesim.Contacts())
	withText := func(p Params, r *rand.Rand) Params { p["text"] = pick(r, messageTexts); return p }
	return []Template{
		{ID: "messages.send", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", false); return withText(p, r) },
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Send " + p["an"] + " a message saying \"" + p["text"] + "\"" }),
				ph(KindTerse, func(p Params) string { return "text " + p["an"] + ": " + p["text"] }),
				ph(KindChinese, func(p Params) string { return "给" + p["azh"] + "发短信：" + p["text"] }),
				ph(KindPolite, func(p Params) string {
					return "Could you please tell " + p["an"] + " \"" + p["text"] + "\" in Messages?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return sentTo(st, p["a"], p["text"], false)
			},
			Targets: to("a"),
			Want:    func(p Params, st *phonesim.State, _ *workflows.GoalResult) { sent(st, p["a"], p["text"]) },
		},
		{ID: "messages.reply-latest", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", true); return withText(p, r) },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "Reply to " + p["an"] + "'s last message with \"" + p["text"] + "\"" }),
				ph(KindChinese, func(p Params) string { return "回复" + p["azh"] + "的最新消息：" + p["text"] }),
				ph(KindTerse, func(p Params) string { return "reply " + p["an"] + ": " + p["text"] }),
				ph(KindPolite, func(p Params) string {
					return "Would you answer " + p["an"] + "'s latest text for me? Say: " + p["text"]
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return sentTo(st, p["a"], p["text"], false)
			},
			Targets: to("a"),
			Want:    func(p Params, st *phonesim.State, _ *workflows.GoalResult) { sent(st, p["a"], p["text"]) },
		},
		{ID: "messages.read-last", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", true); return p },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "What was " + p["an"] + "'s last message?" }),
				ph(KindPlain, func(p Params) string { return "Read me the latest message from " + p["an"] }),
				ph(KindChinese, func(p Params) string { return p["azh"] + "发给我的最后一条消息是什么？" }),
				ph(KindPolite, func(p Params) string { return "Could you check what " + p["an"] + " last texted me?" }),
			},
			Check: func(p Params, _ phonesim.State, r workflows.GoalResult) (bool, string) {
				return answerHas(r, lastReceived(p["a"]))
			},
			Want: func(p Params, _ *phonesim.State, r *workflows.GoalResult) { r.Response = lastReceived(p["a"]) },
		},
		{ID: "messages.two-recipients", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				a := drawContact(r, p, "a", false)
				drawContact(r, p, "b", false, a.Name)
				return withText(p, r)
			},
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string { return "Send \"" + p["text"] + "\" to " + p["an"] + " and to " + p["bn"] }),
				ph(KindChinese, func(p Params) string { return "给" + p["azh"] + "和" + p["bzh"] + "都发消息：" + p["text"] }),
				ph(KindTwoClause, func(p Params) string {
					return "Text " + p["an"] + " '" + p["text"] + "', then send " + p["bn"] + " the same"
				}),
				ph(KindPolite, func(p Params) string {
					return "Could you message both " + p["an"] + " and " + p["bn"] + " saying \"" + p["text"] + "\"?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return all(func() (bool, string) { return sentTo(st, p["a"], p["text"], false) },
					func() (bool, string) { return sentTo(st, p["b"], p["text"], false) })
			},
			Targets: to("a", "b"),
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				sent(st, p["a"], p["text"])
				sent(st, p["b"], p["text"])
			},
		},
		{ID: "messages.send-then-home", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", false); return withText(p, r) },
			Phrasings: []Phrasing{
				ph(KindTwoClause, func(p Params) string {
					return "Send " + p["an"] + " \"" + p["text"] + "\" and then go to the home screen"
				}),
				ph(KindChinese, func(p Params) string { return "给" + p["azh"] + "发消息说" + p["text"] + "，然后回到桌面" }),
				ph(KindTerse, func(p Params) string { return "text " + p["an"] + " '" + p["text"] + "', then home" }),
				ph(KindPolite, func(p Params) string {
					return "Please send " + p["an"] + " a text saying \"" + p["text"] + "\" and go back home afterwards."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return all(func() (bool, string) { return sentTo(st, p["a"], p["text"], false) },
					func() (bool, string) { return screenIs(st, "Launcher", "", "") })
			},
			Targets: to("a"),
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				sent(st, p["a"], p["text"])
				st.Screen = phonesim.Screen{App: "Launcher", Page: "home"}
			},
		},
		{ID: "messages.ordinal-conversation", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				p["a"] = phonesim.Contacts()[drawOrdinal(r, p, n)].Name
				return withText(p, r)
			},
			Phrasings: []Phrasing{
				ph(KindOrdinal, func(p Params) string { return "Message the " + p["ord"] + " conversation in Messages: " + p["text"] }),
				ph(KindChinese, func(p Params) string { return "给信息列表里" + p["ordzh"] + "对话发：" + p["text"] }),
				ph(KindTerse, func(p Params) string { return p["ord"] + " chat in Messages: \"" + p["text"] + "\"" }),
				ph(KindPolite, func(p Params) string {
					return "Could you open the " + p["ord"] + " conversation in Messages and send \"" + p["text"] + "\"?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return sentTo(st, p["a"], p["text"], false)
			},
			Targets: to("a"),
			Want:    func(p Params, st *phonesim.State, _ *workflows.GoalResult) { sent(st, p["a"], p["text"]) },
		},
		{ID: "messages.forward", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				a := drawContact(r, p, "a", true)
				drawContact(r, p, "b", false, a.Name)
				return p
			},
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "Forward " + p["an"] + "'s last message to " + p["bn"] }),
				ph(KindChinese, func(p Params) string { return "把" + p["azh"] + "最后发来的消息转发给" + p["bzh"] }),
				ph(KindTwoClause, func(p Params) string { return "Read " + p["an"] + "'s latest text and then send it to " + p["bn"] }),
				ph(KindPolite, func(p Params) string {
					return "Could you pass on to " + p["bn"] + " what " + p["an"] + " last wrote to me?"
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return sentTo(st, p["b"], lastReceived(p["a"]), true)
			},
			Targets: to("b"),
			Want:    func(p Params, st *phonesim.State, _ *workflows.GoalResult) { sent(st, p["b"], lastReceived(p["a"])) },
		},
		{ID: "messages.number-to", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params {
				p := Params{}
				a := drawContact(r, p, "a", false)
				drawContact(r, p, "b", false, a.Name)
				return p
			},
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "Send " + p["an"] + "'s phone number to " + p["bn"] }),
				ph(KindChinese, func(p Params) string { return "把" + p["azh"] + "的电话号码发给" + p["bzh"] }),
				ph(KindTwoClause, func(p Params) string { return "Look up " + p["an"] + "'s number and then text it to " + p["bn"] }),
				ph(KindPolite, func(p Params) string { return "Could you share " + p["an"] + "'s number with " + p["bn"] + " by text?" }),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return sentNumberTo(st, p["b"], contactNamed(p["a"]).Phone)
			},
			Targets: to("b"),
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				sent(st, p["b"], contactNamed(p["a"]).Phone)
			},
		},
		{ID: "messages.open-conversation", App: "Messages", Feasible: true,
			Draw: func(r *rand.Rand) Params { p := Params{}; drawContact(r, p, "a", false); return p },
			Phrasings: []Phrasing{
				ph(KindPossessive, func(p Params) string { return "Open my conversation with " + p["an"] + " (don't send anything)" }),
				ph(KindTerse, func(p Params) string { return "chat with " + p["an"] + ", just open it" }),
				ph(KindChinese, func(p Params) string { return "打开和" + p["azh"] + "的聊天记录，不要发消息" }),
				ph(KindPolite, func(p Params) string {
					return "Could you bring up my Messages thread with " + p["an"] + "? Only open it."
				}),
			},
			Check: func(p Params, st phonesim.State, _ workflows.GoalResult) (bool, string) {
				return screenIs(st, "Messages", "conversation", p["a"])
			},
			Want: func(p Params, st *phonesim.State, _ *workflows.GoalResult) {
				st.Screen = phonesim.Screen{App: "Messages", Page: "conversation", Detail: p["a"]}
			},
		},
		{ID: "messages.absent-recipient", App: "Messages", Feasible: false,
			Draw: func(r *rand.Rand) Params { return withText(Params{"g": pick(r, ghosts)}, r) },
			Phrasings: []Phrasing{
				ph(KindPlain, func(p Params) string { return "Send " + p["g"] + " a message saying \"" + p["text"] + "\"" }),
				ph(KindTerse, func(p Params) string { return "text " + p["g"] + ": " + p["text"] }),
				ph(KindChinese, func(p Params) string { return "给" + p["g"] + "发短信说" + p["text"] }),
				ph(KindPolite, func(p Params) string { return "Could you please tell " + p["g"] + " \"" + p["text"] + "\"?" }),
			},
		},
	}
}
