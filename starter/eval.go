package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/eval"
	"github.com/phoneflow/phoneflow/workflows"
)

func init() { rootCmd.AddCommand(newEvalCmd()) }

type evalFlags struct {
	set       string
	mode      string
	only      string
	fast      bool
	seed      int64
	wrongTaps float64
	misread   float64
	naive     bool
	batch     int
	adbPath   string
}

func newEvalCmd() *cobra.Command {
	var f evalFlags
	cmd := &cobra.Command{
		Use:   "eval",
		Short: "Run a goal set on fresh simulated phones and score the outcomes",
		Long: `eval runs a goal set in this one process: the embedded Temporal server (in
memory), the offline model server, one fresh simulated phone per goal behind a
private adb server (the adb binary must be installed) and a worker. Each goal's
end is checked against the simulator's state (or the goal's answer) and its
expected status, and a table is printed:

  achieved      ended as expected and the check holds
  false done    ended done, but impossible or the phone does not show it
  false failed  ended failed although the phone could do it
  steps         counted steps (docs/design.md §2), total and mean per goal
  model calls   planner, executor and verifier requests answered

The set is a JSONL file, one goal per line (id, goal, lang, app, expect, check;
see internal/eval/goals.jsonl, the shipped set used when --set is not given).
--wrong-taps moves that share of the executor's taps to a wrong point; --misread
makes the executor misread that share of todos (another recipient or value, a
clause dropped, the opposite of on/off); --naive
makes the offline executor a weaker model that does not repair its own
mistakes. --mode bare runs the single loop with the stuck guard and the finish
verification off (the plain loop of other phone agents, whose done is the
executor's word), to measure what those guards add; goals cannot be started in
that mode outside eval. Exit status: 0 when every goal is achieved, 1 otherwise.`,
		Example: `  starter eval
  starter eval --mode both --fast
  starter eval --naive --wrong-taps 0.2 --mode all --seed 1
  starter eval --set my-goals.jsonl --only msg-comma,bt-on`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runEval(cmd, f) },
	}
	fs := cmd.Flags()
	fs.StringVar(&f.set, "set", "", "JSONL goal set (default: the shipped set)")
	fs.StringVar(&f.mode, "mode", workflows.ModeLayered, "layered, single, bare (single without the stuck guard and verification), both (layered and single) or all three")
	fs.StringVar(&f.only, "only", "", "comma-separated goal ids to run")
	fs.BoolVar(&f.fast, "fast", false, "run only the goals marked fast (the CI subset)")
	fs.Int64Var(&f.seed, "seed", 1, "model server seed (faults and wrong-tap points)")
	fs.Float64Var(&f.wrongTaps, "wrong-taps", 0, "share of executor taps moved to a wrong point, 0 to 1")
	fs.Float64Var(&f.misread, "misread", 0, "share of todos the executor misreads on purpose (another recipient or value, a clause dropped, the opposite of on/off), 0 to 1")
	fs.BoolVar(&f.naive, "naive", false, "the offline executor does not repair its own mistakes")
	fs.IntVar(&f.batch, "batch", 8, "goals run at once, each on its own phone")
	fs.StringVar(&f.adbPath, "adb", "", "adb binary (default: adb on PATH)")
	return cmd
}

func runEval(cmd *cobra.Command, f evalFlags) error {
	var modes []string
	switch f.mode {
	case workflows.ModeLayered, workflows.ModeSingle, workflows.ModeBare:
		modes = []string{f.mode}
	case "both":
		modes = []string{workflows.ModeLayered, workflows.ModeSingle}
	case "all":
		modes = []string{workflows.ModeLayered, workflows.ModeSingle, workflows.ModeBare}
	default:
		return fmt.Errorf("--mode %q: use layered, single, bare, both or all", f.mode)
	}
	if f.wrongTaps < 0 || f.wrongTaps > 1 {
		return fmt.Errorf("--wrong-taps %v: give a share between 0 and 1, e.g. 0.2", f.wrongTaps)
	}
	if f.misread < 0 || f.misread > 1 {
		return fmt.Errorf("--misread %v: give a share between 0 and 1, e.g. 0.2", f.misread)
	}
	cases := eval.Default()
	if f.set != "" {
		var err error
		if cases, err = eval.Load(f.set); err != nil {
			return err
		}
	}
	cases, err := selectCases(cases, f.only, f.fast)
	if err != nil {
		return err
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
	var sums []eval.Summary
	for _, m := range modes {
		s, err := eval.Run(ctx, st, eval.Options{Cases: cases, Mode: m, Seed: f.seed, WrongTaps: f.wrongTaps, Misread: f.misread, Naive: f.naive, Batch: f.batch,
			Progress: func(p string) { fmt.Fprintln(cmd.ErrOrStderr(), p) }})
		if err != nil {
			return err
		}
		sums = append(sums, s)
	}
	title := fmt.Sprintf("Evaluation: %d goals, seed %d, wrong taps %.0f%%", len(cases), f.seed, f.wrongTaps*100)
	if f.misread > 0 {
		title += fmt.Sprintf(", misread %.0f%%", f.misread*100)
	}
	if f.naive {
		title += ", naive executor"
	}
	if err := eval.Render(cmd.OutOrStdout(), title, sums...); err != nil {
		return err
	}
	for _, s := range sums {
		if s.Achieved < s.Goals {
			return exitError{exitFailure}
		}
	}
	return nil
}

// selectCases keeps the cases named in only (comma-separated ids) and, with
// fast, those marked fast.
func selectCases(cases []eval.Case, only string, fast bool) ([]eval.Case, error) {
	want := map[string]bool{}
	for _, id := range strings.Split(only, ",") {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	var out []eval.Case
	found := map[string]bool{}
	for _, c := range cases {
		found[c.ID] = true
		if (len(want) == 0 || want[c.ID]) && (!fast || c.Fast) {
			out = append(out, c)
		}
	}
	var ids []string
	for id := range want {
		if !found[id] {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	if len(ids) > 0 {
		return nil, fmt.Errorf("--only names goals not in the set: %s", strings.Join(ids, ", "))
	}
	if len(out) == 0 {
		return nil, errors.New("no goals selected: check --only and --fast")
	}
	return out, nil
}
