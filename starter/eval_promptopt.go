package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/eval"
)

// runPromptOpt runs the prompt optimisation comparison for each seed and
// prints one table per seed.
func runPromptOpt(cmd *cobra.Command, f evalFlags) error {
	if f.armRuns < 1 {
		return fmt.Errorf("--arm-runs %d: give at least 1", f.armRuns)
	}
	if f.set != "" || f.fast {
		return errors.New("--set and --fast select goals of the fixed suite: drop them with --suite prompt-opt, or use --only TEMPLATE")
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := eval.StartStack(ctx, f.adbPath, log)
	if err != nil {
		if errors.Is(err, eval.ErrNoADB) {
			return fmt.Errorf("%w (or pass --adb PATH)", err)
		}
		return err
	}
	defer st.Stop()
	w := cmd.OutOrStdout()
	for r := range f.runs {
		o := eval.PromptOptOptions{Template: f.only, Runs: f.armRuns, Seed: f.seed + int64(r), WrongTaps: f.wrongTaps, Naive: f.naive,
			Progress: func(p string) { fmt.Fprintln(cmd.ErrOrStderr(), p) }}
		arms, err := eval.PromptOpt(ctx, st, o)
		if err != nil {
			return err
		}
		if r > 0 {
			fmt.Fprintln(w)
		}
		eval.WritePromptOpt(w, o, arms)
	}
	return nil
}
