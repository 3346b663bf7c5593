package routine

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Version is the shape of the routines this package learns: 2 takes the
// parameters from the trajectory (Learn). Routines of an earlier version
// took them from the todo's wording alone and are never matched; their
// todos run with the model and learn them again (docs/design.md §8).
const Version = 2

// Param kinds of version 2: the part a span of the todo played in the
// trajectory.
const (
	KindTyped = "typed" // text the trajectory typed
	KindLabel = "label" // the label of an element the trajectory tapped
	KindTime  = "time"  // a time the trajectory typed, in Param.Format
)

// maxLabelWords bounds a label parameter: a contact, a row, a setting.
const maxLabelWords = 4

// todoText is a todo as matching sees it: spaces collapsed, trailing
// punctuation dropped, the marks of quotations removed (quoting does not
// change the task), case kept. Quoted lists where the quotations were.
type todoText struct {
	s      string
	quoted [][2]int
}

func cleanTodo(todo string) todoText {
	text := spaceRe.ReplaceAllString(strings.TrimSpace(todo), " ")
	text = strings.TrimRight(text, " .!。！")
	var b strings.Builder
	var t todoText
	last := 0
	for _, q := range quoted(text) {
		_, on := utf8.DecodeRuneInString(text[q.start:])
		_, cn := utf8.DecodeLastRuneInString(text[:q.end])
		b.WriteString(text[last:q.start])
		start := b.Len()
		b.WriteString(text[q.start+on : q.end-cn])
		t.quoted = append(t.quoted, [2]int{start, b.Len()})
		last = q.end
	}
	b.WriteString(text[last:])
	t.s = b.String()
	return t
}

// isQuoted reports a span that is exactly one quotation of the todo.
func (t todoText) isQuoted(start, end int) bool {
	for _, q := range t.quoted {
		if q[0] == start && q[1] == end {
			return true
		}
	}
	return false
}

func isHan(r rune) bool { return unicode.Is(unicode.Han, r) }

func wordRune(r rune) bool { return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !isHan(r) }

// edges reports whether s[start:end] begins and ends at word boundaries.
// Han characters have none to respect: 给李四发 holds 李四.
func edges(s string, start, end int) bool {
	if start > 0 {
		l, _ := utf8.DecodeLastRuneInString(s[:start])
		f, _ := utf8.DecodeRuneInString(s[start:])
		if wordRune(l) && wordRune(f) {
			return false
		}
	}
	if end < len(s) {
		l, _ := utf8.DecodeLastRuneInString(s[:end])
		f, _ := utf8.DecodeRuneInString(s[end:])
		if wordRune(l) && wordRune(f) {
			return false
		}
	}
	return true
}

// occurrences finds v in s at word boundaries, ignoring case unless exact.
func occurrences(s, v string, exact bool) [][2]int {
	var out [][2]int
	if v == "" {
		return nil
	}
	for i := 0; i+len(v) <= len(s); {
		seg := s[i : i+len(v)]
		if (exact && seg == v || !exact && strings.EqualFold(seg, v)) && edges(s, i, i+len(v)) {
			out = append(out, [2]int{i, i + len(v)})
			i += len(v)
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return out
}

// candidate is a value of the todo that an action used.
type candidate struct {
	p     Param
	exact bool // a label: matched with its case
	at    [][2]int
}

// Learn makes a routine's task and steps from a verified todo: its
// parameters are the spans of the todo text the trajectory used (the text
// typed, the label of the element tapped, the time entered), quoted or not;
// the rest of the todo is the template. A todo whose trajectory used none
// of its text has a template equal to the todo and replays only for the
// same todo.
func Learn(todo string, obs []Observed) (Task, []Step) {
	t := cleanTodo(todo)
	var cands []candidate
	for _, o := range obs {
		if c, ok := usedSpan(t, o); ok {
			cands = append(cands, c)
		}
	}
	// Longer spans first: a typed "Bob is here" wins over the tapped "Bob"
	// inside it.
	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i].p.Value) > len(cands[j].p.Value) })
	var spans []span
	for _, c := range cands {
		dup := false
		for _, s := range spans {
			if strings.EqualFold(s.p.Value, c.p.Value) && s.p.Kind == c.p.Kind {
				dup = true
			}
		}
		if dup {
			continue
		}
		for _, at := range c.at {
			if !overlaps(spans, at[0], at[1]) {
				p := c.p
				p.Value = t.s[at[0]:at[1]]
				spans = append(spans, span{at[0], at[1], p})
			}
		}
	}
	sortSpans(spans)
	// One placeholder per distinct value: a value used twice is one
	// parameter, and a match must find the same text at both places.
	task := Task{}
	var b strings.Builder
	last := 0
	for _, s := range spans {
		n := -1
		for i, p := range task.Params {
			if strings.EqualFold(p.Value, s.p.Value) && p.Kind == s.p.Kind {
				n = i
			}
		}
		if n < 0 {
			task.Params = append(task.Params, s.p)
			n = len(task.Params) - 1
		}
		b.WriteString(t.s[last:s.start])
		b.WriteString(placeholder(n + 1))
		last = s.end
	}
	b.WriteString(t.s[last:])
	task.Template = normalise(b.String())
	return task, Build(task, obs)
}

// usedSpan finds the span of the todo one action used, if any.
func usedSpan(t todoText, o Observed) (candidate, bool) {
	a := o.Action
	switch a.Name {
	case autoglm.ActionType, autoglm.ActionTypeName:
		typed := strings.TrimSpace(a.Text)
		if typed == "" {
			return candidate{}, false
		}
		if layout, minutes, ok := typedTime(typed); ok {
			var at [][2]int
			for _, tm := range findTimes(t.s) {
				if tm.minutes == minutes {
					at = append(at, [2]int{tm.start, tm.end})
				}
			}
			if len(at) > 0 {
				return candidate{p: Param{Kind: KindTime, Value: t.s[at[0][0]:at[0][1]], Format: layout}, at: at}, true
			}
		}
		if at := occurrences(t.s, typed, false); len(at) > 0 {
			return candidate{p: Param{Kind: KindTyped, Value: typed}, at: at}, true
		}
	case autoglm.ActionTap, autoglm.ActionDoubleTap, autoglm.ActionLongPress:
		if a.Element == nil || len(o.Elems) == 0 {
			return candidate{}, false
		}
		x, y := autoglm.ToPixel(*a.Element, o.Width, o.Height)
		e, ok := ElementAt(o.Elems, x, y)
		if !ok {
			return candidate{}, false
		}
		for _, l := range shownLabels(o.Elems, e) {
			if c, ok := labelSpan(t, l); ok {
				return c, true
			}
		}
	}
	return candidate{}, false
}

// labelSpan finds a tapped label in the todo, with its case: the whole
// label, or its first words ("Bob" of the row "Bob Li"). The todo's first
// word (its verb: "Send" is also a button) and app names are never label
// parameters.
func labelSpan(t todoText, label string) (candidate, bool) {
	if label == "" || len(label) > maxLabel {
		return candidate{}, false
	}
	words := strings.Fields(label)
	if len(words) > maxLabelWords {
		return candidate{}, false
	}
	for k := len(words); k >= 1; k-- {
		v := strings.Join(words[:k], " ")
		if utf8.RuneCountInString(v) < 2 {
			break
		}
		if _, isApp := device.LookupApp(v); isApp {
			continue
		}
		var at [][2]int
		for _, o := range occurrences(t.s, v, true) {
			if o[0] > 0 {
				at = append(at, o)
			}
		}
		if len(at) > 0 {
			return candidate{p: Param{Kind: KindLabel, Value: v}, exact: true, at: at}, true
		}
	}
	return candidate{}, false
}

// shownLabels is what the element e of elems shows: its own text and
// description, else those of the elements inside it (a Compose row, or a
// list row whose clickable container carries no text: Google Messages'
// conversation rows), the first maxInner of them.
func shownLabels(elems []uitree.Element, e uitree.Element) []string {
	if own := labelOf(e); len(own) > 0 {
		return own
	}
	for i := range elems {
		if elems[i] == e {
			return innerLabels(elems, i)
		}
	}
	return nil
}

// maxInner bounds the inner labels a textless element is read by.
const maxInner = 3

// innerLabels are the labels of the elements inside elems[i].
func innerLabels(elems []uitree.Element, i int) []string {
	var out []string
	for _, d := range elems[i+1 : uitree.SubtreeEnd(elems, i)] {
		out = append(out, labelOf(d)...)
		if len(out) >= maxInner {
			return out[:maxInner]
		}
	}
	return out
}

// labelOf is what an element shows: its text and its description.
func labelOf(e uitree.Element) []string {
	var out []string
	for _, l := range []string{strings.TrimSpace(e.Text), strings.TrimSpace(e.Desc)} {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// UsesAll reports whether steps use each of n parameters: a routine whose
// trace does not use a parameter would replay the same actions for any
// value of it.
func UsesAll(steps []Step, n int) bool {
	used := make([]bool, n+1)
	mark := func(s string) {
		for _, m := range placeholderRe.FindAllString(s, -1) {
			if i, err := strconv.Atoi(m[1 : len(m)-1]); err == nil && i >= 1 && i <= n {
				used[i] = true
			}
		}
	}
	for _, s := range steps {
		if s.Action.Name == autoglm.ActionFinish {
			continue // a finish reports; it does not act
		}
		mark(s.Action.Text)
		mark(s.Action.App)
		if s.Target != nil {
			mark(s.Target.Label)
		}
	}
	for i := 1; i <= n; i++ {
		if !used[i] {
			return false
		}
	}
	return true
}
