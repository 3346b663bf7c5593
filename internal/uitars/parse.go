package uitars

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// actionLabel opens the action part of an answer.
const actionLabel = "Action:"

// swipeSpan is the length, on the 0-999 grid, of the swipe a scroll
// with only a direction makes.
const swipeSpan = 400

// Parse reads a UI-TARS answer into its thought and action, mapping its
// points from frame f onto the 0-999 grid. The answer is the thought
// (after "Thought:", "Reflection:" or "Action_Summary:", or unlabelled)
// and one or more "Action:" parts; parts that differ, a call outside the
// action space, a point outside the image or an answer without an action
// part give an *autoglm.ParseError.
func Parse(raw string, f autoglm.Frame) (autoglm.Response, error) {
	fail := func(format string, args ...any) (autoglm.Response, error) {
		return autoglm.Response{}, &autoglm.ParseError{Raw: raw, Reason: fmt.Sprintf(format, args...)}
	}
	if len(raw) > autoglm.MaxAnswerBytes {
		return fail("answer is %d bytes, more than the %d this parser reads: lower max tokens", len(raw), autoglm.MaxAnswerBytes)
	}
	text := strings.ReplaceAll(strings.ToValidUTF8(raw, "\uFFFD"), "[EOS]", "")
	var acts []autoglm.Action
	first := -1
	for i := 0; ; {
		k := strings.Index(text[i:], actionLabel)
		if k < 0 {
			break
		}
		at := i + k
		if first < 0 {
			first = at
		}
		j := skipSpace(text, at+len(actionLabel))
		c, bad, ok := readCall(text, j)
		if !ok {
			// "Action:" in prose, or an action description (Qwen's
			// Thought/Action/<tool_call> form): not a call.
			i = at + len(actionLabel)
			continue
		}
		if bad != "" {
			return fail("%s", bad)
		}
		a, bad := toAction(c, f)
		if bad != "" {
			return fail("%s", bad)
		}
		acts = append(acts, a)
		i = max(c.end, j+1)
	}
	if len(acts) == 0 {
		return fail(`no action found: expected "Thought: ..." and then "Action: click(start_box='(x,y)')" or another call of the action space`)
	}
	for _, a := range acts[1:] {
		if autoglm.FormatAction(a) != autoglm.FormatAction(acts[0]) {
			return fail("two different actions: %s and %s; give exactly one", autoglm.FormatAction(acts[0]), autoglm.FormatAction(a))
		}
	}
	return autoglm.Response{Thinking: thought(text[:first]), Action: acts[0], Said: strings.TrimSpace(raw)}, nil
}

// thought strips the labels of the part before the first action.
func thought(s string) string {
	s = strings.TrimSpace(s)
	for _, l := range []string{"Thought:", "Reflection:", "Action_Summary:"} {
		s = strings.ReplaceAll(s, l, "")
	}
	return strings.TrimSpace(s)
}

// toAction maps one call of UI-TARS's action spaces (mobile, and the
// computer calls that have a phone meaning) onto a product action.
func toAction(c call, f autoglm.Frame) (autoglm.Action, string) {
	pt := func(keys ...string) (*autoglm.Point, string) {
		for _, k := range keys {
			if v, ok := c.args[k]; ok {
				return point(v, f)
			}
		}
		return nil, fmt.Sprintf("%s needs %s='(x,y)'", c.name, keys[0])
	}
	var a autoglm.Action
	var bad string
	switch c.name {
	case "click", "left_single", "tap":
		a.Name = autoglm.ActionTap
		a.Element, bad = pt("start_box", "point")
	case "left_double", "double_click":
		a.Name = autoglm.ActionDoubleTap
		a.Element, bad = pt("start_box", "point")
	case "long_press":
		a.Name = autoglm.ActionLongPress
		a.Element, bad = pt("start_box", "point")
	case "drag", "swipe", "select":
		a.Name = autoglm.ActionSwipe
		if a.Start, bad = pt("start_box", "start_point"); bad == "" {
			a.End, bad = pt("end_box", "end_point")
		}
	case "scroll":
		a.Name = autoglm.ActionSwipe
		a.Start, a.End, bad = scroll(c, f)
	case "type":
		a.Name = autoglm.ActionType
		var ok bool
		if a.Text, ok = c.args["content"]; !ok {
			bad = "type needs content='...'"
		}
	case "open_app":
		a.Name = autoglm.ActionLaunch
		if a.App = strings.TrimSpace(c.args["app_name"]); a.App == "" {
			bad = "open_app needs app_name='...'"
		}
	case "press_home":
		a.Name = autoglm.ActionHome
	case "press_back":
		a.Name = autoglm.ActionBack
	case "wait":
		a.Name, a.Duration = autoglm.ActionWait, "5 seconds"
	case "finished":
		a.Name, a.Message = autoglm.ActionFinish, c.args["content"]
	case "call_user":
		a.Name, a.Message = autoglm.ActionTakeOver, c.args["content"]
	default:
		return a, fmt.Sprintf("%s(...) is not in the phone's action space: use click, long_press, type, scroll, drag, open_app, press_home, press_back, wait, finished or call_user", c.name)
	}
	return a, bad
}

// scroll is a scroll call as a swipe: from start_box to end_box (the v1
// mobile action space), or through start_box (or the middle of the
// screen) the way that shows more on the direction's side.
func scroll(c call, f autoglm.Frame) (*autoglm.Point, *autoglm.Point, string) {
	start := &autoglm.Point{500, 500}
	var bad string
	for _, k := range []string{"start_box", "point"} {
		if v, ok := c.args[k]; ok {
			if start, bad = point(v, f); bad != "" {
				return nil, nil, bad
			}
			break
		}
	}
	for _, k := range []string{"end_box", "end_point"} {
		if v, ok := c.args[k]; ok {
			end, bad := point(v, f)
			return start, end, bad
		}
	}
	dx, dy := 0, 0
	switch strings.ToLower(strings.TrimSpace(c.args["direction"])) {
	case "down":
		dy = -swipeSpan // the finger moves up to bring what is below into view
	case "up":
		dy = swipeSpan
	case "right":
		dx = -swipeSpan
	case "left":
		dx = swipeSpan
	default:
		return nil, nil, fmt.Sprintf("scroll needs direction='down', 'up', 'left' or 'right', or an end_box; got %q", c.args["direction"])
	}
	clamp := func(v int) int { return min(max(v, 0), 999) }
	s := &autoglm.Point{clamp(start[0] - dx/2), clamp(start[1] - dy/2)}
	e := &autoglm.Point{clamp(start[0] + dx/2), clamp(start[1] + dy/2)}
	return s, e, ""
}

// point reads a point value: "(x,y)", "<|box_start|>(x,y)<|box_end|>",
// "<point>x y</point>", "[x, y]" or a box of four numbers (its centre).
func point(v string, f autoglm.Frame) (*autoglm.Point, string) {
	s := v
	for _, tag := range []string{"<|box_start|>", "<|box_end|>", "<point>", "</point>", "<bbox>", "</bbox>", "(", ")", "[", "]"} {
		s = strings.ReplaceAll(s, tag, " ")
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '，' })
	var n []float64
	for _, fl := range fields {
		x, err := strconv.ParseFloat(fl, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Sprintf("point %q is not numbers (x,y)", v)
		}
		n = append(n, x)
	}
	switch len(n) {
	case 2:
	case 4:
		n = []float64{(n[0] + n[2]) / 2, (n[1] + n[3]) / 2}
	default:
		return nil, fmt.Sprintf("point %q: want (x,y)", v)
	}
	p, ok := f.Grid(n[0], n[1])
	if !ok {
		if f.Relative {
			return nil, fmt.Sprintf("point %q is outside the 0-1000 grid: if this model answers in pixels, set executor.coordinates: pixels", v)
		}
		return nil, fmt.Sprintf("point %q is outside the %dx%d image the model saw: if this model answers on a 0-1000 grid, set executor.coordinates: relative", v, f.W, f.H)
	}
	return &p, ""
}
