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
	r := &viewer.Reader{Client: gc.c, DataConverter: dc, HideReasoning: !gc.cfg.Viewer.ShowReasoning}
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

// askViewerURL asks a goal for its viewer link: the worker that runs (or,
// for an ended goal, replays) it knows where its viewer is. It gives up
// after wait; answered is false when no worker answered.
func askViewerURL(ctx context.Context, gc *goalCmd, id string, wait time.Duration) (link string, answered bool) {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	for {
		if st, err := gc.goals.Status(ctx, id); err == nil {
			return st.ViewerURL, true
		}
		select {
		case <-ctx.Done():
			return "", false
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// viewerLine is the "Step viewer:" line of a goal: the link its worker
// gave, or why there is none. The viewer is the one of the worker that
// serves the goal's phone, wherever that runs, so no address of this host
// is guessed.
func viewerLine(link string, answered bool) string {
	switch {
	case link != "":
		return "Step viewer: " + link
	case answered:
		return "Step viewer: none (the worker running this goal serves no viewer: its metrics.address is empty)"
	}
	return "Step viewer: not known yet: no worker answered for this goal (the viewer is the one of the worker that serves its phone; status names it once a worker runs the goal)"
}
