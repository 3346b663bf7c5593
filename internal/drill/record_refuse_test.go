//go:build record

package drill_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// refusedThinkText marks the goal of the keep-applied recording: the
// executor's second request that holds it is answered 400, as a provider
// refuses an image, so a Step fails after its first action reached the
// phone and hands that action back with its error (docs/design.md §4).
const refusedThinkText = "kept after a refusal"

// thinkRefuser stands between the recorder's worker and the model server:
// it answers one executor request with a 400 and passes every other.
type thinkRefuser struct {
	rp  *httputil.ReverseProxy
	url string

	mu   sync.Mutex
	seen int
}

func startThinkRefuser(t *testing.T, target string) *thinkRefuser {
	t.Helper()
	u, err := url.Parse(strings.TrimSuffix(target, "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &thinkRefuser{rp: httputil.NewSingleHostReverseProxy(u), url: "http://" + ln.Addr().String() + "/v1"}
	p.rp.FlushInterval = -1
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return p
}

// executorRequest reports whether a completion request is for the
// executor's model (offline-executor), not the planner's or verifier's.
func executorRequest(body []byte) bool {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)
	return strings.Contains(req.Model, "executor")
}

func (p *thinkRefuser) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions") {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(refusedThinkText)) && executorRequest(body) {
			p.mu.Lock()
			p.seen++
			refuse := p.seen == 2
			p.mu.Unlock()
			if refuse {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"error":{"message":"Your request was rejected: the image could not be processed.","type":"invalid_request_error"}}`)
				return
			}
		}
	}
	p.rp.ServeHTTP(w, r)
}
