package modelserver

import (
	"regexp"
	"strings"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitars"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// request reads an executor request of the grammar's layout: the task,
// the screen from the newest user message (its element list, which the
// layouts carry only with executor.ui_elements on, as the autoglm layout
// carries it in its screen info), and the actions taken before. ok is
// false for other layouts.
func (g grammar) request(msgs []message) (observation, []act, bool) {
	switch g.protocol {
	case config.ProtocolUITARS:
		return g.uitarsRequest(msgs)
	case config.ProtocolMobileUse:
		return mobileUseRequest(msgs)
	}
	return observation{}, nil, false
}

// uitarsRequest reads the UI-TARS layout: the prompt's instruction, the
// earlier answers as written (read with the UI-TARS parser in the
// request's frame) and the newest message's feedback lines.
func (g grammar) uitarsRequest(msgs []message) (observation, []act, bool) {
	first, last := -1, -1
	for i, m := range msgs {
		if m.Role != "user" {
			continue
		}
		if first < 0 && strings.Contains(m.Text, uitarsInstruction) {
			first = i
		}
		last = i
	}
	if first < 0 || last <= first {
		return observation{}, nil, false
	}
	_, task, _ := strings.Cut(msgs[first].Text, uitarsInstruction)
	o := feedbackLines(msgs[last].Text, "The previous action failed: ")
	o.Task = strings.TrimSpace(task)
	var hist []act
	for _, m := range msgs[first+1 : last] {
		if m.Role != "assistant" {
			continue
		}
		if r, err := uitars.Parse(m.Text, g.frame); err == nil {
			if a, ok := parseAct(autoglm.FormatAction(r.Action)); ok {
				hist = append(hist, a)
			}
		}
	}
	return seen(o, hist)
}

var stepRe = regexp.MustCompile(`Step \d+: `)

// mobileUseRequest reads the mobile_use layout: one user message with the
// query, the progress (each step the Action sentence the persona wrote,
// its call single-quoted) and the feedback lines.
func mobileUseRequest(msgs []message) (observation, []act, bool) {
	var text string
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == "user" && strings.HasPrefix(msgs[i].Text, mobileUseQuery) {
			text = msgs[i].Text
			break
		}
	}
	const progress = ".\nTask progress ("
	i := strings.Index(text, progress)
	if i < 0 {
		return observation{}, nil, false
	}
	task := text[len(mobileUseQuery):i]
	rest := text[i+len(progress):]
	_, rest, _ = strings.Cut(rest, "): ")
	steps, after, ok := strings.Cut(rest, "; .\n")
	if !ok {
		// No step yet: the progress is empty.
		steps, after, _ = strings.Cut(rest, ".\n")
		steps = ""
	}
	var hist []act
	for _, s := range stepRe.Split(steps, -1) {
		s = strings.TrimSuffix(strings.TrimSpace(s), ";")
		if a, ok := parseAct(doubleQuoted(s)); ok {
			hist = append(hist, a)
		}
	}
	o := feedbackLines(after, "The last operation failed: ")
	o.Task = strings.TrimSpace(task)
	return seen(o, hist)
}

// feedbackLines reads the lines both layouts write after the task: a
// failed result (after failed), notes, a missing screenshot and the
// element list.
func feedbackLines(text, failed string) observation {
	var o observation
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, failed):
			o.PrevResult = strings.TrimPrefix(line, failed)
		case strings.HasPrefix(line, "Note: "):
			o.Notes = append(o.Notes, strings.TrimPrefix(line, "Note: "))
		case strings.HasPrefix(line, "The screenshot is unavailable"):
			o.Sensitive = true
		}
	}
	for _, l := range uitree.ParseList(text) {
		o.Elems = append(o.Elems, l)
	}
	return o
}

// seen completes an observation of a layout that names no app: the app
// is told from the screen, as the autoglm layout's System Home is (and
// stays unknown without an element list), else it is the app the
// persona launched (launchedApp).
func seen(o observation, hist []act) (observation, []act, bool) {
	if o.Task == "" {
		return observation{}, nil, false
	}
	o.App = inferApp(o.Elems)
	if o.App == "" && len(o.Elems) > 0 {
		o.App = launchedApp(o, hist)
	}
	o.Package = packageOf(o.App)
	if len(hist) > 0 {
		o.PrevAction = hist[len(hist)-1].Raw
	}
	return o, hist, true
}

// launchedApp is the app of the persona's latest Launch, for a screen
// that shows no app's own marker: a dialog the app opened is the
// framework's (a Pixel Clock's label dialog carries
// android:id/ ids only), and a person who opened the app knows whose it
// is. A Home since, or the Launch failing, leaves the app unknown.
func launchedApp(o observation, hist []act) string {
	for i := len(hist) - 1; i >= 0; i-- {
		switch hist[i].Name {
		case "Home":
			return ""
		case "Launch":
			if i == len(hist)-1 && o.PrevResult != "" {
				return ""
			}
			return hist[i].App
		}
	}
	return ""
}

// singleQuoted writes an AutoGLM call with its strings single-quoted (a
// double quote inside as \x22), so it survives the mobile_use progress
// line, which drops double quotes; doubleQuoted reads it back.
func singleQuoted(call string) string {
	return requote(call, '"', '\'')
}

func doubleQuoted(call string) string {
	return requote(call, '\'', '"')
}

// requote rewrites the strings of call quoted with from as quoted with
// to: an escaped from inside becomes itself, a to inside is escaped (a
// double quote as \x22).
func requote(call string, from, to byte) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(call); i++ {
		c := call[i]
		switch {
		case !in && c == from:
			in = true
			b.WriteByte(to)
		case in && c == '\\' && i+1 < len(call):
			i++
			switch n := call[i]; {
			case n == from && from == '"':
				b.WriteString(`\x22`)
			case n == from:
				b.WriteByte(n)
			default:
				b.WriteByte('\\')
				b.WriteByte(n)
			}
		case in && c == from:
			in = false
			b.WriteByte(to)
		case in && c == to && to == '"':
			b.WriteString(`\x22`)
		case in && c == to:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
