package mobileuse

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// FunctionName is the function the protocol's answers call.
const FunctionName = "mobile_use"

// The finish messages of terminate's statuses, before an answer's text
// concludes them (Concluded).
const (
	statusSuccess = "success"
	statusFailure = "failure: the task could not be completed"
)

// Parse reads a mobile_use answer: reasoning (plain, "Thought:", or in
// <thinking> tags) and one <tool_call> JSON object calling mobile_use,
// its points mapped from frame f onto the 0-999 grid. Several calls that
// differ, another function, a point outside the image or an action
// without a phone meaning give an *autoglm.ParseError.
func Parse(raw string, f autoglm.Frame) (autoglm.Response, error) {
	fail := func(format string, args ...any) (autoglm.Response, error) {
		return autoglm.Response{}, &autoglm.ParseError{Raw: raw, Reason: fmt.Sprintf(format, args...)}
	}
	if len(raw) > autoglm.MaxAnswerBytes {
		return fail("answer is %d bytes, more than the %d this parser reads: lower max tokens", len(raw), autoglm.MaxAnswerBytes)
	}
	text := strings.ToValidUTF8(raw, "\uFFFD")
	objs, first := calls(text)
	if len(objs) == 0 {
		return fail(`no action found: expected <tool_call>{"name": "mobile_use", "arguments": {"action": ...}}</tool_call>`)
	}
	var acts []autoglm.Action
	for _, o := range objs {
		var c struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(o), &c); err != nil {
			return fail("the <tool_call> is not valid JSON (%v): write {\"name\": \"mobile_use\", \"arguments\": {...}}", err)
		}
		if c.Name != FunctionName {
			return fail("the tool call names %q: the only function is mobile_use", c.Name)
		}
		args := map[string]any{}
		raw := c.Arguments
		var s string
		if json.Unmarshal(raw, &s) == nil {
			raw = json.RawMessage(s) // arguments written as a JSON string
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			return fail("the mobile_use arguments are not a JSON object: %v", err)
		}
		a, bad := toAction(args, f)
		if bad != "" {
			return fail("%s", bad)
		}
		acts = append(acts, a)
	}
	if len(acts) == 2 && acts[0].Name == autoglm.ActionNote && acts[1].Name == autoglm.ActionFinish {
		// answer then terminate in one turn: the finish with its result.
		acts = []autoglm.Action{conclude(acts[1], acts[0].Message)}
	}
	for _, a := range acts[1:] {
		if autoglm.FormatAction(a) != autoglm.FormatAction(acts[0]) {
			return fail("two different actions: %s and %s; give exactly one", autoglm.FormatAction(acts[0]), autoglm.FormatAction(a))
		}
	}
	return autoglm.Response{Thinking: reasoning(text[:first]), Action: acts[0], Said: strings.TrimSpace(raw)}, nil
}

// calls returns the JSON objects of the answer's <tool_call> blocks (a
// missing closing tag ends at the end of the answer), or the answer itself
// when it is one bare call object, and where the first one starts.
func calls(text string) ([]string, int) {
	const open, close = "<tool_call>", "</tool_call>"
	var out []string
	first := -1
	for i := 0; ; {
		k := strings.Index(text[i:], open)
		if k < 0 {
			break
		}
		start := i + k
		if first < 0 {
			first = start
		}
		body := text[start+len(open):]
		end := strings.Index(body, close)
		if end < 0 {
			end = len(body)
		}
		out = append(out, strings.TrimSpace(strings.Trim(strings.TrimSpace(body[:end]), "`")))
		i = start + len(open) + end
	}
	if len(out) == 0 {
		t := strings.TrimSpace(text)
		if strings.HasPrefix(t, "{") && strings.Contains(t, `"arguments"`) {
			return []string{t}, 0
		}
	}
	return out, first
}

// reasoning is the text before the call without its labels and tags.
func reasoning(s string) string {
	for _, t := range []string{"<thinking>", "</thinking>", "<think>", "</think>", "Thought:"} {
		s = strings.ReplaceAll(s, t, "")
	}
	return strings.TrimSpace(s)
}

// toAction maps mobile_use arguments onto a product action.
func toAction(args map[string]any, f autoglm.Frame) (autoglm.Action, string) {
	str := func(k string) string {
		switch v := args[k].(type) {
		case string:
			return v
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		case []any:
			// One value as a list, as Qwen3-VL's action space writes a
			// status: ["success"].
			if len(v) == 1 {
				if s, ok := v[0].(string); ok {
					return s
				}
			}
		}
		return ""
	}
	pt := func(k string) (*autoglm.Point, string) {
		v, ok := args[k]
		if !ok {
			return nil, fmt.Sprintf("%s needs %s: [x, y]", str("action"), k)
		}
		return point(v, f)
	}
	var a autoglm.Action
	var bad string
	switch act := strings.ToLower(str("action")); act {
	case "click":
		a.Name = autoglm.ActionTap
		a.Element, bad = pt("coordinate")
	case "double_click", "double_tap":
		a.Name = autoglm.ActionDoubleTap
		a.Element, bad = pt("coordinate")
	case "long_press":
		a.Name = autoglm.ActionLongPress
		a.Element, bad = pt("coordinate")
	case "swipe":
		a.Name = autoglm.ActionSwipe
		a.Start, a.End, bad = swipe(args, f)
	case "drag":
		a.Name = autoglm.ActionSwipe
		if a.Start, bad = pt("start_coordinate"); bad == "" {
			a.End, bad = pt("end_coordinate")
		}
	case "type":
		a.Name, a.Text = autoglm.ActionType, str("text")
	case "open", "open_app", "awake":
		a.Name = autoglm.ActionLaunch
		if a.App = strings.TrimSpace(str("text")); a.App == "" {
			a.App = strings.TrimSpace(str("app"))
		}
		if a.App == "" {
			bad = `open needs "text": the app's name`
		}
	case "system_button":
		switch strings.ToLower(str("button")) {
		case "back":
			a.Name = autoglm.ActionBack
		case "home":
			a.Name = autoglm.ActionHome
		default:
			bad = fmt.Sprintf("system_button %q has no phone action here: use Back or Home", str("button"))
		}
	case "wait":
		a.Name = autoglm.ActionWait
		if t := str("time"); t != "" {
			a.Duration = t + " seconds"
		}
	case "answer":
		a.Name, a.Message = autoglm.ActionNote, str("text")
	case "info", "ask_user":
		a.Name, a.Message = autoglm.ActionTakeOver, str("text")
	case "terminate":
		a.Name = autoglm.ActionFinish
		switch strings.ToLower(str("status")) {
		case "success":
			a.Message = statusSuccess
		case "failure", "fail":
			a.Message = statusFailure
		default:
			bad = `terminate needs "status": "success" or "failure"`
		}
	case "key":
		bad = fmt.Sprintf("key %q has no phone action here: use system_button Back or Home", str("text"))
	case "":
		bad = `the mobile_use arguments have no "action"`
	default:
		bad = fmt.Sprintf("action %q is not a mobile_use action: use click, long_press, swipe, drag, type, open, system_button, wait, answer, ask_user or terminate", act)
	}
	return a, bad
}

// point reads [x, y] (numbers or numeric strings).
func point(v any, f autoglm.Frame) (*autoglm.Point, string) {
	list, ok := v.([]any)
	if s, isStr := v.(string); isStr {
		if err := json.Unmarshal([]byte(s), &list); err == nil {
			ok = true
		}
	}
	if !ok || (len(list) != 2 && len(list) != 4) {
		return nil, fmt.Sprintf("coordinate %v: want [x, y]", v)
	}
	n := make([]float64, len(list))
	for i, e := range list {
		switch x := e.(type) {
		case float64:
			n[i] = x
		case string:
			p, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil || math.IsNaN(p) {
				return nil, fmt.Sprintf("coordinate %v: want numbers", v)
			}
			n[i] = p
		default:
			return nil, fmt.Sprintf("coordinate %v: want numbers", v)
		}
	}
	if len(n) == 4 { // a box: its centre
		n = []float64{(n[0] + n[2]) / 2, (n[1] + n[3]) / 2}
	}
	p, ok := f.Grid(n[0], n[1])
	if !ok {
		if f.Relative {
			return nil, fmt.Sprintf("coordinate %v is outside the 0-999 grid: if this model answers in pixels, set executor.coordinates: pixels", v)
		}
		return nil, fmt.Sprintf("coordinate %v is outside the %dx%d image the model saw: if this model answers on a 0-999 grid (Qwen3-VL), set executor.coordinates: relative", v, f.W, f.H)
	}
	return &p, ""
}

// swipeSpan is the length, on the 0-999 grid, of a swipe given by its
// direction only.
const swipeSpan = 400

// swipe reads a swipe: from coordinate to coordinate2 (Qwen, GUI-Owl), or
// a direction the finger moves, through coordinate or the middle of the
// screen (MAI-UI).
func swipe(args map[string]any, f autoglm.Frame) (*autoglm.Point, *autoglm.Point, string) {
	start := &autoglm.Point{500, 500}
	if v, ok := args["coordinate"]; ok {
		p, bad := point(v, f)
		if bad != "" {
			return nil, nil, bad
		}
		start = p
	}
	if v, ok := args["coordinate2"]; ok {
		end, bad := point(v, f)
		return start, end, bad
	}
	dir, _ := args["direction"].(string)
	dx, dy := 0, 0
	switch strings.ToLower(strings.TrimSpace(dir)) {
	case "up":
		dy = -swipeSpan
	case "down":
		dy = swipeSpan
	case "left":
		dx = -swipeSpan
	case "right":
		dx = swipeSpan
	default:
		return nil, nil, `swipe needs "coordinate2": [x, y], or "direction": up, down, left or right`
	}
	clamp := func(v int) int { return min(max(v, 0), 999) }
	return &autoglm.Point{clamp(start[0] - dx/2), clamp(start[1] - dy/2)}, &autoglm.Point{clamp(start[0] + dx/2), clamp(start[1] + dy/2)}, ""
}
