// Package verify decides whether a todo the executor finished is really
// done (docs/design.md §9). Cheap deterministic checks come first: a finish
// message that admits failure, and what the UI tree proves on its own (the
// app in front for "open X" or "go home", a switch's state for "turn X on").
// Everything else goes to a vision model with a strict JSON contract,
// {"status":"done|failed","evidence":"…"}, built and parsed here.
package verify

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Verdict statuses.
const (
	Done   = "done"
	Failed = "failed"
)

// Who decided a verdict.
const (
	ByMessage = "message" // the finish message admitted failure
	ByUITree  = "ui_tree" // a deterministic check on the UI tree
	// ByPostcondition: the planner's postconditions, checked on the UI
	// tree (docs/design.md §9).
	ByPostcondition = "postcondition"
	ByModel         = "model" // the verifier model
	ByProbe         = "probe" // a read-only probe found the effect past the screen's edge
)

// Verdict is the outcome of verifying one finished todo.
type Verdict struct {
	Status   string `json:"status"`   // Done or Failed
	Evidence string `json:"evidence"` // what shows it, in one sentence
	By       string `json:"by,omitempty"`
}

// Screen is what the verifier sees of the final screen.
type Screen struct {
	App        string           // display name of the app in front
	AppPackage string           // its package
	Elements   []uitree.Element // UI tree; may be empty
	Width      int
	Height     int
	Sensitive  bool // no screenshot could be taken
	// Unread says why the UI tree could not be read, when it could not:
	// what needs the tree is then not verified.
	Unread string
}

// admissions are phrases with which a finish message says the task was not
// done. They are matched case-insensitively on word boundaries (English) or
// as substrings (Chinese).
var (
	admitRe  = regexp.MustCompile(`(?i)\b(?:i do not know how|i don't know how|do not know how to|don't know how to|not found|could not|couldn't|cannot|can't|can not|unable to|failed to|failed|gave up|give up|stopped before|no such|does not exist|doesn't exist|is not installed|not available|no app|impossible|not possible|nothing (?:on the screen )?matches|there is no|there are no|did not|didn't|not done)\b`)
	quotedRe = regexp.MustCompile(`"[^"]*"|“[^”]*”|「[^」]*」`)
	admitZH  = []string{"不知道", "无法", "不能", "找不到", "没有找到", "未找到", "失败", "不存在", "没有这个", "没有此", "做不到", "未完成", "没有安装", "未安装"}
)

// Admits reports whether a finish message says the task was not done, and
// the phrase that says so.
func Admits(message string) (string, bool) {
	// Quoted text is what was typed or read ("Sent \"I can't come\" to
	// Bob"), not the executor's own words.
	message = quotedRe.ReplaceAllString(message, `""`)
	if m := admitRe.FindString(message); m != "" {
		return m, true
	}
	for _, p := range admitZH {
		if strings.Contains(message, p) {
			return p, true
		}
	}
	return "", false
}

var (
	openRe   = regexp.MustCompile(`(?i)^(?:please\s+)?(?:open|launch|start)\s+(?:the\s+)?(.+?)(?:\s+app)?$`)
	openZHRe = regexp.MustCompile(`^(?:请)?(?:打开|启动)(.+?)(?:应用|app)?$`)
	homeRe   = regexp.MustCompile(`(?i)^(?:please\s+)?(?:go|return|get|head)\s+(?:back\s+)?to\s+(?:the\s+)?home(?:\s+screen)?$|^(?:回到|返回)(?:主屏幕|桌面|主页)$`)
	switchRe = regexp.MustCompile(`(?i)^(?:please\s+)?(?:turn|switch)\s+(on|off)\s+(?:the\s+)?(.+?)$|^(?:please\s+)?(?:turn|switch)\s+(?:the\s+)?(.+?)\s+(on|off)$`)
)

// isLauncher reports whether pkg is a home screen: one of the launchers
// the built-in app table knows, every vendor's (docs/phones.md#skins).
func isLauncher(pkg string) bool {
	pkgs, _ := device.LookupApp("Launcher")
	return slices.Contains(pkgs, pkg)
}

// Check runs the deterministic checks. ok is false when none of them
// applies and the model must judge.
func Check(task, message string, s Screen) (Verdict, bool) {
	if p, ok := Admits(message); ok {
		return Verdict{Status: Failed, By: ByMessage,
			Evidence: fmt.Sprintf("the executor's finish message admits it was not done (%q): %s", p, clip(message, 300))}, true
	}
	t := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(task), ".。!！"))
	if s.AppPackage == "" {
		return Verdict{}, false
	}
	inFront := fmt.Sprintf("%s (%s) is in front", firstNonEmpty(s.App, s.AppPackage), s.AppPackage)
	if homeRe.MatchString(t) {
		if isLauncher(s.AppPackage) {
			return Verdict{Status: Done, By: ByUITree, Evidence: "the home screen is in front"}, true
		}
		return Verdict{Status: Failed, By: ByUITree, Evidence: "the home screen is not in front: " + inFront}, true
	}
	name := ""
	if m := openRe.FindStringSubmatch(t); m != nil {
		name = m[1]
	} else if m := openZHRe.FindStringSubmatch(t); m != nil {
		name = m[1]
	}
	if name != "" {
		if pkgs, known := device.LookupApp(name); known {
			for _, p := range pkgs {
				if p == s.AppPackage {
					return Verdict{Status: Done, By: ByUITree, Evidence: inFront}, true
				}
			}
			return Verdict{Status: Failed, By: ByUITree, Evidence: fmt.Sprintf("%s is not in front: %s", name, inFront)}, true
		}
	}
	if m := switchRe.FindStringSubmatch(t); m != nil {
		state, label := m[1], m[2]
		if state == "" {
			label, state = m[3], m[4]
		}
		want := strings.EqualFold(state, "on")
		// A switch as the postconditions read one: checkable, or a
		// switch's class checked without being checkable (vivo's
		// Settings); one whose checked attribute and words disagree says
		// nothing here, and the verifier reads the screen.
		for i, e := range s.Elements {
			if !strings.EqualFold(strings.TrimSpace(e.Text), strings.TrimSpace(label)) {
				continue
			}
			is, on, sure := postcond.SwitchAt(s.Elements, i)
			if !is || !sure {
				continue
			}
			if on == want {
				return Verdict{Status: Done, By: ByUITree, Evidence: fmt.Sprintf("the %q switch is %s", e.Text, onOff(on))}, true
			}
			return Verdict{Status: Failed, By: ByUITree, Evidence: fmt.Sprintf("the %q switch is still %s", e.Text, onOff(on))}, true
		}
	}
	return Verdict{}, false
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// SystemPrompt opens every verifier request; the offline model server
// recognises the verifier role by it.
const SystemPrompt = `You are the verifier of a phone automation system. An executor says it finished a task on an Android phone. You decide from the final screen (screenshot and UI element list), the task and the executor's message whether the task is really done.

Answer with one JSON object and nothing else:
{"status":"done","evidence":"what on the screen shows the task is done"}
or
{"status":"failed","evidence":"what is missing or contradicts the executor"}

Rules:
- "done" only when the screen shows the task's effect (the setting has the asked value, the message is in the conversation, the alarm or note is listed, the asked app or page is in front), or, for a task that reads something, the message reports a value the screen shows.
- A message that admits failure ("I do not know how", "not found", "cannot") is "failed".
- The task may end with the executor's questions and the answers it was given, "(asked: … answered: …)": they say what the task left out (a message's words, its recipient), and the screen must show the task done with them; a message with other words is "failed".
- Name the missing thing in the evidence (the app, contact, setting or text that is not there).`

// Request is one verification request's content.
type Request struct {
	Task    string
	Message string // the executor's finish message
	Screen  Screen
	Image   *llm.Image // the final screenshot, encoded for the model; nil when sensitive
}

// Text is the user message text of a verifier request: task, message,
// current app, screen state, and the UI element list.
func (r Request) Text() string {
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		b.WriteByte('\n')
	}
	line("Task: %s", oneLine(r.Task))
	line("Executor message: %s", oneLine(r.Message))
	if r.Screen.App != "" || r.Screen.AppPackage != "" {
		line("Current app: %s (%s)", oneLine(firstNonEmpty(r.Screen.App, r.Screen.AppPackage)), oneLine(firstNonEmpty(r.Screen.AppPackage, r.Screen.App)))
	}
	if r.Screen.Sensitive {
		line("Screen: sensitive: screenshot unavailable")
	} else {
		line("Screen: normal")
	}
	if len(r.Screen.Elements) > 0 && r.Screen.Width > 0 && r.Screen.Height > 0 {
		line("%s", uitree.FormatList(r.Screen.Elements, r.Screen.Width, r.Screen.Height))
	}
	line(`Answer {"status":"done|failed","evidence":"..."}.`)
	return strings.TrimRight(b.String(), "\n")
}

// Messages builds the verifier's chat request.
func (r Request) Messages() []llm.Message {
	user := llm.Message{Role: llm.RoleUser, Text: r.Text()}
	if r.Image != nil {
		user.Images = []llm.Image{*r.Image}
	}
	return []llm.Message{{Role: llm.RoleSystem, Text: SystemPrompt}, user}
}

// Parse reads a verifier answer strictly: one JSON object (optionally in a
// ```json fence or after a <think> block) with "status" done or failed and
// a non-empty "evidence". Anything else is an error saying what to fix.
func Parse(text string) (Verdict, error) {
	s := strings.TrimSpace(text)
	if i := strings.LastIndex(s, "</think>"); i >= 0 {
		s = strings.TrimSpace(s[i+len("</think>"):])
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(s, "```json"), "```"), "```"))
	i, j := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if i < 0 || j < i {
		return Verdict{}, fmt.Errorf(`no JSON object in the verifier answer: answer {"status":"done|failed","evidence":"..."}`)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s[i:j+1]), &raw); err != nil {
		return Verdict{}, fmt.Errorf("the verifier answer is not valid JSON (%v): answer {\"status\":\"done|failed\",\"evidence\":\"...\"}", err)
	}
	var v Verdict
	if err := json.Unmarshal(raw["status"], &v.Status); err != nil || (v.Status != Done && v.Status != Failed) {
		return Verdict{}, fmt.Errorf(`"status" must be "done" or "failed"`)
	}
	if err := json.Unmarshal(raw["evidence"], &v.Evidence); err != nil || strings.TrimSpace(v.Evidence) == "" {
		return Verdict{}, fmt.Errorf(`"evidence" must be a non-empty string naming what the screen shows`)
	}
	for k := range raw {
		if k != "status" && k != "evidence" {
			return Verdict{}, fmt.Errorf("unknown field %q: answer with status and evidence only", k)
		}
	}
	v.Evidence = strings.TrimSpace(v.Evidence)
	v.By = ByModel
	return v, nil
}

func oneLine(s string) string {
	return strings.TrimSpace(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s))
}
