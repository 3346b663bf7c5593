package activities

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"
)

func TestNotifyPostsJSONWithLinks(t *testing.T) {
	got := make(chan Notification, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %s %s", r.Method, r.Header.Get("Content-Type"))
		}
		var n Notification
		if err := json.NewDecoder(r.Body).Decode(&n); err != nil {
			t.Error(err)
		}
		got <- n
	}))
	defer srv.Close()
	n := &Notifier{URL: srv.URL + "/hook?token=s3cret",
		WebUI:  func(id string) string { return "http://ui/" + id },
		Viewer: func(id string) string { return "http://viewer/" + id }}
	by := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	in := NotifyInput{Kind: NotifyQuestion, GoalID: "goal-1", Goal: "log in", Device: "emu-1", Text: "please log in", Todo: 2, Deadline: by}
	if err := n.Notify(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	b := <-got
	if b.NotifyInput != in || b.WebUI != "http://ui/goal-1" || b.Viewer != "http://viewer/goal-1" || b.SentAt.IsZero() {
		t.Fatalf("body = %+v", b)
	}
}

func TestNotifyErrors(t *testing.T) {
	status := http.StatusInternalServerError
	slow := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status == 0 {
			<-slow
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	defer close(slow)
	n := &Notifier{URL: srv.URL + "/hook?token=s3cret", Client: &http.Client{Timeout: 200 * time.Millisecond}}
	in := NotifyInput{Kind: NotifyFailed, GoalID: "goal-1", Text: "todo 1 failed"}
	for _, tc := range []struct {
		status    int
		retryable bool
		want      string
	}{
		{http.StatusInternalServerError, true, "answered 500"},
		{http.StatusTooManyRequests, true, "answered 429"},
		{http.StatusNotFound, false, "answered 404 Not Found: check notify.url"},
		{http.StatusUnauthorized, false, "answered 401"},
		{0, true, "Timeout"},
	} {
		status = tc.status
		err := n.Notify(context.Background(), in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("status %d: err = %v, want %q", tc.status, err, tc.want)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Fatalf("status %d: the URL's token leaked: %v", tc.status, err)
		}
		var app *temporal.ApplicationError
		permanent := errors.As(err, &app) && app.NonRetryable()
		if permanent == tc.retryable {
			t.Fatalf("status %d: retryable = %v, want %v (%v)", tc.status, !permanent, tc.retryable, err)
		}
	}
}

func TestNotifyWithoutURLSendsNothing(t *testing.T) {
	var n *Notifier
	if err := n.Notify(context.Background(), NotifyInput{Kind: NotifyFailed}); err != nil {
		t.Fatal(err)
	}
	if err := (&Notifier{}).Notify(context.Background(), NotifyInput{Kind: NotifyFailed}); err != nil {
		t.Fatal(err)
	}
}
