package viewer

import (
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/blob"
)

//go:embed templates/page.html
var files embed.FS

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"fmtTime": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("15:04:05")
	},
	"dur": func(a, b time.Time) string { return b.Sub(a).Round(time.Millisecond).String() },
	"plural": func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return fmt.Sprintf("%d %ss", n, noun)
	},
	"anchor":     StepAnchor,
	"badgeCSS":   badgeCSS,
	"anchorTodo": func(id string) string { return strings.TrimSuffix(StepAnchor(id, 0), "-step-0") },
	"blobURL":    func(string) string { return "" }, // replaced per request
}).ParseFS(files, "templates/page.html"))

// Options configure Handler.
type Options struct {
	Reader *Reader
	// Blobs holds the screenshots.
	Blobs blob.Store
	// Token, when set, is required: as a Bearer header or ?token= (links
	// on the page carry it on).
	Token string
	// LoopbackOnly refuses callers that are not on this host: the rule
	// for decrypted content served without a token.
	LoopbackOnly bool
	// WebUI returns the Temporal Web UI page of a workflow, or "".
	WebUI func(id string) string
	// TakeOver, when set, lets a person act on the phone of a goal that
	// waits for them, from the goal's page.
	TakeOver TakeOver
	Logger   *slog.Logger
}

// Path is where a goal's page is served: Path + goal ID.
const Path = "/goals/"

// URL returns the viewer page of goal id on a server at base
// ("http://127.0.0.1:9464").
func URL(base, id string) string {
	return strings.TrimRight(base, "/") + Path + url.PathEscape(id)
}

// Handler serves /goals/ (an index of the newest goals), /goals/<id> (the
// page), /goals/<id>/body (the live part of the page), /goals/<id>/events
// (the events as JSON lines) and /goals/-/blobs/<ref> (screenshots); with
// TakeOver, /goals/<id>/screen (the live screen), /goals/<id>/act,
// /goals/<id>/continue and /goals/<id>/answer (a person taking over).
func Handler(o Options) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /goals/{$}", o.index)
	mux.HandleFunc("GET /goals/-/blobs/{ref}", o.blob)
	mux.HandleFunc("GET /goals/{id}", o.page)
	mux.HandleFunc("GET /goals/{id}/body", o.page)
	mux.HandleFunc("GET /goals/{id}/events", o.events)
	if o.TakeOver != nil {
		mux.Handle("GET /goals/{id}/screen", o.takeOverGuard(o.screen))
		mux.Handle("POST /goals/{id}/act", o.takeOverGuard(o.act))
		mux.Handle("POST /goals/{id}/continue", o.takeOverGuard(o.resume))
		mux.Handle("POST /goals/{id}/answer", o.takeOverGuard(o.answer))
	}
	return o.guard(mux)
}

func (o Options) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if o.LoopbackOnly {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
				http.Error(w, "the step viewer shows decrypted goals only on this host: configure encryption.codec_token to serve it to others", http.StatusForbidden)
				return
			}
		}
		if o.Token != "" {
			tok := r.URL.Query().Get("token")
			if scheme, t, ok := strings.Cut(r.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "Bearer") {
				tok = strings.TrimSpace(t)
			}
			if subtle.ConstantTimeCompare([]byte(tok), []byte(o.Token)) != 1 {
				http.Error(w, "the step viewer needs the token: add ?token=… (encryption.codec_token)", http.StatusUnauthorized)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

func (o Options) load(w http.ResponseWriter, r *http.Request) (Goal, bool) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	g, err := o.Reader.Load(ctx, r.PathValue("id"))
	if err != nil {
		code := http.StatusBadGateway
		if errors.Is(err, ErrNotFound) {
			code = http.StatusNotFound
		}
		o.Logger.Warn("step viewer: cannot read the goal", "goal", r.PathValue("id"), "error", err)
		http.Error(w, err.Error(), code)
		return g, false
	}
	return g, true
}

func (o Options) page(w http.ResponseWriter, r *http.Request) {
	g, ok := o.load(w, r)
	if !ok {
		return
	}
	q := ""
	if t := r.URL.Query().Get("token"); t != "" {
		q = "?token=" + url.QueryEscape(t)
	}
	tpl, err := page.Clone()
	if err == nil {
		tpl = tpl.Funcs(template.FuncMap{"blobURL": func(ref string) string { return "/goals/-/blobs/" + url.PathEscape(ref) + q }})
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	data := pageData{TakeOver: o.TakeOver != nil}
	if g.Running {
		// The history says the phase as last published; the goal itself
		// says what it waits for, and until when.
		ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
		st, err := o.Reader.Live(ctx, g.ID)
		cancel()
		if err != nil {
			o.Logger.Warn("step viewer: cannot read what the goal waits for", "goal", g.ID, "error", err)
		} else {
			g.withLive(st, time.Now())
			data.Ask = AskOf(st)
		}
	}
	data.Goal = g
	if o.WebUI != nil {
		data.WebURL = o.WebUI(g.ID)
	}
	name := "page"
	if strings.HasSuffix(r.URL.Path, "/body") {
		name = "body"
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := tpl.ExecuteTemplate(w, name, data); err != nil {
		o.Logger.Warn("step viewer: render", "goal", g.ID, "error", err)
	}
}

func (o Options) events(w http.ResponseWriter, r *http.Request) {
	if f := r.URL.Query().Get("follow"); f != "" && f != "0" && f != "false" {
		o.stream(w, r)
		return
	}
	g, ok := o.load(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Cache-Control", "no-store")
	if err := WriteJSONLines(w, Events(g, "")); err != nil {
		o.Logger.Warn("step viewer: events", "goal", g.ID, "error", err)
	}
}

func (o Options) blob(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("ref")
	if _, err := blob.ParseRef(ref); err != nil || o.Blobs == nil {
		http.Error(w, "not a screenshot reference", http.StatusBadRequest)
		return
	}
	data, err := o.Blobs.Get(r.Context(), ref)
	if err != nil {
		code := http.StatusInternalServerError
		if errors.Is(err, blob.ErrNotFound) {
			code = http.StatusNotFound
		}
		http.Error(w, "screenshot "+ref+": "+err.Error()+" (the viewer reads the blob store of the worker that drove the phone)", code)
		return
	}
	w.Header().Set("Content-Type", http.DetectContentType(data))
	// Content-addressed: a reference never changes its bytes.
	w.Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	_, _ = w.Write(data)
}

// pageData is what a goal's page is rendered from.
type pageData struct {
	Goal   Goal
	WebURL string
	// TakeOver says the page may offer taking over the phone; Ask is what
	// the goal waits for a person for now.
	TakeOver bool
	Ask      Ask
}

// keepAliveEvery is how often an idle event stream sends a comment, so
// proxies and browsers keep the connection.
const keepAliveEvery = 15 * time.Second

// stream serves the goal's events as Server-Sent Events
// (/goals/<id>/events?follow=1): every event so far, then each new one as
// it happens, until the goal ends. Each event's id is Event.ID; a client
// that reconnects with Last-Event-ID (or ?last_event_id=) gets only what
// came after it (docs/design.md §11).
func (o Options) stream(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "this server cannot stream: read /goals/<id>/events without follow", http.StatusInternalServerError)
		return
	}
	id := r.PathValue("id")
	after := r.Header.Get("Last-Event-ID")
	if after == "" {
		after = r.URL.Query().Get("last_event_id")
	}
	started, lastSent := false, time.Now()
	begin := func() {
		if !started {
			started = true
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-store")
			w.Header().Set("X-Accel-Buffering", "no")
			w.WriteHeader(http.StatusOK)
		}
	}
	st := FollowState{After: after, Idle: func() error {
		begin()
		if time.Since(lastSent) < keepAliveEvery {
			return nil
		}
		lastSent = time.Now()
		_, err := io.WriteString(w, ": keep-alive\n\n")
		fl.Flush()
		return err
	}}
	_, err := o.Reader.FollowFrom(r.Context(), id, 500*time.Millisecond, "", st, func(e Event) error {
		begin()
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		lastSent = time.Now()
		if _, err := fmt.Fprintf(w, "id: %s\ndata: %s\n\n", e.ID(), b); err != nil {
			return err
		}
		fl.Flush()
		return nil
	})
	switch {
	case err == nil && !started:
		// An ended goal with nothing after Last-Event-ID: an empty
		// stream, which a browser's EventSource takes as the end (any
		// other answer it takes as an error).
		begin()
	case err == nil || r.Context().Err() != nil:
	case !started && errors.Is(err, ErrNotFound):
		http.Error(w, err.Error(), http.StatusNotFound)
	case !started:
		o.Logger.Warn("step viewer: event stream", "goal", id, "error", err)
		http.Error(w, err.Error(), http.StatusBadGateway)
	default:
		o.Logger.Warn("step viewer: event stream ended", "goal", id, "error", err)
	}
	if started {
		fl.Flush()
	}
}
