package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func toolCompletion() map[string]any {
	return map[string]any{
		"id": "c1", "object": "chat.completion", "created": 1, "model": "served-model",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls",
			"message": map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": "call_1", "type": "function",
				"function": map[string]any{"name": "tap", "arguments": `{"element": 3}`}}}}}},
		"usage": map[string]any{"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150},
	}
}

// An endpoint that answers a text request with native tool calls gets a
// permanent error that says so and names the setting, not a retryable
// "empty answer".
func TestToolCallsUnderTextProtocol(t *testing.T) {
	for _, stream := range []bool{false, true} {
		cfg, _ := newServer(t, stream, func(w http.ResponseWriter, r *http.Request, req map[string]any) {
			if stream {
				w.Header().Set("Content-Type", "text/event-stream")
				sse(w, map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
					"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant",
						"tool_calls": []any{map[string]any{"index": 0, "id": "call_1", "type": "function",
							"function": map[string]any{"name": "tap", "arguments": `{"element"`}}}}}}})
				sse(w, map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 1, "model": "m",
					"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls", "delta": map[string]any{
						"tool_calls": []any{map[string]any{"index": 0, "function": map[string]any{"arguments": `: 3}`}}}}}}})
				w.Write([]byte("data: [DONE]\n\n"))
				return
			}
			writeJSON(w, 200, toolCompletion())
		})
		c := New(cfg)
		_, err := c.Chat(context.Background(), []Message{{Role: RoleUser, Text: "hi"}})
		var e *Error
		if !errors.As(err, &e) || e.Kind != Permanent || !strings.Contains(e.Msg, "executor.protocol: tools") || !strings.Contains(e.Msg, "tap") {
			t.Fatalf("stream=%t: got %v, want a permanent error naming executor.protocol: tools", stream, err)
		}
		ans, err := c.Chat(WithTools(context.Background(), []Tool{{Name: "tap", Parameters: map[string]any{"type": "object"}}}),
			[]Message{{Role: RoleUser, Text: "hi"}})
		if err != nil || len(ans.ToolCalls) != 1 || ans.ToolCalls[0].Name != "tap" || ans.ToolCalls[0].Arguments != `{"element": 3}` {
			t.Fatalf("stream=%t: with tools: %+v, %v", stream, ans, err)
		}
	}
}

// WithTools sends the tools; WithLowerMaxTokens halves max_tokens.
func TestToolsAndLowerMaxTokensSent(t *testing.T) {
	cfg, seen := newServer(t, false, func(w http.ResponseWriter, r *http.Request, req map[string]any) {
		writeJSON(w, 200, completion(`do(action="Back")`))
	})
	cfg.MaxTokens = 3000
	c := New(cfg)
	ctx := WithLowerMaxTokens(WithTools(context.Background(), []Tool{{Name: "back", Description: "go back", Parameters: map[string]any{"type": "object"}}}))
	if _, err := c.Chat(ctx, []Message{{Role: RoleUser, Text: "hi"}}); err != nil {
		t.Fatal(err)
	}
	body := seen()[0].body
	if body["max_tokens"] != float64(1500) {
		t.Fatalf("max_tokens %v, want 1500", body["max_tokens"])
	}
	tools, _ := body["tools"].([]any)
	if len(tools) != 1 || !strings.Contains(toJSON(tools[0]), `"name":"back"`) {
		t.Fatalf("tools %v", body["tools"])
	}
	if LoweredMaxTokens(0) != MinLoweredMaxTokens || LoweredMaxTokens(1200) != MinLoweredMaxTokens {
		t.Fatal("lowered max tokens below the floor")
	}
}

func toJSON(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}
