package modelcheck

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/llm"
)

// answering serves one scripted chat answer: content text, or tool calls
// when calls is set.
func answering(t *testing.T, content string, calls bool) llm.Config {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		msg := map[string]any{"role": "assistant", "content": content}
		if calls {
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c", "type": "function",
				"function": map[string]any{"name": "tap", "arguments": `{"element": 2}`}}}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": msg}}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return llm.Config{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 10 * time.Second}
}

// TestCheckNamesTheFamily checks that models check names the family of an
// answer the protocol does not read, and the setting that reads it.
func TestCheckNamesTheFamily(t *testing.T) {
	for _, c := range []struct {
		answer       string
		calls        bool
		family, want string
	}{
		{"Thought: open Settings\nAction: click(start_box='(100,200)')", false, "uitars", "executor.protocol: uitars"},
		{"<tool_call>\n{\"name\": \"mobile_use\", \"arguments\": {\"action\": \"open\", \"text\": \"Settings\"}}\n</tool_call>", false, "mobile_use", "executor.protocol: mobile_use"},
		{"", true, "tool_call", "executor.protocol: tools"},
	} {
		exec := autoglm.DefaultConfig()
		exec.Protocol = autoglm.ProtocolAutoGLM
		r := Check(context.Background(), Target{Role: RoleExecutor, LLM: answering(t, c.answer, c.calls), Exec: exec, ModelSetting: "executor.model"})
		if r.OK || r.Kind != WrongFamily || r.Family != c.family || !strings.Contains(r.Fix, c.want) {
			t.Errorf("%q: %+v", c.answer, r)
		}
	}
}

// TestCheckToolsProtocol checks an endpoint that answers the offered
// functions with a tool call.
func TestCheckToolsProtocol(t *testing.T) {
	exec := autoglm.DefaultConfig()
	exec.Protocol = autoglm.ProtocolTools
	r := Check(context.Background(), Target{Role: RoleExecutor, LLM: answeringTap(t), Exec: exec, ModelSetting: "executor.model"})
	if !r.OK || r.Answer != `do(action="Tap", element=[500,300])` {
		t.Fatalf("%+v", r)
	}
}

func answeringTap(t *testing.T) llm.Config {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		_ = json.NewDecoder(r.Body).Decode(&req)
		msg := map[string]any{"role": "assistant", "content": "no tools offered"}
		if req["tools"] != nil {
			msg = map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "c", "type": "function",
				"function": map[string]any{"name": "tap", "arguments": `{"x": 500, "y": 300}`}}}}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": msg}}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return llm.Config{BaseURL: srv.URL + "/v1", Model: "m", Timeout: 10 * time.Second}
}
