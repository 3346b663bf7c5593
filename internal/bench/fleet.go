package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/workflows"
)

// FleetOptions shape a fleet throughput measurement.
type FleetOptions struct {
	// Workers is the number of worker processes, each a phone host with
	// its own built-in ADB server and one simulated phone.
	Workers int
	// GoalsPerPhone goals run on each phone, one after another (the
	// phone's lease); 0 means 2.
	GoalsPerPhone int
	// Runs is the number of repetitions; 0 means 3.
	Runs int
	// Logger gets the stack's logs; nil discards them.
	Logger *slog.Logger
	// Progress, when set, gets one line per run.
	Progress func(string)
}

// FleetResult is the goal throughput of Workers worker processes.
type FleetResult struct {
	Workers, Goals int
	// Seconds is the wall time from starting every goal until the last
	// ended, per run; GoalsPerMinute the throughput per run.
	Seconds, GoalsPerMinute Sample
}

// Fleet measures goal throughput with o.Workers worker processes on one
// embedded server: every run starts GoalsPerPhone message goals on each
// phone at once and waits for all of them.
func Fleet(ctx context.Context, o FleetOptions) (FleetResult, error) {
	if o.Workers < 1 {
		return FleetResult{}, fmt.Errorf("--fleet %d: give 1 or more worker processes", o.Workers)
	}
	if o.GoalsPerPhone <= 0 {
		o.GoalsPerPhone = 2
	}
	if o.Runs <= 0 {
		o.Runs = 3
	}
	st, err := stack.Start(ctx, stack.Options{Phones: -1, ADB: stack.BuiltinADB, Logger: o.Logger})
	if err != nil {
		return FleetResult{}, err
	}
	defer st.Stop()
	dir, err := os.MkdirTemp("", "phoneflow-fleet-")
	if err != nil {
		return FleetResult{}, err
	}
	defer os.RemoveAll(dir)
	bin, err := stack.BuildWorker(ctx, dir)
	if err != nil {
		return FleetResult{}, err
	}
	var serials []string
	for i := range o.Workers {
		h, err := st.AddHost(ctx, 1)
		if err != nil {
			return FleetResult{}, err
		}
		hdir, err := os.MkdirTemp(dir, fmt.Sprintf("host-%d-", i))
		if err != nil {
			return FleetResult{}, err
		}
		w, err := stack.NewProcess(bin, hdir, h.Config)
		if err != nil {
			return FleetResult{}, err
		}
		if err := w.Start(); err != nil {
			return FleetResult{}, err
		}
		defer func() { _ = w.Stop() }()
		serials = append(serials, h.Serials...)
	}
	if err := waitPolled(ctx, st, serials); err != nil {
		return FleetResult{}, err
	}
	res := FleetResult{Workers: o.Workers, Goals: o.Workers * o.GoalsPerPhone}
	for run := range o.Runs {
		secs, err := fleetRun(ctx, st.Goals, serials, o.GoalsPerPhone, run)
		if err != nil {
			return res, err
		}
		res.Seconds = append(res.Seconds, secs)
		res.GoalsPerMinute = append(res.GoalsPerMinute, float64(res.Goals)*60/secs)
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("fleet of %d: run %d: %d goals in %.1f s", o.Workers, run+1, res.Goals, secs))
		}
	}
	return res, nil
}

// fleetRun starts every goal at once and returns the seconds until the
// last one ended; a goal that does not end done is an error.
func fleetRun(ctx context.Context, g *goalctl.Client, serials []string, perPhone, run int) (float64, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	began := time.Now()
	var ids []string
	for _, serial := range serials {
		for k := range perPhone {
			id, _, err := g.Start(ctx, goalctl.StartRequest{
				Goal:   fmt.Sprintf("Send %q to Alice Chen in Messages", fmt.Sprintf("fleet run %d goal %d", run, k)),
				Device: serial,
			})
			if err != nil {
				return 0, err
			}
			ids = append(ids, id)
		}
	}
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			res, err := g.Result(ctx, id)
			if err == nil && res.Status != workflows.GoalDone {
				err = fmt.Errorf("goal %s ended %s: %s", id, res.Status, res.Reason)
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(errs) > 0 {
		return 0, errors.Join(errs...)
	}
	return time.Since(began).Seconds(), nil
}

// Render writes the result as a markdown table row with its header.
func (r FleetResult) Render(w io.Writer) error {
	_, err := fmt.Fprintf(w, "| worker processes | goals per run | runs | seconds per run (median, min–max) | goals per minute (median, min–max) |\n"+
		"|---|---|---|---|---|\n| %d | %d | %d | %s | %s |\n",
		r.Workers, r.Goals, len(r.Seconds), r.Seconds.Summary(1), r.GoalsPerMinute.Summary(1))
	return err
}

// waitPolled waits until a worker polls every phone's task queue.
func waitPolled(ctx context.Context, st *stack.Stack, serials []string) error {
	deadline := time.Now().Add(3 * time.Minute)
	for _, serial := range serials {
		for {
			resp, err := st.Client.DescribeTaskQueue(ctx, workflows.DeviceTaskQueue(serial), enumspb.TASK_QUEUE_TYPE_WORKFLOW)
			if err == nil && len(resp.GetPollers()) > 0 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("no worker polls the queue of phone %s after 3 minutes", serial)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(200 * time.Millisecond):
			}
		}
	}
	return nil
}
