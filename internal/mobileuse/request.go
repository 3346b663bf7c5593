package mobileuse

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Image sizes the Qwen2.5-VL processor resizes to by default.
const (
	Factor    = 28
	MinPixels = 4 * 28 * 28
	MaxPixels = 16384 * 28 * 28
)

// RelativeScale is the grid of relative answers: the prompt says the
// screen is 999x999 (Qwen3-VL).
const RelativeScale = 999

// Frame is the coordinate frame of answers to a request built with cfg
// for a w x h screenshot.
func Frame(cfg autoglm.Config, w, h int) autoglm.Frame {
	if cfg.Coordinates == autoglm.CoordsRelative {
		return autoglm.Frame{Relative: true, Scale: RelativeScale}
	}
	sw, sh := autoglm.SentSize(cfg, w, h)
	rw, rh := autoglm.SmartResize(sw, sh, Factor, MinPixels, MaxPixels)
	return autoglm.Frame{W: rw, H: rh}
}

// BuildMessages builds a mobile_use request: the system prompt declaring
// the function with the screen's resolution in the answers' frame, and
// one user message with the task, the progress (the earlier answers'
// action summaries, "Step n: …; "), any failed result or notes, and the
// newest screenshot after the text.
func BuildMessages(cfg autoglm.Config, in autoglm.StepInput) ([]llm.Message, error) {
	if strings.TrimSpace(in.Task) == "" {
		return nil, errors.New("mobileuse: step input has no task: pass the todo text")
	}
	f := Frame(cfg, in.Width, in.Height)
	w, h := f.W, f.H
	if f.Relative {
		w, h = RelativeScale, RelativeScale
	}
	system := cfg.SystemPrompt
	if system == "" {
		system = SystemPrompt(w, h)
	} else {
		system = strings.ReplaceAll(system, "{resolution}", fmt.Sprintf("%dx%d", w, h))
	}
	var progress strings.Builder
	for i, t := range in.History {
		fmt.Fprintf(&progress, "Step %d: %s; ", i+1, summary(t.Assistant))
	}
	text := "The user query: " + strings.TrimSpace(in.Task) + ".\nTask progress (You have done the following operation on the current device): " + progress.String() + ".\n"
	if r := strings.TrimSpace(in.PreviousResult); r != "" && !strings.HasPrefix(strings.ToLower(r), "ok") && r != "already applied" {
		text += "The last operation failed: " + oneLine(r) + "\n"
	}
	for _, n := range in.Notes {
		if n = oneLine(n); n != "" {
			text += "Note: " + n + "\n"
		}
	}
	if cfg.IncludeElements && len(in.Elements) > 0 && in.Width > 0 && in.Height > 0 {
		// Only when executor.ui_elements asks for it: the reference
		// client sends none.
		text += uitree.FormatList(in.Elements, in.Width, in.Height) + "\n"
	}
	user := llm.Message{Role: llm.RoleUser, Text: text}
	msgs := []llm.Message{{Role: llm.RoleSystem, Text: system}}
	if in.Sensitive {
		user.Text += "The screenshot is unavailable (" + oneLine(in.SensitiveReason) + ").\n"
		return append(msgs, user), nil
	}
	if len(in.Screenshot) == 0 {
		return nil, errors.New("mobileuse: step input has no screenshot: capture one")
	}
	img, err := autoglm.ScreenImage(cfg, in)
	if err != nil {
		return nil, err
	}
	user.Images = []llm.Image{img}
	return append(msgs, user), nil
}

// summary is an earlier answer as the progress line lists it: its
// "Action:" sentence, else its <conclusion>, else its reasoning, on one
// line without double quotes; the call itself when there is no prose.
func summary(answer string) string {
	s := ""
	if i := strings.Index(answer, "Action:"); i >= 0 {
		s = answer[i+len("Action:"):]
		if j := strings.Index(s, "<tool_call>"); j >= 0 {
			s = s[:j]
		}
		if j := strings.Index(s, "\n"); j >= 0 && strings.TrimSpace(s[:j]) != "" {
			s = s[:j]
		}
	} else if i := strings.Index(answer, "<conclusion>"); i >= 0 {
		s = answer[i+len("<conclusion>"):]
		if j := strings.Index(s, "</conclusion>"); j >= 0 {
			s = s[:j]
		}
	}
	if strings.TrimSpace(s) == "" {
		objs, first := calls(answer)
		if first > 0 {
			s = reasoning(answer[:first])
		}
		if strings.TrimSpace(s) == "" && len(objs) > 0 {
			s = objs[0]
		}
	}
	s = strings.ReplaceAll(oneLine(s), `"`, "")
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}

// Tool is the mobile_use function as the system prompt declares it: the
// action names, arguments and enums of the reference tool, described in
// phoneflow's words, for a screen of w x h in the answers' frame.
func Tool(w, h int) map[string]any {
	return map[string]any{"type": "function", "function": map[string]any{
		"name":        FunctionName,
		"description": fmt.Sprintf("Operate a mobile phone through its touchscreen and look at screenshots.\n* Actions are clicks, typing, swipes and the system buttons; apps may need time to react, so wait and look again when the screen has not changed yet.\n* The screen's resolution is %dx%d.\n* Touch the centre of the element you mean, not its edge.", w, h),
		"parameters": map[string]any{
			"type":     "object",
			"required": []string{"action"},
			"properties": map[string]any{
				"action": map[string]any{"type": "string",
					"enum":        []string{"click", "long_press", "swipe", "type", "answer", "open", "system_button", "wait", "terminate"},
					"description": "The action to perform:\n* `click`: touch the point (x, y) of `coordinate`.\n* `long_press`: hold the point of `coordinate` for `time` seconds.\n* `swipe`: move from `coordinate` to `coordinate2`.\n* `type`: enter `text` into the focused input box.\n* `answer`: state `text` as the answer to the user's question.\n* `open`: start the app named `text`.\n* `system_button`: press `button`.\n* `wait`: wait `time` seconds for the screen to change.\n* `terminate`: end the task with `status`."},
				"coordinate":  map[string]any{"type": "array", "description": "(x, y): pixels from the left and top edges. For `click`, `long_press` and `swipe`."},
				"coordinate2": map[string]any{"type": "array", "description": "(x, y): the end point of `swipe`."},
				"text":        map[string]any{"type": "string", "description": "For `type`, `answer` and `open`."},
				"time":        map[string]any{"type": "number", "description": "Seconds, for `long_press` and `wait`."},
				"button":      map[string]any{"type": "string", "enum": []string{"Back", "Home", "Menu", "Enter"}, "description": "Back returns to the previous screen, Home to the home screen, Menu opens the recent apps, Enter presses enter. For `system_button`."},
				"status":      map[string]any{"type": "string", "enum": []string{"success", "failure"}, "description": "Whether the task succeeded. For `terminate`."},
			},
		},
	}}
}

// SystemPrompt is the mobile_use system prompt for a w x h screen: the
// function declared in <tools> as Qwen's tool-calling format does, and
// the answer format (a thought, an action sentence, one <tool_call>).
func SystemPrompt(w, h int) string {
	tool, _ := json.Marshal(Tool(w, h))
	return "\n\n# Tools\n\nYou may call the function below to act on the user's phone.\n\nThe function signature is inside <tools></tools> XML tags:\n<tools>\n" + string(tool) +
		"\n</tools>\n\nReturn each function call as a JSON object with the function name and its arguments inside <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>\n\n" +
		"# Response format\n\nEach step answers with:\n1) Thought: one short sentence on the next move.\n2) Action: one short sentence saying what you do on the screen.\n3) One <tool_call>...</tool_call> block holding only the JSON call.\n\nRules:\n- Keep that order: Thought, Action, <tool_call>.\n- Nothing else outside those three parts.\n- When the task is done, or cannot be done, call terminate."
}
