package autoglm

import (
	"fmt"
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
// prose around it are commentary; a do() on a line of its own wins over a
// finish() after it (never a finish in place of an action). When no action is found, when an action is
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
	all := calls
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
		last := calls[len(calls)-1]
		calls = calls[len(calls)-1:]
		if last.act.Name != ActionFinish {
			break
		}
		// A trailing finish never replaces an action the answer wrote on a
		// line of its own before it: the do() is what the model meant to
		// run, and the finish its hope for the next turn. Two such lines
		// that differ are ambiguous.
		var own []found
		for _, c := range all[:len(all)-1] {
			if c.act.Name != ActionFinish && c.start > errOutsideAt && ownLine(text, c.start, c.end) {
				own = append(own, c)
			}
		}
		if len(own) > 0 {
			calls = own
		}
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
	thinking = cleanThinking(thinking)
	return Response{Thinking: thinking, Action: calls[0].act,
		Said: "<think>" + thinking + "</think><answer>" + callText(text, calls[0].start, calls[0].end) + "</answer>"}, nil
}

// callText is the call at text[start:end] as the model wrote it, without
// the space or closing tags its end may have taken in.
func callText(text string, start, end int) string {
	s := strings.TrimSpace(text[start:end])
	for _, tag := range []string{"</answer>", "<|end_of_box|>", "```", "</think>"} {
		s = strings.TrimSpace(strings.TrimSuffix(s, tag))
	}
	return s
}

// ownLine reports whether the call at text[start:end] stands on a line of
// its own: nothing but a tag, fence or "Action:" label before it on its
// line, nothing but closing tags and space after it.
func ownLine(text string, start, end int) bool {
	before := text[strings.LastIndex(text[:start], "\n")+1 : start]
	if cleanThinking(before) != "" {
		return false
	}
	rest := text[end:]
	if i := strings.Index(rest, "\n"); i >= 0 {
		rest = rest[:i]
	}
	for _, tag := range []string{"</answer>", "<|end_of_box|>", "```", "</think>"} {
		rest = strings.ReplaceAll(rest, tag, "")
	}
	return strings.TrimSpace(rest) == ""
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

func sameAction(a, b Action) bool {
	eq := func(p, q *Point) bool { return (p == nil) == (q == nil) && (p == nil || *p == *q) }
	return a.Name == b.Name && a.App == b.App && a.Text == b.Text && a.Message == b.Message &&
		a.Duration == b.Duration && a.Instruction == b.Instruction &&
		eq(a.Element, b.Element) && eq(a.Start, b.Start) && eq(a.End, b.End)
}
