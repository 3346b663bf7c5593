package modelserver

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// toolCall is one function call of an answer (OpenAI tool_calls).
type toolCall struct {
	Index    int          `json:"index"`
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

type toolFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

var swipeRe = regexp.MustCompile(`start\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]\s*,\s*end\s*=\s*\[\s*(\d+)\s*,\s*(\d+)\s*\]`)

// asToolCall is the persona's answer as a call of the executor's function
// tools (executor.protocol tools, docs/models.md#tools), with its thought
// as the text; ok is false for an action those tools lack.
func asToolCall(answer string) (toolCall, string, bool) {
	a, ok := parseAct(answer)
	if !ok {
		return toolCall{}, "", false
	}
	think := answer
	if i := strings.Index(think, "</think>"); i >= 0 {
		think = strings.TrimPrefix(think[:i], "<think>")
	}
	args := map[string]any{}
	name := ""
	switch a.Name {
	case "Tap", "Double Tap", "Long Press":
		if a.Point == nil {
			return toolCall{}, "", false
		}
		name = map[string]string{"Tap": "tap", "Double Tap": "double_tap", "Long Press": "long_press"}[a.Name]
		args["x"], args["y"] = a.Point[0], a.Point[1]
		if a.Message != "" && a.Name == "Tap" {
			args["message"] = a.Message
		}
	case "Swipe":
		m := swipeRe.FindStringSubmatch(a.Raw)
		if m == nil {
			return toolCall{}, "", false
		}
		name = "swipe"
		for i, k := range []string{"start_x", "start_y", "end_x", "end_y"} {
			args[k], _ = strconv.Atoi(m[i+1])
		}
	case "Type", "Type_Name":
		name, args["text"] = "type_text", a.Text
	case "Launch":
		name, args["app"] = "launch_app", a.App
	case "Back":
		name = "back"
	case "Home":
		name = "home"
	case "Wait":
		name = "wait"
	case "Note":
		name, args["message"] = "note", a.Message
	case "Take_over":
		name, args["message"] = "take_over", a.Message
	case "finish":
		name, args["message"] = "finish", a.Message
	default:
		return toolCall{}, "", false
	}
	b, _ := json.Marshal(args)
	return toolCall{ID: "call_offline", Type: "function", Function: toolFunction{Name: name, Arguments: string(b)}}, strings.TrimSpace(think), true
}
