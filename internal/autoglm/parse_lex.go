package autoglm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

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
