package autoglm

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxAnswerBytes bounds the answers Parse reads; a 3000-token answer is
// well under it.
const MaxAnswerBytes = 64 << 10

// ParseError is returned when an answer holds no unambiguous action. Raw
// is the model's text as received.
type ParseError struct {
	Raw    string
	Reason string
}

// Error describes the failure without repeating the raw text.
func (e *ParseError) Error() string {
	return "autoglm: cannot parse executor answer: " + e.Reason
}

// Feedback is the correction to send back to the model with the next
// request.
func (e *ParseError) Feedback() string {
	return "Your previous answer could not be used: " + e.Reason +
		`. Answer with <think>your reasoning</think><answer>one action</answer>, for example <answer>do(action="Tap", element=[500,300])</answer> or <answer>finish(message="...")</answer>. Coordinates are numbers from 0 to 999.`
}

// Parse reads an executor answer into its reasoning and action.
//
// It accepts the AutoGLM form <think>…</think><answer>do(…)</answer> and the
// variants other models write: missing or stray tags, markdown fences,
// <|begin_of_box|> wrappers, plain-text reasoning before the action, Chinese
// quotes and full-width punctuation around arguments, single quotes, extra
// spaces, "Long_Press"-style spellings. Calls written before </think> are
// part of the reasoning; when the action is tagged <answer>, calls in the
// prose around it are commentary. When no action is found, when an action is
// malformed, or when the answer names two different actions, it returns a
// *ParseError — never a guessed finish.
func Parse(raw string) (Response, error) {
	fail := func(format string, args ...any) (Response, error) {
		return Response{}, &ParseError{Raw: raw, Reason: fmt.Sprintf(format, args...)}
	}
	if len(raw) > MaxAnswerBytes {
		return fail("answer is %d bytes, more than the %d this parser reads: lower max tokens or ask for a shorter answer", len(raw), MaxAnswerBytes)
	}
	text := strings.ToValidUTF8(raw, "\uFFFD")
	type found struct {
		start, end int
		act        Action
		inAnswer   bool // inside <answer>…</answer>
	}
	var calls []found
	thinkEnd := -1 // index of the first </think>, -1 if none
	inAnswer := false
	var errOutside, errInside string
	errOutsideAt := -1 // where the last malformed call outside <answer> starts
	for i := 0; i < len(text); {
		switch {
		case strings.HasPrefix(text[i:], "</think>") && thinkEnd < 0:
			thinkEnd = i
			calls, errOutside, errInside, errOutsideAt = nil, "", "", -1 // everything so far was reasoning
			inAnswer = false
			i += len("</think>")
			continue
		case strings.HasPrefix(text[i:], "<answer>"):
			inAnswer = true
			i += len("<answer>")
			continue
		case strings.HasPrefix(text[i:], "</answer>"):
			inAnswer = false
			i += len("</answer>")
			continue
		}
		name, after, ok := callAt(text, i)
		if !ok {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			continue
		}
		act, end, err := parseCall(text, name, after)
		if err == "" {
			calls = append(calls, found{start: i, end: end, act: act, inAnswer: inAnswer})
			i = end
			continue
		}
		if inAnswer {
			if errInside == "" {
				errInside = err
			}
			break
		}
		// A malformed call fails the answer unless a later </think> shows
		// it was reasoning, a later <answer> holds the action, or a later
		// call ends the answer. Strings stop at the next call, so going on
		// from just inside this one keeps the scan linear.
		if errOutside == "" {
			errOutside = err
		}
		errOutsideAt = i
		i = after
	}
	// When the answer is tagged, the tagged action is the one meant and
	// calls in the surrounding prose are commentary. Untagged, a call on a
	// line of its own that ends the answer is the action, and calls quoted
	// in the reasoning before it (the previous step, an action it rules
	// out) are commentary.
	tagged := calls[:0:0]
	for _, c := range calls {
		if c.inAnswer {
			tagged = append(tagged, c)
		}
	}
	switch {
	case errInside != "":
		return fail("%s", errInside)
	case len(tagged) > 0:
		calls = tagged
	case len(calls) > 0 && calls[len(calls)-1].start > errOutsideAt && endsAnswer(text, calls[len(calls)-1].start, calls[len(calls)-1].end):
		calls = calls[len(calls)-1:]
	case errOutside != "":
		return fail("%s", errOutside)
	}
	if len(calls) == 0 {
		return fail(`no action found: expected do(action="...", ...) or finish(message="...")`)
	}
	for _, c := range calls[1:] {
		if !sameAction(c.act, calls[0].act) {
			return fail("two different actions: %s and %s; give exactly one", FormatAction(calls[0].act), FormatAction(c.act))
		}
	}
	var thinking string
	if thinkEnd >= 0 {
		thinking = text[:thinkEnd]
		if j := strings.Index(thinking, "<think>"); j >= 0 {
			thinking = thinking[j+len("<think>"):]
		}
	} else {
		thinking = text[:calls[0].start]
	}
	return Response{Thinking: cleanThinking(thinking), Action: calls[0].act}, nil
}

// endsAnswer reports whether the call at text[start:end] stands on a line
// of its own (after a tag, fence or "Action:" label at most) and nothing but
// closing tags, fences and space follow it.
func endsAnswer(text string, start, end int) bool {
	before := text[strings.LastIndex(text[:start], "\n")+1 : start]
	if cleanThinking(before) != "" {
		return false
	}
	rest := text[end:]
	for _, tag := range []string{"</answer>", "<|end_of_box|>", "```", "</think>"} {
		rest = strings.ReplaceAll(rest, tag, "")
	}
	return strings.TrimSpace(rest) == ""
}

// cleanThinking strips tags, fences and action labels from reasoning text.
func cleanThinking(s string) string {
	for _, tag := range []string{"<think>", "</think>", "<answer>", "</answer>", "<|begin_of_box|>", "<|end_of_box|>"} {
		s = strings.ReplaceAll(s, tag, "")
	}
	lines := strings.Split(s, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			continue
		}
		kept = append(kept, l)
	}
	s = strings.TrimSpace(strings.Join(kept, "\n"))
	for _, label := range []string{"Action:", "action:", "**Action:**", "Answer:", "动作：", "动作:", "操作：", "操作:"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, label))
	}
	return s
}

// callAt reports whether a do( or finish( call starts at text[i] and returns
// its name and the index just after the opening parenthesis. A "do(" only
// counts when its first argument is action=, so prose such as
// "what to do (see above)" is not taken for an action.
func callAt(text string, i int) (name string, after int, ok bool) {
	if i > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:i])
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return "", 0, false
		}
	}
	for _, n := range []string{"do", "finish"} {
		if !strings.HasPrefix(text[i:], n) {
			continue
		}
		j := skipSpace(text, i+len(n))
		k, ok := consume(text, j, "(", "（")
		if !ok {
			continue
		}
		m := skipSpace(text, k)
		if n == "do" {
			if !strings.HasPrefix(text[m:], "action") {
				return "", 0, false
			}
		} else if m < len(text) && !isQuote(text, m) && !strings.HasPrefix(text[m:], "message") && !isClose(text, m) {
			return "", 0, false
		}
		return n, k, true
	}
	return "", 0, false
}

// value is one parsed argument value.
type value struct {
	str   string
	pt    *Point
	isStr bool // a quoted string or bare word
	bad   string
}

// parseCall parses the arguments of name( starting at text[i] and returns
// the action and the index after the closing parenthesis, or a reason.
func parseCall(text, name string, i int) (Action, int, string) {
	args := map[string]value{}
	var positional []value
	for {
		i = skipSpace(text, i)
		if i >= len(text) || endOfAnswer(text, i) {
			break // a call cut off at the end of the answer: its arguments are complete
		}
		if j, ok := consumeClose(text, i); ok {
			i = j
			break
		}
		key := ""
		if k := identEnd(text, i); k > i {
			j := skipSpace(text, k)
			if e, ok := consume(text, j, "=", "＝", ":", "："); ok {
				key = strings.ToLower(text[i:k])
				i = skipSpace(text, e)
			}
		}
		v, j, err := parseValue(text, i)
		if err != "" {
			return Action{}, 0, err
		}
		i = j
		if key == "" {
			positional = append(positional, v)
		} else {
			args[key] = v
		}
		i = skipSpace(text, i)
		if j, ok := consume(text, i, ",", "，", "、"); ok {
			i = j
			continue
		}
		if i >= len(text) || endOfAnswer(text, i) {
			break
		}
		if j, ok := consumeClose(text, i); ok {
			i = j
			break
		}
		return Action{}, 0, fmt.Sprintf("unexpected %q in %s(...): separate arguments with commas", clip(text[i:]), name)
	}
	if name == "finish" {
		a := Action{Name: ActionFinish}
		if m, ok := args["message"]; ok {
			a.Message = m.str
		} else if len(positional) == 1 && positional[0].isStr {
			a.Message = positional[0].str
		}
		return a, i, ""
	}
	av, ok := args["action"]
	if !ok || !av.isStr {
		return Action{}, 0, `do(...) without action="...": name the action`
	}
	canon, ok := canonicalAction(av.str)
	if !ok {
		return Action{}, 0, fmt.Sprintf("unknown action %q: use one of Launch, Tap, Type, Type_Name, Swipe, Long Press, Double Tap, Back, Home, Wait, Take_over, Interact, Note, Call_API, finish", av.str)
	}
	a := Action{Name: canon}
	str := func(key string) (string, bool) {
		v, ok := args[key]
		if !ok {
			return "", false
		}
		if !v.isStr {
			return "", false
		}
		return v.str, true
	}
	point := func(key string) (*Point, string) {
		v, ok := args[key]
		if !ok {
			return nil, fmt.Sprintf("%s needs %s=[x,y] with numbers from 0 to 999", canon, key)
		}
		if v.bad != "" {
			return nil, fmt.Sprintf("%s %s: %s", canon, key, v.bad)
		}
		if v.pt != nil {
			return v.pt, ""
		}
		p, bad := pointFromString(v.str)
		if bad != "" {
			return nil, fmt.Sprintf("%s %s=%q: %s", canon, key, v.str, bad)
		}
		return p, ""
	}
	var bad string
	switch canon {
	case ActionLaunch:
		a.App, _ = str("app")
		a.App = strings.TrimSpace(a.App)
		if a.App == "" {
			return Action{}, 0, `Launch needs app="<app name>"`
		}
	case ActionTap, ActionLongPress, ActionDoubleTap:
		if a.Element, bad = point("element"); bad != "" {
			return Action{}, 0, bad
		}
		if canon == ActionTap {
			a.Message, _ = str("message")
		}
	case ActionType, ActionTypeName:
		var ok bool
		if a.Text, ok = str("text"); !ok {
			return Action{}, 0, canon + ` needs text="..."`
		}
	case ActionSwipe:
		if a.Start, bad = point("start"); bad != "" {
			return Action{}, 0, bad
		}
		if a.End, bad = point("end"); bad != "" {
			return Action{}, 0, bad
		}
	case ActionWait:
		a.Duration, _ = str("duration")
	case ActionTakeOver, ActionNote:
		a.Message, _ = str("message")
	case ActionCallAPI:
		a.Instruction, _ = str("instruction")
	case ActionFinish:
		a.Message, _ = str("message")
	}
	return a, i, ""
}

// canonicalAction maps the spellings models use to the protocol's names.
func canonicalAction(s string) (string, bool) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer(" ", "", "_", "", "-", "").Replace(k)
	switch k {
	case "launch", "openapp":
		return ActionLaunch, true
	case "tap", "click":
		return ActionTap, true
	case "type", "input":
		return ActionType, true
	case "typename":
		return ActionTypeName, true
	case "swipe", "scroll":
		return ActionSwipe, true
	case "longpress":
		return ActionLongPress, true
	case "doubletap", "doubleclick":
		return ActionDoubleTap, true
	case "back":
		return ActionBack, true
	case "home":
		return ActionHome, true
	case "wait":
		return ActionWait, true
	case "takeover":
		return ActionTakeOver, true
	case "interact":
		return ActionInteract, true
	case "note":
		return ActionNote, true
	case "callapi":
		return ActionCallAPI, true
	case "finish":
		return ActionFinish, true
	}
	return "", false
}

// parseValue reads a quoted string, a [x,y] list or a bare word at text[i].
func parseValue(text string, i int) (value, int, string) {
	if i >= len(text) {
		return value{}, i, "argument value missing"
	}
	if isQuote(text, i) {
		s, j, ok := readString(text, i)
		if !ok {
			return value{}, i, "unterminated string: close it with a quote"
		}
		return value{str: s, isStr: true}, j, ""
	}
	if j, ok := consume(text, i, "[", "［", "【", "("); ok {
		var items []string
		cur := j
		for {
			k := cur
			for k < len(text) {
				if _, ok := consume(text, k, "]", "］", "】", ")", ",", "，"); ok {
					break
				}
				k++
			}
			if k >= len(text) {
				return value{}, i, "unclosed [x,y] list: close it with ]"
			}
			items = append(items, strings.TrimSpace(text[cur:k]))
			if e, ok := consume(text, k, ",", "，"); ok {
				cur = e
				continue
			}
			e, _ := consume(text, k, "]", "］", "】", ")")
			v := value{}
			v.pt, v.bad = pointFromItems(items)
			return v, e, ""
		}
	}
	k := i
	for k < len(text) {
		if _, ok := consume(text, k, ",", "，", ")", "）", "\n"); ok || endOfAnswer(text, k) {
			break
		}
		k++
	}
	word := strings.TrimSpace(text[i:k])
	if word == "" {
		return value{}, i, "argument value missing"
	}
	return value{str: word, isStr: true}, k, ""
}

// pointFromItems checks a two-number list on the 0-999 grid.
func pointFromItems(items []string) (*Point, string) {
	if len(items) != 2 {
		return nil, fmt.Sprintf("want two coordinates [x,y], got %d", len(items))
	}
	var p Point
	for n, it := range items {
		f, err := strconv.ParseFloat(strings.Trim(it, `"' `), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Sprintf("placeholder or non-numeric coordinates [%s]: give numbers from 0 to 999", strings.Join(items, ","))
		}
		v := int(math.Round(f))
		if f < 0 || f > 999.5 || v > 999 {
			return nil, fmt.Sprintf("coordinate %s is outside 0-999: coordinates are relative, not pixels", it)
		}
		p[n] = v
	}
	return &p, ""
}

// pointFromString reads a point written as a string, e.g. element="[5,6]".
func pointFromString(s string) (*Point, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, "empty coordinates"
	}
	v, _, err := parseValue(s, 0)
	if err != "" {
		return nil, err
	}
	if v.pt == nil && v.bad == "" {
		return nil, "want [x,y] with numbers from 0 to 999"
	}
	return v.pt, v.bad
}

// readString reads a quoted string at text[i]. A string ends only where
// the call's syntax ends it (docs/design.md §3): at a closing quote followed
// by ")" and then the end of the call (the end of the answer, a closing tag
// or a line break), by a separator and the next argument's name ("text=",
// "，app="), or by the end of the answer. Quotes and Chinese punctuation
// anywhere else are text: `“你好”，我到了` stays whole. A quote followed by ")"
// and more prose on the same line ends the string when nothing better does;
// a string never runs into the next call or a closing tag. Backslash
// escapes \n, \t, \r and escaped quotes or backslashes are decoded.
func readString(text string, i int) (string, int, bool) {
	open, size := utf8.DecodeRuneInString(text[i:])
	j := i + size
	var b strings.Builder
	// weak is a quote followed by ")" and more prose; first is the first
	// quote that could close the string at all (as in
	// `action="Tap" element=...`, which then fails on the missing comma).
	type cut struct{ end, n int }
	weak, first := cut{-1, 0}, cut{-1, 0}
	for j < len(text) {
		if endOfAnswer(text, j) {
			break
		}
		if _, _, ok := callAt(text, j); ok {
			break
		}
		r, sz := utf8.DecodeRuneInString(text[j:])
		if r == '\\' && j+sz < len(text) {
			n, nsz := utf8.DecodeRuneInString(text[j+sz:])
			switch {
			case n == 'n':
				b.WriteByte('\n')
			case n == 't':
				b.WriteByte('\t')
			case n == 'r':
				b.WriteByte('\r')
			case n == '\\' || quoteRune(n) || breakRune(n):
				b.WriteRune(n)
			default:
				b.WriteRune(r)
				b.WriteRune(n)
			}
			j += sz + nsz
			continue
		}
		if closes(open, r) {
			switch stringEnd(text, j+sz) {
			case endSure:
				return b.String(), j + sz, true
			case endLikely:
				if weak.end < 0 {
					weak = cut{j + sz, b.Len()}
				}
			}
			if first.end < 0 {
				first = cut{j + sz, b.Len()}
			}
		}
		b.WriteRune(r)
		j += sz
	}
	for _, c := range []cut{weak, first} {
		if c.end >= 0 {
			return b.String()[:c.n], c.end, true
		}
	}
	return "", j, false
}

// How surely a quote ends a string, by what follows it.
const (
	endNo     = iota
	endLikely // ")" and more prose on the same line
	endSure   // ")" and the end of the call, the next argument, or the end of the answer
)

// stringEnd judges a closing-looking quote by the text after it, from k.
func stringEnd(text string, k int) int {
	k = skipSpace(text, k)
	if k >= len(text) || endOfAnswer(text, k) {
		return endSure // a call cut off after its last string
	}
	if e, ok := consumeClose(text, k); ok {
		for m := e; ; {
			if m >= len(text) || endOfAnswer(text, m) {
				return endSure
			}
			r, sz := utf8.DecodeRuneInString(text[m:])
			if r == '\n' {
				return endSure
			}
			if !unicode.IsSpace(r) && r != '\u3000' {
				return endLikely
			}
			m += sz
		}
	}
	if e, ok := consume(text, k, ",", "，", "、"); ok && argumentNameAt(text, skipSpace(text, e)) {
		return endSure
	}
	return endNo
}

// argNames are the argument names of the protocol's calls (docs/design.md §3).
var argNames = []string{"action", "app", "element", "text", "start", "end", "duration", "message", "instruction"}

// argumentNameAt reports whether text[i:] starts the next argument: a name
// and "=" (any name), or one of the protocol's names and ":".
func argumentNameAt(text string, i int) bool {
	k := identEnd(text, i)
	if k == i {
		return false
	}
	m := skipSpace(text, k)
	if _, ok := consume(text, m, "=", "＝"); ok {
		return true
	}
	if _, ok := consume(text, m, ":", "："); ok {
		for _, n := range argNames {
			if strings.EqualFold(text[i:k], n) {
				return true
			}
		}
	}
	return false
}

func quoteRune(r rune) bool {
	switch r {
	case '"', '\'', '“', '”', '‘', '’', '「', '」':
		return true
	}
	return false
}

// closes reports whether r may close a string opened with open. Models mix
// straight and curly quotes, so any double quote closes a double-quoted
// string and any single quote a single-quoted one.
func closes(open, r rune) bool {
	double := func(r rune) bool { return r == '"' || r == '“' || r == '”' }
	single := func(r rune) bool { return r == '\'' || r == '‘' || r == '’' }
	switch {
	case double(open):
		return double(r)
	case single(open):
		return single(r)
	case open == '「':
		return r == '」'
	}
	return false
}

func isQuote(text string, i int) bool {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r == '"' || r == '\'' || r == '“' || r == '”' || r == '‘' || r == '’' || r == '「'
}

func isClose(text string, i int) bool {
	_, ok := consumeClose(text, i)
	return ok
}

func consumeClose(text string, i int) (int, bool) { return consume(text, i, ")", "）") }

// endOfAnswer reports whether text[i:] starts a tag or fence that ends the
// answer, so a call missing its ")" still ends there.
func endOfAnswer(text string, i int) bool {
	for _, s := range []string{"</answer>", "<|end_of_box|>", "```"} {
		if strings.HasPrefix(text[i:], s) {
			return true
		}
	}
	return false
}

// consume returns the index after whichever of the tokens starts at text[i].
func consume(text string, i int, tokens ...string) (int, bool) {
	if i >= len(text) {
		return i, false
	}
	for _, t := range tokens {
		if strings.HasPrefix(text[i:], t) {
			return i + len(t), true
		}
	}
	return i, false
}

func skipSpace(text string, i int) int {
	for i < len(text) {
		r, sz := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) && r != '\u3000' {
			return i
		}
		i += sz
	}
	return i
}

func identEnd(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			i++
			continue
		}
		break
	}
	return i
}

func clip(s string) string {
	if len(s) > 20 {
		for n := 20; n > 0; n-- {
			if utf8.RuneStart(s[n]) {
				return s[:n] + "…"
			}
		}
	}
	return s
}

func sameAction(a, b Action) bool {
	eq := func(p, q *Point) bool { return (p == nil) == (q == nil) && (p == nil || *p == *q) }
	return a.Name == b.Name && a.App == b.App && a.Text == b.Text && a.Message == b.Message &&
		a.Duration == b.Duration && a.Instruction == b.Instruction &&
		eq(a.Element, b.Element) && eq(a.Start, b.Start) && eq(a.End, b.End)
}

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
