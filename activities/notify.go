package activities

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

	"go.temporal.io/sdk/temporal"
)

// NameNotify is the webhook activity (docs/design.md §7).
const NameNotify = "Notify"

// Notification kinds.
const (
	NotifyQuestion = "question" // a goal waits for an answer
	NotifyApproval = "approval" // a goal waits for an approval
	NotifyFailed   = "failed"   // a goal ended failed
	NotifyWaiting  = "waiting"  // a goal waits for something on the phone
)

// NotifyInput is what a goal tells people through the webhook. Links are
// added by the worker that sends it, from its own configuration.
type NotifyInput struct {
	Kind   string `json:"kind"`
	GoalID string `json:"goal_id"`
	Goal   string `json:"goal"`
	Device string `json:"device"`
	// Text is the question, the action to approve, or the failure reason.
	Text string `json:"text"`
	Todo int    `json:"todo,omitempty"`
	// Deadline is when a question or an approval stops waiting.
	Deadline time.Time `json:"deadline,omitzero"`
	// Schedule is the schedule that started the goal, if any.
	Schedule string `json:"schedule,omitempty"`
}

// Notification is the JSON body POSTed to notify.url.
type Notification struct {
	NotifyInput
	WebUI  string    `json:"web_ui,omitempty"`
	Viewer string    `json:"viewer,omitempty"`
	SentAt time.Time `json:"sent_at"`
}

// ErrTypeNotifyPermanent is a webhook that refused the notification for
// good (a 4xx other than 408 and 429): retrying would not help.
const ErrTypeNotifyPermanent = "NotifyPermanent"

// Notifier posts notifications to a webhook. Its zero URL sends nothing.
type Notifier struct {
	URL string
	// WebUI returns the Temporal Web UI page of a goal; nil or "" = none.
	WebUI func(goalID string) string
	// Viewer returns the step viewer page of a goal; nil or "" = none.
	Viewer func(goalID string) string
	// Client defaults to one with a 10 s timeout.
	Client *http.Client
	Now    func() time.Time
}

// Notify POSTs in as JSON. A network error, a timeout, a 5xx, 408 or 429
// is returned for Temporal to retry; any other 4xx fails for good with the
// status in the message. With no URL configured it does nothing.
func (n *Notifier) Notify(ctx context.Context, in NotifyInput) error {
	if n == nil || n.URL == "" {
		return nil
	}
	body := Notification{NotifyInput: in, SentAt: time.Now().UTC()}
	if n.Now != nil {
		body.SentAt = n.Now().UTC()
	}
	if n.WebUI != nil {
		body.WebUI = n.WebUI(in.GoalID)
	}
	if n.Viewer != nil {
		body.Viewer = n.Viewer(in.GoalID)
	}
	data, err := json.Marshal(body)
	if err != nil {
		return temporal.NewNonRetryableApplicationError("encode notification: "+err.Error(), ErrTypeNotifyPermanent, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.URL, bytes.NewReader(data))
	if err != nil {
		return temporal.NewNonRetryableApplicationError(fmt.Sprintf("notify.url %s: %v", redactURL(n.URL), err), ErrTypeNotifyPermanent, nil)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "phoneflow-notify")
	c := n.Client
	if c == nil {
		c = &http.Client{Timeout: 10 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		// The URL may carry a token: never put it in history.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return fmt.Errorf("notify webhook %s: %v", redactURL(n.URL), err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	switch code := resp.StatusCode; {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusRequestTimeout || code == http.StatusTooManyRequests || code >= 500:
		return fmt.Errorf("notify webhook %s answered %s", redactURL(n.URL), resp.Status)
	default:
		return temporal.NewNonRetryableApplicationError(
			fmt.Sprintf("notify webhook %s answered %s: check notify.url", redactURL(n.URL), resp.Status), ErrTypeNotifyPermanent, nil)
	}
}

// redactURL keeps the scheme, host and path of a webhook URL: its query
// and user info may hold a token.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}
