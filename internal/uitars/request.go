package uitars

import (
	"errors"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Image sizes UI-TARS's processor resizes to (the reference parser's
// smart_resize bounds).
const (
	Factor    = 28
	MinPixels = 100 * 28 * 28
	MaxPixels = 16384 * 28 * 28
)

// Frame is the coordinate frame of answers to a request built with cfg
// for a w x h screenshot: the resized image in pixels, or the 0-1000 grid
// when cfg.Coordinates is relative (UI-TARS v1).
func Frame(cfg autoglm.Config, w, h int) autoglm.Frame {
	if cfg.Coordinates == autoglm.CoordsRelative {
		return autoglm.Frame{Relative: true, Scale: 1000}
	}
	sw, sh := autoglm.SentSize(cfg, w, h)
	rw, rh := autoglm.SmartResize(sw, sh, Factor, MinPixels, MaxPixels)
	return autoglm.Frame{W: rw, H: rh}
}

// systemText is the system message of the reference deployments.
const systemText = "You are a helpful assistant."

// BuildMessages builds a UI-TARS request: the system message, a user
// message with the prompt (its {instruction} the task, {language} the
// language of the thought), the earlier answers as the model wrote them,
// and the newest screenshot with any notes or failed result as text after
// it. Earlier screenshots are not sent.
func BuildMessages(cfg autoglm.Config, in autoglm.StepInput) ([]llm.Message, error) {
	if strings.TrimSpace(in.Task) == "" {
		return nil, errors.New("uitars: step input has no task: pass the todo text")
	}
	prompt := cfg.SystemPrompt
	if prompt == "" {
		prompt = mobilePrompt
	}
	lang := "English"
	if cfg.Lang == "zh" {
		lang = "Chinese"
	}
	prompt = strings.NewReplacer("{instruction}", strings.TrimSpace(in.Task), "{language}", lang).Replace(prompt)
	msgs := []llm.Message{{Role: llm.RoleSystem, Text: systemText}, {Role: llm.RoleUser, Text: prompt}}
	for _, t := range in.History {
		msgs = append(msgs, llm.Message{Role: llm.RoleAssistant, Text: t.Assistant})
	}
	user := llm.Message{Role: llm.RoleUser, Text: feedback(cfg, in), ImagesFirst: true}
	if in.Sensitive {
		user.Text = strings.TrimSpace("The screenshot is unavailable (" + in.SensitiveReason + "): use call_user() to hand over to the user.\n" + user.Text)
		return append(msgs, user), nil
	}
	if len(in.Screenshot) == 0 {
		return nil, errors.New("uitars: step input has no screenshot: capture one")
	}
	img, err := autoglm.ScreenImage(cfg, in)
	if err != nil {
		return nil, err
	}
	user.Images = []llm.Image{img}
	return append(msgs, user), nil
}

// feedback is what the newest user message says besides the screenshot:
// a failed previous action and the notes, one line each, and the element
// list when executor.ui_elements asks for it (off by default: the
// reference client sends none).
func feedback(cfg autoglm.Config, in autoglm.StepInput) string {
	var lines []string
	if r := strings.TrimSpace(in.PreviousResult); r != "" && !strings.HasPrefix(strings.ToLower(r), "ok") && r != "already applied" {
		lines = append(lines, "The previous action failed: "+oneLine(r))
	}
	for _, n := range in.Notes {
		if n = oneLine(n); n != "" {
			lines = append(lines, "Note: "+n)
		}
	}
	if cfg.IncludeElements && len(in.Elements) > 0 && in.Width > 0 && in.Height > 0 {
		lines = append(lines, uitree.FormatList(in.Elements, in.Width, in.Height))
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}

// mobilePrompt lays out UI-TARS's mobile prompt: its sections, its
// action space (the calls the model was trained on, docs/models.md#ui-tars)
// and its placeholders; the wording of the notes is phoneflow's.
const mobilePrompt = `You operate an Android phone for the user. You get the task, your earlier answers and the current screenshot; decide the single next action.

## Output Format
` + "```" + `
Thought: ...
Action: ...
` + "```" + `

## Action Space
click(start_box='<|box_start|>(x1,y1)<|box_end|>')
long_press(start_box='<|box_start|>(x1,y1)<|box_end|>')
type(content='') # end content with \n to submit what you typed
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left')
open_app(app_name='')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
press_home()
press_back()
wait() # pause 5 seconds, then look at the screen again
call_user() # hand over to the user for a login, a captcha or a payment password
finished(content='xxx') # the task is over; content reports the result. Escape \', \" and \n inside content.

## Note
- Write the ` + "`Thought`" + ` part in {language}.
- In ` + "`Thought`" + `, plan briefly, then say in one sentence which action comes next and on which element.

## User Instruction
{instruction}
`
