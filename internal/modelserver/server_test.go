package modelserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, url, key string, body any) *http.Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/chat/completions", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func planRequest(model, goal string, stream bool) map[string]any {
	ctx, _ := json.Marshal(map[string]any{"goal": goal, "answers": []any{}, "user_messages": []any{}})
	return map[string]any{
		"model":  model,
		"stream": stream,
		"messages": []map[string]any{
			{"role": "system", "content": "You are the planner of phoneflow."},
			{"role": "user", "content": "Plan this goal.\n```json\n" + string(ctx) + "\n```"},
		},
	}
}

const wifiScreen = `Task: Turn on Wi-Fi
Current app: Settings (com.android.settings)
Screen: normal
UI elements (at=[x,y] is the element's center on the 0-999 grid):
[1] TextView "Settings" at=[500,60]
[2] Switch "Wi-Fi" id=wifi_switch checked=false clickable at=[500,120]
[3] Switch "Bluetooth" id=bluetooth_switch checked=false clickable at=[500,170]`

func execRequest(model, text string, stream, usage bool) map[string]any {
	r := map[string]any{
		"model":  model,
		"stream": stream,
		"messages": []map[string]any{
			{"role": "system", "content": "You are a phone operator."},
			{"role": "user", "content": []map[string]any{
				{"type": "text", "text": text},
				{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,iVBORw0KGgo="}},
			}},
		},
	}
	if usage {
		r["stream_options"] = map[string]any{"include_usage": true}
	}
	return r
}

func decodeCompletion(t *testing.T, resp *http.Response) completion {
	t.Helper()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var c completion
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestPlannerNonStreaming(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	c := decodeCompletion(t, post(t, srv.URL, "", planRequest("offline-planner", "Turn on Wi-Fi and then Bluetooth", false)))
	if c.Object != "chat.completion" || len(c.Choices) != 1 || c.Choices[0].FinishReason != "stop" || c.Usage == nil || c.Usage.TotalTokens == 0 {
		t.Fatalf("bad completion envelope: %+v", c)
	}
	var a planAnswer
	if err := json.Unmarshal([]byte(c.Choices[0].Message.Content), &a); err != nil {
		t.Fatalf("planner content is not JSON: %v: %s", err, c.Choices[0].Message.Content)
	}
	if a.Status != "planned" || strings.Join(texts(a.Plan), "|") != "Turn on Wi-Fi|Turn on Bluetooth" || a.TaskType != "settings" {
		t.Fatalf("plan = %+v", a)
	}
}

// readSSE returns the data payloads of an event stream.
func readSSE(t *testing.T, resp *http.Response) []string {
	t.Helper()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("status %d, content type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var out []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

func TestExecutorStreaming(t *testing.T) {
	srv := httptest.NewServer(New(Config{Latency: 20 * time.Millisecond}))
	defer srv.Close()
	events := readSSE(t, post(t, srv.URL, "", execRequest("autoglm-phone-9b", wifiScreen, true, true)))
	if len(events) < 5 || events[len(events)-1] != "[DONE]" {
		t.Fatalf("stream does not end with [DONE]: %q", events)
	}
	var content strings.Builder
	var finish string
	var gotUsage *usage
	thinkEnds := false
	for _, e := range events[:len(events)-1] {
		var c chunk
		if err := json.Unmarshal([]byte(e), &c); err != nil {
			t.Fatalf("bad chunk %q: %v", e, err)
		}
		if c.Object != "chat.completion.chunk" {
			t.Fatalf("object = %q", c.Object)
		}
		if c.Usage != nil {
			gotUsage = c.Usage
			if len(c.Choices) != 0 {
				t.Fatalf("usage chunk has choices: %s", e)
			}
			continue
		}
		content.WriteString(c.Choices[0].Delta.Content)
		if strings.HasSuffix(c.Choices[0].Delta.Content, "</think>") {
			thinkEnds = true
		}
		if c.Choices[0].FinishReason != nil {
			finish = *c.Choices[0].FinishReason
		}
	}
	want := `<answer>do(action="Tap", element=[500,120])</answer>`
	if !strings.HasPrefix(content.String(), "<think>") || !strings.HasSuffix(content.String(), want) {
		t.Fatalf("content = %q, want a think block and %s", content.String(), want)
	}
	if !thinkEnds || finish != "stop" || gotUsage == nil || gotUsage.CompletionTokens == 0 {
		t.Fatalf("thinkEnds=%v finish=%q usage=%+v", thinkEnds, finish, gotUsage)
	}
}

func TestStreamWithoutUsage(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	events := readSSE(t, post(t, srv.URL, "", planRequest("offline-planner", "Open Clock", true)))
	for _, e := range events {
		if strings.Contains(e, `"usage"`) {
			t.Fatalf("usage chunk sent without include_usage: %s", e)
		}
	}
}

func TestModelsAndRoutes(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var l modelList
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
		t.Fatal(err)
	}
	if len(l.Data) != 2 || l.Data[0].ID != PlannerModel || l.Data[1].ID != ExecutorModel {
		t.Fatalf("models = %+v", l)
	}
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/v1/chat/completions", "", 405, "method_not_allowed"},
		{"POST", "/v1/chat/completions", "{not json", 400, "invalid_request"},
		{"POST", "/v1/chat/completions", `{"model":"x","messages":[]}`, 400, "invalid_request"},
		{"POST", "/v1/chat/completions", `{"model":"x","messages":[{"role":"user","content":42}]}`, 400, "invalid_request"},
		{"POST", "/v1/chat/completions", `{"model":"x","messages":[{"role":"user","content":[{"type":"audio"}]}]}`, 400, "invalid_request"},
		{"GET", "/v2/nothing", "", 404, "not_found"},
	} {
		req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e apiError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != c.status || e.Error.Code == nil || *e.Error.Code != c.code || e.Error.Message == "" {
			t.Errorf("%s %s %s: status %d error %+v, want %d %s", c.method, c.path, c.body, resp.StatusCode, e.Error, c.status, c.code)
		}
	}
}

func TestAPIKey(t *testing.T) {
	s := New(Config{APIKey: "sekret"})
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, key := range []string{"", "wrong"} {
		resp := post(t, srv.URL, key, planRequest("offline-planner", "Open Clock", false))
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(string(b), "invalid_api_key") || strings.Contains(string(b), "sekret") {
			t.Fatalf("key %q: status %d body %s", key, resp.StatusCode, b)
		}
	}
	decodeCompletion(t, post(t, srv.URL, "sekret", planRequest("offline-planner", "Open Clock", false)))
	if st := s.Stats(); st.Unauthorized != 2 || st.Completions != 1 || st.Requests != 3 {
		t.Fatalf("stats = %+v", st)
	}
}

func TestFaults(t *testing.T) {
	t.Run("429", func(t *testing.T) {
		s := New(Config{RateLimit429: 1, RetryAfter: 1500 * time.Millisecond})
		srv := httptest.NewServer(s)
		defer srv.Close()
		resp := post(t, srv.URL, "", planRequest("offline-planner", "Open Clock", false))
		if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || resp.Header.Get("retry-after-ms") != "1500" {
			t.Fatalf("status %d headers %v", resp.StatusCode, resp.Header)
		}
		if s.Stats().Faults429 != 1 {
			t.Fatalf("stats %+v", s.Stats())
		}
	})
	t.Run("500", func(t *testing.T) {
		s := New(Config{Rate500: 1})
		srv := httptest.NewServer(s)
		defer srv.Close()
		resp := post(t, srv.URL, "", execRequest("offline-executor", wifiScreen, true, false))
		var e apiError
		_ = json.NewDecoder(resp.Body).Decode(&e)
		if resp.StatusCode != 500 || e.Error.Type != "server_error" || s.Stats().Faults500 != 1 {
			t.Fatalf("status %d err %+v stats %+v", resp.StatusCode, e, s.Stats())
		}
	})
	t.Run("malformed", func(t *testing.T) {
		s := New(Config{RateMalformed: 1, Seed: 3})
		srv := httptest.NewServer(s)
		defer srv.Close()
		seen := map[string]bool{}
		for range 12 {
			c := decodeCompletion(t, post(t, srv.URL, "", execRequest("offline-executor", wifiScreen, false, false)))
			got := c.Choices[0].Message.Content
			if strings.Contains(got, `do(action="Tap", element=[500,120])`) {
				t.Fatalf("malformed fault gave a good answer: %s", got)
			}
			seen[got] = true
			p := decodeCompletion(t, post(t, srv.URL, "", planRequest("offline-planner", "Open Clock", false)))
			var a planAnswer
			if err := json.Unmarshal([]byte(p.Choices[0].Message.Content), &a); err == nil && a.Status == "planned" && len(a.Plan) > 0 {
				t.Fatalf("malformed planner answer is valid: %s", p.Choices[0].Message.Content)
			}
		}
		if len(seen) < 2 {
			t.Fatalf("malformed answers do not vary: %v", seen)
		}
		if s.Stats().Malformed != 24 {
			t.Fatalf("stats %+v", s.Stats())
		}
	})
	t.Run("wrong tap", func(t *testing.T) {
		s := New(Config{RateWrongTap: 1, Seed: 9})
		srv := httptest.NewServer(s)
		defer srv.Close()
		c := decodeCompletion(t, post(t, srv.URL, "", execRequest("offline-executor", wifiScreen, false, false)))
		a, ok := parseAct(c.Choices[0].Message.Content)
		if !ok || a.Name != "Tap" || a.Point == nil || *a.Point == [2]int{500, 120} ||
			a.Point[0] < 0 || a.Point[0] > 999 || a.Point[1] < 0 || a.Point[1] > 999 {
			t.Fatalf("wrong tap answer %q", c.Choices[0].Message.Content)
		}
		if s.Stats().WrongTaps != 1 {
			t.Fatalf("stats %+v", s.Stats())
		}
	})
}

func TestSeedDeterminism(t *testing.T) {
	run := func(seed int64) string {
		srv := httptest.NewServer(New(Config{Seed: seed, RateLimit429: 0.2, Rate500: 0.2, RateMalformed: 0.2, RateWrongTap: 0.3}))
		defer srv.Close()
		var b strings.Builder
		for range 30 {
			resp := post(t, srv.URL, "", execRequest("offline-executor", wifiScreen, false, false))
			body, _ := io.ReadAll(resp.Body)
			var c completion
			_ = json.Unmarshal(body, &c)
			fmt.Fprintf(&b, "%d ", resp.StatusCode)
			if len(c.Choices) > 0 {
				b.WriteString(c.Choices[0].Message.Content)
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	a, b := run(42), run(42)
	if a != b {
		t.Fatalf("same seed, different answers:\n%s\n---\n%s", a, b)
	}
	if a == run(43) {
		t.Fatal("different seeds gave identical fault sequences")
	}
	for _, code := range []string{"200 ", "429 ", "500 "} {
		if !strings.Contains(a, code) {
			t.Fatalf("30 requests at these rates never gave %s:\n%s", code, a)
		}
	}
}

func TestServeOnLoopback(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(Config{}).Serve(ctx, ln) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after cancel: %v", err)
	}
	if got := LoopbackAddr(":9000"); got != "127.0.0.1:9000" {
		t.Fatalf("LoopbackAddr = %q", got)
	}
}

// A request whose client has gone away is dropped before its answer is
// made, and a prompt over the context window is refused as a real server
// refuses it, so a huge goal fails fast instead of being read at length.
func TestDropsAbandonedAndOverlongRequests(t *testing.T) {
	s := New(Config{ContextTokens: 1000})
	body := func(text string) string {
		b, _ := json.Marshal(map[string]any{"model": PlannerModel, "messages": []map[string]string{{"role": "user", "content": text}}})
		return string(b)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body("Turn on Wi-Fi"))).WithContext(ctx)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if st := s.Stats(); st.Abandoned != 1 || st.Completions != 0 || st.Planner != 0 {
		t.Fatalf("abandoned request: stats %+v", st)
	}

	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body(strings.Repeat("tap the button and ", 400)))))
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "maximum context length is 1000 tokens") {
		t.Fatalf("overlong prompt: %d %s", rec.Code, rec.Body)
	}
	if st := s.Stats(); st.Planner != 0 {
		t.Fatalf("overlong prompt was answered: %+v", st)
	}
}
