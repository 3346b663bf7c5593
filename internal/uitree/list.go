package uitree

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
)

// ListHeader opens the element list in an executor request. The offline
// model server looks for it to find the list.
const ListHeader = "UI elements (at=[x,y] is the element's center on the 0-999 grid):"

// MaxListed caps the number of elements written by FormatList so a busy
// screen cannot blow up the prompt.
const MaxListed = 120

// Listed is one line of the element list: what a model (or the offline model
// server) sees of an element.
type Listed struct {
	Index      int    `json:"index"`
	Class      string `json:"class"`
	Text       string `json:"text,omitempty"`
	Desc       string `json:"desc,omitempty"`
	ID         string `json:"id,omitempty"`
	Checkable  bool   `json:"checkable,omitempty"`
	Checked    bool   `json:"checked,omitempty"`
	Clickable  bool   `json:"clickable,omitempty"`
	Focused    bool   `json:"focused,omitempty"`
	Scrollable bool   `json:"scrollable,omitempty"`
	Disabled   bool   `json:"disabled,omitempty"` // enabled=false: a tap does nothing until something enables it
	At         [2]int `json:"at"`                 // center on the 0-999 grid
	// Span is a slider's left and right ends on the 0-999 grid, as a
	// screenshot shows the track: a drag from one point of it to another
	// moves the level. Zero for anything else.
	Span [2]int `json:"span,omitzero"`
}

// slider reports a class a level is dragged along: a SeekBar (Settings'
// Brightness level, Quick Settings' brightness) or a Slider.
func slider(class string) bool { return class == "SeekBar" || strings.HasSuffix(class, "Slider") }

// Relative converts a pixel coordinate on an axis of the given size to the
// 0-999 grid the executor protocol uses.
func Relative(px, size int) int {
	if size <= 0 {
		return 0
	}
	v := px * 1000 / size
	return min(max(v, 0), 999)
}

// Pixel converts a 0-999 grid coordinate back to a pixel on an axis of the
// given size (pixel = v * size / 1000).
func Pixel(v, size int) int {
	v = min(max(v, 0), 999)
	return v * size / 1000
}

// Interesting reports whether an element is worth listing: it shows text,
// has a description, or can be acted on.
func (e Element) Interesting() bool {
	if e.Bounds.X2 <= e.Bounds.X1 || e.Bounds.Y2 <= e.Bounds.Y1 {
		return false
	}
	return e.Text != "" || e.Desc != "" || e.Clickable || e.Checkable || e.Scrollable
}

// List converts the interesting elements of a dump to listed form for a
// screen of width x height pixels, at most MaxListed of them. An element
// the dump marks enabled=false is listed as disabled; a tree in which no
// element is enabled carries no enabled attribute, so none is.
func List(elems []Element, width, height int) []Listed {
	var out []Listed
	says := SaysEnabled(elems)
	for _, e := range elems {
		if !e.Interesting() {
			continue
		}
		if len(out) == MaxListed {
			break
		}
		cx, cy := e.Bounds.Center()
		out = append(out, Listed{
			Index: len(out) + 1, Class: e.ShortClass(), Text: e.Text, Desc: e.Desc, ID: e.ShortID(),
			Checkable: e.Checkable, Checked: e.Checked, Clickable: e.Clickable,
			Focused: e.Focused, Scrollable: e.Scrollable, Disabled: says && !e.Enabled,
			At: [2]int{Relative(cx, width), Relative(cy, height)},
		})
		if slider(e.ShortClass()) {
			out[len(out)-1].Span = [2]int{Relative(e.Bounds.X1, width), Relative(e.Bounds.X2, width)}
		}
	}
	return out
}

// String formats one element as a list line, e.g.
//
//	[3] Switch "Wi-Fi" id=wifi_switch checked=false clickable at=[500,212]
//	[4] Button "Delete" clickable enabled=false at=[880,1200]
//	[5] SeekBar "" id=seekbar clickable span=[44,955] at=[500,640]
func (l Listed) String() string {
	var b strings.Builder
	class := l.Class
	if class == "" {
		class = "View"
	}
	fmt.Fprintf(&b, "[%d] %s %s", l.Index, class, strconv.Quote(l.Text))
	if l.Desc != "" {
		fmt.Fprintf(&b, " desc=%s", strconv.Quote(l.Desc))
	}
	if l.ID != "" {
		fmt.Fprintf(&b, " id=%s", l.ID)
	}
	if l.Checkable {
		fmt.Fprintf(&b, " checked=%t", l.Checked)
	}
	if l.Clickable {
		b.WriteString(" clickable")
	}
	if l.Disabled {
		b.WriteString(" enabled=false")
	}
	if l.Focused {
		b.WriteString(" focused")
	}
	if l.Scrollable {
		b.WriteString(" scrollable")
	}
	if l.Span != [2]int{} {
		fmt.Fprintf(&b, " span=[%d,%d]", l.Span[0], l.Span[1])
	}
	fmt.Fprintf(&b, " at=[%d,%d]", l.At[0], l.At[1])
	return b.String()
}

// FormatList renders the list block for an executor request: ListHeader
// followed by one line per element.
func FormatList(elems []Element, width, height int) string {
	var b strings.Builder
	b.WriteString(ListHeader)
	for _, l := range List(elems, width, height) {
		b.WriteByte('\n')
		b.WriteString(l.String())
	}
	return b.String()
}

// ParseList reads the element lines that follow ListHeader in text (lines
// that do not look like elements end the list). It returns nil if the
// header is absent.
func ParseList(text string) []Listed {
	i := strings.Index(text, ListHeader)
	if i < 0 {
		return nil
	}
	sc := bufio.NewScanner(strings.NewReader(text[i+len(ListHeader):]))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var out []Listed
	first := true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" && first {
			continue
		}
		first = false
		l, ok := ParseLine(line)
		if !ok {
			break
		}
		out = append(out, l)
	}
	return out
}

// ParseLine parses one list line written by Listed.String.
func ParseLine(line string) (Listed, bool) {
	var l Listed
	if !strings.HasPrefix(line, "[") {
		return l, false
	}
	end := strings.IndexByte(line, ']')
	if end < 0 {
		return l, false
	}
	n, err := strconv.Atoi(line[1:end])
	if err != nil {
		return l, false
	}
	l.Index = n
	rest := strings.TrimLeft(line[end+1:], " ")
	sp := strings.IndexByte(rest, ' ')
	if sp < 0 {
		return l, false
	}
	l.Class, rest = rest[:sp], strings.TrimLeft(rest[sp:], " ")
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return l, false
	}
	l.Text, _ = strconv.Unquote(q)
	rest = rest[len(q):]
	sawAt := false
	for {
		rest = strings.TrimLeft(rest, " ")
		if rest == "" {
			break
		}
		key, val, tail, ok := nextField(rest)
		if !ok {
			return l, false
		}
		rest = tail
		switch key {
		case "desc":
			l.Desc = val
		case "id":
			l.ID = val
		case "checked":
			l.Checkable, l.Checked = true, val == "true"
		case "clickable":
			l.Clickable = true
		case "enabled":
			l.Disabled = val == "false"
		case "focused":
			l.Focused = true
		case "scrollable":
			l.Scrollable = true
		case "span":
			if _, err := fmt.Sscanf(val, "[%d,%d]", &l.Span[0], &l.Span[1]); err != nil {
				return l, false
			}
		case "at":
			if _, err := fmt.Sscanf(val, "[%d,%d]", &l.At[0], &l.At[1]); err != nil {
				return l, false
			}
			sawAt = true
		}
	}
	return l, sawAt
}

// nextField reads `key`, `key=value` or `key="quoted"` from s.
func nextField(s string) (key, val, rest string, ok bool) {
	i := strings.IndexAny(s, " =")
	if i < 0 {
		return s, "", "", true
	}
	if s[i] == ' ' {
		return s[:i], "", s[i:], true
	}
	key, s = s[:i], s[i+1:]
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", "", "", false
		}
		val, _ = strconv.Unquote(q)
		return key, val, s[len(q):], true
	}
	j := strings.IndexByte(s, ' ')
	if j < 0 {
		return key, s, "", true
	}
	return key, s[:j], s[j:], true
}
