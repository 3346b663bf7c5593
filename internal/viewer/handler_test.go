package viewer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/blob"
)

func TestGuardAndBlobs(t *testing.T) {
	store, err := blob.NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	png := []byte("\x89PNG\r\n\x1a\n0000")
	ref, err := store.Put(context.Background(), png, "image/png")
	if err != nil {
		t.Fatal(err)
	}
	do := func(h http.Handler, remote, target, auth string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", target, nil)
		req.RemoteAddr = remote
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	open := Handler(Options{Blobs: store})
	if w := do(open, "10.0.0.5:1234", "/goals/-/blobs/"+ref, ""); w.Code != 200 || w.Body.String() != string(png) ||
		!strings.Contains(w.Header().Get("Cache-Control"), "immutable") || w.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("blob: %d %q %v", w.Code, w.Body.String(), w.Header())
	}
	if w := do(open, "127.0.0.1:1", "/goals/-/blobs/sha256:nothex", ""); w.Code != 400 {
		t.Fatalf("bad ref: %d", w.Code)
	}
	if w := do(open, "127.0.0.1:1", "/goals/-/blobs/sha256:"+strings.Repeat("0", 64), ""); w.Code != 404 {
		t.Fatalf("missing blob: %d", w.Code)
	}

	local := Handler(Options{Blobs: store, LoopbackOnly: true})
	if w := do(local, "10.0.0.5:1234", "/goals/-/blobs/"+ref, ""); w.Code != 403 || !strings.Contains(w.Body.String(), "codec_token") {
		t.Fatalf("remote caller without token: %d %s", w.Code, w.Body.String())
	}
	if w := do(local, "[::1]:1234", "/goals/-/blobs/"+ref, ""); w.Code != 200 {
		t.Fatalf("loopback caller: %d", w.Code)
	}

	tok := Handler(Options{Blobs: store, Token: "s3cret"})
	if w := do(tok, "10.0.0.5:1", "/goals/-/blobs/"+ref, ""); w.Code != 401 {
		t.Fatalf("no token: %d", w.Code)
	}
	if w := do(tok, "10.0.0.5:1", "/goals/-/blobs/"+ref+"?token=s3cret", ""); w.Code != 200 {
		t.Fatalf("token in query: %d", w.Code)
	}
	if w := do(tok, "10.0.0.5:1", "/goals/-/blobs/"+ref, "s3cret"); w.Code != 200 {
		t.Fatalf("bearer token: %d", w.Code)
	}
}

func TestMarksInPercent(t *testing.T) {
	m := marks(autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 212}})
	if len(m) != 1 || m[0].X != 50 || m[0].Y != 21.2 || m[0].Kind != "tap" {
		t.Fatalf("tap marks = %+v", m)
	}
	m = marks(autoglm.Action{Name: autoglm.ActionSwipe, Start: &autoglm.Point{500, 800}, End: &autoglm.Point{500, 200}})
	if len(m) != 2 || m[0].Kind != "start" || m[1].Y != 20 {
		t.Fatalf("swipe marks = %+v", m)
	}
	if marks(autoglm.Action{Name: autoglm.ActionBack}) != nil {
		t.Fatal("Back has no marker")
	}
}

func TestStepAnchor(t *testing.T) {
	if a := StepAnchor("goal-1/todo-2-r1", 3); a != "todo-2-r1-step-3" {
		t.Fatal(a)
	}
}
