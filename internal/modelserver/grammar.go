package modelserver

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/mobileuse"
	"github.com/phoneflow/phoneflow/internal/uitars"
)

// grammar is the answer grammar an executor request asks for by its
// layout (docs/models.md#model-families): empty for AutoGLM's do(...)
// (the phoneflow and autoglm layouts), else uitars or mobile_use with
// the frame its points are written in.
type grammar struct {
	protocol string
	frame    autoglm.Frame
}

// Markers of the requests internal/uitars and internal/mobileuse build.
const (
	uitarsInstruction = "## User Instruction"
	uitarsActions     = "## Action Space"
	mobileUseQuery    = "The user query: "
	mobileUseTool     = `"name":"` + mobileuse.FunctionName + `"`
)

var resolutionRe = regexp.MustCompile(`resolution is (\d+)x(\d+)`)

// grammarOf tells the grammar of a request for model from its messages:
// UI-TARS's mobile prompt (its action space and instruction sections) or
// a system prompt declaring the mobile_use function. The frame is the
// one the parsers read: for mobile_use the resolution its prompt states
// (999x999 is the relative grid); for UI-TARS the smart-resized size of
// the newest image, or the 0-1000 grid for a v1 model name, as
// executor.coordinates defaults.
func grammarOf(model string, msgs []message) grammar {
	var sys string
	if len(msgs) > 0 && msgs[0].Role == "system" {
		sys = msgs[0].Text
	}
	if strings.Contains(strings.ReplaceAll(sys, " ", ""), mobileUseTool) {
		for _, m := range msgs {
			if m.Role == "user" && strings.HasPrefix(m.Text, mobileUseQuery) {
				g := grammar{protocol: config.ProtocolMobileUse}
				if r := resolutionRe.FindStringSubmatch(sys); r != nil {
					w, _ := strconv.Atoi(r[1])
					h, _ := strconv.Atoi(r[2])
					g.frame = autoglm.Frame{W: w, H: h}
					if w == mobileuse.RelativeScale && h == mobileuse.RelativeScale {
						g.frame = autoglm.Frame{Relative: true, Scale: mobileuse.RelativeScale}
					}
				}
				return g
			}
		}
		return grammar{}
	}
	for _, m := range msgs {
		if m.Role != "user" || !strings.Contains(m.Text, uitarsInstruction) || !strings.Contains(m.Text, uitarsActions) {
			continue
		}
		g := grammar{protocol: config.ProtocolUITARS}
		if config.DefaultCoordinates(config.ProtocolUITARS, model) == config.CoordsRelative {
			g.frame = autoglm.Frame{Relative: true, Scale: 1000}
			return g
		}
		for i := len(msgs) - 1; i >= 0; i-- {
			if msgs[i].ImageW > 0 {
				w, h := autoglm.SmartResize(msgs[i].ImageW, msgs[i].ImageH, uitars.Factor, uitars.MinPixels, uitars.MaxPixels)
				g.frame = autoglm.Frame{W: w, H: h}
				break
			}
		}
		return g
	}
	return grammar{}
}

// at writes a point of the 0-999 grid in the grammar's frame, the
// inverse of autoglm.Frame.Grid. ok is false without a frame (a request
// with no readable image).
func (g grammar) at(p [2]int) (int, int, bool) {
	w, h := float64(g.frame.W), float64(g.frame.H)
	if g.frame.Relative {
		s := float64(g.frame.Scale)
		if s == 0 {
			s = 1000
		}
		w, h = s, s
	}
	if w <= 0 || h <= 0 {
		return 0, 0, false
	}
	c := func(v int, size float64) int { return min(int(math.Round(float64(v)*size/1000)), int(size)) }
	return c(p[0], w), c(p[1], h), true
}

// write rewrites the persona's answer (<think>…</think><answer>do(…)
// </answer>) in the grammar: the same action, in the words internal/uitars
// or internal/mobileuse read. ok is false for an action the grammar has
// no call for (UI-TARS has no Note) or no frame to write a point in.
func (g grammar) write(answer string) (string, bool) {
	a, ok := parseAct(answer)
	if !ok {
		return "", false
	}
	think := answer
	if i := strings.Index(think, "</think>"); i >= 0 {
		think = strings.TrimPrefix(think[:i], "<think>")
	}
	think = strings.Join(strings.Fields(think), " ")
	if g.protocol == config.ProtocolUITARS {
		call, ok := g.uitarsCall(a)
		if !ok {
			return "", false
		}
		return "Thought: " + think + "\nAction: " + call, true
	}
	args, ok := g.mobileUseArgs(a)
	if !ok {
		return "", false
	}
	b, _ := json.Marshal(map[string]any{"name": mobileuse.FunctionName, "arguments": args})
	return "Thought: " + think + "\nAction: " + singleQuoted(a.Raw) + "\n<tool_call>\n" + string(b) + "\n</tool_call>", true
}

// uitarsCall is a persona action as a call of UI-TARS's mobile action space.
func (g grammar) uitarsCall(a act) (string, bool) {
	box := func(p [2]int) (string, bool) {
		x, y, ok := g.at(p)
		return fmt.Sprintf("'<|box_start|>(%d,%d)<|box_end|>'", x, y), ok
	}
	switch a.Name {
	case "Tap", "Double Tap", "Long Press":
		if a.Point == nil {
			return "", false
		}
		b, ok := box(*a.Point)
		name := map[string]string{"Tap": "click", "Double Tap": "left_double", "Long Press": "long_press"}[a.Name]
		return name + "(start_box=" + b + ")", ok
	case "Swipe":
		s, e, ok := swipePoints(a.Raw)
		if !ok {
			return "", false
		}
		sb, ok1 := box(s)
		eb, ok2 := box(e)
		return "drag(start_box=" + sb + ", end_box=" + eb + ")", ok1 && ok2
	case "Type", "Type_Name":
		return "type(content=" + pyQuote(a.Text) + ")", true
	case "Launch":
		return "open_app(app_name=" + pyQuote(a.App) + ")", true
	case "Back":
		return "press_back()", true
	case "Home":
		return "press_home()", true
	case "Wait":
		return "wait()", true
	case "Take_over":
		return "call_user(content=" + pyQuote(a.Message) + ")", true
	case "finish":
		return "finished(content=" + pyQuote(a.Message) + ")", true
	}
	return "", false
}

// terminate is the mobile_use answer after the one that gave a finish's
// result: the family says a finish in two answers, answer(text=…) with
// the result (its Action sentence the persona's finish, so the progress
// shows it) and then terminate, which carries only the status. ok is
// false unless the request's last step is that answer.
func (g grammar) terminate(msgs []message) (string, bool) {
	if g.protocol != config.ProtocolMobileUse {
		return "", false
	}
	_, hist, ok := g.request(msgs)
	if !ok || len(hist) == 0 || hist[len(hist)-1].Name != "finish" {
		return "", false
	}
	b, _ := json.Marshal(map[string]any{"name": mobileuse.FunctionName, "arguments": map[string]any{"action": "terminate", "status": "success"}})
	return "Thought: The answer is given; the task is complete.\nAction: End the task.\n<tool_call>\n" + string(b) + "\n</tool_call>", true
}

// mobileUseArgs is a persona action as the arguments of the mobile_use
// function. A finish with a message is its answer (terminate follows in
// the next answer); one without is terminate.
func (g grammar) mobileUseArgs(a act) (map[string]any, bool) {
	pt := func(p [2]int) ([]int, bool) {
		x, y, ok := g.at(p)
		return []int{x, y}, ok
	}
	switch a.Name {
	case "Tap", "Double Tap", "Long Press":
		if a.Point == nil {
			return nil, false
		}
		c, ok := pt(*a.Point)
		name := map[string]string{"Tap": "click", "Double Tap": "double_click", "Long Press": "long_press"}[a.Name]
		return map[string]any{"action": name, "coordinate": c}, ok
	case "Swipe":
		s, e, ok := swipePoints(a.Raw)
		if !ok {
			return nil, false
		}
		c1, ok1 := pt(s)
		c2, ok2 := pt(e)
		return map[string]any{"action": "swipe", "coordinate": c1, "coordinate2": c2}, ok1 && ok2
	case "Type", "Type_Name":
		return map[string]any{"action": "type", "text": a.Text}, true
	case "Launch":
		return map[string]any{"action": "open", "text": a.App}, true
	case "Back", "Home":
		return map[string]any{"action": "system_button", "button": a.Name}, true
	case "Wait":
		return map[string]any{"action": "wait", "time": 2}, true
	case "Note":
		return map[string]any{"action": "answer", "text": a.Message}, true
	case "Take_over":
		return map[string]any{"action": "ask_user", "text": a.Message}, true
	case "finish":
		if strings.TrimSpace(a.Message) != "" {
			return map[string]any{"action": "answer", "text": a.Message}, true
		}
		return map[string]any{"action": "terminate", "status": "success"}, true
	}
	return nil, false
}

func swipePoints(raw string) ([2]int, [2]int, bool) {
	m := swipeRe.FindStringSubmatch(raw)
	if m == nil {
		return [2]int{}, [2]int{}, false
	}
	n := make([]int, 4)
	for i := range n {
		n[i], _ = strconv.Atoi(m[i+1])
	}
	return [2]int{n[0], n[1]}, [2]int{n[2], n[3]}, true
}

// pyQuote writes s as a single-quoted argument the UI-TARS parser reads
// back whole: backslashes, quotes and newlines escaped.
func pyQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}
