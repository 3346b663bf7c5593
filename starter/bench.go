package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/bench"
)

func init() { rootCmd.AddCommand(newBenchCmd()) }

type benchFlags struct {
	report  string
	runs    int
	quick   bool
	only    string
	fleet   int
	adbPath string
	cpuProf string
	file    bool
}

func newBenchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure phoneflow on this machine and write a markdown report",
		Long: `bench runs phoneflow's benchmark suite in this one process: the embedded
Temporal server (in memory, or in a SQLite file with --file-store, as
worker --dev keeps it), the offline model server, simulated phones behind
a private adb server (the adb binary must be installed) and a worker. It
repeats each measurement --runs times and writes a markdown report with the
machine's CPUs, memory, Go version, load average and, per measurement, medians
with min–max:

  overhead    the showcase's todos as a plain loop over the activity code
              against TodoWorkflows, at 0 ms and 200 ms model latency
  history     events and bytes per executor step; image bytes in history
  scale       1, 10 and 50 phones with one goal each on one worker
  screenshot  bytes sent to the executor against the full PNG; capture time
  settle      settle waiting against a fixed 1 s delay, per 10 actions
  robustness  layered against single-loop mode at 20% wrong taps

--quick runs once with 1 and 5 phones and one seed (a few minutes). Progress
goes to stderr, the report to stdout or --report FILE.`,
		Example: `  starter bench --report BENCHMARKS.md
  starter bench --quick
  starter bench --only overhead --runs 3`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.report, "report", "", "write the markdown report to this file (default: stdout)")
	fs.IntVar(&f.runs, "runs", 5, "repetitions of each measurement")
	fs.BoolVar(&f.quick, "quick", false, "one run, 1 and 5 phones, one seed: a short check that everything works")
	fs.StringVar(&f.only, "only", "", "run only one measurement: "+strings.Join(bench.Measurements, ", "))
	fs.StringVar(&f.adbPath, "adb", "", "the adb binary (default: adb on PATH)")
	fs.StringVar(&f.cpuProf, "cpuprofile", "", "write CPU profiles of the overhead measurement's paths to PREFIX-<latency>-<loop|temporal>-<run>.pprof (for go tool pprof)")
	fs.BoolVar(&f.file, "file-store", false, "keep the embedded Temporal server's store in a SQLite file, as `worker --dev` does (default: in memory)")
	fs.IntVar(&f.fleet, "fleet", 0, "instead of the suite: goal throughput with N worker processes, each a phone host with its own ADB server and one phone (2 goals per phone, --runs repetitions)")
	return cmd
}

func runBench(cmd *cobra.Command, f benchFlags) error {
	if f.runs < 1 {
		return usageError{fmt.Errorf("--runs %d: give 1 or more", f.runs)}
	}
	runs := f.runs
	if f.quick && !cmd.Flags().Changed("runs") {
		runs = 1
	}
	if cmd.Flags().Changed("fleet") {
		return runFleet(cmd, f, runs)
	}
	opts := bench.Options{
		Runs: runs, Quick: f.quick, Only: f.only, ADBPath: f.adbPath, CPUProfile: f.cpuProf, FileStore: f.file,
		Command: benchCommand(f, runs, cmd.Flags().Changed("runs")),
		Logger:  slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelError})),
		Progress: func(s string) {
			fmt.Fprintln(cmd.ErrOrStderr(), "bench:", s)
		},
	}
	if err := opts.Validate(); err != nil {
		return usageError{err}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := bench.Run(ctx, opts)
	if err != nil {
		if errors.Is(err, bench.ErrNoADB) {
			return err
		}
		return fmt.Errorf("bench: %w", err)
	}
	out := cmd.OutOrStdout()
	if f.report != "" {
		file, err := os.Create(f.report)
		if err != nil {
			return fmt.Errorf("bench: create the report file: %w", err)
		}
		defer file.Close()
		out = file
	}
	if err := rep.Render(out); err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
	}
	if f.report != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "bench: report written to %s\n", f.report)
	}
	if len(rep.Errors) > 0 {
		return exitError{exitFailure}
	}
	return nil
}

// benchCommand is the command line that reproduces this run.
func benchCommand(f benchFlags, runs int, runsSet bool) string {
	parts := []string{"go run ./starter bench"}
	if f.quick {
		parts = append(parts, "--quick")
	}
	if runsSet || (!f.quick && runs != 5) {
		parts = append(parts, fmt.Sprintf("--runs %d", runs))
	}
	if f.only != "" {
		parts = append(parts, "--only "+f.only)
	}
	if f.file {
		parts = append(parts, "--file-store")
	}
	if f.report != "" {
		parts = append(parts, "--report "+f.report)
	}
	return strings.Join(parts, " ")
}

// runFleet measures goal throughput with --fleet worker processes.
func runFleet(cmd *cobra.Command, f benchFlags, runs int) error {
	if f.fleet < 1 {
		return usageError{fmt.Errorf("--fleet %d: give 1 or more worker processes", f.fleet)}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := bench.Fleet(ctx, bench.FleetOptions{
		Workers: f.fleet, Runs: runs,
		Logger:   slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelError})),
		Progress: func(s string) { fmt.Fprintln(cmd.ErrOrStderr(), "bench:", s) },
	})
	if err != nil {
		return fmt.Errorf("bench: %w", err)
	}
	return res.Render(cmd.OutOrStdout())
}
