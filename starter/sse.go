package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/phoneflow/phoneflow/internal/viewer"
)

// streamEvents reads the live event stream of the step viewer at
// viewerURL (Server-Sent Events, docs/design.md §11) and calls emit with
// each event, reconnecting with Last-Event-ID when the stream drops before
// the goal's last event. It returns the goal's final status, or an error
// with the IDs of the events it got, so a caller can fall back to polling
// without repeating them.
func streamEvents(ctx context.Context, hc *http.Client, viewerURL string, emit func(viewer.Event) error) (status string, seen map[string]bool, err error) {
	u, err := url.Parse(viewerURL)
	if err != nil {
		return "", nil, err
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/events"
	q := u.Query()
	q.Set("follow", "1")
	u.RawQuery = q.Encode()
	seen = map[string]bool{}
	last := ""
	for try := 0; try < 4; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return "", seen, err
		}
		req.Header.Set("Accept", "text/event-stream")
		if last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := hc.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return "", seen, ctx.Err()
			}
			continue
		}
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			return "", seen, fmt.Errorf("event stream %s: %s: %s", u.Redacted(), resp.Status, strings.TrimSpace(string(b)))
		}
		status, err := readStream(resp.Body, func(id string, e viewer.Event) error {
			last, seen[id] = id, true
			return emit(e)
		})
		resp.Body.Close()
		if status != "" || err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return status, seen, err
		}
		if ctx.Err() != nil {
			return "", seen, ctx.Err()
		}
	}
	return "", seen, errors.New("the event stream kept dropping before the goal ended")
}

// readStream reads one Server-Sent Events response. It returns the goal's
// final status once its last event (done, failed, cancelled) is read, or
// io.ErrUnexpectedEOF when the stream ended before it.
func readStream(r io.Reader, emit func(id string, e viewer.Event) error) (string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 4<<20)
	var id, data string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data == "" {
				continue
			}
			var e viewer.Event
			if err := json.Unmarshal([]byte(data), &e); err != nil {
				return "", fmt.Errorf("event stream: an event is not JSON: %w", err)
			}
			if id == "" {
				id = e.ID()
			}
			if err := emit(id, e); err != nil {
				return "", err
			}
			id, data = "", ""
			switch e.Type {
			case "done", "failed", "cancelled":
				return e.Type, nil
			}
		case strings.HasPrefix(line, ":"): // a comment: keep-alive
		case strings.HasPrefix(line, "id:"):
			id = strings.TrimSpace(strings.TrimPrefix(line, "id:"))
		case strings.HasPrefix(line, "data:"):
			data += strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " ")
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("event stream: %w: %w", io.ErrUnexpectedEOF, err)
	}
	return "", io.ErrUnexpectedEOF
}
