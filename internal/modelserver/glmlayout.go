package modelserver

import (
	"encoding/json"
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The autoglm layout (docs/design.md §3): the first user message is the
// task, a blank line and a screen-info JSON object; every later one is
// glmHeader, a blank line and that object. Earlier turns are text only.
const glmHeader = "** Screen Info **"

// screenInfo is the screen-info object of the autoglm layout. Keys other
// than current_app are optional.
type screenInfo struct {
	CurrentApp string   `json:"current_app"`
	Result     string   `json:"last_action_result"`
	Screen     string   `json:"screen"`
	Notes      []string `json:"notes"`
	Elements   []string `json:"ui_elements"`
}

// splitGLMText splits a user message of the autoglm layout into the text
// before the screen info (the task, or the header) and the info. ok is
// false when the message does not end in a screen-info object.
func splitGLMText(text string) (head string, info screenInfo, ok bool) {
	text = strings.TrimSpace(text)
	i := strings.LastIndex(text, "\n\n{")
	if i < 0 {
		return "", info, false
	}
	raw := text[i+2:]
	var probe map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &probe) != nil {
		return "", info, false
	}
	if _, has := probe["current_app"]; !has {
		return "", info, false
	}
	if json.Unmarshal([]byte(raw), &info) != nil {
		return "", info, false
	}
	return strings.TrimSpace(text[:i]), info, true
}

// modelLabels maps the labels the autoglm layout reports for the
// simulator's apps (AutoGLM-Phone's own names, docs/design.md §3) to the
// persona's names.
var modelLabels = map[string]string{"System Home": "Launcher", "AndroidSystemSettings": "Settings", "GoogleClock": "Clock"}

// glmRequest reads an executor request written in the autoglm layout: the
// task from the first user message, the screen from the newest one, and
// the actions of the assistant turns. ok is false for other layouts.
func glmRequest(msgs []message) (observation, []act, bool) {
	var firstUser, lastUser = -1, -1
	for i, m := range msgs {
		if m.Role != "user" {
			continue
		}
		if firstUser < 0 {
			firstUser = i
		}
		lastUser = i
	}
	if lastUser < 0 {
		return observation{}, nil, false
	}
	head, info, ok := splitGLMText(msgs[lastUser].Text)
	if !ok {
		return observation{}, nil, false
	}
	task := head
	if firstUser != lastUser || head == glmHeader {
		t, _, ok := splitGLMText(msgs[firstUser].Text)
		if !ok || t == glmHeader {
			return observation{}, nil, false
		}
		task = t
	}
	o := observation{
		Task:       task,
		App:        info.CurrentApp,
		PrevResult: info.Result,
		Sensitive:  strings.HasPrefix(strings.ToLower(info.Screen), "sensitive"),
		Notes:      info.Notes,
	}
	for _, line := range info.Elements {
		if l, ok := uitree.ParseLine(line); ok {
			o.Elems = append(o.Elems, l)
		}
	}
	if o.App == "System Home" {
		// The reference client says System Home for the launcher and for
		// every app the model does not know: the screen tells which.
		if app := inferApp(o.Elems); app != "" {
			o.App = app
		}
	}
	if n, ok := modelLabels[o.App]; ok {
		o.App = n
	}
	if p := packageOf(o.App); p != "" {
		o.Package = p
	}
	if o.App == "" {
		o.App = inferApp(o.Elems)
		o.Package = packageOf(o.App)
	}
	hist := history(msgs[:lastUser])
	if len(hist) > 0 {
		o.PrevAction = hist[len(hist)-1].Raw
	}
	return o, hist, true
}
