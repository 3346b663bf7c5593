package routine

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/device"
)

// Param kinds: what a todo carries that changes from run to run.
const (
	KindQuoted = "quoted" // text in quotes: "see you at 7", «…», 「…」
	KindText   = "text"   // the text after a colon: "Send Alice a message: 07:00"
	KindNumber = "number" // numbers, times, dates, phone numbers: 7, 07:00, 2026-11-23, +1 555 0101
	KindName   = "name"   // capitalised words that are not the first word or an app: Alice, Zhang San
)

// Param is one parameter of a todo.
type Param struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
	// Format is the layout a KindTime parameter is typed in ("15:04").
	Format string `json:"format,omitempty"`
}

// Task is a todo split into its template and parameters: "Send Alice a
// message saying \"hi\"" is the template "send {1} a message saying {2}"
// with the parameters Alice (name) and hi (quoted).
type Task struct {
	Template string  `json:"template"`
	Params   []Param `json:"params,omitempty"`
}

// placeholder is the template's mark for parameter i (1-based).
func placeholder(i int) string { return "{" + strconv.Itoa(i) + "}" }

var placeholderRe = regexp.MustCompile(`\{[0-9]+\}`)

// quote pairs: opening mark → closing mark.
var quotePairs = map[rune]rune{'"': '"', '“': '”', '„': '“', '«': '»', '「': '」', '『': '』', '‘': '’', '\'': '\''}

var (
	numberRe = regexp.MustCompile(`\+?\d+(?:[ :.,/-]?\d+)*(?:\s?(?:[ap]\.?m\.?)\b)?`)
	spaceRe  = regexp.MustCompile(`\s+`)
)

// span is a parameter found at [start,end) of the text being scanned.
type span struct {
	start, end int
	p          Param
}

// Parse splits a todo into its template and parameters, in the order they
// appear: quoted text first (whatever it says), then the text after a
// colon, numbers, and names. The template is lower case with single spaces
// and no trailing punctuation, so todos that differ only in their
// parameters, case or spacing share it.
func Parse(todo string) Task {
	text := strings.TrimSpace(todo)
	var spans []span
	// 1. Quoted text, whatever it says.
	spans = append(spans, quoted(text)...)
	// 2. The text after the first ": " outside quotes, unless it is quoted
	// already ("Send Alice a message: 07:00").
	if i := colonOutside(text, spans); i >= 0 {
		rest := strings.TrimSpace(text[i+1:])
		start := len(text) - len(strings.TrimLeft(text[i+1:], " \t"))
		rest = strings.TrimRight(rest, " .!。")
		if rest != "" && !coveredBy(spans, start, start+len(rest)) {
			// The words after the colon are one parameter, quotes inside
			// and all ("“你好”，我到了"): a quote within them is no span of
			// its own.
			kept := spans[:0]
			for _, q := range spans {
				if q.start < start || q.end > start+len(rest) {
					kept = append(kept, q)
				}
			}
			spans = append(kept, span{start, start + len(rest), Param{Kind: KindText, Value: rest}})
		}
	}
	// 3. Numbers and 4. names, outside what is already a parameter.
	for _, m := range numberRe.FindAllStringIndex(text, -1) {
		if !overlaps(spans, m[0], m[1]) && wordEdge(text, m[0], m[1]) {
			spans = append(spans, span{m[0], m[1], Param{Kind: KindNumber, Value: text[m[0]:m[1]]}})
		}
	}
	spans = append(spans, names(text, spans)...)
	sortSpans(spans)
	var b strings.Builder
	t := Task{}
	last := 0
	for _, s := range spans {
		if s.start < last {
			continue // overlaps the one before; never cut the text backwards
		}
		b.WriteString(text[last:s.start])
		b.WriteString(placeholder(len(t.Params) + 1))
		t.Params = append(t.Params, s.p)
		last = s.end
	}
	b.WriteString(text[last:])
	t.Template = normalise(b.String())
	return t
}

// normalise lower-cases, collapses spaces and trims trailing punctuation.
func normalise(s string) string {
	s = strings.ToLower(spaceRe.ReplaceAllString(strings.TrimSpace(s), " "))
	return strings.TrimRight(s, " .!。")
}

func quoted(text string) []span {
	var out []span
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		closeR, ok := quotePairs[r]
		if !ok || (r == '\'' || r == '‘') && !opensQuote(text, i) {
			i += n
			continue
		}
		j := i + n
		end := -1
		for k := j; k < len(text); {
			r2, n2 := utf8.DecodeRuneInString(text[k:])
			if r2 == closeR && (r2 != '\'' || closesQuote(text, k+n2)) {
				end = k
				break
			}
			k += n2
		}
		if end < 0 || end == j {
			i += n
			continue
		}
		_, cn := utf8.DecodeRuneInString(text[end:])
		out = append(out, span{i, end + cn, Param{Kind: KindQuoted, Value: text[j:end]}})
		i = end + cn
	}
	return out
}

// An apostrophe opens a quote only at the start of a word (not in "I'm").
func opensQuote(text string, i int) bool {
	if i == 0 {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	return unicode.IsSpace(r) || r == '(' || r == ':'
}

func closesQuote(text string, after int) bool {
	if after >= len(text) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(text[after:])
	return unicode.IsSpace(r) || unicode.IsPunct(r)
}

func colonOutside(text string, spans []span) int {
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && i+1 < len(text) && text[i+1] == ' ' && !overlaps(spans, i, i+1) {
			return i
		}
	}
	return -1
}

func coveredBy(spans []span, start, end int) bool {
	for _, s := range spans {
		if s.start <= start && end <= s.end {
			return true
		}
	}
	return false
}

func overlaps(spans []span, start, end int) bool {
	for _, s := range spans {
		if start < s.end && s.start < end {
			return true
		}
	}
	return false
}

func wordEdge(text string, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:start])
		if unicode.IsLetter(r) {
			return false
		}
	}
	if end < len(text) {
		r, _ := utf8.DecodeRuneInString(text[end:])
		if unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// names finds runs of capitalised words (Alice, Zhang San, Wi-Fi) that are
// not the todo's first word and not an app's name.
func names(text string, taken []span) []span {
	var out []span
	type word struct{ start, end int }
	var words []word
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) {
			i += n
			continue
		}
		j := i
		for j < len(text) {
			r2, n2 := utf8.DecodeRuneInString(text[j:])
			if !unicode.IsLetter(r2) && !unicode.IsDigit(r2) && r2 != '-' && r2 != '\'' {
				break
			}
			j += n2
		}
		words = append(words, word{i, j})
		i = j
	}
	capital := func(w word) bool {
		r, _ := utf8.DecodeRuneInString(text[w.start:])
		return unicode.IsUpper(r) && !overlaps(taken, w.start, w.end)
	}
	for k := 1; k < len(words); k++ {
		if !capital(words[k]) || sentenceStart(text, words[k].start) {
			continue
		}
		end := k
		for end+1 < len(words) && capital(words[end+1]) && onlySpace(text[words[end].end:words[end+1].start]) {
			end++
		}
		start, stop := words[k].start, words[end].end
		val := text[start:stop]
		k = end
		if _, isApp := device.LookupApp(val); isApp {
			continue
		}
		out = append(out, span{start, stop, Param{Kind: KindName, Value: val}})
	}
	return out
}

func onlySpace(s string) bool { return s != "" && strings.TrimSpace(s) == "" }

// sentenceStart reports a word right after ". ", "! ", "? " or a colon.
func sentenceStart(text string, i int) bool {
	s := strings.TrimRight(text[:i], " ")
	return s == "" || strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?")
}

func sortSpans(s []span) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].start < s[j-1].start; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Abstract replaces every occurrence of the parameters' values in s with
// their placeholders, longest value first so "Alice Chen" wins over
// "Alice".
func Abstract(s string, params []Param) string {
	order := make([]int, len(params))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && len(params[order[j]].Value) > len(params[order[j-1]].Value); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	// Replace through markers that cannot occur in text, so a value that
	// contains another's placeholder digits is not replaced twice.
	marks := make([]string, len(params))
	for _, i := range order {
		v := params[i].Value
		if strings.TrimSpace(v) == "" {
			continue
		}
		marks[i] = "\x00" + strconv.Itoa(i+1) + "\x00"
		s = replaceFold(s, v, marks[i])
		if params[i].Kind == KindTime {
			if m, ok := parseTime(v); ok {
				s = replaceFold(s, formatTime(m, params[i].Format), marks[i])
			}
		}
	}
	for i, m := range marks {
		if m != "" {
			s = strings.ReplaceAll(s, m, placeholder(i+1))
		}
	}
	return s
}

// replaceFold replaces old in s, ignoring case, where it does not sit inside
// a longer word.
func replaceFold(s, old, repl string) string {
	ls, lo := strings.ToLower(s), strings.ToLower(old)
	if len(ls) != len(s) || len(lo) != len(old) {
		return strings.ReplaceAll(s, old, repl) // case folding changed lengths: exact match only
	}
	var b strings.Builder
	i := 0
	for {
		j := strings.Index(ls[i:], lo)
		if j < 0 {
			break
		}
		j += i
		if wordEdge(s, j, j+len(old)) {
			b.WriteString(s[i:j])
			b.WriteString(repl)
		} else {
			b.WriteString(s[i : j+len(old)])
		}
		i = j + len(old)
	}
	b.WriteString(s[i:])
	return b.String()
}

// Substitute fills a text's placeholders with the parameters' values. It
// reports false when the text names a parameter the todo does not have.
func Substitute(s string, params []Param) (string, bool) {
	ok := true
	out := placeholderRe.ReplaceAllStringFunc(s, func(m string) string {
		i, _ := strconv.Atoi(m[1 : len(m)-1])
		if i < 1 || i > len(params) {
			ok = false
			return m
		}
		p := params[i-1]
		if p.Kind == KindTime {
			minutes, good := parseTime(p.Value)
			if !good {
				ok = false
				return m
			}
			return formatTime(minutes, p.Format)
		}
		return p.Value
	})
	return out, ok
}

// HasPlaceholder reports whether s names a parameter.
func HasPlaceholder(s string) bool { return placeholderRe.MatchString(s) }

// literalOutside reports what an abstracted text says besides its
// placeholders, trimmed of spaces and punctuation.
func literalOutside(s string) string {
	s = placeholderRe.ReplaceAllString(s, " ")
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
}

// Literal reports whether an abstracted text carries information of its
// own that a later run cannot be assumed to share: quoted text, numbers or
// names beyond its placeholders and the template's own words. Text typed or
// reported from what the screen showed is such information; "Sent \"{2}\"
// to {1}" is not, nor "Wi-Fi is on" for the template "turn on wi-fi".
func Literal(abstracted, template string) bool {
	t := Parse(quotedPlaceholderRe.ReplaceAllString(abstracted, "x"))
	for _, p := range t.Params {
		if !strings.Contains(template, strings.ToLower(p.Value)) {
			return true
		}
	}
	return false
}

var quotedPlaceholderRe = regexp.MustCompile(`["“'‘«「『]?\{[0-9]+\}["”'’»」』]?`)

// Typable reports whether a recorded Type text can be typed again for
// another todo of the same template: everything it says besides its
// placeholders is in the template itself (so every todo of the template
// says it too).
func Typable(abstracted, template string) bool {
	lit := literalOutside(abstracted)
	return lit == "" || strings.Contains(template, strings.ToLower(lit))
}
