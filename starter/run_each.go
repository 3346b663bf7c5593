package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// fanOutPoll is how often a followed fan-out is asked how far it got.
const fanOutPoll = time.Second

// runFanOut starts goal on every phone --on matches (docs/design.md#phone-fleet).
func runFanOut(cmd *cobra.Command, f runFlags, goal string) error {
	on, err := onSelector(f)
	if err != nil {
		return usageError{err}
	}
	if on == nil {
		return usageError{errors.New("--each needs --on: say which phones, e.g. --on label=shop")}
	}
	if on.Planner {
		return usageError{errors.New("--each with --on planner: a fan-out runs on every phone of a kind, the planner chooses one; say which phones, e.g. --on label=shop")}
	}
	if f.parallel < 1 {
		return usageError{fmt.Errorf("--parallel %d: run at least one goal at once", f.parallel)}
	}
	gc, opts, err := openRun(cmd, f, goal)
	if err != nil {
		return err
	}
	defer gc.close()
	in := workflows.FanOutInput{Goal: goal, On: *on, Options: opts, Parallel: f.parallel}
	id, err := gc.goals.StartFanOut(cmd.Context(), f.id, in)
	if err != nil {
		return err
	}
	return followFanOut(cmd, gc, f, id, in)
}

// retryFanOut reruns the phones of fan-out --retry-failed that did not end done.
func retryFanOut(cmd *cobra.Command, f runFlags) error {
	gc, err := openGoals(cmd, f.ui)
	if err != nil {
		return err
	}
	defer gc.close()
	parallel := 0
	if cmd.Flags().Changed("parallel") {
		parallel = f.parallel
	}
	id, in, err := gc.goals.RetryFailed(cmd.Context(), f.retryFailed, parallel)
	if err != nil {
		return cliErr(err)
	}
	return followFanOut(cmd, gc, f, id, in)
}

func followFanOut(cmd *cobra.Command, gc *goalCmd, f runFlags, id string, in workflows.FanOutInput) error {
	out := cmd.OutOrStdout()
	what := "each " + in.On.Kind()
	if len(in.Serials) > 0 {
		what = fmt.Sprintf("the %d phones of %s not done", len(in.Serials), in.RetryOf)
		if len(in.Serials) == 1 {
			what = "the 1 phone of " + in.RetryOf + " not done"
		}
	}
	fmt.Fprintf(out, "started fan-out %s: %q on %s, %d at once\n", id, in.Goal, what, max(in.Parallel, 1))
	if u := gc.goals.WebURL(id); u != "" {
		fmt.Fprintf(out, "Web UI: %s\n", u)
	}
	if f.detach {
		fmt.Fprintf(out, "follow it with `%s`\n", starterCmd(gc.cfg, "status "+id))
		return nil
	}
	st, err := watchFanOut(cmd.Context(), gc.goals, id, out)
	if err != nil {
		return cliErr(err)
	}
	gc.goals.WriteFanOut(cmd.Context(), out, id, st, false)
	if st.Phase != workflows.PhoneDone {
		return exitError{exitFailure}
	}
	return nil
}

// watchFanOut prints a line for each phone whose goal starts or ends
// until the fan-out ends, and returns its summary.
func watchFanOut(ctx context.Context, goals *goalctl.Client, id string, out io.Writer) (workflows.FanOutStatus, error) {
	seen := map[string]string{}
	show := func(st workflows.FanOutStatus) {
		for _, p := range st.Phones {
			if seen[p.Serial] == p.Status || p.Status == workflows.PhonePending {
				continue
			}
			seen[p.Serial] = p.Status
			line := p.String()
			if p.Status == workflows.PhoneRunning {
				line += " (goal " + p.GoalID + ")"
			}
			fmt.Fprintln(out, line)
		}
	}
	for fails := 0; ; {
		st, ended, err := goals.FanOut(ctx, id)
		switch {
		case err == nil:
			fails = 0
			show(st)
			if ended {
				return st, nil
			}
		case ctx.Err() != nil:
			return st, err
		default:
			// A query the server did not answer is asked again; five in
			// a row are the fan-out's (or the cluster's) trouble.
			if fails++; fails >= 5 {
				return st, err
			}
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(fanOutPoll):
		}
	}
}

// fanOutStatus is `starter status` of a fan-out: each phone's outcome, the
// question a running goal waits on, the counts; -f follows it to its end.
func fanOutStatus(cmd *cobra.Command, gc *goalCmd, id string, asJSON, followLive bool) error {
	ctx, out := cmd.Context(), cmd.OutOrStdout()
	st, ended, err := gc.goals.FanOut(ctx, id)
	if err != nil {
		return cliErr(err)
	}
	if followLive && !ended {
		if st, err = watchFanOut(ctx, gc.goals, id, out); err != nil {
			return cliErr(err)
		}
		ended = true
	}
	if asJSON {
		return writeJSON(out, st)
	}
	gc.goals.WriteFanOut(ctx, out, id, st, !ended)
	if followLive && st.Phase != workflows.PhoneDone {
		return exitError{exitFailure}
	}
	return nil
}
