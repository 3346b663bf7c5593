package autoglm

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// FormatAction writes a in the protocol's do(...) / finish(...) form, the
// inverse of Parse.
func FormatAction(a Action) string {
	var b strings.Builder
	arg := func(k, v string) { fmt.Fprintf(&b, ", %s=%s", k, quote(v)) }
	pt := func(k string, p *Point) {
		if p != nil {
			fmt.Fprintf(&b, ", %s=[%d,%d]", k, p[0], p[1])
		}
	}
	if a.Name == ActionFinish {
		return "finish(message=" + quote(a.Message) + ")"
	}
	b.WriteString(`do(action=` + quote(a.Name))
	switch a.Name {
	case ActionLaunch:
		arg("app", a.App)
	case ActionTap, ActionLongPress, ActionDoubleTap:
		pt("element", a.Element)
		if a.Message != "" {
			arg("message", a.Message)
		}
	case ActionType, ActionTypeName:
		if a.Sealed != "" {
			arg("text", Masked(a.Chars))
			break
		}
		arg("text", a.Text)
	case ActionSwipe:
		pt("start", a.Start)
		pt("end", a.End)
	case ActionWait:
		if a.Duration != "" {
			arg("duration", a.Duration)
		}
	case ActionTakeOver, ActionNote:
		if a.Message != "" {
			arg("message", a.Message)
		}
	case ActionCallAPI:
		if a.Instruction != "" {
			arg("instruction", a.Instruction)
		}
	}
	b.WriteString(")")
	return b.String()
}

// quote writes s as a double-quoted argument with quotes, backslashes and
// control characters escaped the way Parse reads them, and a backslash
// inside anything that would end a string early: "</answer>" is written
// <\/answer>, "do(action=" do\(action=.
func quote(s string) string {
	mark := map[int]bool{}
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		if endOfAnswer(s, i) {
			mark[i+size] = true
		}
		if _, after, ok := callAt(s, i); ok {
			_, psize := utf8.DecodeLastRuneInString(s[:after])
			mark[after-psize] = true
		}
		i += size
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case mark[i] || r == '\\' || quoteRune(r):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// breakRune reports whether r is escaped by quote to keep a tag, fence or
// call inside a string from ending it; Parse reads \r as r for these.
func breakRune(r rune) bool {
	switch r {
	case '/', '|', '`', '(', '（':
		return true
	}
	return false
}
