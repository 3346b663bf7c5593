package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
	"sync"
)

// onceActivityErrors is the demo terminal's log handler: the SDK logs
// every failed attempt of an activity ("Activity error." with its IDs),
// and a goal for a phone nobody serves tries again every few seconds for
// as long as the demo is kept up. Its first failure of a kind is one
// plain line saying which goal, what failed and why; the same failure of
// the same goal again is not shown. Everything else goes to next.
type onceActivityErrors struct {
	next  slog.Handler
	out   io.Writer
	attrs []slog.Attr
	state *onceState
}

type onceState struct {
	mu   sync.Mutex
	seen map[string]bool
}

// maxSeen bounds what the handler remembers; past it, failures are shown
// again rather than memory grown.
const maxSeen = 4096

func newOnceActivityErrors(out io.Writer, next slog.Handler) *onceActivityErrors {
	return &onceActivityErrors{next: next, out: out, state: &onceState{seen: map[string]bool{}}}
}

func (h *onceActivityErrors) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h *onceActivityErrors) Handle(ctx context.Context, r slog.Record) error {
	if r.Message != "Activity error." {
		return h.next.Handle(ctx, r)
	}
	a := map[string]string{}
	for _, at := range h.attrs {
		a[at.Key] = at.Value.String()
	}
	r.Attrs(func(at slog.Attr) bool {
		a[at.Key] = at.Value.String()
		return true
	})
	goal, activity, msg := a["WorkflowID"], a["ActivityType"], a["Error"]
	if goal == "" || msg == "" {
		return h.next.Handle(ctx, r)
	}
	key := goal + "\x00" + activity + "\x00" + msg
	h.state.mu.Lock()
	if h.state.seen[key] {
		h.state.mu.Unlock()
		return nil
	}
	if len(h.state.seen) >= maxSeen {
		clear(h.state.seen)
	}
	h.state.seen[key] = true
	h.state.mu.Unlock()
	_, err := fmt.Fprintf(h.out, "goal %s: %s failed — %s (shown once; the goal keeps trying until it is cancelled)\n",
		goal, activity, sdkErrTypeRe.ReplaceAllString(strings.TrimSpace(msg), ""))
	return err
}

func (h *onceActivityErrors) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.next = h.next.WithAttrs(as)
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), as...)
	return &c
}

func (h *onceActivityErrors) WithGroup(name string) slog.Handler {
	c := *h
	c.next = h.next.WithGroup(name)
	return &c
}

// sdkErrTypeRe is the error type the SDK appends to an application
// error's message, which says nothing to the person.
var sdkErrTypeRe = regexp.MustCompile(`\s*\(type: [^()]*, retryable: (?:true|false)\)$`)
