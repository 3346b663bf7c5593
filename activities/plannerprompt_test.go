package activities

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/llm"
)

// TestPlannerPromptFileReachesTheRequestByteForByte sends a plan and a
// replan through a real client to an OpenAI-compatible server and reads
// the system message it received: the operator's file, spacing, final
// newline and non-ASCII kept, "{date}" the goal's day in the user's zone.
func TestPlannerPromptFileReachesTheRequestByteForByte(t *testing.T) {
	var mu sync.Mutex
	var systems []string
	answers := []string{
		`{"status":"planned","plan":["Open Settings and turn on Wi-Fi"],"task_type":"toggle_setting"}`,
		`{"status":"done","response":"Wi-Fi is on."}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, m := range req.Messages {
			if m.Role == "system" {
				var s string
				if err := json.Unmarshal(m.Content, &s); err != nil {
					t.Errorf("system content is not a string: %s", m.Content)
				}
				systems = append(systems, s)
			}
		}
		text := answers[0]
		answers = answers[1:]
		out, _ := json.Marshal(map[string]any{
			"id": "x", "object": "chat.completion", "model": "planner",
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	}))
	defer srv.Close()

	a, _, _ := newActivities(t)
	a.Planner = llm.New(llm.Config{BaseURL: srv.URL, Model: "planner", APIKey: "k", Timeout: 10 * time.Second})
	file := "Du planst für ein Telefon.\n\n  Heute ist {date}; zweimal: {date}.\t\n…and keep the final newline\n"
	a.PlannerPrompt = file
	// 23:30 UTC on the 26th is already the 27th in Shanghai.
	sit := Situation{Now: time.Date(2026, 11, 26, 23, 30, 0, 0, time.UTC), TimeZone: "Asia/Shanghai", MaxSteps: 100, TodoMaxSteps: 30}
	ctx := context.Background()
	if _, err := a.PlanOnce(ctx, PlanInput{Goal: "turn on wifi", Situation: sit}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Replan(ctx, ReplanInput{Goal: "turn on wifi", Situation: sit,
		Done: []DoneTodo{{Todo: "Open Settings and turn on Wi-Fi", Status: "done"}}}); err != nil {
		t.Fatal(err)
	}
	want := strings.ReplaceAll(file, "{date}", "2026-11-27, Friday")
	if len(systems) != 2 {
		t.Fatalf("%d system messages reached the server, want one per request", len(systems))
	}
	for i, s := range systems {
		if s != want {
			t.Errorf("request %d system prompt\n%q\nwant\n%q", i+1, s, want)
		}
	}
}

// TestShippedPlannerPromptSaysWhatTheExecutorCannotDo: without a file the
// planner is told the executor keeps nothing between todos and has no
// clipboard, in the plan and the replan requests alike.
func TestShippedPlannerPromptSaysWhatTheExecutorCannotDo(t *testing.T) {
	a, _, m := newActivities(t,
		`{"status":"planned","plan":["Open Settings"],"task_type":"open_app"}`,
		`{"status":"done","response":"open"}`,
	)
	ctx := context.Background()
	if _, err := a.PlanOnce(ctx, PlanInput{Goal: "open settings"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Replan(ctx, ReplanInput{Goal: "open settings", Done: []DoneTodo{{Todo: "Open Settings", Status: "done"}}}); err != nil {
		t.Fatal(err)
	}
	for i, req := range m.reqs {
		sys := req[0].Text
		for _, want := range []string{"keeps no memory from one todo to the next", "cannot read or paste the clipboard"} {
			if !strings.Contains(sys, want) {
				t.Errorf("request %d's system prompt does not say %q", i+1, want)
			}
		}
	}
}
