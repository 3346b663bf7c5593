package modelserver

import (
	"fmt"
	"regexp"
	"strings"
)

// The planner persona writes only what it read (docs/design.md §9): a
// todo that leaves words of its clause unaccounted for — an operation it
// has no todo for (delete, rename, append, forward), an amount or an
// offset ("30 points less", "60 minutes after"), a name it dropped — is a
// guess, and a guess checked by postconditions written from the same
// guess ends done while the phone shows otherwise. Such a clause becomes
// a question to the person instead.

var (
	cvWordRe = regexp.MustCompile(`\d+(?:st|nd|rd|th)\b|[A-Za-z][A-Za-z'-]*|\d+`)
	// cvZhOpRe are Chinese operation and offset words a todo must carry
	// over when the clause has them.
	cvZhOpRe = regexp.MustCompile(`删除|删掉|去掉|改名|重命名|改成|改为|修改|编辑|追加|加上|添加到|转发|之后|以后|之前|以前|提前|推迟|晚\d|早\d|分钟|小时|最后发来|每天|每周`)
	// cvTimeRe and cvPctRe are values the reader rewrites ("3:10pm" is
	// written 15:10): they are checked as values, not as words.
	cvTimeRe = regexp.MustCompile(rdWordTimePattern + `|(?i)\d{1,2}(?:[:：.]\d{2})?\s*[ap]\.?\s*m\.?\b|\d{1,2}[:：]\d{2}|\d{1,2}\s*点(?:半|\d{1,2}\s*分?)?`)
)

// cvSkip are words a todo need not repeat: function words, politeness,
// and the words the reader turns into a todo's own wording (verbs that
// create, send, switch or read; the names of apps, switches and screens).
var cvSkip = set(`a an the my me i you your it its this that these those to of in on off at for from with by into onto about as
he she him her his hers they them their theirs we us our ours
is are be been was were am do does did can could would will should shall may might must please kindly pls just also too now
currently right away thanks thank there here what's what which when who whose how if whether or and then afterwards again
some any via using through way help like ring rings ringing return head navigate back want need wanna go ahead sure ok okay quick quickly real really
turn switch set make create add new send text message tell let know open launch start show read check find look get bring put
write save jot down note notes alarm alarms messages sms app apps settings setting contacts contact clock bank
home screen page brightness bright brighter dimmer dim darker lower higher raise reduce increase decrease wifi wi-fi wireless
network networks internet wlan bluetooth airplane aeroplane flight mode on off up max maximum min minimum full highest lowest
brightest darkest half halfway all the enabled enable disable disabled activate deactivate status state currently turned
mind whatever enough saying says say said that's content contents body text texts containing contain new one phone number numbers mobile cell time value reading am pm o'clock
take out runs exactly exact precisely percent section sections menu tab`)

// cvAlias are words a todo writes differently: the clause word is
// covered when the todos hold any of the aliases.
var cvAlias = map[string][]string{"called": cvLabel, "named": cvLabel, "name": cvLabel, "label": cvLabel, "labelled": cvLabel,
	"labeled": cvLabel, "titled": cvLabel, "title": cvLabel, "mum": {"mom"}, "mother": {"mom"}, "mommy": {"mom"}, "wake": {"alarm"},
	"first": {"first", "1"}, "1st": {"first", "1"}, "second": {"second", "2"}, "2nd": {"second", "2"}, "third": {"third", "3"},
	"3rd": {"third", "3"}, "fourth": {"fourth", "4"}, "4th": {"fourth", "4"}, "fifth": {"fifth", "5"}, "5th": {"fifth", "5"},
	// What someone last wrote is read as their latest message.
	"last": {"last", "latest", "first conversation"}, "newest": {"latest", "the last"}, "recent": {"latest", "the last", "first conversation"},
	"most": {"latest", "the last", "first conversation"}, "earliest": {"first"}, "oldest": {"first"}, "sent": {"message"},
	// A small change said loosely is one step of the control.
	"bit": {"one step"}, "little": {"one step"}, "slightly": {"one step"}, "tad": {"one step"}, "somewhat": {"one step"},
	"short": {"message"}, "brief": {"message"}, "line": {"message"},
	"texted": {"message"}, "wrote": {"message"}, "messaged": {"message"},
	// Any verb that sends a message is the todo's "message".
	"reply": {"message", "send"}, "respond": {"message", "send"}, "answer": {"message", "send"}, "ping": {"message"}, "dm": {"message"},
	"pm": {"message"}, "msg": {"message"}, "shoot": {"message"}, "drop": {"message"}, "inform": {"message"}, "notify": {"message"},
	// A contact looked up by number or by place, and what a screen shows.
	"belongs": {"whose number"}, "belong": {"whose number"}, "owns": {"whose number"}, "owner": {"whose number"},
	"person": {"contact", "conversation"}, "people": {"contact"}, "whoever": {"contact"}, "shows": {"shown"}, "displayed": {"shown"},
	"launcher": {"home screen"}, "remove": {"delete"}, "rid": {"delete"}, "erase": {"delete"}, "trash": {"delete"}, "entirely": {"delete"}, "good": {"delete"},
	"change": {"rename", "add "}, "edit": {"rename", "add "}, "update": {"rename", "add "}, "append": {"add "}, "existing": {"existing", "to the note"},
	"words": {"a message: ", "with what was read"}, "active": {"state"}, "inactive": {"state"},
	// A conversation, a reply, a forward: what the Messages todos write.
	"chat": {"conversation"}, "thread": {"conversation"},
	"forward": {"with what was read"}, "result": {"with what was read"}, "pass": {"with what was read"}, "share": {"with what was read"}, "both": {"send"},
	"same": {"a message: ", "with what was read", "send"}, "latest": {"latest", "last message sent", "the last", "first conversation"}, "sign": {"bank"}, "myself": {"bank"}, "i'll": {"bank"}, "only": {"open the conversation"}, "anything": {"open the conversation"}, "don't": {"open the conversation"},
	"flip": {"opposite"}, "toggle": {"opposite"}, "toggling": {"opposite"}, "other": {"opposite"}, "reverse": {"opposite"}, "invert": {"opposite"}}

// cvZhAlias are the English words a todo writes for a Chinese operation
// or offset word of its clause.
var cvZhAlias = map[string][]string{"分钟": {"minute"}, "小时": {"hour", "minute"}, "之后": {"after"}, "以后": {"after"},
	"之前": {"before"}, "以前": {"before"}, "提前": {"before"}, "推迟": {"after"}, "晚": {"after"}, "早": {"before"},
	"删除": {"delete"}, "删掉": {"delete"}, "去掉": {"delete"}, "改名": {"rename"}, "重命名": {"rename"}, "改成": {"rename", "to "},
	"改为": {"rename", "to "}, "转发": {"with what was read"}, "最后发来": {"latest message"}, "追加": {"add "}, "加上": {"add "}, "添加到": {"add "}}

var cvLabel = []string{"label", "titled", "called", "named", "name"}

func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// uncovered returns the words of clause c that the todos written for it
// leave out, or nil when they carry everything the clause says.
func uncovered(c string, ps []planned) []string {
	var b strings.Builder
	for _, p := range ps {
		if p.Ask != "" {
			return nil // a question already
		}
		b.WriteString(strings.ToLower(p.Todo) + " ")
		for _, e := range p.Expect {
			b.WriteString(strings.ToLower(e.String()) + " ")
		}
	}
	todos := b.String()
	var out []string
	for _, m := range cvTimeRe.FindAllString(c, -1) {
		if t := hhmm(m); !strings.Contains(todos, strings.ToLower(m)) && (t == "" || !strings.Contains(todos, t)) {
			out = append(out, m)
		}
	}
	c = cvTimeRe.ReplaceAllString(c, " ")
	for _, w := range cvWordRe.FindAllString(c, -1) {
		lw := strings.ToLower(strings.Trim(w, "'-"))
		if cvSkip[lw] || len(lw) < 2 && !isDigits(lw) || strings.Contains(todos, lw) {
			continue
		}
		if al, ok := cvAlias[lw]; ok && anyIn(todos, al) {
			continue
		}
		if stem, ok := strings.CutSuffix(lw, "'s"); ok && (cvSkip[stem] || strings.Contains(todos, stem)) {
			continue
		}
		out = append(out, w)
	}
	for _, op := range cvZhOpRe.FindAllString(c, -1) {
		if !strings.Contains(todos, op) && !anyIn(todos, cvZhAlias[strings.TrimRight(op, "0123456789")]) {
			out = append(out, op)
		}
	}
	return out
}

func anyIn(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// unsure turns a clause the todos do not cover into a question.
func unsure(c string, ps []planned) []planned {
	miss := uncovered(c, ps)
	if len(miss) == 0 {
		return ps
	}
	var read []string
	for _, p := range ps {
		read = append(read, p.Todo)
	}
	return []planned{{Ask: fmt.Sprintf("I am not sure what %q asks: I would only %s, which leaves out %q. What exactly should I do?",
		c, strings.Join(read, ", then "), strings.Join(miss, " "))}}
}
