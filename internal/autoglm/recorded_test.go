package autoglm

import (
	"errors"
	"strings"
	"testing"
)

// recordedAnswers are executor answers in the shapes real models write
// them, each with the public place its shape was seen. The texts are
// written for these tests (the shapes, not the threads' words).
var recordedAnswers = []struct {
	name, seen, text string
	action, arg      string // want: action name and its app, text or message; action "" = a ParseError
}{
	{"reference layout with newlines inside the tags, Chinese",
		"github.com/zai-org/Open-AutoGLM/issues/390 (expected output of autoglm-phone on BigModel)",
		"<think>\n用户要打开微信。当前是桌面，我用 Launch 打开它。\n</think>\n<answer>\ndo(action=\"Launch\", app=\"微信\")\n</answer>",
		ActionLaunch, "微信"},
	{"no think or answer tags at all",
		"github.com/zai-org/Open-AutoGLM/issues/390 (actual output of autoglm-phone on BigModel)",
		"用户要打开微信。当前是桌面。\n我需要使用 Launch 打开微信。\ndo(action=\"Launch\", app=\"微信\")",
		ActionLaunch, "微信"},
	{"empty reasoning: only <answer> before the action",
		"github.com/zai-org/Open-AutoGLM/issues/376 (qwen3.5-plus) and github.com/jundot/omlx/issues/2006 (AutoGLM-Phone-9B on oMLX)",
		"<answer>do(action=\"Launch\", app=\"美团\")</answer>",
		ActionLaunch, "美团"},
	{"action followed by a stray </answer>",
		"github.com/zai-org/Open-AutoGLM/pull/347",
		"<think>Tap the search box.</think>do(action=\"Tap\", element=[811,188])</answer>",
		ActionTap, ""},
	{"think tag never closed",
		"github.com/zai-org/Open-AutoGLM/pull/144 (AutoGLM-Phone-9B via BigModel and ModelScope)",
		"<think>The home screen is shown; I open Settings.\ndo(action=\"Launch\", app=\"Settings\")",
		ActionLaunch, "Settings"},
	{"general model: prose, then the action",
		"github.com/zai-org/Open-AutoGLM/pull/313 (chatgpt-4o-latest, gemini-3 models)",
		"I can see the home screen. The Settings icon is in the first row.\n\ndo(action=\"Tap\", element=[500,120])",
		ActionTap, ""},
	{"general model: fenced action",
		"github.com/zai-org/Open-AutoGLM/pull/313 (mixed text and markup from general models)",
		"<think>Open it.</think>\n```python\ndo(action=\"Launch\", app=\"Clock\")\n```",
		ActionLaunch, "Clock"},
	{"GLM-4.6v box tokens around the reasoning and the action",
		"github.com/zai-org/Open-AutoGLM/issues/59 and /issues/60 (glm-4.6v on BigModel)",
		"<|begin_of_box|>I can see the Android home screen with app icons.<|end_of_box|>\n<|begin_of_box|>do(action=\"Launch\", app=\"Settings\")<|end_of_box|>",
		ActionLaunch, "Settings"},
	{"finish whose message has quotes and a newline",
		"the finish(message=…) action of Open-AutoGLM's phone_agent (a Python string literal: escaped quotes and \\n allowed)",
		"<think>读到了闹钟时间。</think><answer>finish(message=\"第一个闹钟是 \\\"07:00\\\"。\\nAlarm: 07:00\")</answer>",
		ActionFinish, "第一个闹钟是 \"07:00\"。\nAlarm: 07:00"},
	{"stream cut off inside the action (max tokens)",
		"github.com/zai-org/Open-AutoGLM/issues/158 (autoglm-phone on BigModel: answer cut before the action closed)",
		"<think>用户要打开微信。当前屏幕是桌面，可以看到滴滴出行、高德打车、</think><answer>do(action=\"Tap\", element=[50",
		"", ""},
	{"tool-call style list instead of an action",
		"github.com/zai-org/Open-AutoGLM/issues/316",
		"[{'Type': 'Type'}]",
		"", ""},
}

func TestRecordedAnswers(t *testing.T) {
	for _, c := range recordedAnswers {
		t.Run(c.name, func(t *testing.T) {
			if c.seen == "" {
				t.Fatal("a fixture must say where its shape was seen")
			}
			resp, err := Parse(c.text)
			if c.action == "" {
				var pe *ParseError
				if !errors.As(err, &pe) || !strings.Contains(pe.Raw, strings.TrimSpace(c.text)[:10]) {
					t.Fatalf("want a ParseError carrying the raw text, got %+v, %v", resp, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("does not parse: %v", err)
			}
			a := resp.Action
			if a.Name != c.action {
				t.Fatalf("action %q, want %q (%+v)", a.Name, c.action, a)
			}
			if got := a.App + a.Text + a.Message; c.arg != "" && got != c.arg {
				t.Errorf("argument %q, want %q", got, c.arg)
			}
		})
	}
}
