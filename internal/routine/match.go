package routine

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/device"
)

// part is one piece of a template: literal text, or a placeholder (n > 0).
type part struct {
	lit string
	n   int
}

func parts(template string) []part {
	var out []part
	last := 0
	for _, m := range placeholderRe.FindAllStringIndex(template, -1) {
		if m[0] > last {
			out = append(out, part{lit: template[last:m[0]]})
		}
		n, _ := strconv.Atoi(template[m[0]+1 : m[1]-1])
		out = append(out, part{n: n})
		last = m[1]
	}
	if last < len(template) {
		out = append(out, part{lit: template[last:]})
	}
	return out
}

// literalLen is how much of a template is its own words: the more, the
// more specific.
func literalLen(template string) int {
	return utf8.RuneCountInString(placeholderRe.ReplaceAllString(template, ""))
}

// prefixFold reports whether s starts with lit, ignoring case, and its
// length in s.
func prefixFold(s, lit string) (int, bool) {
	i := 0
	for _, lr := range lit {
		if i >= len(s) {
			return 0, false
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != lr && unicode.ToLower(r) != lr && unicode.SimpleFold(r) != lr {
			return 0, false
		}
		i += n
	}
	return i, true
}

// splitsAt finds up to limit ways to fill the template parts ps from
// s[pos:], each placeholder value checked by ok.
func splitsAt(s string, pos int, ps []part, vals map[int][2]int, ok func(n, start, end int) bool, limit int, out *[]map[int][2]int) {
	if len(*out) >= limit {
		return
	}
	if len(ps) == 0 {
		if pos == len(s) {
			cp := make(map[int][2]int, len(vals))
			for k, v := range vals {
				cp[k] = v
			}
			*out = append(*out, cp)
		}
		return
	}
	p := ps[0]
	if p.n == 0 {
		if n, good := prefixFold(s[pos:], p.lit); good {
			splitsAt(s, pos+n, ps[1:], vals, ok, limit, out)
		}
		return
	}
	if prev, seen := vals[p.n]; seen {
		v := s[prev[0]:prev[1]]
		if pos+len(v) <= len(s) && strings.EqualFold(s[pos:pos+len(v)], v) {
			splitsAt(s, pos+len(v), ps[1:], vals, ok, limit, out)
		}
		return
	}
	for end := pos + 1; end <= len(s); end++ {
		if end < len(s) && !utf8.RuneStart(s[end]) {
			continue
		}
		if !ok(p.n, pos, end) {
			continue
		}
		vals[p.n] = [2]int{pos, end}
		splitsAt(s, end, ps[1:], vals, ok, limit, out)
		delete(vals, p.n)
		if len(*out) >= limit {
			return
		}
	}
}

var (
	// clauseRe finds where a free text goes on with another task: "…, then
	// call Alice", "… and open Maps", "…; …", "…然后…". Such a span is not
	// one typed text, so the todo is not the routine's task.
	clauseRe = regexp.MustCompile(`(?i)(?:^|[\s,;])(?:and\s+)?(?:then|after\s+that|afterwards|next)\s|;|(?:^|\s)and\s+(?:also\s+)?(?:call|send|text|open|turn|set|add|delete|remove|tell|message|create|go|tap|check|read|reply|share|email|launch|start|stop|enable|disable|switch|play|take|write|make|book|order|pay|buy|forward|save|share)\b|[.!?。！？]\s*\S|然后|接着|随后|并且|同时|之后`)
	// labelStopRe marks text that is no label: sentence punctuation.
	labelStopRe = regexp.MustCompile(`[,.;:!?，。；：！？"“”「」]`)
)

// fits reports whether a span of a new todo can stand for a routine
// parameter: a time reads as a time; a label is a short name in the
// recorded value's case (a capitalised contact is not matched by a common
// word); a typed text carries no second task, unless it is quoted.
func fits(t todoText, start, end int, rec Param) bool {
	v := t.s[start:end]
	if strings.TrimSpace(v) != v || v == "" {
		return false
	}
	switch rec.Kind {
	case KindTime:
		_, ok := parseTime(v)
		return ok
	case KindLabel:
		if len(v) > maxLabel || len(strings.Fields(v)) > maxLabelWords || labelStopRe.MatchString(v) || !edges(t.s, start, end) {
			return false
		}
		if _, isApp := device.LookupApp(v); isApp {
			return false
		}
		rr, _ := utf8.DecodeRuneInString(rec.Value)
		vr, _ := utf8.DecodeRuneInString(v)
		return !unicode.IsUpper(rr) || !unicode.IsLower(vr)
	case KindTyped:
		if !edges(t.s, start, end) {
			return false
		}
		return t.isQuoted(start, end) || !clauseRe.MatchString(v)
	}
	return false
}

// MatchTemplate fills a routine's template from a todo. It reports why
// not when the todo is another task, or when it fills the template in
// more than one way (ambiguous: nothing replays).
func MatchTemplate(todo string, template string, recorded []Param) (Task, string) {
	t := cleanTodo(todo)
	ps := parts(template)
	for _, p := range ps {
		if p.n > len(recorded) {
			return Task{}, "the routine names a parameter it does not have"
		}
	}
	var found []map[int][2]int
	splitsAt(t.s, 0, ps, map[int][2]int{}, func(n, start, end int) bool { return fits(t, start, end, recorded[n-1]) }, 2, &found)
	switch len(found) {
	case 0:
		return Task{}, "another task"
	case 1:
	default:
		return Task{}, fmt.Sprintf("the todo fits %q in more than one way", template)
	}
	task := Task{Template: template}
	for i, rec := range recorded {
		at, ok := found[0][i+1]
		if !ok {
			return Task{}, "the routine has a parameter its template does not name"
		}
		task.Params = append(task.Params, Param{Kind: rec.Kind, Format: rec.Format, Value: t.s[at[0]:at[1]]})
	}
	return task, ""
}

// Matched is the routine a todo replays, with the todo's parameters.
type Matched struct {
	Routine Routine
	Task    Task
}

// Match finds the one routine among rs whose template the todo fills: the
// most specific (most words of its own) when several do, and none when two
// equally specific ones do or the best fills in more than one way. Why
// says what stopped a match that came close, for people.
func Match(todo string, rs []Routine) (Matched, bool, string) {
	var best []Matched
	bestLen := -1
	why := ""
	for _, r := range rs {
		if r.Version < Version {
			continue
		}
		task, miss := MatchTemplate(todo, r.Key.Template, r.Params)
		if miss != "" {
			if miss != "another task" && why == "" {
				why = fmt.Sprintf("routine %s: %s", r.ID, miss)
			}
			continue
		}
		switch l := literalLen(r.Key.Template); {
		case l > bestLen:
			best, bestLen = []Matched{{r, task}}, l
		case l == bestLen:
			best = append(best, Matched{r, task})
		}
	}
	switch len(best) {
	case 0:
		return Matched{}, false, why
	case 1:
		return best[0], true, ""
	}
	ids := make([]string, len(best))
	for i, m := range best {
		ids[i] = m.Routine.ID
	}
	return Matched{}, false, fmt.Sprintf("the todo fits routines %s alike: ambiguous, none replays", strings.Join(ids, ", "))
}
