package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// Webhook POSTs each event as JSON (an Event) to URL, with the token as a
// bearer token. As a Gate (Blocking) it POSTs the before_action event and
// reads a Verdict from the answer: {"allow": false, "reason": "…"} vetoes
// the action; an empty 2xx answer allows it.
type Webhook struct {
	URL   string
	Token string
	// Client defaults to http.DefaultClient; the Set's timeout bounds
	// each call.
	Client *http.Client
}

var (
	_ Hook = (*Webhook)(nil)
	_ Gate = (*Webhook)(nil)
)

// Handle POSTs ev. A network error or a status other than 2xx is
// returned; a 5xx, 408 or 429 is tried again once after a short pause
// within the caller's deadline.
func (w *Webhook) Handle(ctx context.Context, ev Event) error {
	_, err := w.post(ctx, ev)
	return err
}

// Allow POSTs ev and reads the verdict from the answer.
func (w *Webhook) Allow(ctx context.Context, ev Event) (Verdict, error) {
	body, err := w.post(ctx, ev)
	if err != nil {
		return Verdict{}, err
	}
	v := Verdict{Allow: true}
	if len(bytes.TrimSpace(body)) == 0 {
		return v, nil
	}
	if err := json.Unmarshal(body, &v); err != nil {
		return Verdict{}, fmt.Errorf("hooks webhook %s: answer to before_action is not {\"allow\": bool, \"reason\": string}: %v", redact(w.URL), err)
	}
	return v, nil
}

func (w *Webhook) post(ctx context.Context, ev Event) ([]byte, error) {
	data, err := json.Marshal(ev)
	if err != nil {
		return nil, err
	}
	c := w.Client
	if c == nil {
		c = http.DefaultClient
	}
	for try := 1; ; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.URL, bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("hooks.url %s: %v", redact(w.URL), err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "phoneflow-hooks")
		req.Header.Set("Idempotency-Key", ev.ID)
		if w.Token != "" {
			req.Header.Set("Authorization", "Bearer "+w.Token)
		}
		resp, err := c.Do(req)
		if err != nil {
			// The URL may carry a token: the error names it redacted.
			var uerr *url.Error
			if errors.As(err, &uerr) {
				err = uerr.Err
			}
			return nil, fmt.Errorf("hooks webhook %s: %w", redact(w.URL), err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		code := resp.StatusCode
		if code >= 200 && code < 300 {
			return body, nil
		}
		err = fmt.Errorf("hooks webhook %s answered %s", redact(w.URL), resp.Status)
		if try >= 2 || !(code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// redact keeps the scheme, host and path of a URL: its query and user
// info may hold a token.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
