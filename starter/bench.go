package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/phonesim"
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
	skin    string
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
repeats each measurement --runs times and writes, per measurement, a
markdown section with medians and min–max, the date, the commit, the
machine (CPUs, memory, Go version), the load average and the command:

  overhead    the showcase's todos as a plain loop over the activity code
              against TodoWorkflows, at 0 ms and 200 ms model latency
  history     events and bytes per executor step; image bytes in history
  scale       1, 10 and 50 phones with one goal each on one worker
  screenshot  bytes sent to the executor against the full PNG; worker CPU
  settle      settle waiting against a fixed 1 s delay, per 10 actions
  robustness  layered against single-loop mode at 20% and 50% wrong taps
  cost        model calls, tokens and wall time of the showcase goal
  phone-wait  what waiting for the phone costs; the lock check per step
  phone-costs seconds per step on phones with a real phone's costs
              (sim.costs phone) and without, settle waiting against the
              vendor client's fixed 1 s sleep

--report FILE updates FILE in place when it exists: each measurement run
replaces only its own section, between <!-- bench:NAME --> and
<!-- /bench:NAME -->, so --only overhead rewrites the overhead section and
nothing else. Everything outside those markers stays byte for byte: the
header, and the sections other commands measure (starter eval, the drills,
soaks, the cluster...), kept between <!-- kept: measured by <command> -->
and <!-- /kept -->. A measurement that fails leaves its old section as it
was. A FILE with none of these markers is refused before anything runs
(it was not written by bench, and merging could lose text): give a new
file name. Without FILE, or when FILE does not exist, the report is a new
file: a header, the measured sections and a line naming the measurements
other commands take. The file is written whole or not at all.

--quick runs once with 1 and 5 phones and one seed (a few minutes). Progress
goes to stderr, the report to stdout or --report FILE. --fleet N measures
goal throughput with N worker processes instead and prints its table to
stdout.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runBench(cmd, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.report, "report", "", "write the report to this file; an existing one gets only the measured sections replaced (<!-- bench:NAME --> markers), the rest kept (default: stdout)")
	fs.IntVar(&f.runs, "runs", 5, "repetitions of each measurement")
	fs.BoolVar(&f.quick, "quick", false, "one run, 1 and 5 phones, one seed: a short check that everything works")
	fs.StringVar(&f.only, "only", "", "run only one measurement: "+strings.Join(bench.Measurements, ", "))
	fs.StringVar(&f.adbPath, "adb", "", "the adb binary (default: adb on PATH)")
	fs.StringVar(&f.cpuProf, "cpuprofile", "", "write CPU profiles of the overhead measurement's paths to PREFIX-<latency>-<loop|temporal>-<run>.pprof (for go tool pprof)")
	fs.BoolVar(&f.file, "file-store", false, "keep the embedded Temporal server's store in a SQLite file, as `worker --dev` does (default: in memory)")
	fs.StringVar(&f.skin, "skin", "", "how the measured phones look: classic, pixel, miui or oneui (docs/phones.md#skins; default: sim.skin's default)")
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
		if f.report != "" {
			return usageError{errors.New("--report: --fleet prints its table to stdout and writes no report file; drop --report or --fleet")}
		}
		return runFleet(cmd, f, runs)
	}
	var skin phonesim.Skin
	if f.skin != "" {
		sk, err := phonesim.ParseSkin(f.skin)
		if err != nil {
			return usageError{fmt.Errorf("--skin: %w", err)}
		}
		skin = sk
	}
	opts := bench.Options{
		Skin: skin,
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
	existing, err := readReportFile(f.report)
	if err != nil {
		return err
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
	for _, e := range rep.Errors {
		fmt.Fprintln(cmd.ErrOrStderr(), "bench: not measured:", e)
	}
	if f.report == "" {
		if err := rep.Render(cmd.OutOrStdout()); err != nil {
			return fmt.Errorf("bench: write the report: %w", err)
		}
	} else {
		if err := writeReport(f.report, existing, rep); err != nil {
			return err
		}
		how := "written to"
		if existing != nil {
			how = "merged into"
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "bench: report %s %s\n", how, f.report)
	}
	if len(rep.Errors) > 0 {
		return exitError{exitFailure}
	}
	return nil
}

// readReportFile reads the report file a run will update, and refuses
// one it cannot merge into before anything is measured. It returns nil
// for no file or one that does not exist yet.
func readReportFile(path string) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("bench: read the report file: %w", err)
	}
	if err := bench.CheckReportFile(b); err != nil {
		return nil, usageError{fmt.Errorf("bench: --report %s: %w", path, err)}
	}
	return b, nil
}

// writeReport writes the report to path: merged into existing when the
// file was there, a new report otherwise. It writes a temporary file
// beside it and renames it, so an error leaves the old file whole.
func writeReport(path string, existing []byte, rep *bench.Report) error {
	var out bytes.Buffer
	if existing != nil {
		merged, err := rep.Merge(existing)
		if err != nil {
			return fmt.Errorf("bench: --report %s: %w", path, err)
		}
		out.Write(merged)
	} else if err := rep.Render(&out); err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("bench: write the report: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("bench: write the report: %w", err)
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
