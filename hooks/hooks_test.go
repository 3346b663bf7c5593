package hooks

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWebhookDeliversAndVetoes: events arrive as JSON with the token as a
// bearer token and the event ID as the idempotency key; a blocking
// webhook's answer vetoes; a receiver that fails is logged without the
// URL's secret and does not stop the others.
func TestWebhookDeliversAndVetoes(t *testing.T) {
	var mu sync.Mutex
	var got []Event
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-123" {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		var ev Event
		if err := json.NewDecoder(r.Body).Decode(&ev); err != nil || r.Header.Get("Idempotency-Key") != ev.ID {
			http.Error(w, "bad event", http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, ev)
		mu.Unlock()
		if ev.Kind == BeforeAction {
			_, _ = io.WriteString(w, `{"allow": false, "reason": "not now"}`)
		}
	}))
	defer srv.Close()
	var logs strings.Builder
	wh := &Webhook{URL: srv.URL, Token: "tok-123"}
	down := &Webhook{URL: "http://user:pw@127.0.0.1:1/hook?token=leak"}
	s := &Set{Hooks: []Hook{down, Only(wh, GoalStart, BeforeAction)}, Gates: []Gate{wh}, Timeout: 2 * time.Second,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	ctx := context.Background()
	s.Emit(ctx, Event{ID: "g/r/1/goal_start", Kind: GoalStart, GoalID: "g"})
	s.Emit(ctx, Event{ID: "g/r/2/todo_start", Kind: TodoStart, GoalID: "g"}) // filtered out
	v := s.Decide(ctx, Event{ID: "a/1", GoalID: "g", Action: `do(action="Tap")`})
	if v.Allow || v.Reason != "not now" {
		t.Errorf("verdict = %+v, want the webhook's veto", v)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 || got[0].Kind != GoalStart || got[1].Kind != BeforeAction {
		t.Errorf("receiver got %+v, want goal_start then before_action", got)
	}
	if strings.Contains(logs.String(), "leak") || strings.Contains(logs.String(), "pw@") {
		t.Errorf("a webhook URL's secret reached the log: %s", logs.String())
	}
	if !strings.Contains(logs.String(), "hook failed") {
		t.Errorf("the failing receiver was not logged: %s", logs.String())
	}
}

// TestPanickingHookIsContained: a hook that panics is a failure like any
// other.
func TestPanickingHookIsContained(t *testing.T) {
	told := false
	s := &Set{Hooks: []Hook{
		HookFunc(func(context.Context, Event) error { panic("boom") }),
		HookFunc(func(context.Context, Event) error { told = true; return nil }),
	}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	s.Emit(context.Background(), Event{Kind: StepStart})
	if !told {
		t.Error("the hook after a panicking one was not told")
	}
	var nilSet *Set
	nilSet.Emit(context.Background(), Event{Kind: StepStart})
	if v := nilSet.Decide(context.Background(), Event{}); !v.Allow {
		t.Error("a nil set vetoed")
	}
}

func TestParseKind(t *testing.T) {
	for _, k := range Kinds {
		if got, err := ParseKind(string(k)); err != nil || got != k {
			t.Errorf("ParseKind(%q) = %q, %v", k, got, err)
		}
	}
	if _, err := ParseKind("step-start"); err == nil || !strings.Contains(err.Error(), "step_start") {
		t.Errorf("ParseKind(step-start) = %v, want an error naming the kinds", err)
	}
}
