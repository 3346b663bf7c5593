package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/viewer"
)

// The stream drops after two events; the client reconnects with the last
// ID it got and reads the rest once, ending at the goal's last event.
func TestStreamEventsReconnectsWhereItStopped(t *testing.T) {
	at := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
	evs := []viewer.Event{
		{Type: "plan", Time: at, GoalID: "g", Todos: []string{"a"}},
		{Type: "todo_started", Time: at.Add(time.Second), GoalID: "g", Todo: 1},
		{Type: "step", Time: at.Add(2 * time.Second), GoalID: "g", Todo: 1, Step: 1, WorkflowID: "g/todo-1"},
		{Type: "done", Time: at.Add(3 * time.Second), GoalID: "g", Status: "done"},
	}
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/goals/g/events" || r.URL.Query().Get("follow") != "1" || r.URL.Query().Get("token") != "s" {
			http.Error(w, "wrong URL "+r.URL.String(), http.StatusBadRequest)
			return
		}
		last := r.Header.Get("Last-Event-ID")
		asked = append(asked, last)
		w.Header().Set("Content-Type", "text/event-stream")
		from, to := 0, 2 // the first connection drops after two events
		if last != "" {
			for i, e := range evs {
				if e.ID() == last {
					from, to = i+1, len(evs)
				}
			}
		}
		fmt.Fprint(w, ": keep-alive\n\n")
		for _, e := range evs[from:to] {
			b, _ := json.Marshal(e)
			fmt.Fprintf(w, "id: %s\ndata: %s\n\n", e.ID(), b)
		}
	}))
	defer srv.Close()
	var got []string
	status, seen, err := streamEvents(context.Background(), srv.Client(), srv.URL+"/goals/g?token=s", func(e viewer.Event) error {
		got = append(got, e.Type)
		return nil
	})
	if err != nil || status != "done" || len(seen) != 4 {
		t.Fatalf("status %q, %d seen, %v", status, len(seen), err)
	}
	if strings.Join(got, " ") != "plan todo_started step done" || len(asked) != 2 || asked[1] != evs[1].ID() {
		t.Fatalf("events %q, Last-Event-IDs sent %q", got, asked)
	}
}

func TestStreamEventsReportsAServerThatDoesNotStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "the step viewer needs the token", http.StatusUnauthorized)
	}))
	defer srv.Close()
	_, _, err := streamEvents(context.Background(), srv.Client(), srv.URL+"/goals/g", func(viewer.Event) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "needs the token") {
		t.Fatalf("error %v, want the status and the server's words", err)
	}
}
