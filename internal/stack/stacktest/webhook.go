package stacktest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/phoneflow/phoneflow/activities"
)

// Webhook records the notifications a worker POSTs to notify.url
// (docs/design.md §7), on a loopback server closed when the test ends.
type Webhook struct {
	URL  string // the server's base URL
	mu   sync.Mutex
	got  []activities.Notification
	fail int
}

// NewWebhook starts a receiver that answers its first fail requests with
// 503, so the worker's retries are exercised, and records the rest.
func NewWebhook(t testing.TB, fail int) *Webhook {
	w := &Webhook{fail: fail}
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.fail > 0 {
			w.fail--
			rw.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		var n activities.Notification
		if err := json.NewDecoder(r.Body).Decode(&n); err != nil {
			t.Errorf("webhook body: %v", err)
			return
		}
		w.got = append(w.got, n)
	}))
	t.Cleanup(srv.Close)
	w.URL = srv.URL
	return w
}

// Of returns the notifications of one goal, by kind.
func (w *Webhook) Of(goalID string) map[string][]activities.Notification {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := map[string][]activities.Notification{}
	for _, n := range w.got {
		if n.GoalID == goalID {
			out[n.Kind] = append(out[n.Kind], n)
		}
	}
	return out
}

// Count returns how many notifications of kind the goal got.
func (w *Webhook) Count(goalID, kind string) int { return len(w.Of(goalID)[kind]) }
