package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// eventsHelp is the --events flag's help.
const eventsHelp = "print one JSON object per line for each event (plan, todo_started, step, question, answer, …, done/failed) instead of the live view"

// followEvents prints the goal's events as JSON lines until it ends (the
// schema is in docs/observability.md): from the live stream of the goal's step viewer
// when its address is known, else (or when the stream cannot be read) by
// reading the goal's history every half second. It returns exitError{1}
// unless the goal is done.
func followEvents(ctx context.Context, gc *goalCmd, id, viewerURL string, out io.Writer) error {
	enc := json.NewEncoder(out)
	emit := func(e viewer.Event) error { return enc.Encode(e) }
	var st viewer.FollowState
	if viewerURL != "" {
		status, seen, err := streamEvents(ctx, http.DefaultClient, viewerURL, func(e viewer.Event) error {
			e.ViewerURL = stepLink(viewerURL, e)
			return emit(e)
		})
		switch {
		case err == nil && status == workflows.GoalDone:
			return nil
		case err == nil:
			return exitError{exitFailure}
		case ctx.Err() != nil:
			return cliErr(ctx.Err())
		}
		fmt.Fprintf(os.Stderr, "the live event stream failed (%v); reading the goal's history instead\n", err)
		st.Seen = seen
	}
	dc, err := app.DataConverter(gc.cfg)
	if err != nil {
		return usageError{err}
	}
	r := &viewer.Reader{Client: gc.c, DataConverter: dc}
	g, err := r.FollowFrom(ctx, id, 500*time.Millisecond, viewerURL, st, emit)
	if err != nil {
		return cliErr(err)
	}
	if g.Status != workflows.GoalDone {
		return exitError{exitFailure}
	}
	return nil
}

// stepLink is the viewer link of a step event, as polling sets it.
func stepLink(viewerURL string, e viewer.Event) string {
	if e.Type != "step" {
		return ""
	}
	return viewerURL + "#" + viewer.StepAnchor(e.WorkflowID, e.Step)
}

// viewerURL is where the step viewer of goal id is: the link the goal's
// worker gives in its status, else the viewer of a worker on this host
// (metrics.address), else "".
func viewerURL(gc *goalCmd, id string, fromStatus string) string {
	if fromStatus != "" {
		return fromStatus
	}
	if base := app.ViewerBase(gc.cfg); base != "" {
		return viewer.URL(base, id)
	}
	return ""
}

// askViewerURL asks a just-started goal for its viewer link: the goal's
// worker knows where its viewer is. It gives up after a few seconds (no
// worker yet) and returns "".
func askViewerURL(ctx context.Context, gc *goalCmd, id string) string {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	for {
		if st, err := gc.goals.Status(ctx, id); err == nil {
			return st.ViewerURL
		}
		select {
		case <-ctx.Done():
			return ""
		case <-time.After(200 * time.Millisecond):
		}
	}
}
