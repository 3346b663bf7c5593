package bench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// fanOutPhones is how many phones the fan-out measurement runs one goal on.
const fanOutPhones = 20

// fanOutGoal is the goal the fan-out measurement runs on every phone.
const fanOutGoal = "Turn on Bluetooth"

// fanOut20 runs one goal on 20 simulated phones served by one worker, two
// ways, alternating: one fan-out (`starter run --on … --each --parallel
// 20`) and 20 goals started one after another with --device, all running
// at once (docs/design.md#phone-fleet). Each run resets the phones.
func (r *runner) fanOut20(ctx context.Context) ([]Table, error) {
	t := Table{
		Title: Headings[MeasureFanOut20],
		Note: fmt.Sprintf("%q on %d simulated phones served by one in-process worker, offline models at no latency, the phones reset before each run; "+
			"the fan-out is `FanOutWorkflow` over the %d serials with `Parallel` %d, the goals by hand %d `goalctl` starts with `--device` in a loop; "+
			"both run every goal at once, with the same options. Wall time is from the first start to the last goal's end; steps per phone are the goals' own "+
			"step counts; model calls are the model server's completions during the run. %d runs each, alternating.",
			fanOutGoal, fanOutPhones, fanOutPhones, fanOutPhones, fanOutPhones, r.o.Runs),
		Header: []string{"started as", "runs", "wall time s (median, min–max)", "steps per phone (median)", "model calls per run (median)", "wall time vs by hand"},
	}
	env, err := r.st.StartEnv(ctx, EnvOptions{Phones: fanOutPhones})
	if err != nil {
		return []Table{t}, err
	}
	defer env.Stop()
	g := r.st.st.Goals
	if err := waitPublished(ctx, g, env.Serials); err != nil {
		return []Table{t}, err
	}
	opts := workflows.GoalOptions{Resolved: true}
	var wall, steps, calls [2]Sample
	for run := range r.o.Runs {
		for way := range 2 {
			for _, p := range env.Phones {
				p.Reset()
			}
			c0 := env.Model.Stats().Completions
			began := time.Now()
			var st []int
			var err error
			if way == 0 {
				st, err = r.oneFanOut(ctx, g, env.Serials, opts)
			} else {
				st, err = r.goalsByHand(ctx, g, env.Serials, opts)
			}
			if err != nil {
				return []Table{t}, err
			}
			wall[way] = append(wall[way], time.Since(began).Seconds())
			calls[way] = append(calls[way], float64(env.Model.Stats().Completions-c0))
			for _, n := range st {
				steps[way] = append(steps[way], float64(n))
			}
			r.o.Progress(fmt.Sprintf("fanout-20 run %d (%s): %.1f s", run+1, []string{"fan-out", "by hand"}[way], wall[way][len(wall[way])-1]))
		}
	}
	for way, name := range []string{"one fan-out", fmt.Sprintf("%d goals by hand", fanOutPhones)} {
		ratio := "1"
		if way == 0 {
			ratio = fmt.Sprintf("%.2f", wall[0].Median()/wall[1].Median())
		}
		t.Rows = append(t.Rows, []string{name, fmt.Sprint(len(wall[way])), wall[way].Summary(1),
			fmt.Sprintf("%.0f", steps[way].Median()), fmt.Sprintf("%.0f", calls[way].Median()), ratio})
	}
	return []Table{t}, nil
}

// oneFanOut runs goal on serials as one fan-out and returns each phone's steps.
func (r *runner) oneFanOut(ctx context.Context, g *goalctl.Client, serials []string, opts workflows.GoalOptions) ([]int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	id, err := g.StartFanOut(ctx, r.id("fanout"), workflows.FanOutInput{Goal: fanOutGoal, Serials: serials, Options: opts, Parallel: len(serials)})
	if err != nil {
		return nil, err
	}
	st, err := g.FanOutResult(ctx, id)
	if err != nil {
		return nil, err
	}
	if st.Phase != workflows.PhoneDone || len(st.Phones) != len(serials) {
		return nil, fmt.Errorf("fan-out %s: %s", id, st.FailureSummary())
	}
	var steps []int
	for _, p := range st.Phones {
		steps = append(steps, p.Steps)
	}
	return steps, nil
}

// goalsByHand starts goal on each serial with --device, one start after
// another, then waits for them all, and returns each goal's steps.
func (r *runner) goalsByHand(ctx context.Context, g *goalctl.Client, serials []string, opts workflows.GoalOptions) ([]int, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	var ids []string
	for _, s := range serials {
		id, _, err := g.Start(ctx, goalctl.StartRequest{ID: r.id("hand"), Goal: fanOutGoal, Device: s, Options: opts})
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	steps := make([]int, len(ids))
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			res, err := g.Result(ctx, id)
			if err == nil && res.Status != workflows.GoalDone {
				err = fmt.Errorf("goal %s ended %s: %s", id, res.Status, res.Reason)
			}
			steps[i], errs[i] = res.Steps, err
		})
	}
	wg.Wait()
	return steps, errors.Join(errs...)
}

// waitPublished waits until the worker has published every phone of
// serials to the fleet, which a fan-out lists its phones from.
func waitPublished(ctx context.Context, g *goalctl.Client, serials []string) error {
	for deadline := time.Now().Add(2 * time.Minute); ; {
		phones, err := g.Fleet(ctx)
		known := map[string]bool{}
		for _, p := range phones {
			known[p.Serial] = true
		}
		missing := 0
		for _, s := range serials {
			if !known[s] {
				missing++
			}
		}
		if err == nil && missing == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the worker published %d of its %d phones to the fleet in 2 minutes (%v)", len(serials)-missing, len(serials), err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(300 * time.Millisecond):
		}
	}
}
