package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// modelFault is one answer the model proxy gives in place of the model's.
type modelFault struct {
	kind string // a kind* constant of the model's faults
	role string // "executor", "planner" or "" for any request
	// taken is closed when a matching request takes the fault; the
	// worker-kill kinds keep that request open until the client goes.
	taken chan struct{}
}

// modelProxy stands between the worker and the offline model server and
// answers armed faults in place of the model: 429 with Retry-After, 500,
// a 400 (a refused image, as providers answer a content policy), a reset
// connection, a request held past the client's timeout, or one held while
// the campaign kills the worker (its think or plan in flight). Everything
// else goes through untouched.
type modelProxy struct {
	target *url.URL
	rp     *httputil.ReverseProxy
	srv    *http.Server
	url    string

	mu     sync.Mutex
	armed  []modelFault
	served map[string]int // faults answered, by kind
}

func newModelProxy(targetBase string) (*modelProxy, error) {
	u, err := url.Parse(strings.TrimSuffix(targetBase, "/v1"))
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen for the model proxy: %w", err)
	}
	p := &modelProxy{target: u, rp: httputil.NewSingleHostReverseProxy(u), url: "http://" + ln.Addr().String() + "/v1", served: map[string]int{}}
	p.rp.FlushInterval = -1 // streamed answers pass chunk by chunk
	p.rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, `{"error":{"message":"model proxy: `+err.Error()+`","type":"server_error"}}`, http.StatusBadGateway)
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// arm queues f for the next matching request.
func (p *modelProxy) arm(f modelFault) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = append(p.armed, f)
}

// pending is the number of faults armed and not yet answered.
func (p *modelProxy) pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.armed)
}

// answered is how many faults of each kind the proxy answered.
func (p *modelProxy) answered() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for k, n := range p.served {
		out[k] = n
	}
	return out
}

// disarm drops every fault not yet answered.
func (p *modelProxy) disarm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.armed = nil
}

// take removes and returns the first armed fault for role.
func (p *modelProxy) take(role string) (modelFault, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, f := range p.armed {
		if f.role == "" || f.role == role {
			p.armed = append(p.armed[:i], p.armed[i+1:]...)
			if f.kind != kindKillThink && f.kind != kindKillPlan {
				p.served[f.kind]++ // the kill kinds count when the kill is done
			}
			return f, true
		}
	}
	return modelFault{}, false
}

func (p *modelProxy) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = p.srv.Shutdown(ctx)
	_ = p.srv.Close()
}

// roleOf reads which model a completion request is for from its model id
// (offline-planner, offline-executor).
func roleOf(body []byte) string {
	var req struct {
		Model string `json:"model"`
	}
	_ = json.Unmarshal(body, &req)
	switch {
	case strings.Contains(req.Model, "executor"):
		return "executor"
	case strings.Contains(req.Model, "planner"):
		return "planner"
	}
	return req.Model
}

func (p *modelProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		p.rp.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	f, ok := p.take(roleOf(body))
	if !ok {
		p.rp.ServeHTTP(w, r)
		return
	}
	close(f.taken)
	switch f.kind {
	case kindModel429:
		w.Header().Set("Retry-After", "1")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached for requests","type":"requests","code":"rate_limit_exceeded"}}`)
	case kindModel500:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`)
	case kindModel400:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, `{"error":{"message":"Your request was rejected as a result of our safety system: the image could not be processed.","type":"invalid_request_error","code":"content_policy_violation"}}`)
	case kindModelReset:
		if hj, ok := w.(http.Hijacker); ok {
			if c, _, err := hj.Hijack(); err == nil {
				if tc, ok := c.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // a reset, not a clean close
				}
				_ = c.Close()
				return
			}
		}
		http.Error(w, "reset", http.StatusBadGateway)
	case kindModelTimeout:
		<-r.Context().Done() // the client's own timeout ends it
	case kindKillThink, kindKillPlan:
		select {
		case <-r.Context().Done(): // the worker was killed
		case <-time.After(2 * time.Minute):
			p.rp.ServeHTTP(w, r)
		}
	default:
		p.rp.ServeHTTP(w, r)
	}
}
