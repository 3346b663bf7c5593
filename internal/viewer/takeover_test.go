package viewer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/workflows"
)

type fakeTakeOver struct{ acted []string }

func (f *fakeTakeOver) Asks(context.Context, string) (string, error) { return "sign in", nil }
func (f *fakeTakeOver) Screen(context.Context, string) ([]byte, string, error) {
	return []byte("png"), "image/png", nil
}
func (f *fakeTakeOver) Act(_ context.Context, id string, a workflows.PersonAction, text string) (string, error) {
	f.acted = append(f.acted, id+" "+a.Kind+" "+text)
	return a.Describe(), nil
}
func (f *fakeTakeOver) Continue(context.Context, string) (string, error) { return "answered", nil }

// Taking over is served to this host only without a token, even when the
// rest of the viewer is open to all (no encryption), needs the token when
// one is set, and refuses a POST from another site's page.
func TestTakeOverAccess(t *testing.T) {
	f := &fakeTakeOver{}
	open := Handler(Options{TakeOver: f})
	serve := func(h http.Handler, method, target, remote, origin string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, target, strings.NewReader(`{"kind":"tap","x":5,"y":6}`))
		r.RemoteAddr = remote
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	if w := serve(open, "POST", "/goals/g1/act", "192.0.2.1:1234", ""); w.Code != http.StatusForbidden {
		t.Fatalf("from another host without a token: %d %s", w.Code, w.Body)
	}
	if w := serve(open, "GET", "/goals/g1/screen", "192.0.2.1:1234", ""); w.Code != http.StatusForbidden {
		t.Fatalf("screen from another host without a token: %d", w.Code)
	}
	if w := serve(open, "POST", "/goals/g1/act", "127.0.0.1:1234", "http://evil.example"); w.Code != http.StatusForbidden {
		t.Fatalf("from another site's page: %d", w.Code)
	}
	if w := serve(open, "POST", "/goals/g1/act", "127.0.0.1:1234", "http://example.com"); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "tapped (5, 6)") {
		t.Fatalf("from this host's own page: %d %s", w.Code, w.Body)
	}
	tok := Handler(Options{TakeOver: f, Token: "s3"})
	if w := serve(tok, "POST", "/goals/g1/act", "192.0.2.1:1234", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("without the token: %d", w.Code)
	}
	if w := serve(tok, "POST", "/goals/g1/act?token=s3", "192.0.2.1:1234", ""); w.Code != http.StatusOK {
		t.Fatalf("with the token: %d %s", w.Code, w.Body)
	}
	if len(f.acted) != 2 {
		t.Fatalf("acted %v, want the two allowed requests", f.acted)
	}
}
