package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-0123456789abcdefSECRET"

// recorded is what the test server saw of a request.
type recorded struct {
	auth string
	body map[string]any
}

// newServer starts an OpenAI-compatible test server on 127.0.0.1 whose
// /v1/chat/completions handler is h, and returns a config pointing at it.
func newServer(t *testing.T, stream bool, h func(w http.ResponseWriter, r *http.Request, req map[string]any)) (Config, func() []recorded) {
	t.Helper()
	var mu sync.Mutex
	var seen []recorded
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		data, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(data, &req); err != nil {
			http.Error(w, `{"error":{"message":"bad json"}}`, 400)
			return
		}
		mu.Lock()
		seen = append(seen, recorded{auth: r.Header.Get("Authorization"), body: req})
		mu.Unlock()
		h(w, r, req)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	cfg := ExecutorDefaults(srv.URL+"/v1", testKey, "autoglm-phone-9b")
	cfg.Stream = stream
	cfg.Timeout = 10 * time.Second
	return cfg, func() []recorded {
		mu.Lock()
		defer mu.Unlock()
		return append([]recorded(nil), seen...)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func completion(text string) map[string]any {
	return map[string]any{
		"id": "c1", "object": "chat.completion", "created": 1, "model": "served-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": text}}},
		"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
	}
}

func apiError(msg, code string) map[string]any {
	return map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": code}}
}

// sse writes one server-sent event and flushes it.
func sse(w http.ResponseWriter, v any) {
	data, _ := json.Marshal(v)
	fmt.Fprintf(w, "data: %s\n\n", data)
	w.(http.Flusher).Flush()
}

func chunk(content string) map[string]any {
	return map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "served-model",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": content}, "finish_reason": nil}}}
}

var testMessages = []Message{
	{Role: RoleSystem, Text: "You are a phone agent."},
	{Role: RoleUser, Text: "Task: open Settings", Images: []Image{{MIME: "image/png", Data: []byte("\x89PNG fake")}}},
}

func TestChatStreaming(t *testing.T) {
	cfg, seen := newServer(t, true, func(w http.ResponseWriter, r *http.Request, req map[string]any) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		pause := func() { time.Sleep(15 * time.Millisecond) }
		pause()
		sse(w, chunk("<think>The Settings app "))
		pause()
		sse(w, chunk("is on the home screen.</thi"))
		pause()
		sse(w, chunk("nk><answer>do(action=\"Launch\", app=\"Settings\")"))
		pause()
		sse(w, chunk("</answer>"))
		sse(w, map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "served-model",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}}})
		sse(w, map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "served-model",
			"choices": []any{}, "usage": map[string]any{"prompt_tokens": 900, "completion_tokens": 42, "total_tokens": 942,
				"prompt_tokens_details": map[string]any{"cached_tokens": 512}}})
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	ans, err := New(cfg).Chat(context.Background(), testMessages)
	if err != nil {
		t.Fatal(err)
	}
	want := `<think>The Settings app is on the home screen.</think><answer>do(action="Launch", app="Settings")</answer>`
	if ans.Text != want {
		t.Errorf("text = %q, want %q", ans.Text, want)
	}
	if !ans.Streamed || ans.Model != "served-model" || ans.PromptTokens != 900 || ans.CompletionTokens != 42 || ans.FinishReason != "stop" {
		t.Errorf("answer = %+v", ans)
	}
	if u := ans.Usage(); u.Calls != 1 || u.InputTokens != 900 || u.CachedTokens != 512 || u.OutputTokens != 42 || u.LatencyMS != ans.Total.Milliseconds() {
		t.Errorf("usage = %+v, want 1 call, 900 in (512 cached), 42 out", u)
	}
	if !(ans.TTFT > 0 && ans.TTFT < ans.ThinkEnd && ans.ThinkEnd < ans.Total) {
		t.Errorf("timings out of order: ttft=%v think_end=%v total=%v", ans.TTFT, ans.ThinkEnd, ans.Total)
	}
	req := seen()[0]
	if req.auth != "Bearer "+testKey {
		t.Errorf("authorization header = %q", req.auth)
	}
	b := req.body
	if b["stream"] != true || b["model"] != "autoglm-phone-9b" {
		t.Errorf("stream/model = %v/%v", b["stream"], b["model"])
	}
	if so, _ := b["stream_options"].(map[string]any); so["include_usage"] != true {
		t.Errorf("stream_options = %v, want include_usage true", b["stream_options"])
	}
	if v, ok := b["temperature"]; !ok || v != 0.0 {
		t.Errorf("temperature = %v (present %t), want an explicit 0", v, ok)
	}
	if b["top_p"] != 0.85 || b["frequency_penalty"] != 0.2 || b["max_tokens"] != 3000.0 {
		t.Errorf("sampling settings = top_p %v, freq %v, max_tokens %v", b["top_p"], b["frequency_penalty"], b["max_tokens"])
	}
	msgs := b["messages"].([]any)
	user := msgs[1].(map[string]any)
	parts := user["content"].([]any)
	if len(parts) != 2 || parts[0].(map[string]any)["text"] != "Task: open Settings" {
		t.Fatalf("user content = %v", user["content"])
	}
	url := parts[1].(map[string]any)["image_url"].(map[string]any)["url"].(string)
	if !strings.HasPrefix(url, "data:image/png;base64,") {
		t.Errorf("image url = %q, want a PNG data URL", url)
	}
	if sys := msgs[0].(map[string]any); sys["role"] != "system" {
		t.Errorf("first message role = %v", sys["role"])
	}
}

func TestChatStreamingReasoningField(t *testing.T) {
	cfg, _ := newServer(t, true, func(w http.ResponseWriter, r *http.Request, req map[string]any) {
		w.Header().Set("Content-Type", "text/event-stream")
		delta := func(d map[string]any) map[string]any {
			return map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "glm",
				"choices": []any{map[string]any{"index": 0, "delta": d}}}
		}
		sse(w, delta(map[string]any{"reasoning_content": "Tap Wi-Fi."}))
		time.Sleep(10 * time.Millisecond)
		sse(w, delta(map[string]any{"content": `do(action="Tap", element=[500,212])`}))
		fmt.Fprint(w, "data: [DONE]\n\n")
	})
	ans, err := New(cfg).Chat(context.Background(), testMessages)
	if err != nil {
		t.Fatal(err)
	}
	if want := `<think>Tap Wi-Fi.</think>do(action="Tap", element=[500,212])`; ans.Text != want {
		t.Errorf("text = %q, want %q", ans.Text, want)
	}
	if ans.ThinkEnd <= ans.TTFT {
		t.Errorf("think end %v should follow first token %v", ans.ThinkEnd, ans.TTFT)
	}
}

func TestChatNonStreaming(t *testing.T) {
	cfg, seen := newServer(t, false, func(w http.ResponseWriter, r *http.Request, req map[string]any) {
		writeJSON(w, 200, completion(`<think>done</think><answer>finish(message="ok")</answer>`))
	})
	ans, err := New(cfg).Chat(context.Background(), []Message{{Role: RoleUser, Text: "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Streamed || ans.PromptTokens != 120 || ans.CompletionTokens != 30 || ans.Model != "served-model" || ans.FinishReason != "stop" {
		t.Errorf("answer = %+v", ans)
	}
	if ans.TTFT != ans.Total || ans.ThinkEnd != ans.Total || ans.Total <= 0 {
		t.Errorf("timings = ttft %v think %v total %v, want all equal to total", ans.TTFT, ans.ThinkEnd, ans.Total)
	}
	if _, ok := seen()[0].body["stream_options"]; ok {
		t.Error("non-streaming request should not send stream_options")
	}
	if c := seen()[0].body["messages"].([]any)[0].(map[string]any)["content"]; c != "hi" {
		t.Errorf("text-only user content = %v, want a plain string", c)
	}
}

// errorCase drives one failing request and the expected classification.
type errorCase struct {
	name       string
	stream     bool
	handler    func(w http.ResponseWriter, r *http.Request, req map[string]any)
	kind       Kind
	status     int
	retryAfter time.Duration
	msgHas     []string
}

func TestChatErrorClassification(t *testing.T) {
	httpDate := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
	cases := []errorCase{
		{name: "429 retry-after seconds", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Retry-After", "7")
			writeJSON(w, 429, apiError("Rate limit reached", "rate_limit_exceeded"))
		}, kind: Retryable, status: 429, retryAfter: 7 * time.Second, msgHas: []string{"429", "retry after 7s"}},
		{name: "429 retry-after-ms", stream: true, handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Retry-After-Ms", "1500")
			w.Header().Set("Retry-After", "2")
			writeJSON(w, 429, apiError("slow down", ""))
		}, kind: Retryable, status: 429, retryAfter: 1500 * time.Millisecond},
		{name: "429 retry-after http date", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Retry-After", httpDate)
			writeJSON(w, 429, apiError("slow down", ""))
		}, kind: Retryable, status: 429},
		{name: "500", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 500, apiError("internal error", ""))
		}, kind: Retryable, status: 500, msgHas: []string{"500", "retry"}},
		{name: "503 streaming", stream: true, handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 503, apiError("overloaded", ""))
		}, kind: Retryable, status: 503},
		{name: "401 echoes the key", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 401, apiError("Incorrect API key provided: "+testKey+". You can find your key at ...", "invalid_api_key"))
		}, kind: Permanent, status: 401, msgHas: []string{"401", "check the API key configured for this endpoint"}},
		{name: "401 echoes a key prefix", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 401, apiError("Incorrect API key provided: "+testKey[:12]+"****CRET", "invalid_api_key"))
		}, kind: Permanent, status: 401},
		{name: "403", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 403, apiError("no access", ""))
		}, kind: Permanent, status: 403, msgHas: []string{"403"}},
		{name: "404 model", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 404, apiError("The model `autoglm-phone-9b` does not exist", "model_not_found"))
		}, kind: Permanent, status: 404, msgHas: []string{"check the model name"}},
		{name: "400 context length", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 400, apiError("This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.", "context_length_exceeded"))
		}, kind: Permanent, status: 400, msgHas: []string{"prompt too long", "UI element list"}},
		{name: "400 other", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 400, apiError("image input not supported", ""))
		}, kind: Permanent, status: 400, msgHas: []string{"bad request", "accept images"}},
		{name: "422", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 422, apiError("top_p must be <= 1", ""))
		}, kind: Permanent, status: 422},
		{name: "malformed json", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"c1","choices":[{"message": nope}]}`)
		}, kind: Retryable, msgHas: []string{"malformed JSON", "/v1"}},
		{name: "html page instead of the API", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body>Welcome to nginx</body></html>")
		}, kind: Permanent, msgHas: []string{"OpenAI-compatible"}},
		{name: "malformed stream chunk", stream: true, handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"choices\":[{\"delta\":\n\n")
		}, kind: Retryable, msgHas: []string{"malformed JSON"}},
		{name: "error event mid-stream", stream: true, handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "text/event-stream")
			sse(w, chunk("<think>"))
			sse(w, apiError("upstream worker crashed", ""))
		}, kind: Retryable, msgHas: []string{"mid-stream", "worker crashed"}},
		{name: "context length mid-stream", stream: true, handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "text/event-stream")
			sse(w, apiError("prompt is too long", ""))
		}, kind: Permanent, msgHas: []string{"prompt too long"}},
		{name: "empty answer", handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			writeJSON(w, 200, completion("  "))
		}, kind: Retryable, msgHas: []string{"empty answer"}},
		{name: "empty stream", stream: true, handler: func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: [DONE]\n\n")
		}, kind: Retryable, msgHas: []string{"empty answer"}},
		{name: "connection reset", handler: resetConnection, kind: Retryable, msgHas: []string{"connection"}},
		{name: "connection reset mid-stream", stream: true, handler: func(w http.ResponseWriter, r *http.Request, req map[string]any) {
			w.Header().Set("Content-Type", "text/event-stream")
			sse(w, chunk("<think>half"))
			resetConnection(w, r, req)
		}, kind: Retryable, msgHas: []string{"connection dropped"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, _ := newServer(t, tc.stream, tc.handler)
			_, err := New(cfg).Chat(context.Background(), testMessages)
			checkError(t, err, cfg, tc)
		})
	}
}

func checkError(t *testing.T, err error, cfg Config, tc errorCase) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *llm.Error", err, err)
	}
	if e.Kind != tc.kind || IsRetryable(err) != (tc.kind == Retryable) {
		t.Errorf("kind = %v, want %v (%v)", e.Kind, tc.kind, err)
	}
	if tc.status != 0 && e.Status != tc.status {
		t.Errorf("status = %d, want %d", e.Status, tc.status)
	}
	if tc.retryAfter != 0 && RetryAfter(err) != tc.retryAfter {
		t.Errorf("retry after = %v, want %v", RetryAfter(err), tc.retryAfter)
	}
	if e.Endpoint != cfg.Endpoint() || !strings.Contains(err.Error(), cfg.Endpoint()) {
		t.Errorf("error %q should name endpoint %s", err, cfg.Endpoint())
	}
	for _, s := range tc.msgHas {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q should contain %q", err, s)
		}
	}
	for _, printed := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
		if strings.Contains(printed, testKey[:10]) {
			t.Errorf("error leaks the API key: %s", printed)
		}
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	h := http.Header{}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h.Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
	if got := parseRetryAfter(h, now); got != 90*time.Second {
		t.Errorf("date retry-after = %v, want 1m30s", got)
	}
	for v, want := range map[string]time.Duration{"3": 3 * time.Second, "0.5": 500 * time.Millisecond,
		"-1": 0, "soon": 0, "": 0, now.Add(-time.Minute).Format(http.TimeFormat): 0} {
		h := http.Header{}
		h.Set("Retry-After", v)
		if got := parseRetryAfter(h, now); got != want {
			t.Errorf("Retry-After %q = %v, want %v", v, got, want)
		}
	}
}

// resetConnection aborts the TCP connection with RST.
func resetConnection(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

func TestChatConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cfg := ExecutorDefaults("http://"+addr+"/v1", testKey, "m")
	_, err = New(cfg).Chat(context.Background(), testMessages)
	checkError(t, err, cfg, errorCase{kind: Retryable, msgHas: []string{"connection refused", "base URL"}})
}

func TestChatTimeout(t *testing.T) {
	cfg, _ := newServer(t, true, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, chunk("<think>slow"))
		<-r.Context().Done() // never finish
	})
	cfg.Timeout = 100 * time.Millisecond
	_, err := New(cfg).Chat(context.Background(), testMessages)
	checkError(t, err, cfg, errorCase{kind: Retryable, msgHas: []string{"raise the timeout"}})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout error %v should wrap context.DeadlineExceeded", err)
	}
}

func TestChatCallerCancel(t *testing.T) {
	started := make(chan struct{})
	cfg, _ := newServer(t, false, func(w http.ResponseWriter, r *http.Request, _ map[string]any) {
		close(started)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := New(cfg).Chat(ctx, testMessages)
	var e *Error
	if errors.As(err, &e) || !errors.Is(err, context.Canceled) {
		t.Errorf("caller cancel = %v, want the context error, not a model failure", err)
	}
}

func TestChatRejectsBadMessages(t *testing.T) {
	cfg := ExecutorDefaults("http://127.0.0.1:1/v1", testKey, "m")
	_, err := New(cfg).Chat(context.Background(), []Message{{Role: "tool", Text: "x"}})
	if IsRetryable(err) || err == nil || !strings.Contains(err.Error(), "role") {
		t.Errorf("bad role error = %v", err)
	}
	_, err = New(cfg).Chat(context.Background(), []Message{{Role: RoleSystem, Text: "x", Images: []Image{{MIME: "image/png"}}}})
	if err == nil || !strings.Contains(err.Error(), "only user messages") {
		t.Errorf("image on system message error = %v", err)
	}
}

func TestNoSDKRetries(t *testing.T) {
	cfg, seen := newServer(t, false, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		writeJSON(w, 500, apiError("boom", ""))
	})
	_, _ = New(cfg).Chat(context.Background(), testMessages)
	if n := len(seen()); n != 1 {
		t.Errorf("server saw %d requests, want 1 (SDK retries must be off)", n)
	}
}

func TestConfigValidate(t *testing.T) {
	good := ExecutorDefaults("http://127.0.0.1:8000/v1", "", "autoglm-phone-9b")
	if err := good.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	bad := Config{BaseURL: "localhost:8000", TopP: 1.5, Temperature: -1, MaxTokens: -1, Timeout: -1}
	err := bad.Validate()
	if err == nil {
		t.Fatal("bad config accepted")
	}
	for _, s := range []string{"base URL", "model is empty", "top_p", "temperature", "max tokens", "timeout"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("validation error should mention %q: %v", s, err)
		}
	}
}

func TestKeyNeverPrinted(t *testing.T) {
	cfg := ExecutorDefaults("http://user:pw@127.0.0.1:8000/v1?key=abc", testKey, "m")
	c := New(cfg)
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("model", "client", c, "config", cfg)
	for _, s := range []string{c.String(), cfg.String(), fmt.Sprintf("%v %+v %#v", cfg, cfg, cfg), logged.String()} {
		if strings.Contains(s, testKey) || strings.Contains(s, "pw@") || strings.Contains(s, "key=abc") {
			t.Errorf("secret printed: %s", s)
		}
	}
	if !strings.Contains(c.String(), "127.0.0.1:8000/v1/chat/completions") {
		t.Errorf("String() = %s, want the endpoint", c)
	}
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"7", "0.5", "-1", "Wed, 21 Oct 2026 07:28:00 GMT", "1e9", "NaN", ""} {
		f.Add(s, "")
		f.Add("", s)
	}
	now := time.Date(2026, 10, 21, 7, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, after, afterMs string) {
		h := http.Header{}
		h.Set("Retry-After", after)
		h.Set("Retry-After-Ms", afterMs)
		if d := parseRetryAfter(h, now); d < 0 || d > 24*time.Hour {
			t.Fatalf("Retry-After %q / %q ms gave %v, want 0..24h", after, afterMs, d)
		}
	})
}

func TestUnauthorizedNamesTheKeySetting(t *testing.T) {
	cfg, _ := newServer(t, false, func(w http.ResponseWriter, _ *http.Request, _ map[string]any) {
		writeJSON(w, 401, apiError("bad key", "invalid_api_key"))
	})
	cfg.KeySetting = "planner.api_key (PLANNER_MODEL_API_KEY)"
	_, err := New(cfg).Chat(context.Background(), []Message{{Role: RoleUser, Text: "hi"}})
	if err == nil || !strings.Contains(err.Error(), "check planner.api_key (PLANNER_MODEL_API_KEY)") {
		t.Fatalf("err = %v, want it to name the planner's key setting", err)
	}
}
