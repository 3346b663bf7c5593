package modelserver

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
)

// The planner persona's reading of goals about notes that exist already
// (docs/design.md §9): renaming one, adding to its text, reading its
// title or body, deleting it. The notes list shows titles only, so a
// change to a note's text is checked by a last todo that opens the note
// and leaves its editor on the screen: the check reads the saved body
// there, never the executor's word.

const rdQ = `["“'‘]?`
const rdQEnd = `["”'’]?`

var (
	rdRenameRes = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:rename|retitle)\s+(?:the\s+|my\s+)?(?:note\s+)?` + rdQ + `(.+?)` + rdQEnd + `(?:\s+note)?\s+(?:to|as|into)\s+` + rdQ + `(.+?)` + rdQEnd + `$`),
		regexp.MustCompile(`(?i)^(?:change|set|update)\s+the\s+(?:title|name)\s+of\s+(?:the\s+|my\s+)?(?:note\s+)?` + rdQ + `(.+?)` + rdQEnd + `(?:\s+note)?\s+to\s+` + rdQ + `(.+?)` + rdQEnd + `$`),
		regexp.MustCompile(`(?i)^(?:the\s+)?note\s+` + rdQ + `(.+?)` + rdQEnd + `\s*(?:->|→|=>)\s*(?:(?:new\s+)?title\s*:?\s*)?` + rdQ + `(.+?)` + rdQEnd + `$`),
		regexp.MustCompile(`^(?:把|将)?(?:笔记|备忘录?|便签)?\s*["“]?(.+?)["”]?(?:这条|这个)?(?:笔记|备忘录?|便签)?(?:的标题|的名字)?\s*(?:改名为|改名成|重命名为|改成|改为|更名为)\s*["“]?(.+?)["”]?$`),
	}
	// rdKeepTextRe is "Keep its text." after a rename: what a rename does.
	rdKeepTextRe = regexp.MustCompile(`(?i)[?.!？。]*\s*(?:and\s+)?keep(?:ing)?\s+(?:its|the)\s+(?:text|body|contents?)(?:\s+as\s+it\s+is)?[.!。]?$|[，,]?\s*内容不变$|[，,]?\s*保留(?:原)?内容$`)
	rdAppendRes  = []*regexp.Regexp{
		regexp.MustCompile(`(?i)^(?:add|put|append|include|write)\s+` + rdQ + `(.+?)` + rdQEnd + `\s+(?:to|on|onto|in|into|at\s+the\s+end\s+of)\s+(?:the\s+|my\s+)?note\s+` + rdQ + `(.+?)` + rdQEnd + `$`),
		regexp.MustCompile(`(?i)^(?:add|put|append|include|write)\s+` + rdQ + `(.+?)` + rdQEnd + `\s+(?:to|on|onto|in|into|at\s+the\s+end\s+of)\s+(?:the\s+|my\s+)?` + rdQ + `(.+?)` + rdQEnd + `\s+note(?:'s\s+(?:list|text|body))?$`),
		regexp.MustCompile(`^在\s*["“]?(.+?)["”]?\s*(?:笔记|备忘录?|便签)(?:里|中|里面|末尾)?\s*(?:加上|添加|追加|加入|加|写上)\s*["“]?(.+?)["”]?$`),
		regexp.MustCompile(`^(?:把|将)\s*["“]?(.+?)["”]?\s*(?:加到|添加到|追加到|加入|写到)\s*["“]?(.+?)["”]?\s*(?:笔记|备忘录?|便签)(?:里|中|里面)?$`),
	}
	// rdEditAppendRe is "Edit the existing Groceries note: append butter".
	rdEditAppendRe = regexp.MustCompile(`(?i)^(?:edit|update|change)\s+(?:the\s+|my\s+)?(?:existing\s+)?(?:note\s+)?` + rdQ + `(.+?)` + rdQEnd + `(?:\s+note)?\s*[:：,，]\s*(?:append|add)\s+` + rdQ + `(.+?)` + rdQEnd + `$`)
	rdNoteReadRe   = regexp.MustCompile(`(?i)\b(?:contents?|body|text|title|name)$|内容$|标题$|\bwhat(?:'s|\s+is)\s+(?:in|on)\b|\bwhat\s+does\b.*\bsay\b`)
	// rdNotATitleRe are words after "note" that name no note.
	rdNotATitleRe  = regexp.MustCompile(`(?i)^(?:a|new|for good|permanently|entirely|forever|contents?|body|text|title|name)$`)
	rdNoteTitleQRe = regexp.MustCompile(`(?i)\b(?:title|called|named|name)\b|标题|叫什么|名字`)
	rdNoteNamedRe  = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bnote\s+(?:titled\s+|called\s+|named\s+)?` + rdQ + `([^"”'’]+?)` + rdQEnd + `(?:\s+(?:say|contain|hold)s?\b.*|\s+in\s+(?:the\s+)?Notes.*)?$`),
		regexp.MustCompile(`(?i)\b(?:my|the)\s+` + rdQ + `(.+?)` + rdQEnd + `\s+note\b`),
		regexp.MustCompile(`(?i)^` + rdQ + `(.+?)` + rdQEnd + `\s+note\b`),
		regexp.MustCompile(`["“]?([^"“”]+?)["”]?(?:这条|这个)?(?:笔记|备忘录?|便签)`),
	}
)

// noteNamed is the title a clause names a note by, or "".
func noteNamed(c string) string {
	for _, re := range rdNoteNamedRe {
		if m := re.FindStringSubmatch(c); m != nil {
			t := strings.TrimSpace(regexp.MustCompile(`(?i)^(?:read|check|show|tell me|what's in|what is in|读一下|查看|看看|看一下|读取|告诉我)\s*(?:me\s+)?(?:the\s+|my\s+)?|^(?:body|text|contents?)\s+of\s+(?:the\s+|my\s+)?`).ReplaceAllString(m[1], ""))
			if t != "" && ordinal(t) == 0 && !rdNotATitleRe.MatchString(t) {
				return t
			}
		}
	}
	return ""
}

// openToCheck is the todo that opens a note so its saved text can be seen,
// with the checks on it.
func openToCheck(title string, body ...string) planned {
	exp := []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.FieldHolds, Field: "Title", Value: title}}
	todo := fmt.Sprintf("Open the note %q", title)
	for i, b := range body {
		exp = append(exp, postcond.Check{Kind: postcond.FieldHolds, Field: "Body", Value: b})
		todo += map[bool]string{true: " to check it holds ", false: ", "}[i == 0] + fmt.Sprintf("%q", b)
	}
	return planned{Todo: todo, Expect: exp}
}

// rdOpenNoteRe is the todo openToCheck writes, read again when a replan
// hands the rest of the plan back: the same checks come out of it.
var (
	rdOpenNoteRe = regexp.MustCompile(`^Open the note "([^"]+)"(?: to check it holds (.+))?$`)
	rdQuotedRe   = regexp.MustCompile(`"([^"]*)"`)
)

// openNoteAgain reads a todo openToCheck wrote; ok is false for another.
func openNoteAgain(c string) (planned, bool) {
	m := rdOpenNoteRe.FindStringSubmatch(c)
	if m == nil {
		return planned{}, false
	}
	var body []string
	for _, q := range rdQuotedRe.FindAllStringSubmatch(m[2], -1) {
		body = append(body, q[1])
	}
	return openToCheck(m[1], body...), true
}

// noteClauseTodos reads the note clauses this file handles; ok is false
// for one it leaves to noteTodo (a new note).
func noteClauseTodos(c string) ([]planned, bool) {
	c = strings.TrimSpace(c)
	if p, ok := openNoteAgain(c); ok {
		return []planned{p}, true
	}
	if rdDeleteRe.MatchString(c) {
		title := noteNamed(rdDeleteRe.ReplaceAllString(c, ""))
		if title == "" {
			title = strings.TrimSpace(regexp.MustCompile(`(?i)^(?:delete|remove|trash|erase|get\s+rid\s+of|clear)\s+(?:the\s+|my\s+)?(?:note\s+)?|^(?:删除|删掉|去掉|清除)(?:笔记|备忘录?|便签)?`).ReplaceAllString(c, ""))
		}
		if title == "" {
			return []planned{{Ask: "Which note should I delete?"}}, true
		}
		return []planned{{Todo: fmt.Sprintf("Delete the note %q", title), Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.ElementAbsent, Text: title}}}}, true
	}
	kept := rdKeepTextRe.ReplaceAllString(c, "")
	for _, re := range rdRenameRes {
		if m := re.FindStringSubmatch(kept); m != nil {
			from, to := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
			from = strings.TrimSpace(regexp.MustCompile(`^(?:笔记|备忘录?|便签)`).ReplaceAllString(from, ""))
			todo := fmt.Sprintf("Rename the note %q to %q", from, to)
			if kept != c {
				todo += " and keep its text"
			}
			// Checked on the notes list, where every saved title is: an
			// editor left open with the new title typed but not saved must
			// not pass. The list is known by the word both lists show and
			// no editor does: the classic list's title "Notes", Keep's
			// search bar "Search your notes"; a title typed in an editor
			// is not a word the screen shows.
			return []planned{{Todo: todo, Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.ElementExists, Text: "Notes"},
				{Kind: postcond.ElementExists, Text: to}, {Kind: postcond.ElementAbsent, Text: from}}}}, true
		}
	}
	var title, item string
	if m := rdEditAppendRe.FindStringSubmatch(c); m != nil {
		title, item = m[1], m[2]
	}
	for i, re := range rdAppendRes {
		if m := re.FindStringSubmatch(c); m != nil && title == "" {
			title, item = m[2], m[1]
			if i == 2 {
				title, item = m[1], m[2]
			}
		}
	}
	if title != "" && item != "" {
		title, item = strings.TrimSpace(title), strings.TrimSpace(item)
		add := planned{Todo: fmt.Sprintf("Add %q to the note %q", item, title),
			Expect: []postcond.Check{{Kind: postcond.AppInFront, App: "Notes"}, {Kind: postcond.ElementExists, Text: title}}}
		return []planned{add, openToCheck(title, item)}, true
	}
	if rdNoteReadRe.MatchString(c) && !regexp.MustCompile(`(?i)\b(?:create|new|make|write|save|jot)\b|新建|创建|写`).MatchString(c) {
		return []planned{noteReadTodo(c)}, true
	}
	return nil, false
}

// noteReadTodo reads a question about a note: its title (by its place in
// the list) or its body.
func noteReadTodo(c string) planned {
	answer := func(todo string, n int) planned {
		ch := postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel, Ordinal: n}
		return planned{Todo: todo, Reads: true, Expect: []postcond.Check{ch}}
	}
	n := ordinal(c)
	if rdNoteTitleQRe.MatchString(c) && !strings.Contains(strings.ToLower(c), "body") {
		if n == 0 {
			n = 1
		}
		return answer(fmt.Sprintf("Read the title of the %s note in Notes", ordinalWord(n)), n)
	}
	if n != 0 {
		return answer(fmt.Sprintf("Read the body of the %s note in Notes", ordinalWord(n)), 0)
	}
	if t := noteNamed(c); t != "" {
		return answer(fmt.Sprintf("Read the body of the note %q in Notes", t), 0)
	}
	return planned{Ask: "Which note should I read: its title, or the first, second, … in the list?"}
}

var (
	// rdNoteColonRe is "note T: body" and "new note "T": body".
	rdNoteColonRe = regexp.MustCompile(`(?i)^(?:(?:create|add|make|write|save)\s+)?(?:a\s+)?(?:new\s+)?note\s+["“']?([^"”':：]+?)["”']?\s*[:：]\s*(.+)$`)
	rdNoteNounRe  = regexp.MustCompile(`的(?:笔记|备忘录?|便签)$|(?i)\s+note$`)
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
			title = strings.TrimSpace(regexp.MustCompile(`(?i)^(?:delete|remove)\s+(?:the\s+|my\s+)?note\s+|^删除(?:笔记|备忘录?|便签)?`).ReplaceAllString(c, ""))
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
