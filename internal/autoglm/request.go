package autoglm

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Turn is an earlier exchange with the executor, kept as text only.
type Turn struct {
	User      string `json:"user"`      // the text part of the request (StepText)
	Assistant string `json:"assistant"` // the model's answer as received
	// Info is the screen-info JSON of the turn in the autoglm layout
	// (ScreenInfo); empty for turns recorded in the phoneflow layout.
	Info string `json:"info,omitempty"`
}

// StepInput is everything one executor request is built from. It is a
// plain value so activities can build it from recorded state.
type StepInput struct {
	Task       string // the todo text
	AppName    string // display name of the foreground app
	AppPackage string // its package
	Screenshot []byte // PNG; nil when Sensitive
	// Decoded is Screenshot already decoded, when the caller has it, so it
	// is not decoded twice in one step; nil = decode Screenshot.
	Decoded         image.Image
	Sensitive       bool             // the screen could not be captured (FLAG_SECURE)
	SensitiveReason string           // why, e.g. "secure screen"
	Width, Height   int              // screen size in pixels
	Elements        []uitree.Element // UI tree; listed when Config.IncludeElements
	PreviousAction  string           // as the model wrote it, e.g. do(action="Tap", element=[500,212])
	PreviousResult  string           // "ok" or the error, e.g. app not found: "Foo"
	Notes           []string         // injected instructions, corrections, danger prompts
	TaskPrompt      string           // task-type prompt text for the system prompt
	History         []Turn           // earlier turns of this todo, oldest first
}

// StepText returns the text part of the request's last user message in the
// shared format: Task, Current app, Previous action, Previous action
// result, Screen, Notes, UI elements — lines left out when empty, order
// kept. Store it as Turn.User for later requests.
func StepText(cfg Config, in StepInput) string {
	if cfg.Protocol == ProtocolAutoGLM {
		return glmUserText(in.Task, ScreenInfo(cfg, in), len(in.History) == 0)
	}
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("Task: %s", oneLine(in.Task))
	if in.AppName != "" || in.AppPackage != "" {
		name, pkg := in.AppName, in.AppPackage
		if name == "" {
			name = pkg
		}
		if pkg == "" {
			pkg = name
		}
		line("Current app: %s (%s)", oneLine(name), oneLine(pkg))
	}
	if in.PreviousAction != "" {
		line("Previous action: %s", oneLine(in.PreviousAction))
	}
	if in.PreviousResult != "" {
		line("Previous action result: %s", oneLine(in.PreviousResult))
	}
	if in.Sensitive {
		reason := in.SensitiveReason
		if reason == "" {
			reason = "secure screen"
		}
		line("Screen: %s", sensitiveText(reason))
	} else {
		line("Screen: normal")
	}
	var notes []string
	for _, n := range in.Notes {
		if n = oneLine(n); n != "" {
			notes = append(notes, n)
		}
	}
	if len(notes) > 0 {
		line("Notes:")
		for _, n := range notes {
			line("- %s", n)
		}
	}
	if cfg.IncludeElements && len(in.Elements) > 0 && in.Width > 0 && in.Height > 0 {
		line("%s", uitree.FormatList(in.Elements, in.Width, in.Height))
	}
	return strings.TrimRight(b.String(), "\n")
}

// oneLine keeps a value on its line so the request format stays parseable.
func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}

// BuildMessages builds one executor request: the system prompt, the earlier
// turns as text only, and the current step with the screenshot scaled and
// re-encoded by Encode. Only the current screenshot is sent. A sensitive
// screen is sent without an image and says so in the text.
func BuildMessages(cfg Config, in StepInput, now time.Time) ([]llm.Message, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if strings.TrimSpace(in.Task) == "" {
		return nil, errors.New("autoglm: step input has no task: pass the todo text")
	}
	if !in.Sensitive && len(in.Screenshot) == 0 {
		return nil, errors.New("autoglm: step input has no screenshot: capture one, or set Sensitive with a reason when the screen cannot be captured")
	}
	if cfg.Protocol == ProtocolAutoGLM {
		return glmMessages(cfg, in, now)
	}
	msgs := []llm.Message{{Role: llm.RoleSystem, Text: systemPrompt(cfg, now, in.TaskPrompt, systemEN, systemZH)}}
	for _, t := range in.History {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: t.User},
			llm.Message{Role: llm.RoleAssistant, Text: t.Assistant})
	}
	user := llm.Message{Role: llm.RoleUser, Text: StepText(cfg, in)}
	if !in.Sensitive {
		img, err := ScreenImage(cfg, in)
		if err != nil {
			return nil, err
		}
		user.Images = []llm.Image{img}
	}
	return append(msgs, user), nil
}

// ScreenImage encodes the step's screenshot for a request, from its decoded
// image when the step has one: every layout that sends the screenshot uses it.
func ScreenImage(cfg Config, in StepInput) (llm.Image, error) {
	var img llm.Image
	var err error
	if in.Decoded != nil {
		img, _, _, err = EncodeImage(in.Decoded, in.Screenshot, cfg)
	} else {
		img, _, _, err = Encode(in.Screenshot, cfg)
	}
	return img, err
}

// SystemPrompt returns the executor's system prompt for the given date and
// language ("en" or "zh"), with the task-type prompt text appended when set.
func SystemPrompt(now time.Time, lang, taskPrompt string) string {
	return datedPrompt(now, lang, taskPrompt, systemEN, systemZH)
}

// systemPrompt is the configured prompt text (cfg.SystemPrompt) with its
// date filled in, or phoneflow's own in cfg.Lang. The task-type advice is
// appended to phoneflow's own, and to the user's only with
// cfg.PromptAdvice.
func systemPrompt(cfg Config, now time.Time, taskPrompt, en, zh string) string {
	if cfg.SystemPrompt == "" {
		return datedPrompt(now, cfg.Lang, taskPrompt, en, zh)
	}
	date := now.Format("2006-01-02, Monday")
	if cfg.Lang == "zh" {
		date = now.Format("2006年01月02日") + " " + zhWeekdays[now.Weekday()]
	}
	p := strings.ReplaceAll(cfg.SystemPrompt, "{date}", date)
	if !cfg.PromptAdvice {
		// A prompt of the user's own goes out as written.
		return p
	}
	return withAdvice(p, cfg.Lang, taskPrompt)
}

var zhWeekdays = []string{"星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"}

// sensitiveText says the screenshot is missing and why, without saying it
// twice when the reason already does.
func sensitiveText(reason string) string {
	reason = oneLine(reason)
	if strings.HasPrefix(reason, "screenshot unavailable") {
		return "sensitive: " + reason
	}
	return "sensitive: screenshot unavailable (" + reason + ")"
}

// datedPrompt fills a system prompt template pair with the date (and, in
// Chinese, the weekday) and appends the task-type prompt text when set.
func datedPrompt(now time.Time, lang, taskPrompt, en, zh string) string {
	var p string
	if lang == "zh" {
		p = fmt.Sprintf(zh, now.Format("2006年01月02日"), zhWeekdays[now.Weekday()])
	} else {
		p = fmt.Sprintf(en, now.Format("Monday, 2 January 2006"))
	}
	return withAdvice(p, lang, taskPrompt)
}

// withAdvice appends the task-type prompt text to a system prompt.
func withAdvice(p, lang, taskPrompt string) string {
	if t := strings.TrimSpace(taskPrompt); t != "" {
		if lang == "zh" {
			p += "\n\n本类任务的经验：\n" + t
		} else {
			p += "\n\nAdvice for this kind of task:\n" + t
		}
	}
	return p
}

const systemEN = `Today is %s.

You operate an Android phone to complete the user's task, one action per turn. Each turn you get the task, the app in the foreground, the result of your previous action, notes from the user or the system, often a list of the UI elements on screen, and a screenshot of the current screen.

Answer in exactly this form:
<think>what you see, what has been done, and what to do next</think>
<answer>one action</answer>

Coordinates are relative: [x,y] with x and y from 0 to 999, where [0,0] is the top-left corner and [999,999] the bottom-right corner of the screen, whatever the screenshot's size. When the element list gives at=[x,y] for an element, tapping that point hits it.

Actions:
- do(action="Launch", app="name") — open an app by its name.
- do(action="Tap", element=[x,y]) — tap a point. Add message="why" when the tap pays, deletes, sends or confirms something irreversible; a person approves it first.
- do(action="Type", text="...") — type into the focused input field (tap the field first).
- do(action="Type_Name", text="...") — type a person's name.
- do(action="Swipe", start=[x1,y1], end=[x2,y2]) — swipe, e.g. from [500,800] to [500,200] to scroll down.
- do(action="Long Press", element=[x,y]) — press and hold.
- do(action="Double Tap", element=[x,y]) — tap twice quickly.
- do(action="Back") — go back.
- do(action="Home") — go to the home screen.
- do(action="Wait", duration="2 seconds") — wait for the screen to load.
- do(action="Take_over", message="what the person must do") — hand over to a person, e.g. for a login, a captcha or a payment password.
- do(action="Interact") — ask the person to choose when several options fit equally well.
- do(action="Note", message="...") — record something you read on the screen for later.
- do(action="Call_API", instruction="...") — have the text of the screen summarised or processed.
- finish(message="...") — the task is done (or cannot be done); the message reports the result, including anything the task asked you to read.

Rules:
- Check the previous action's result first. If it failed (for example the app was not found, or the screen did not change), do something different instead of repeating it.
- If the current app is not the one the task needs, Launch it.
- If the screen is marked sensitive, there is no screenshot: rely on the element list, or hand over with Take_over.
- Scroll with Swipe when what you need is not visible; go Back when you are on the wrong page.
- Follow the notes: they come from the user or correct your course.
- Do only what the task asks. Finish as soon as it is done.`

const systemZH = `今天是%s，%s。

你在操作一部安卓手机来完成用户的任务，每轮只执行一个动作。每轮你会收到：任务、前台应用、上一个动作的结果、用户或系统的备注、通常还有屏幕上的界面元素列表，以及当前屏幕截图。

请严格按以下格式回答：
<think>你看到了什么、已经完成了什么、下一步做什么</think>
<answer>一个动作</answer>

坐标是相对坐标：[x,y]，x 和 y 的取值为 0 到 999，[0,0] 是屏幕左上角，[999,999] 是右下角，与截图尺寸无关。元素列表中的 at=[x,y] 就是该元素的点击位置。

可用动作：
- do(action="Launch", app="应用名") — 按名称打开应用。
- do(action="Tap", element=[x,y]) — 点击某点。若该点击会付款、删除、发送或确认不可撤销的操作，请加上 message="原因"，由人工先确认。
- do(action="Type", text="...") — 在已聚焦的输入框中输入（先点击输入框）。
- do(action="Type_Name", text="...") — 输入人名。
- do(action="Swipe", start=[x1,y1], end=[x2,y2]) — 滑动，例如从 [500,800] 滑到 [500,200] 向下翻。
- do(action="Long Press", element=[x,y]) — 长按。
- do(action="Double Tap", element=[x,y]) — 双击。
- do(action="Back") — 返回。
- do(action="Home") — 回到桌面。
- do(action="Wait", duration="2 seconds") — 等待页面加载。
- do(action="Take_over", message="需要人做什么") — 交给人工处理，例如登录、验证码或支付密码。
- do(action="Interact") — 有多个同样合适的选项时请用户选择。
- do(action="Note", message="...") — 记下屏幕上读到的内容。
- do(action="Call_API", instruction="...") — 对屏幕上的文字做总结或处理。
- finish(message="...") — 任务完成（或无法完成）；message 汇报结果，包括任务要求读取的内容。

规则：
- 先看上一个动作的结果。若失败（例如找不到应用或屏幕没有变化），换一种做法，不要重复。
- 当前应用不是任务需要的应用时，先 Launch 它。
- 屏幕标记为敏感时没有截图：依靠元素列表，或用 Take_over 交给人工。
- 需要的内容不可见时用 Swipe 滚动；进错页面时用 Back 返回。
- 遵循备注：它们来自用户或用于纠正方向。
- 只做任务要求的事，完成后立即 finish。`
