package modelserver

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Model ids listed by GET /v1/models. Any other id is accepted too; the role
// is chosen from the id (see the package documentation).
const (
	PlannerModel  = "offline-planner"
	ExecutorModel = "offline-executor"
)

// DefaultAddr is where ListenAndServe binds when given an empty address:
// loopback only.
const DefaultAddr = "127.0.0.1:8090"

// DefaultContextTokens is the context window of the offline models.
const DefaultContextTokens = 32768

// maxBody caps a request body; executor requests carry a screenshot.
const maxBody = 64 << 20

// Config sets the server's behaviour. The zero value is a fault-free,
// zero-latency server without authentication.
type Config struct {
	// Seed seeds the server's random source (faults, wrong-tap points).
	Seed int64
	// Latency is added to every completion request; a streaming answer
	// spreads it across its chunks.
	Latency time.Duration
	// RateLimit429, Rate500, RateMalformed and RateWrongTap are
	// probabilities in [0,1] of injecting each fault into a request.
	RateLimit429  float64
	Rate500       float64
	RateMalformed float64
	RateWrongTap  float64
	// RateMisread is the share of todos the executor persona misreads on
	// purpose (another recipient or value, a clause dropped, the opposite
	// of on/off; misread.go). A todo is misread on every turn or on none.
	RateMisread float64
	// Misread lists todos (their whole text) the executor persona always
	// misreads, as RateMisread misreads a todo it draws: a recorder or a
	// test picks the one goal whose executor goes wrong, on a server
	// whose other goals run as written.
	Misread []string
	// RetryAfter is announced with 429 answers (Retry-After and
	// retry-after-ms headers); 0 means one second.
	RetryAfter time.Duration
	// RejectFormats lists response_format types ("json_schema",
	// "json_object") answered with 400, as servers without structured
	// output answer them.
	RejectFormats []string
	// Naive makes the executor persona a weaker model that does not repair
	// its own mistakes: after a tap it never goes back, scrolls away or
	// re-taps a switch, and reports the task done instead. With
	// RateWrongTap it measures what the planner layer, the stuck guard and
	// verification add.
	Naive bool
	// SendsNothing lists texts of messages the executor persona never
	// sends: a todo sending one of them opens the conversation and
	// finishes there, as a model does that takes the conversation's last
	// bubble (yesterday's same words) for its own message. It measures
	// whether verification catches that claim (docs/design.md §9).
	SendsNothing []string
	// ContextTokens is the context window: a prompt estimated longer is
	// answered 400 "maximum context length", as real model servers answer
	// it, instead of being read at a cost that grows with its length.
	// 0 = DefaultContextTokens.
	ContextTokens int
	// APIKey, when set, is required as "Authorization: Bearer <key>".
	APIKey string
	// Logger receives one line per request; nil discards.
	Logger *slog.Logger
}

// Validate reports a configuration that cannot work.
func (c Config) Validate() error {
	for _, r := range []struct {
		name string
		v    float64
	}{{"RateLimit429", c.RateLimit429}, {"Rate500", c.Rate500}, {"RateMalformed", c.RateMalformed}, {"RateWrongTap", c.RateWrongTap}, {"RateMisread", c.RateMisread}} {
		if r.v < 0 || r.v > 1 || math.IsNaN(r.v) {
			return fmt.Errorf("modelserver: %s = %v: a rate must be between 0 and 1", r.name, r.v)
		}
	}
	if c.Latency < 0 || c.RetryAfter < 0 {
		return errors.New("modelserver: Latency and RetryAfter must not be negative")
	}
	return nil
}

// Stats counts what the server has done since it started.
type Stats struct {
	Requests     int64 `json:"requests"`     // every HTTP request
	Completions  int64 `json:"completions"`  // chat completion requests answered 200
	Streams      int64 `json:"streams"`      // of which streamed
	Planner      int64 `json:"planner"`      // answered in the planner role
	Executor     int64 `json:"executor"`     // answered in the executor role
	Verifier     int64 `json:"verifier"`     // answered in the verifier role
	Corrector    int64 `json:"corrector"`    // stuck corrections written in the planner's name
	Guidance     int64 `json:"guidance"`     // executor guidance rewritten in the planner's name
	Questions    int64 `json:"questions"`    // executor questions decided in the planner's name
	Reviews      int64 `json:"reviews"`      // running todos reviewed in the planner's name
	Choices      int64 `json:"choices"`      // goals' phones chosen in the planner's name
	Faults429    int64 `json:"faults_429"`   // injected 429 answers
	Faults500    int64 `json:"faults_500"`   // injected 500 answers
	Malformed    int64 `json:"malformed"`    // injected malformed answers
	WrongTaps    int64 `json:"wrong_taps"`   // injected wrong tap points
	Misreads     int64 `json:"misreads"`     // executor answers given for a misread todo
	Unauthorized int64 `json:"unauthorized"` // 401 answers
	BadRequests  int64 `json:"bad_requests"` // 400/404/405 answers
	Abandoned    int64 `json:"abandoned"`    // requests whose client went away before the answer was made
}

// Server is the offline OpenAI-compatible model server. It is an
// http.Handler; use ListenAndServe or Serve to run it on a socket.
//
// Faults are drawn from one seeded random source guarded by a mutex, a fixed
// number of draws per completion request, so a run with a given seed and a
// given request order is reproducible. With concurrent clients the order in
// which requests reach the server decides which of them gets a fault.
type Server struct {
	cfg Config
	log *slog.Logger
	mux *http.ServeMux

	mu    sync.Mutex
	rng   *rand.Rand
	seq   int64
	stats Stats
}

var _ http.Handler = (*Server)(nil)

// New returns a server for cfg. Rates outside [0,1] are clamped; call
// cfg.Validate first to reject them instead.
func New(cfg Config) *Server {
	clamp := func(r float64) float64 {
		if math.IsNaN(r) {
			return 0
		}
		return min(max(r, 0), 1)
	}
	cfg.RateLimit429, cfg.Rate500 = clamp(cfg.RateLimit429), clamp(cfg.Rate500)
	cfg.RateMalformed, cfg.RateWrongTap = clamp(cfg.RateMalformed), clamp(cfg.RateWrongTap)
	cfg.RateMisread = clamp(cfg.RateMisread)
	if cfg.RetryAfter <= 0 {
		cfg.RetryAfter = time.Second
	}
	if cfg.ContextTokens <= 0 {
		cfg.ContextTokens = DefaultContextTokens
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log, rng: rand.New(rand.NewSource(cfg.Seed))}
	mux := http.NewServeMux()
	for _, prefix := range []string{"/v1", ""} {
		mux.HandleFunc(prefix+"/chat/completions", s.handleChat)
		mux.HandleFunc(prefix+"/models", s.handleModels)
		mux.HandleFunc(prefix+"/models/{id}", s.handleModel)
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.count(func(st *Stats) { st.BadRequests++ })
		writeError(w, http.StatusNotFound, "invalid_request_error", "not_found",
			fmt.Sprintf("no route %s %s: use POST /v1/chat/completions or GET /v1/models", r.Method, r.URL.Path))
	})
	s.mux = mux
	return s
}

// Stats returns a snapshot of the counters.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

func (s *Server) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.count(func(st *Stats) { st.Requests++ })
	if s.cfg.APIKey != "" && !s.authorized(r) {
		s.count(func(st *Stats) { st.Unauthorized++ })
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "invalid_api_key",
			"missing or wrong API key: send the header \"Authorization: Bearer <key>\" with the key the server was started with")
		return
	}
	s.mux.ServeHTTP(w, r)
}

func (s *Server) authorized(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	key, ok := strings.CutPrefix(h, "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(key)), []byte(s.cfg.APIKey)) == 1
}

// ListenAndServe listens on addr (DefaultAddr if empty; a bare ":port" binds
// loopback) and serves until ctx is done.
func (s *Server) ListenAndServe(ctx context.Context, addr string) error {
	addr = LoopbackAddr(addr)
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("modelserver: listen on %s: %w (pick a free port with --addr)", addr, err)
	}
	return s.Serve(ctx, ln)
}

// LoopbackAddr fills in the defaults for a listen address: "" becomes
// DefaultAddr and ":port" becomes "127.0.0.1:port".
func LoopbackAddr(addr string) string {
	if addr == "" {
		return DefaultAddr
	}
	if strings.HasPrefix(addr, ":") {
		return "127.0.0.1" + addr
	}
	return addr
}

// Serve serves on ln until ctx is done, then shuts down gracefully (open
// streams get five seconds to finish). It closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("modelserver: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	if e := <-errc; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

func (s *Server) handleModels(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		s.methodNotAllowed(w, r, "GET")
		return
	}
	writeJSON(w, http.StatusOK, modelList{Object: "list", Data: []modelInfo{
		{ID: PlannerModel, Object: "model", OwnedBy: "phoneflow"},
		{ID: ExecutorModel, Object: "model", OwnedBy: "phoneflow"},
	}})
}

func (s *Server) handleModel(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		s.methodNotAllowed(w, r, "GET")
		return
	}
	// Any model id is served, so any id "exists".
	writeJSON(w, http.StatusOK, modelInfo{ID: r.PathValue("id"), Object: "model", OwnedBy: "phoneflow"})
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) {
	s.count(func(st *Stats) { st.BadRequests++ })
	w.Header().Set("Allow", allow)
	writeError(w, http.StatusMethodNotAllowed, "invalid_request_error", "method_not_allowed",
		fmt.Sprintf("%s %s is not supported: use %s", r.Method, r.URL.Path, allow))
}

func (s *Server) badRequest(w http.ResponseWriter, msg string) {
	s.count(func(st *Stats) { st.BadRequests++ })
	writeError(w, http.StatusBadRequest, "invalid_request_error", "invalid_request", msg)
}

func (s *Server) handleChat(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.methodNotAllowed(w, r, "POST")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		s.badRequest(w, fmt.Sprintf("reading the request body: %v (bodies are limited to %d MiB)", err, maxBody>>20))
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.badRequest(w, fmt.Sprintf("request body is not a chat completion request: %v", err))
		return
	}
	if len(req.Messages) == 0 {
		s.badRequest(w, "messages is empty: send at least one user message")
		return
	}
	msgs, err := decodeMessages(req.Messages)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}

	if s.abandoned(r) {
		return
	}
	prompt := 0
	for _, m := range msgs {
		prompt += estimateTokens(m.Text) + 85*m.Images
	}
	if prompt > s.cfg.ContextTokens {
		s.badRequest(w, fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens: shorten the prompt", s.cfg.ContextTokens, prompt))
		return
	}
	if s.refuseFormat(w, req.ResponseFormat) {
		return
	}
	f := s.draw()
	if s.cfg.Latency > 0 && !req.Stream {
		if !sleep(r.Context(), s.cfg.Latency) {
			return
		}
	}
	switch {
	case f.fault429:
		s.count(func(st *Stats) { st.Faults429++ })
		ra := s.cfg.RetryAfter
		w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(ra.Seconds())), 10))
		w.Header().Set("retry-after-ms", strconv.FormatInt(ra.Milliseconds(), 10))
		writeError(w, http.StatusTooManyRequests, "requests", "rate_limit_exceeded",
			fmt.Sprintf("rate limit reached (injected fault): retry after %s", ra))
		return
	case f.fault500:
		s.count(func(st *Stats) { st.Faults500++ })
		writeError(w, http.StatusInternalServerError, "server_error", "internal_error",
			"the server had an error while processing the request (injected fault): retry the request")
		return
	}

	if s.abandoned(r) {
		return
	}
	role := roleFor(req.Model, msgs)
	var content string
	switch role {
	case rolePlanner:
		format := ""
		if req.ResponseFormat != nil {
			format = req.ResponseFormat.Type
		}
		content = s.planAnswer(msgs, f, format)
		s.count(func(st *Stats) { st.Planner++ })
	case roleVerifier:
		content = s.verifyAnswer(msgs, f)
		s.count(func(st *Stats) { st.Verifier++ })
	case roleCorrector:
		content = s.correctAnswer(msgs, f)
		s.count(func(st *Stats) { st.Corrector++ })
	case roleGuidance:
		content = s.guidanceAnswer(msgs, f)
		s.count(func(st *Stats) { st.Guidance++ })
	case roleQuestion:
		content = s.questionAnswer(msgs, f)
		s.count(func(st *Stats) { st.Questions++ })
	case roleReview:
		content = s.reviewAnswer(msgs, f)
		s.count(func(st *Stats) { st.Reviews++ })
	case roleChoose:
		content = s.chooseAnswer(msgs, f)
		s.count(func(st *Stats) { st.Choices++ })
	default:
		content = s.executorAnswer(msgs, grammarOf(req.Model, msgs), f)
		s.count(func(st *Stats) { st.Executor++ })
	}
	s.count(func(st *Stats) {
		st.Completions++
		if req.Stream {
			st.Streams++
		}
	})
	s.log.Debug("modelserver: answered", "model", req.Model, "role", role, "stream", req.Stream, "seq", f.seq)

	id := fmt.Sprintf("chatcmpl-offline-%d", f.seq)
	u := usage{PromptTokens: prompt, CompletionTokens: estimateTokens(content)}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	model := req.Model
	if model == "" {
		model = string(role)
	}
	var calls []toolCall
	finish := "stop"
	if role == roleExecutor && len(req.Tools) > 0 && string(req.Tools) != "null" {
		if c, think, ok := asToolCall(content); ok {
			calls, content, finish = []toolCall{c}, think, "tool_calls"
		}
	}
	if req.Stream {
		s.stream(w, r, id, model, content, calls, u, req.StreamOptions != nil && req.StreamOptions.IncludeUsage)
		return
	}
	writeJSON(w, http.StatusOK, completion{
		ID: id, Object: "chat.completion", Created: time.Now().Unix(), Model: model,
		Choices: []completionChoice{{Message: completionMsg{Role: "assistant", Content: content, ToolCalls: calls},
			FinishReason: finish, Logprobs: json.RawMessage("null")}},
		Usage: &u,
	})
}

// abandoned reports, and counts, a request whose client has gone away
// (it gave up, or its goal was cancelled): its answer is not made.
func (s *Server) abandoned(r *http.Request) bool {
	if r.Context().Err() == nil {
		return false
	}
	s.count(func(st *Stats) { st.Abandoned++ })
	s.log.Debug("modelserver: client went away; request dropped")
	return true
}

// stream writes content as server-sent events, spreading the configured
// latency across the chunks.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, id, model, content string, calls []toolCall, u usage, withUsage bool) {
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	created := time.Now().Unix()
	pieces := splitChunks(content)
	// One pause before the first chunk and one before each further chunk.
	pause := s.cfg.Latency / time.Duration(len(pieces)+1)
	send := func(c chunk) bool {
		b, _ := json.Marshal(c)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	mk := func(d chunkDelta, finish *string) chunk {
		return chunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []chunkChoice{{Delta: d, FinishReason: finish}}}
	}
	if pause > 0 && !sleep(r.Context(), pause) {
		return
	}
	if !send(mk(chunkDelta{Role: "assistant"}, nil)) {
		return
	}
	for _, p := range pieces {
		if pause > 0 && !sleep(r.Context(), pause) {
			return
		}
		if !send(mk(chunkDelta{Content: p}, nil)) {
			return
		}
	}
	stop := "stop"
	if len(calls) > 0 {
		stop = "tool_calls"
		if !send(mk(chunkDelta{ToolCalls: calls}, nil)) {
			return
		}
	}
	if !send(mk(chunkDelta{}, &stop)) {
		return
	}
	if withUsage {
		c := chunk{ID: id, Object: "chat.completion.chunk", Created: created, Model: model,
			Choices: []chunkChoice{}, Usage: &u}
		if !send(c) {
			return
		}
	}
	_, _ = io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// splitChunks cuts content into stream pieces of a few bytes (never inside
// a UTF-8 sequence), always breaking right after "</think>" so clients can
// time the end of thinking.
func splitChunks(content string) []string {
	const size = 12
	var out []string
	cut := func(seg string) {
		for seg != "" {
			n := min(size, len(seg))
			for n < len(seg) && !utf8Start(seg[n]) {
				n++
			}
			out = append(out, seg[:n])
			seg = seg[n:]
		}
	}
	if i := strings.Index(content, "</think>"); i >= 0 {
		end := i + len("</think>")
		cut(content[:end])
		content = content[end:]
	}
	cut(content)
	return out
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"message":"encoding the answer failed","type":"server_error","param":null,"code":null}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, status int, typ, code, msg string) {
	writeJSON(w, status, apiError{Error: apiErrorBody{Message: msg, Type: typ, Code: &code}})
}
