package autoglm

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// wireMessages sends msgs through the real model client to a loopback
// server and returns the "messages" array of the request body exactly as
// it went over the wire, with each image's base64 data replaced by
// "<IMAGE>" (the rest of the bytes untouched).
func wireMessages(t *testing.T, msgs []llm.Message) string {
	t.Helper()
	var body []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"autoglm-phone-9b","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"<think>ok</think><answer>do(action=\"Back\")</answer>"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	defer srv.Close()
	cfg := llm.ExecutorDefaults(srv.URL+"/v1", "", "autoglm-phone-9b")
	cfg.Stream = false
	if _, err := llm.New(cfg).Chat(context.Background(), msgs); err != nil {
		t.Fatal(err)
	}
	var req struct {
		Messages json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatalf("request body: %v\n%s", err, body)
	}
	return dataURLRe.ReplaceAllString(string(req.Messages), `${1}<IMAGE>"`)
}

var dataURLRe = regexp.MustCompile(`("url":"data:image/(?:jpeg|png);base64,)[A-Za-z0-9+/=]+"`)

var glmNow = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func glmConfig() Config {
	c := DefaultConfig()
	c.Protocol = ProtocolAutoGLM
	c.IncludeElements = false
	return c
}

// glmStep is a step of "Turn on Wi-Fi" in Settings with no history.
func glmStep(t *testing.T) StepInput {
	return StepInput{
		Task: "Turn on Wi-Fi", AppName: "Settings", AppPackage: "com.android.settings",
		Screenshot: screen(t, 1080, 2400, wifi), Width: 1080, Height: 2400,
		Elements: []uitree.Element{wifi},
	}
}

// systemJSON is the system message as the client writes it.
func systemJSON(t *testing.T) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(GLMSystemPrompt(glmNow, "en", "")); err != nil {
		t.Fatal(err)
	}
	return `{"content":` + strings.TrimSpace(b.String()) + `,"role":"system"}`
}

func TestGLMFirstStepWire(t *testing.T) {
	msgs, err := BuildMessages(glmConfig(), glmStep(t), glmNow)
	if err != nil {
		t.Fatal(err)
	}
	got := wireMessages(t, msgs)
	want := `[` + systemJSON(t) + `,` +
		`{"content":[{"image_url":{"url":"data:image/jpeg;base64,<IMAGE>"},"type":"image_url"},` +
		`{"text":"Turn on Wi-Fi\n\n{\"current_app\": \"Settings\"}","type":"text"}],"role":"user"}]`
	if got != want {
		t.Errorf("first step on the wire:\n got %s\nwant %s", got, want)
	}
}

// glmHistory is two earlier turns as the activity stores them.
func glmHistory() []Turn {
	return []Turn{
		{Info: `{"current_app": "Launcher"}`, User: "ignored in this layout",
			Assistant: `<think>Open Settings.</think><answer>do(action="Launch", app="Settings")</answer>`},
		{Info: `{"current_app": "Settings"}`,
			Assistant: `<think>Tap the switch.</think><answer>do(action="Tap", element=[879,212])</answer>`},
	}
}

func TestGLMLaterStepWire(t *testing.T) {
	in := glmStep(t)
	in.History = glmHistory()
	in.PreviousAction, in.PreviousResult = `do(action="Tap", element=[879,212])`, "ok"
	msgs, err := BuildMessages(glmConfig(), in, glmNow)
	if err != nil {
		t.Fatal(err)
	}
	got := wireMessages(t, msgs)
	want := `[` + systemJSON(t) + `,` +
		`{"content":"Turn on Wi-Fi\n\n{\"current_app\": \"Launcher\"}","role":"user"},` +
		`{"content":"<think>Open Settings.</think><answer>do(action=\"Launch\", app=\"Settings\")</answer>","role":"assistant"},` +
		`{"content":"** Screen Info **\n\n{\"current_app\": \"Settings\"}","role":"user"},` +
		`{"content":"<think>Tap the switch.</think><answer>do(action=\"Tap\", element=[879,212])</answer>","role":"assistant"},` +
		`{"content":[{"image_url":{"url":"data:image/jpeg;base64,<IMAGE>"},"type":"image_url"},` +
		`{"text":"** Screen Info **\n\n{\"current_app\": \"Settings\"}","type":"text"}],"role":"user"}]`
	if got != want {
		t.Errorf("later step on the wire:\n got %s\nwant %s", got, want)
	}
}

// After a correction the note rides in the screen-info object; a failed
// action's result too. Nothing else about the layout changes.
func TestGLMAfterCorrectionWire(t *testing.T) {
	in := glmStep(t)
	in.History = glmHistory()
	in.PreviousAction = `do(action="Tap", element=[879,212])`
	in.PreviousResult = `app not found: "Setings"`
	in.Notes = []string{"You seem stuck: the screen did not change.\nTry something different."}
	msgs, err := BuildMessages(glmConfig(), in, glmNow)
	if err != nil {
		t.Fatal(err)
	}
	got := wireMessages(t, msgs)
	last := got[strings.LastIndex(got, `{"content":[`):]
	want := `{"content":[{"image_url":{"url":"data:image/jpeg;base64,<IMAGE>"},"type":"image_url"},` +
		`{"text":"** Screen Info **\n\n{\"current_app\": \"Settings\", \"last_action_result\": \"app not found: \\\"Setings\\\"\", ` +
		`\"notes\": [\"You seem stuck: the screen did not change. Try something different.\"]}","type":"text"}],"role":"user"}]`
	if last != want {
		t.Errorf("step after a correction on the wire:\n got %s\nwant %s", last, want)
	}
	if !strings.Contains(got, `{"content":"Turn on Wi-Fi\n\n{\"current_app\": \"Launcher\"}","role":"user"}`) {
		t.Errorf("the first turn lost its task: %s", got)
	}
}

// Screen info is written as Python's json.dumps writes it: ", " and ": "
// separators, non-ASCII kept, control characters escaped.
func TestScreenInfoEncoding(t *testing.T) {
	in := StepInput{AppName: "微信", PreviousResult: "tab\there \"q\" \\ \x01", Notes: []string{"备注"}}
	got := ScreenInfo(Config{}, in)
	want := `{"current_app": "微信", "last_action_result": "tab\there \"q\" \\ \u0001", "notes": ["备注"]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(got), &m); err != nil || m["current_app"] != "微信" {
		t.Errorf("not JSON: %v %v", err, m)
	}
	// A sensitive screen says so, and elements ride along when enabled.
	in = glmStep(t)
	in.Sensitive, in.Screenshot = true, nil
	cfg := glmConfig()
	cfg.IncludeElements = true
	got = ScreenInfo(cfg, in)
	if !strings.Contains(got, `"screen": "sensitive: screenshot unavailable (secure screen)"`) ||
		!strings.Contains(got, `"ui_elements": ["[1] Switch \"Wi-Fi\" id=wifi_switch checked=false clickable at=[879,212]"]`) {
		t.Errorf("sensitive screen info: %s", got)
	}
}

// Over a run of steps only the newest user message ever has an image, and
// the first user message always carries the task, even once older turns
// are cut from the history.
func TestGLMNoEarlierScreenshot(t *testing.T) {
	cfg := glmConfig()
	in := glmStep(t)
	for step := 0; step < 16; step++ {
		msgs, err := BuildMessages(cfg, in, glmNow)
		if err != nil {
			t.Fatal(err)
		}
		images, lastUser := 0, -1
		for i, m := range msgs {
			images += len(m.Images)
			if m.Role == llm.RoleUser {
				lastUser = i
			}
		}
		if images != 1 || len(msgs[lastUser].Images) != 1 || lastUser != len(msgs)-1 {
			t.Fatalf("step %d: %d images, last user message %d of %d", step, images, lastUser, len(msgs))
		}
		if wire := wireMessages(t, msgs); strings.Count(wire, "image_url") != 2 { // the part's type and its key
			t.Fatalf("step %d: the wire carries more than one image: %s", step, wire)
		}
		if !strings.HasPrefix(msgs[1].Text, "Turn on Wi-Fi\n\n{") {
			t.Fatalf("step %d: first user message %q does not start with the task", step, msgs[1].Text)
		}
		noElems := cfg
		in.History = append(in.History, Turn{User: StepText(cfg, in), Info: ScreenInfo(noElems, in),
			Assistant: `<think>x</think><answer>do(action="Back")</answer>`})
		if len(in.History) > 12 { // as the activity keeps it
			in.History = in.History[len(in.History)-12:]
		}
	}
}

func TestKeepHistoryByBudget(t *testing.T) {
	long := strings.Repeat("蓝牙开关在第二行，目前是关闭状态。", 40) // 680 Han-ish tokens
	var turns []Turn
	for i := range 30 {
		turns = append(turns, Turn{Info: `{"current_app": "设置"}`, Assistant: "<think>" + long + "</think><answer>do(action=\"Back\")</answer>" + strings.Repeat(" ", i)})
	}
	kept := KeepHistory(turns, 8000)
	if len(kept) == 0 || len(kept) >= 30 || kept[len(kept)-1].Assistant != turns[29].Assistant {
		t.Fatalf("kept %d turns", len(kept))
	}
	if !strings.Contains(kept[0].Assistant, long) {
		t.Errorf("a kept thought was cut")
	}
	total := 0
	for _, k := range kept {
		total += EstimateTokens(k.Info) + EstimateTokens(k.Assistant)
	}
	if total > 8000 {
		t.Errorf("kept %d estimated tokens, budget 8000", total)
	}
	if got := KeepHistory(turns[:3], 8000); len(got) != 3 {
		t.Errorf("short history cut to %d turns", len(got))
	}
	if got := KeepHistory(turns, 100); len(got) != 1 {
		t.Errorf("a tiny budget keeps %d turns, want the newest one", len(got))
	}
}

func TestSensitiveReasonOnce(t *testing.T) {
	in := StepInput{Task: "t", AppName: "Bank", Sensitive: true, SensitiveReason: "screenshot unavailable (secure screen): screencap returned nothing"}
	info := ScreenInfo(Config{}, in)
	if strings.Count(info, "screenshot unavailable") != 1 {
		t.Errorf("reason doubled: %s", info)
	}
	in.SensitiveReason = "secure screen"
	if info := ScreenInfo(Config{}, in); !strings.Contains(info, `"sensitive: screenshot unavailable (secure screen)"`) {
		t.Errorf("short reason: %s", info)
	}
}

func TestPromptLanguageAndFile(t *testing.T) {
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	in := StepInput{Task: "打开设置", AppName: "System Home", Screenshot: screen(t, 100, 200)}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Protocol: ProtocolAutoGLM, Lang: "zh"}, "今天是2026年11月26日，星期四。\n\n你是手机操作员"},
		{Config{Protocol: ProtocolAutoGLM, Lang: "en"}, "The date is Thursday, 26 November 2026.\n\nYou are a phone operator."},
		{Config{Protocol: ProtocolAutoGLM, Lang: "zh", SystemPrompt: "日期: {date}\n规则……"}, "日期: 2026年11月26日 星期四\n规则……"},
		{Config{Protocol: ProtocolAutoGLM, Lang: "en", SystemPrompt: "The current date: {date}\nRules…"}, "The current date: 2026-11-26, Thursday\nRules…"},
	} {
		msgs, err := BuildMessages(c.cfg, in, now)
		if err != nil {
			t.Fatal(err)
		}
		if sys := msgs[0].Text; !strings.HasPrefix(sys, c.want) {
			t.Errorf("lang %s: system prompt starts %q, want %q", c.cfg.Lang, sys[:min(len(sys), 80)], c.want)
		}
	}
}
