package codec

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"go.temporal.io/sdk/converter"
)

// MaxRequestBytes bounds a codec request body. Temporal rejects payloads
// over 2 MB, and the UI sends a handful at a time as base64 JSON.
const MaxRequestBytes = 16 << 20

// Options configures the codec HTTP endpoint.
type Options struct {
	// Token is the Bearer token callers must present
	// ("Authorization: Bearer <token>"). Required unless
	// AllowUnauthenticated is set.
	Token string
	// AllowOrigins lists the browser origins (scheme://host:port) of the
	// Temporal Web UI allowed to call the endpoint, e.g.
	// "http://127.0.0.1:8233". "*" allows any origin.
	AllowOrigins []string
	// AllowUnauthenticated serves requests without a token. Only for an
	// endpoint bound to loopback on a single-user machine.
	AllowUnauthenticated bool
	// TokenInPath also accepts the token as the last path segment before
	// /encode or /decode, for the Web UI, which cannot add headers of its
	// own: set its codec endpoint to http://host:port/<prefix>/<token>
	// (path-escaped when the token holds "/" or other reserved characters).
	// The token then shows in the browser's settings and any access log
	// of a proxy in front; prefer Bearer where the client can send it.
	TokenInPath bool
	// Logger receives one line per rejected request; nil means slog.Default.
	Logger *slog.Logger
}

// NewHTTPHandler serves POST <prefix>/encode and POST <prefix>/decode in
// the format of the Temporal Web UI's codec endpoint, encrypting and
// decrypting with keys. Browser preflight (OPTIONS) requests get CORS
// headers for allowed origins; every other request must carry the token.
func NewHTTPHandler(keys Keys, opts Options) (http.Handler, error) {
	c, err := New(keys)
	if err != nil {
		return nil, err
	}
	if opts.Token == "" && !opts.AllowUnauthenticated {
		return nil, errors.New("codec: the codec endpoint needs a Bearer token: set one in the config (anyone who can call it can read every payload)")
	}
	for _, o := range opts.AllowOrigins {
		if o != "*" && !strings.Contains(o, "://") {
			return nil, fmt.Errorf("codec: allowed origin %q must look like scheme://host[:port] or be \"*\"", o)
		}
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	return &handler{inner: converter.NewPayloadCodecHTTPHandler(c), opts: opts, log: log}, nil
}

type handler struct {
	inner http.Handler
	opts  Options
	log   *slog.Logger
}

func (h *handler) originAllowed(origin string) bool {
	return slices.Contains(h.opts.AllowOrigins, "*") || slices.Contains(h.opts.AllowOrigins, strings.TrimSuffix(origin, "/"))
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin != "" {
		if !h.originAllowed(origin) {
			h.log.Warn("codec endpoint: origin not allowed", "origin", origin, "op", op(r))
			http.Error(w, "origin not allowed: add it to the codec endpoint's allowed origins", http.StatusForbidden)
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Set("Access-Control-Allow-Credentials", "true")
		hd.Add("Vary", "Origin")
	}
	if r.Method == http.MethodOptions {
		// Preflight carries no credentials; it only learns what the real
		// request may send.
		hd := w.Header()
		hd.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		hd.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Namespace")
		hd.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !h.authorized(r) {
		h.log.Warn("codec endpoint: unauthorized request", "op", op(r), "remote", r.RemoteAddr)
		w.Header().Set("WWW-Authenticate", `Bearer realm="phoneflow codec"`)
		http.Error(w, "unauthorized: send Authorization: Bearer <codec token>", http.StatusUnauthorized)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
	h.inner.ServeHTTP(w, r)
}

func (h *handler) authorized(r *http.Request) bool {
	if h.opts.Token == "" {
		return h.opts.AllowUnauthenticated
	}
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if ok && strings.EqualFold(scheme, "Bearer") && h.tokenMatches(strings.TrimSpace(tok)) {
		return true
	}
	if h.opts.TokenInPath {
		// The escaped path keeps a token holding "/" in one segment.
		p := r.URL.EscapedPath()
		for _, suffix := range []string{"/encode", "/decode"} {
			if rest, ok := strings.CutSuffix(p, suffix); ok {
				seg, err := url.PathUnescape(rest[strings.LastIndexByte(rest, '/')+1:])
				return err == nil && h.tokenMatches(seg)
			}
		}
	}
	return false
}

func (h *handler) tokenMatches(tok string) bool {
	return subtle.ConstantTimeCompare([]byte(tok), []byte(h.opts.Token)) == 1
}

// op names the requested operation for logs; paths are never logged, as
// they may carry the token.
func op(r *http.Request) string {
	switch {
	case r.Method == http.MethodOptions:
		return "preflight"
	case strings.HasSuffix(r.URL.Path, "/encode"):
		return "encode"
	case strings.HasSuffix(r.URL.Path, "/decode"):
		return "decode"
	}
	return "other"
}
