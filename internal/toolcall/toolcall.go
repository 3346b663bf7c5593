// Package toolcall offers the phone's actions as native function tools
// (executor.protocol tools, docs/models.md#tools) and reads the calls a
// model makes into the same actions as the text protocols. A model without
// pixel grounding acts by element number of the UI element list sent with
// the request; one with it, by a point on the 0-999 grid.
package toolcall

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// target is the schema of the arguments that point at the screen.
func target() map[string]any {
	return map[string]any{
		"element": map[string]any{"type": "integer", "description": "the number of an element of the UI element list ([n] in the list)"},
		"x":       map[string]any{"type": "integer", "minimum": 0, "maximum": 999, "description": "when no element fits: x on a 0-999 grid over the screen's width"},
		"y":       map[string]any{"type": "integer", "minimum": 0, "maximum": 999, "description": "when no element fits: y on a 0-999 grid over the screen's height"},
	}
}

func object(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func text(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// Tools are the phone's actions as function tools.
func Tools() []llm.Tool {
	t := target()
	return []llm.Tool{
		{Name: "tap", Description: "Tap an element or a point. Give message when the tap pays, deletes, sends or confirms something that cannot be undone: a person approves it first.",
			Parameters: object(map[string]any{"element": t["element"], "x": t["x"], "y": t["y"], "message": text("why this tap needs a person's approval")})},
		{Name: "double_tap", Description: "Tap an element or a point twice quickly.", Parameters: object(t)},
		{Name: "long_press", Description: "Press and hold an element or a point.", Parameters: object(t)},
		{Name: "swipe", Description: "Swipe to scroll: direction up shows what is above, down what is below; or give start and end points on the 0-999 grid.",
			Parameters: object(map[string]any{"direction": map[string]any{"type": "string", "enum": []string{"up", "down", "left", "right"}},
				"start_x": t["x"], "start_y": t["y"], "end_x": t["x"], "end_y": t["y"]})},
		{Name: "type_text", Description: "Type into the focused input field (tap the field first).", Parameters: object(map[string]any{"text": text("the text to type")}, "text")},
		{Name: "launch_app", Description: "Open an app by its name.", Parameters: object(map[string]any{"app": text("the app's name")}, "app")},
		{Name: "back", Description: "Go back one screen.", Parameters: object(map[string]any{})},
		{Name: "home", Description: "Go to the home screen.", Parameters: object(map[string]any{})},
		{Name: "wait", Description: "Wait for a screen that is still loading.", Parameters: object(map[string]any{"seconds": map[string]any{"type": "integer", "minimum": 1, "maximum": 10}})},
		{Name: "note", Description: "Keep something read on the screen for later steps.", Parameters: object(map[string]any{"message": text("what to keep")}, "message")},
		{Name: "take_over", Description: "Hand the phone to a person: a login, a captcha, a payment password.", Parameters: object(map[string]any{"message": text("what the person has to do")}, "message")},
		{Name: "finish", Description: "End the task, done or impossible; the message reports the outcome and anything the task asked to read.", Parameters: object(map[string]any{"message": text("the outcome")}, "message")},
	}
}

// Parse reads the model's tool calls into one action. Elements are the
// element list the request carried (uitree.List), for calls by element.
func Parse(calls []llm.ToolCall, elems []uitree.Listed) (autoglm.Response, error) {
	said, _ := json.Marshal(calls)
	fail := func(format string, args ...any) (autoglm.Response, error) {
		return autoglm.Response{}, &autoglm.ParseError{Raw: string(said), Reason: fmt.Sprintf(format, args...)}
	}
	if len(calls) == 0 {
		return fail("no tool call: call one of the phone's functions (tap, swipe, type_text, launch_app, back, home, wait, note, take_over, finish)")
	}
	var acts []autoglm.Action
	for _, c := range calls {
		a, bad := toAction(c, elems)
		if bad != "" {
			return fail("%s", bad)
		}
		acts = append(acts, a)
	}
	for _, a := range acts[1:] {
		if autoglm.FormatAction(a) != autoglm.FormatAction(acts[0]) {
			return fail("two different actions: %s and %s; call exactly one function", autoglm.FormatAction(acts[0]), autoglm.FormatAction(a))
		}
	}
	// Later requests replay the turn in the layout's own words (the
	// do(...) form its "Previous action" line uses), not as JSON.
	return autoglm.Response{Action: acts[0]}, nil
}

func toAction(c llm.ToolCall, elems []uitree.Listed) (autoglm.Action, string) {
	args := map[string]any{}
	if s := strings.TrimSpace(c.Arguments); s != "" {
		if err := json.Unmarshal([]byte(s), &args); err != nil {
			return autoglm.Action{}, fmt.Sprintf("%s: the arguments are not a JSON object: %v", c.Name, err)
		}
	}
	str := func(k string) string { s, _ := args[k].(string); return s }
	num := func(k string) (int, bool) {
		switch v := args[k].(type) {
		case float64:
			return int(v), v == float64(int(v))
		case string:
			n, err := strconv.Atoi(strings.TrimSpace(v))
			return n, err == nil
		}
		return 0, false
	}
	point := func(xk, yk string) (*autoglm.Point, string) {
		x, okx := num(xk)
		y, oky := num(yk)
		if !okx || !oky || x < 0 || y < 0 || x > 999 || y > 999 {
			return nil, fmt.Sprintf("%s needs %s and %s from 0 to 999", c.Name, xk, yk)
		}
		return &autoglm.Point{x, y}, ""
	}
	at := func() (*autoglm.Point, string) {
		if n, ok := num("element"); ok {
			for _, e := range elems {
				if e.Index == n {
					return &autoglm.Point{e.At[0], e.At[1]}, ""
				}
			}
			return nil, fmt.Sprintf("%s element %d is not in the UI element list (%d elements): give a listed number, or x and y", c.Name, n, len(elems))
		}
		return point("x", "y")
	}
	var a autoglm.Action
	var bad string
	switch c.Name {
	case "tap":
		a.Name, a.Message = autoglm.ActionTap, str("message")
		a.Element, bad = at()
	case "double_tap":
		a.Name = autoglm.ActionDoubleTap
		a.Element, bad = at()
	case "long_press":
		a.Name = autoglm.ActionLongPress
		a.Element, bad = at()
	case "swipe":
		a.Name = autoglm.ActionSwipe
		switch str("direction") {
		case "down":
			a.Start, a.End = &autoglm.Point{500, 700}, &autoglm.Point{500, 300}
		case "up":
			a.Start, a.End = &autoglm.Point{500, 300}, &autoglm.Point{500, 700}
		case "right":
			a.Start, a.End = &autoglm.Point{700, 500}, &autoglm.Point{300, 500}
		case "left":
			a.Start, a.End = &autoglm.Point{300, 500}, &autoglm.Point{700, 500}
		default:
			if a.Start, bad = point("start_x", "start_y"); bad == "" {
				a.End, bad = point("end_x", "end_y")
			}
		}
	case "type_text":
		a.Name, a.Text = autoglm.ActionType, str("text")
	case "launch_app":
		if a.Name, a.App = autoglm.ActionLaunch, strings.TrimSpace(str("app")); a.App == "" {
			bad = "launch_app needs app"
		}
	case "back":
		a.Name = autoglm.ActionBack
	case "home":
		a.Name = autoglm.ActionHome
	case "wait":
		a.Name = autoglm.ActionWait
		if n, ok := num("seconds"); ok {
			a.Duration = strconv.Itoa(n) + " seconds"
		}
	case "take_over":
		a.Name, a.Message = autoglm.ActionTakeOver, str("message")
	case "note":
		a.Name, a.Message = autoglm.ActionNote, str("message")
	case "finish":
		a.Name, a.Message = autoglm.ActionFinish, str("message")
	default:
		bad = fmt.Sprintf("%q is not one of the phone's functions", c.Name)
	}
	return a, bad
}

// SystemPrompt is the system prompt of the tools protocol; "{date}" is the
// date.
const SystemPrompt = `Today is {date}.

You operate an Android phone to complete the user's task, one action per turn, by calling one of the functions you are given. Each turn you get the task, the app in the foreground, the result of your previous action, notes from the user or the system, the list of UI elements on screen ([n] numbers them, at=[x,y] is the point of each on a 0-999 grid over the screen) and a screenshot.

Call exactly one function per turn. Prefer an element number from the list; give x and y only when no listed element fits. Say briefly in text what you see and why you act, then call the function. Call finish as soon as the task is done or cannot be done, with a message that reports the outcome and anything the task asked you to read.`
