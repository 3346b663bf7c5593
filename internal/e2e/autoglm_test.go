package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	pfstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/workflows"
)

// glmText is the text part of a user message in the autoglm layout with
// the profile's defaults: the task or the header, a blank line, and exactly
// {"current_app": "…"}.
var glmText = regexp.MustCompile(`^(?s:.+)\n\n\{"current_app": "[^"]+"\}$`)

// glmEndpoint is an OpenAI-compatible executor endpoint that answers only
// as AutoGLM-Phone does (do(...)/finish(...), tagged or not) and refuses
// every request that is not an executor request in the autoglm layout,
// the verifier's included. It sees the simulated phone's screen through
// the phone's UI tree, as the model would through the screenshot.
type glmEndpoint struct {
	phone *phonesim.Phone
	text  string // the message to send to Alice Chen

	mu       sync.Mutex
	requests int
	refused  []string // why each refused request was refused
	apps     []string // current_app of each request
	lastTap  string   // resource ID or text of the last element tapped
}

func (e *glmEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.requests++
	refuse := func(why string) {
		e.refused = append(e.refused, why)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprintf(w, `{"error":{"message":%q,"type":"invalid_request_error"}}`, "this endpoint serves AutoGLM-Phone executor requests only: "+why)
	}
	if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Messages) < 2 {
		refuse("not a chat completion")
		return
	}
	var system string
	if req.Messages[0].Role != "system" || json.Unmarshal(req.Messages[0].Content, &system) != nil {
		refuse("no system prompt first")
		return
	}
	if strings.Contains(strings.ToLower(system), "verifier") || strings.Contains(string(body), `\"status\"`) {
		refuse("a verifier request")
		return
	}
	last := req.Messages[len(req.Messages)-1]
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL struct {
			URL string `json:"url"`
		} `json:"image_url"`
	}
	if last.Role != "user" || json.Unmarshal(last.Content, &parts) != nil || len(parts) != 2 ||
		parts[0].Type != "image_url" || parts[1].Type != "text" {
		refuse("the newest message is not [image, text]")
		return
	}
	if !strings.HasPrefix(parts[0].ImageURL.URL, "data:image/png;base64,") {
		refuse("the screenshot is not a PNG")
		return
	}
	if !glmText.MatchString(parts[1].Text) {
		refuse(fmt.Sprintf("the text is not the task or header and {\"current_app\": …}: %q", parts[1].Text))
		return
	}
	var info struct {
		App string `json:"current_app"`
	}
	_ = json.Unmarshal([]byte(parts[1].Text[strings.LastIndex(parts[1].Text, "\n\n{")+2:]), &info)
	e.apps = append(e.apps, info.App)
	answer := e.next()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "glm", "object": "chat.completion", "created": 1, "model": "autoglm-phone-9b",
		"choices": []map[string]any{{"index": 0, "finish_reason": "stop", "message": map[string]string{"role": "assistant", "content": answer}}},
		"usage":   map[string]int{"prompt_tokens": 1000, "completion_tokens": 50, "total_tokens": 1050},
	})
}

// next is the scripted model's answer on the phone's current screen, in
// the shapes the model writes: reasoning lines then the call, or tags.
func (e *glmEndpoint) next() string {
	st := e.phone.State()
	tree := e.phone.UITree()
	find := func(match func(uitree.Element) bool) (uitree.Element, bool) {
		for _, el := range tree {
			if match(el) {
				return el, true
			}
		}
		return uitree.Element{}, false
	}
	tap := func(el uitree.Element, key string) string {
		x, y := el.Bounds.Center()
		p := autoglm.FromPixel(x, y, phonesim.DefaultWidth, phonesim.DefaultHeight)
		e.lastTap = key
		return fmt.Sprintf("[%d,%d]", p[0], p[1])
	}
	for _, m := range st.MessagesSent {
		if m.To == "Alice Chen" && m.Text == e.text {
			return "消息已经发送给 Alice Chen，任务完成。\nfinish(message=\"已向 Alice Chen 发送" + e.text + "\")"
		}
	}
	if st.CurrentApp != "com.google.android.apps.messaging" {
		return "当前不在短信应用，我需要先打开短信。\ndo(action=\"Launch\", app=\"短信\")"
	}
	if st.Screen.Page != "conversation" {
		if el, ok := find(func(el uitree.Element) bool { return el.Text == "Alice Chen" }); ok {
			return "<think>这是会话列表，点击 Alice Chen 进入会话。</think>\n<answer>do(action=\"Tap\", element=" + tap(el, "Alice Chen") + ")</answer>"
		}
		return "没有看到 Alice Chen，返回上一页。\ndo(action=\"Back\")"
	}
	field, ok := find(func(el uitree.Element) bool { return strings.HasSuffix(el.ResourceID, "compose_message_text") })
	if !ok {
		return "页面还在加载。\ndo(action=\"Wait\", duration=\"1 seconds\")"
	}
	if field.Text == e.text {
		// AOSP Messaging's send_button, or Google Messages' Compose Send.
		send, _ := find(func(el uitree.Element) bool {
			return strings.HasSuffix(el.ResourceID, "send_button") || el.ResourceID == "Compose:Draft:Send"
		})
		return "消息已输入，上一步 do(action=\"Type\", text=\"" + e.text + "\") 已生效，点击发送。\ndo(action=\"Tap\", element=" + tap(send, "send") + ")"
	}
	if e.lastTap == "field" {
		return "输入框已聚焦，输入消息。\ndo(action=\"Type\", text=\"" + e.text + "\")"
	}
	return "点击输入框。\ndo(action=\"Tap\", element=" + tap(field, "field") + ")"
}

// TestAutoGLMEndpointOnly runs a goal whose executor endpoint answers only
// in AutoGLM-Phone's shapes and refuses anything else: the text with
// Chinese quotes and punctuation reaches the phone whole, the goal ends
// verified done, and the executor endpoint never got a verifier request
// (docs/design.md §9: the planner's endpoint verifies for an AutoGLM
// executor).
func TestAutoGLMEndpointOnly(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the embedded Temporal server and a worker")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	s, err := pfstack.Start(ctx, pfstack.Options{ADB: pfstack.AnyADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	const text = "“你好”，我到了"
	glm := &glmEndpoint{phone: s.Phones[0], text: text}
	srv := httptest.NewServer(glm)
	t.Cleanup(srv.Close)

	cfg := s.Config
	cfg.Executor.BaseURL = srv.URL + "/v1"
	cfg.Executor.Model = "autoglm-phone-9b" // selects the autoglm profile: PNG, no element list, Chinese prompt
	cfg.Executor.Protocol = ""
	cfg.Executor.Stream = false
	stop, err := s.StartWorkerWith(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)

	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Send Alice Chen a message saying " + text, Device: s.Serials[0]})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Goals.Result(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	glm.mu.Lock()
	defer glm.mu.Unlock()
	if len(glm.refused) > 0 {
		t.Errorf("the executor endpoint refused %d of %d requests: %q", len(glm.refused), glm.requests, glm.refused)
	}
	sent := s.Phones[0].State().MessagesSent
	if len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != text {
		t.Fatalf("messages sent = %+v, want %q once to Alice Chen", sent, text)
	}
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s (%s); todos %+v", res.Status, res.Reason, res.Response, res.Todos)
	}
	for _, td := range res.Todos {
		if td.Status == workflows.TodoDone && !td.Verified {
			t.Errorf("todo %q done without a verdict", td.Text)
		}
	}
	if len(glm.apps) == 0 || glm.apps[0] != "System Home" {
		t.Errorf("current_app of the requests: %q, want the model's own labels (System Home first)", glm.apps)
	}
	t.Logf("%d executor requests, current_app %q; todos %+v", glm.requests, glm.apps, res.Todos)
}
