package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// Kind says whether repeating a failed request can help.
type Kind int

const (
	// Retryable failures may succeed later: rate limits, server errors,
	// timeouts, dropped connections, empty answers.
	Retryable Kind = iota + 1
	// Permanent failures repeat until the configuration or request changes:
	// bad key, unknown model, prompt too long, malformed request.
	Permanent
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case Retryable:
		return "retryable"
	case Permanent:
		return "permanent"
	}
	return "unknown"
}

// Error is a failed model request. Msg says what happened and what to fix;
// it never contains the API key.
type Error struct {
	Kind       Kind
	Status     int           // HTTP status, 0 when no response arrived
	RetryAfter time.Duration // wait the server asked for (429/503), 0 if none
	Endpoint   string        // chat completions URL, without credentials
	Msg        string
	err        error // underlying cause, for errors.Is/As
}

// Error formats the failure as "llm: <endpoint>: <message>".
func (e *Error) Error() string {
	return fmt.Sprintf("llm: %s: %s", e.Endpoint, e.Msg)
}

// Unwrap returns the underlying cause (for example context.DeadlineExceeded).
func (e *Error) Unwrap() error { return e.err }

// IsRetryable reports whether err is an *Error a retry may cure.
func IsRetryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == Retryable
}

// RetryAfter returns the wait the server asked for, or 0.
func RetryAfter(err error) time.Duration {
	var e *Error
	if errors.As(err, &e) {
		return e.RetryAfter
	}
	return 0
}

// redactor removes a secret from text that came from the server or the
// transport before it is put into an error.
type redactor string

func (r redactor) clean(s string) string {
	k := string(r)
	if len(k) < 4 {
		return s
	}
	s = strings.ReplaceAll(s, k, "(redacted)")
	// Providers echo a prefix of a wrong key ("Incorrect API key provided:
	// sk-abc1****"): drop any long prefix of it as well.
	for n := len(k) - 1; n >= 8; n-- {
		if strings.Contains(s, k[:n]) {
			s = strings.ReplaceAll(s, k[:n], "(redacted)")
		}
	}
	return s
}

// contextTooLong reports whether a provider message says the prompt does not fit.
func contextTooLong(msg string) bool {
	m := strings.ToLower(msg)
	for _, s := range []string{"context length", "context_length", "maximum context", "context window",
		"too many tokens", "prompt is too long", "input is too long", "exceeds the model"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// classify turns any failure of a request into an *Error. parent is the
// caller's context: when it is done the caller gave up, which is reported
// as the context error rather than as a model failure.
func (c *Client) classify(parent context.Context, err error) error {
	if err == nil {
		return nil
	}
	var already *Error
	if errors.As(err, &already) {
		return err
	}
	e := &Error{Kind: Retryable, Endpoint: c.cfg.Endpoint(), err: err}
	red := redactor(c.cfg.APIKey)

	var apiErr *openai.Error
	var streamErr *ssestream.StreamError
	var netErr net.Error
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case parent.Err() != nil:
		return fmt.Errorf("llm: %s: request abandoned: %w", e.Endpoint, parent.Err())
	case errors.As(err, &apiErr):
		e.Status = apiErr.StatusCode
		detail := red.clean(apiErr.Message)
		if detail == "" && apiErr.Response != nil {
			detail = http.StatusText(apiErr.StatusCode)
		}
		var h http.Header
		if apiErr.Response != nil {
			h = apiErr.Response.Header
		}
		c.classifyStatus(e, detail, h)
	case errors.As(err, &streamErr):
		detail := red.clean(streamErr.Message)
		if contextTooLong(detail) {
			e.Kind = Permanent
			e.Msg = fmt.Sprintf("prompt too long for model %q (%s): shorten the request (drop the UI element list, lower max pixels) or use a model with a larger context", c.cfg.Model, detail)
		} else {
			e.Msg = fmt.Sprintf("the server reported an error mid-stream: %s", detail)
		}
	case errors.Is(err, context.DeadlineExceeded):
		e.Msg = fmt.Sprintf("no complete answer within %v: the model is slow or overloaded; raise the timeout or retry", c.cfg.Timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Msg = "connection refused: is the model server running and is the base URL right?"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF),
		errors.Is(err, syscall.EPIPE):
		e.Msg = "connection dropped before the answer was complete: the server or a proxy closed it; retry"
	case isDNSNotFound(err):
		e.Kind = Permanent
		e.Msg = "host not found: check the base URL"
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Msg = "network timeout: the model server did not answer in time; retry or raise the timeout"
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		e.Msg = "the server answered malformed JSON: check that the base URL points at an OpenAI-compatible API (it usually ends in /v1)"
	case strings.Contains(strings.ToLower(err.Error()), "content-type"):
		// A 200 answer that is not JSON: the base URL points at a web page.
		e.Kind = Permanent
		e.Msg = "the server did not answer with JSON: check that the base URL points at an OpenAI-compatible API (it usually ends in /v1)"
	default:
		e.Msg = "request failed: " + red.clean(err.Error())
	}
	return e
}

func isDNSNotFound(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns) && dns.IsNotFound
}

// classifyStatus fills Kind, RetryAfter and Msg from an HTTP error status.
func (c *Client) classifyStatus(e *Error, detail string, h http.Header) {
	s := e.Status
	suffix := ""
	if detail != "" {
		suffix = ": " + detail
	}
	switch {
	case s == http.StatusTooManyRequests:
		e.RetryAfter = parseRetryAfter(h, time.Now())
		wait := "retry later"
		if e.RetryAfter > 0 {
			wait = fmt.Sprintf("retry after %v", e.RetryAfter)
		}
		e.Msg = fmt.Sprintf("429 rate limited%s: %s, or lower the request rate", suffix, wait)
	case s == http.StatusRequestTimeout || s == http.StatusConflict:
		e.Msg = fmt.Sprintf("%d %s%s: retry", s, http.StatusText(s), suffix)
	case s >= 500:
		e.RetryAfter = parseRetryAfter(h, time.Now())
		e.Msg = fmt.Sprintf("%d server error%s: the model server failed; retry, and check its logs if it persists", s, suffix)
	case contextTooLong(detail):
		e.Kind = Permanent
		e.Msg = fmt.Sprintf("%d prompt too long for model %q%s: shorten the request (drop the UI element list, lower max pixels) or use a model with a larger context", s, c.cfg.Model, suffix)
	case s == http.StatusUnauthorized:
		e.Kind = Permanent
		where := c.cfg.KeySetting
		if where == "" {
			where = "the API key configured for this endpoint"
		}
		e.Msg = fmt.Sprintf("401 unauthorized%s: check %s", suffix, where)
	case s == http.StatusForbidden:
		e.Kind = Permanent
		e.Msg = fmt.Sprintf("403 forbidden%s: check that the API key may use model %q", suffix, c.cfg.Model)
	case s == http.StatusNotFound:
		e.Kind = Permanent
		e.Msg = fmt.Sprintf("404 not found%s: check the model name %q and the base URL (it usually ends in /v1)", suffix, c.cfg.Model)
	case s == http.StatusBadRequest || s == http.StatusUnprocessableEntity:
		e.Kind = Permanent
		e.Msg = fmt.Sprintf("%d bad request%s: check the request settings (model %q must accept images for the executor; max tokens, temperature, top_p)", s, suffix, c.cfg.Model)
	default:
		e.Kind = Permanent
		e.Msg = fmt.Sprintf("%d %s%s", s, http.StatusText(s), suffix)
	}
}

// parseRetryAfter reads retry-after-ms (milliseconds) or Retry-After
// (seconds or an HTTP date) from h; 0 when absent, unreadable or a day or
// more away (a bogus value should not park a workflow).
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 24*3600*1000 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs > 0 && secs < 24*3600 {
			return time.Duration(secs * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 && d < 24*time.Hour {
			return d.Round(time.Second)
		}
	}
	return 0
}
