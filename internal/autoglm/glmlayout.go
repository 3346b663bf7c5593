package autoglm

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Executor protocols: the conversation layout of executor requests
// (docs/design.md §3).
const (
	// ProtocolPhoneflow is phoneflow's own layout (Task, Current app,
	// Previous action, Screen, Notes, element list), for general vision
	// models.
	ProtocolPhoneflow = "phoneflow"
	// ProtocolAutoGLM is the layout AutoGLM-Phone was trained on: the task
	// and a screen-info JSON object in the first user message, the header
	// ScreenInfoHeader and that JSON in every later one, the screenshot only
	// on the newest.
	ProtocolAutoGLM = "autoglm"
	// ProtocolUITARS is UI-TARS's layout and grammar: Thought:/Action:
	// answers with click(start_box=...) calls (package uitars).
	ProtocolUITARS = "uitars"
	// ProtocolMobileUse is the Qwen-VL mobile_use function in <tool_call>
	// JSON, as GUI-Owl, MAI-UI, UI-Venus and Qwen2.5/3-VL answer it
	// (package mobileuse).
	ProtocolMobileUse = "mobile_use"
	// ProtocolTools offers the phone's actions as native function tools
	// (package toolcall).
	ProtocolTools = "tools"
)

// ScreenInfoHeader opens every user message of the autoglm layout after
// the first.
const ScreenInfoHeader = "** Screen Info **"

// Keys of the screen-info object of the autoglm layout. Only current_app is
// always present; the others appear only when they carry something
// (docs/design.md §3).
const (
	InfoCurrentApp   = "current_app"
	InfoActionResult = "last_action_result" // the previous action failed, or the last answer did not parse
	InfoScreen       = "screen"             // the screen could not be captured
	InfoNotes        = "notes"              // user instructions, corrections, turn warnings
	InfoElements     = "ui_elements"        // the element list, when elements are sent
)

// ScreenInfo returns the screen-info JSON object of the autoglm layout for
// in, written as Python's json.dumps writes it (", " and ": " separators,
// non-ASCII kept) because that is what the model saw in training.
func ScreenInfo(cfg Config, in StepInput) string {
	app := strings.TrimSpace(in.AppName)
	if app == "" {
		app = strings.TrimSpace(in.AppPackage)
	}
	var b strings.Builder
	b.WriteString("{")
	field := func(key string) {
		if b.Len() > 1 {
			b.WriteString(", ")
		}
		b.WriteString(pyQuote(key) + ": ")
	}
	field(InfoCurrentApp)
	b.WriteString(pyQuote(app))
	if r := strings.TrimSpace(in.PreviousResult); r != "" && !resultOK(r) {
		field(InfoActionResult)
		b.WriteString(pyQuote(r))
	}
	if in.Sensitive {
		reason := in.SensitiveReason
		if reason == "" {
			reason = "secure screen"
		}
		field(InfoScreen)
		b.WriteString(pyQuote(sensitiveText(reason)))
	}
	var notes []string
	for _, n := range in.Notes {
		if n = oneLine(n); n != "" {
			notes = append(notes, n)
		}
	}
	if len(notes) > 0 {
		field(InfoNotes)
		b.WriteString(pyList(notes))
	}
	if cfg.IncludeElements && len(in.Elements) > 0 && in.Width > 0 && in.Height > 0 {
		var lines []string
		for _, l := range uitree.List(in.Elements, in.Width, in.Height) {
			lines = append(lines, l.String())
		}
		if len(lines) > 0 {
			field(InfoElements)
			b.WriteString(pyList(lines))
		}
	}
	b.WriteString("}")
	return b.String()
}

// resultOK reports whether a previous action result needs no mention: the
// reference layout says nothing about results, so only failures are carried.
func resultOK(r string) bool {
	r = strings.ToLower(r)
	return r == "ok" || r == "already applied" || strings.HasPrefix(r, "ok ") || strings.HasPrefix(r, "ok,") || strings.HasPrefix(r, "ok:")
}

// glmUserText is the text of one user message of the autoglm layout: the
// task, a blank line and the screen info for the first message of a
// conversation; the header, a blank line and the screen info after that.
func glmUserText(task, info string, first bool) string {
	if first {
		return strings.TrimSpace(task) + "\n\n" + info
	}
	return ScreenInfoHeader + "\n\n" + info
}

// glmMessages builds an executor request in the autoglm layout: the system
// prompt, the earlier turns as text (the first of them carrying the task,
// even when older turns were cut), then the newest user message with the
// screenshot before its text. Earlier screenshots are never sent.
func glmMessages(cfg Config, in StepInput, now time.Time) ([]llm.Message, error) {
	msgs := []llm.Message{{Role: llm.RoleSystem, Text: systemPrompt(cfg, now, in.TaskPrompt, glmSystemEN, glmSystemZH)}}
	for i, t := range in.History {
		info := t.Info
		var text string
		if info == "" {
			// A turn recorded in the other layout: keep its text, and put
			// the task in front of the first one.
			text = t.User
			if i == 0 {
				text = strings.TrimSpace(in.Task) + "\n\n" + t.User
			}
		} else {
			text = glmUserText(in.Task, info, i == 0)
		}
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Text: text},
			llm.Message{Role: llm.RoleAssistant, Text: t.Assistant})
	}
	user := llm.Message{Role: llm.RoleUser, Text: glmUserText(in.Task, ScreenInfo(cfg, in), len(in.History) == 0), ImagesFirst: true}
	if !in.Sensitive {
		img, err := ScreenImage(cfg, in)
		if err != nil {
			return nil, err
		}
		user.Images = []llm.Image{img}
	}
	return append(msgs, user), nil
}

// pyQuote quotes s as Python's json.dumps(ensure_ascii=False) does.
func pyQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case utf8.RuneError:
			b.WriteString(`\ufffd`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func pyList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = pyQuote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// GLMSystemPrompt returns the system prompt of the autoglm layout for the
// given date and language ("en" or "zh"), with the task-type prompt text
// appended when set.
func GLMSystemPrompt(now time.Time, lang, taskPrompt string) string {
	return datedPrompt(now, lang, taskPrompt, glmSystemEN, glmSystemZH)
}

// The wording is phoneflow's own; the action set, the coordinate grid and
// the answer form are those of docs/design.md §3.
const glmSystemEN = `The date is %s.

You are a phone operator. You carry out the user's task on an Android phone by deciding one action at a time. The first message gives the task and, as a JSON object, what is known about the screen (the app in front as "current_app"); each later message starts with "** Screen Info **" and gives that object for the new screen. The newest message has a screenshot. When the object has "last_action_result", your previous action failed or your answer was not understood; "notes" are instructions from the user or the system; "screen" says the screenshot is missing; "ui_elements" lists what is on screen with at=[x,y] tap points.

Reply like this and nothing else:
<think>a short account of the screen, of the progress, and of the next move</think>
<answer>exactly one action</answer>

Points are [x,y] on a 0-999 grid over the whole screen, whatever the image size: [0,0] is the top-left corner, [999,999] the bottom-right one.

The actions:
do(action="Launch", app="name") opens an app by name.
do(action="Tap", element=[x,y]) taps a point; add message="reason" when the tap pays, deletes, sends or confirms something that cannot be undone, so a person approves it first.
do(action="Type", text="...") types into the focused field; tap the field first.
do(action="Type_Name", text="...") types a person's name.
do(action="Swipe", start=[x1,y1], end=[x2,y2]) swipes; from [500,800] to [500,200] scrolls down.
do(action="Long Press", element=[x,y]) presses and holds.
do(action="Double Tap", element=[x,y]) taps twice quickly.
do(action="Back") goes back one screen.
do(action="Home") goes to the home screen.
do(action="Wait", duration="2 seconds") waits for a screen that is still loading.
do(action="Take_over", message="what the person has to do") hands the phone to a person, for example for a login, a captcha or a payment password.
do(action="Interact") asks the person to choose when several options fit equally.
do(action="Note", message="...") keeps something read on the screen for later.
do(action="Call_API", instruction="...") has the text on the screen summarised or processed.
finish(message="...") ends the task, done or impossible; the message reports the outcome and anything the task asked you to read.

How to work:
1. Before anything else, check that the app in front is the one the task needs; if not, Launch it.
2. If a screen is still loading, Wait, but not more than three times in a row; then try something else.
3. If you land on a page that has nothing to do with the task, go Back.
4. If what you need is not visible, Swipe to look for it before giving up.
5. Compare the screen with what your last action should have done; if it had no effect, do not repeat it: tap a little beside it, scroll, or take another way.
6. Follow the notes.
7. Logins, captchas and payment passwords are for a person: use Take_over.
8. Do what the task asks and no more, and finish as soon as it is done, reporting what you read when the task asked for it.`

const glmSystemZH = `今天是%s，%s。

你是手机操作员，在安卓手机上一次决定一个动作来完成用户的任务。第一条消息给出任务，以及一个描述屏幕的 JSON 对象（"current_app" 是前台应用）；之后每条消息以 "** Screen Info **" 开头，给出新屏幕的该对象。最新一条消息附有截图。对象中有 "last_action_result" 时，表示上一个动作失败或你的回答无法识别；"notes" 是用户或系统的指示；"screen" 表示没有截图；"ui_elements" 列出屏幕上的元素及其点击位置 at=[x,y]。

只按下面的格式回复：
<think>简述屏幕情况、进展和下一步</think>
<answer>恰好一个动作</answer>

坐标 [x,y] 取值 0 到 999，覆盖整个屏幕，与图片尺寸无关：[0,0] 是左上角，[999,999] 是右下角。

动作：
do(action="Launch", app="应用名") 按名称打开应用。
do(action="Tap", element=[x,y]) 点击一点；若点击会付款、删除、发送或确认不可撤销的事，加上 message="原因"，由人先确认。
do(action="Type", text="...") 在已聚焦的输入框输入；先点击输入框。
do(action="Type_Name", text="...") 输入人名。
do(action="Swipe", start=[x1,y1], end=[x2,y2]) 滑动；从 [500,800] 到 [500,200] 是向下翻。
do(action="Long Press", element=[x,y]) 长按。
do(action="Double Tap", element=[x,y]) 双击。
do(action="Back") 返回上一屏。
do(action="Home") 回到桌面。
do(action="Wait", duration="2 seconds") 等待仍在加载的页面。
do(action="Take_over", message="需要人做的事") 把手机交给人，例如登录、验证码或支付密码。
do(action="Interact") 有多个同样合适的选项时请人选择。
do(action="Note", message="...") 记下屏幕上读到的内容。
do(action="Call_API", instruction="...") 对屏幕上的文字做总结或处理。
finish(message="...") 结束任务（完成或无法完成）；message 报告结果以及任务要求读取的内容。

做法：
1. 先确认前台应用是任务需要的应用；不是就 Launch 它。
2. 页面仍在加载时 Wait，但连续不超过三次；之后换别的做法。
3. 进入与任务无关的页面时 Back。
4. 需要的内容不可见时，先 Swipe 寻找再放弃。
5. 对照屏幕检查上一个动作是否生效；没有生效就不要重复：点偏一点、滚动或换一条路。
6. 遵循 notes。
7. 登录、验证码和支付密码交给人：用 Take_over。
8. 只做任务要求的事，完成后立即 finish，任务要求读取内容时在 message 中报告。`
