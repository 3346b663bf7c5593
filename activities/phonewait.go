package activities

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/waits"
)

// NameCheckPhone is the activity a goal checks a wait for the phone with.
const NameCheckPhone = "CheckPhone"

// CheckPhoneInput asks whether what a goal waits for has happened on the
// phone (docs/design.md §7).
type CheckPhoneInput struct {
	Serial string          `json:"serial"`
	Wait   waits.PhoneWait `json:"wait"`
	// After: only what was posted after this phone-clock time counts; zero
	// on the first check, which only sets the baseline (Latest).
	After time.Time `json:"after,omitzero"`
	First bool      `json:"first,omitempty"`
}

// CheckPhoneResult is what a check found.
type CheckPhoneResult struct {
	Met bool `json:"met,omitempty"`
	// Value is what the wait hands to the next todo: the message's text,
	// or the code.
	Value    string `json:"value,omitempty"`
	From     string `json:"from,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// Latest is the newest post time the phone showed: the next check's
	// After.
	Latest time.Time `json:"latest,omitzero"`
}

// notificationLister is a device that lists its notifications.
type notificationLister interface {
	Notifications(ctx context.Context) ([]device.Notification, error)
}

// codeRe is a one-time code: 4 to 8 digits on their own.
var codeRe = regexp.MustCompile(`(?:^|[^\d])(\d{4,8})(?:[^\d]|$)`)

// CheckPhone reads the phone's notifications once, without touching the
// screen, the keyguard or any app, and calls no model: it is cheap enough
// to run on a backoff for hours, and needs no lease (docs/design.md §7).
// The first check of a message wait only sets the baseline: what already
// shows is not what the goal waits for. A code wait takes the newest code
// showing, since the todo before it is what asked for it.
func (a *Activities) CheckPhone(ctx context.Context, in CheckPhoneInput) (CheckPhoneResult, error) {
	d, err := a.device(ctx, in.Serial)
	if err != nil {
		return CheckPhoneResult{}, err
	}
	nl, ok := d.(notificationLister)
	if !ok {
		return CheckPhoneResult{}, deviceError("check the phone", fmt.Errorf("phone %s cannot list its notifications", in.Serial))
	}
	ns, err := nl.Notifications(ctx)
	if err != nil {
		return CheckPhoneResult{}, deviceError("check the phone", err)
	}
	res := CheckPhoneResult{Latest: in.After}
	for _, n := range ns {
		if n.Posted.After(res.Latest) {
			res.Latest = n.Posted
		}
	}
	code := in.Wait.Kind == waits.PhoneCode
	if in.First && !code {
		return res, nil
	}
	// Newest first. A code counts while its notification shows, even one
	// that came before the wait began: the todo before it (a sign-in) is
	// what sent it.
	slices.SortStableFunc(ns, func(a, b device.Notification) int { return b.Posted.Compare(a.Posted) })
	for _, n := range ns {
		if (!code && !n.Posted.After(in.After)) || !fromMatches(in.Wait.From, n.Title) {
			continue
		}
		value := n.Text
		if in.Wait.Kind == waits.PhoneCode {
			m := codeRe.FindStringSubmatch(n.Text)
			if m == nil {
				continue
			}
			value = m[1]
		}
		res.Met, res.Value, res.From = true, value, n.Title
		res.Evidence = fmt.Sprintf("notification from %s at %s (%s): %q", n.Title, n.Posted.Format("15:04:05"), n.Package, truncateText(n.Text, 200))
		return res, nil
	}
	return res, nil
}

// fromMatches reports whether a notification's title names the sender a
// wait is for: equal, or one containing the other, ignoring case ("Alice"
// matches "Alice Chen"); any sender when the wait names none.
func fromMatches(want, title string) bool {
	if want == "" {
		return true
	}
	w, t := strings.ToLower(strings.TrimSpace(want)), strings.ToLower(strings.TrimSpace(title))
	return t != "" && (w == t || strings.Contains(t, w) || strings.Contains(w, t))
}

func truncateText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
