package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/internal/eval"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
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
	suite     string
	armRuns   int
	runs      int
	perTmpl   int
	faults    []string
	review    int
	skin      string
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
that mode outside eval.

--suite generated runs the generated task suite instead (internal/eval,
docs/design.md §9): task templates over every simulated app, each said in
several phrasings (terse, polite, Chinese, possessive, ordinal, existing items,
relative values, two clauses), with parameters drawn from --seed and a check
written from those parameters on the phone's state. Tasks the phone cannot do
must end failed or asked. Each task is classified as achieved, honest failure,
asked or FALSE DONE (done while the check fails), and any commit action (a
message sent, a note saved, an alarm created or switched) on a target the task
never named counts as a WRONG COMMIT. --runs N repeats it for seeds seed..seed+N-1.
--misread and --fault pass offline executor faults to the model server by name.

--suite prompt-opt measures prompt optimisation (docs/design.md §2 Guards):
--arm-runs tasks of one template (--only, default messages.send, in its first
phrasing, so one todo type) run one at a time on one phone, first with prompt
optimisation off, then on, each arm starting with no guidance and with
routines off; it prints goals achieved (per third of the runs), todo runs
verified done and the guidance versions the planner wrote. Use it with
--naive --wrong-taps 0.3 to see whether guidance teaches a weak executor.

Every run of each goal and of its todos is then replayed against this build's
workflow code, as a worker does after losing its cache; a run that does not
replay (nondeterministic code) is listed with the error.

Exit status: 0 when every goal is achieved (for the generated suite: no false
done, no wrong commit and every run replayed), 1 otherwise.`,
		Example: `  starter eval
  starter eval --mode both --fast
  starter eval --naive --wrong-taps 0.2 --mode all --seed 1
  starter eval --set my-goals.jsonl --only msg-comma,bt-on
  starter eval --suite generated --seed 1 --runs 3 --batch 8
  starter eval --suite generated --misread 0.2 --only messages.send,clock.create
  starter eval --suite prompt-opt --naive --wrong-taps 0.3 --runs 3`,
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
	fs.IntVar(&f.review, "review-every", -1, "the planner reviews a running todo every this many executor turns, 0 = off (default: limits.review_every's default)")
	fs.Float64Var(&f.misread, "misread", 0, "share of todos the executor misreads on purpose (another recipient or value, a clause dropped, the opposite of on/off), 0 to 1")
	fs.BoolVar(&f.naive, "naive", false, "the offline executor does not repair its own mistakes")
	fs.IntVar(&f.batch, "batch", 8, "goals run at once, each on its own phone")
	fs.StringVar(&f.adbPath, "adb", "", "adb binary (default: adb on PATH)")
	fs.StringVar(&f.suite, "suite", "fixed", "fixed (the goal set, see --set), generated (task templates drawn from --seed) or prompt-opt (one task type with prompt optimisation off and on)")
	fs.IntVar(&f.armRuns, "arm-runs", 30, "prompt-opt suite: tasks per arm")
	fs.IntVar(&f.runs, "runs", 1, "runs, each with the next seed (seed, seed+1, ...)")
	fs.IntVar(&f.perTmpl, "per-template", eval.DefaultPerTemplate, "generated suite: tasks drawn from each template per seed")
	fs.StringVar(&f.skin, "skin", string(phonesim.DefaultSkin), "fixed and generated suites: how the phones' apps look, pixel, miui, oneui or classic (docs/phones.md#skins)")
	fs.StringArrayVar(&f.faults, "fault", nil, "offline model fault NAME=RATE passed to the model server, repeatable (e.g. wrong-tap=0.2)")
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
	faults, err := parseFaults(f.faults, f.misread)
	if err != nil {
		return err
	}
	if f.runs < 1 {
		return fmt.Errorf("--runs %d: give at least 1", f.runs)
	}
	if _, err := phonesim.ParseSkin(f.skin); err != nil {
		return fmt.Errorf("--skin: %w", err)
	}
	if f.suite == "prompt-opt" {
		return runPromptOpt(cmd, f)
	}
	if f.suite == "generated" {
		return runSuite(cmd, f, modes, faults)
	}
	if f.suite != "fixed" {
		return fmt.Errorf("--suite %q: use fixed, generated or prompt-opt", f.suite)
	}
	cases := eval.Default()
	if f.set != "" {
		var err error
		if cases, err = eval.Load(f.set); err != nil {
			return err
		}
	}
	cases, err = selectCases(cases, f.only, f.fast)
	if err != nil {
		return err
	}
	sums, err := runEvalSeeds(cmd, f, modes, faults, func(int64) eval.Options { return eval.Options{Cases: cases} })
	if err != nil {
		return err
	}
	title := fmt.Sprintf("Evaluation: %d goals, seed %d, wrong taps %.0f%%", len(cases), f.seed, f.wrongTaps*100) + faultTitle(f, faults)
	if err := eval.Render(cmd.OutOrStdout(), title, sums...); err != nil {
		return err
	}
	if err := eval.RenderFailedSteps(cmd.OutOrStdout(), sums...); err != nil {
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

// runSuite runs the generated task suite for each seed and mode and prints
// its report.
func runSuite(cmd *cobra.Command, f evalFlags, modes []string, faults map[string]float64) error {
	if f.set != "" || f.fast {
		return errors.New("--set and --fast select goals of the fixed suite: drop them with --suite generated, or use --only TEMPLATE")
	}
	if f.perTmpl < 1 {
		return fmt.Errorf("--per-template %d: give at least 1", f.perTmpl)
	}
	if _, err := selectTasks(eval.Generate(f.seed, f.perTmpl), f.only); err != nil {
		return err
	}
	n := 0
	sums, err := runEvalSeeds(cmd, f, modes, faults, func(seed int64) eval.Options {
		tasks, _ := selectTasks(eval.Generate(seed, f.perTmpl), f.only)
		n = len(tasks)
		return eval.Options{Tasks: tasks}
	})
	if err != nil {
		return err
	}
	title := fmt.Sprintf("Generated task suite: %d tasks per seed (%d per template), seeds %d..%d, wrong taps %.0f%%",
		n, f.perTmpl, f.seed, f.seed+int64(f.runs)-1, f.wrongTaps*100) + faultTitle(f, faults)
	if err := eval.RenderSuite(cmd.OutOrStdout(), title, sums...); err != nil {
		return err
	}
	if err := eval.RenderFailedSteps(cmd.OutOrStdout(), sums...); err != nil {
		return err
	}
	for _, s := range sums {
		if s.FalseDone > 0 || s.WrongCommits > 0 || s.NotReplayed > 0 {
			return exitError{exitFailure}
		}
	}
	return nil
}

// runEvalSeeds starts the stack once and runs every mode for each seed;
// opts gives the seed's tasks.
func runEvalSeeds(cmd *cobra.Command, f evalFlags, modes []string, faults map[string]float64, opts func(seed int64) eval.Options) ([]eval.Summary, error) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := eval.StartStack(ctx, f.adbPath, log)
	if err != nil {
		if errors.Is(err, eval.ErrNoADB) {
			return nil, fmt.Errorf("%w (or pass --adb PATH)", err)
		}
		return nil, err
	}
	defer st.Stop()
	var sums []eval.Summary
	for r := range f.runs {
		seed := f.seed + int64(r)
		for _, m := range modes {
			o := opts(seed)
			o.Mode, o.Seed, o.WrongTaps, o.Naive, o.Batch, o.Faults = m, seed, f.wrongTaps, f.naive, f.batch, faults
			o.Skin, _ = phonesim.ParseSkin(f.skin) // checked by runEval
			if f.review >= 0 {
				o.ReviewEvery = &f.review
			}
			o.Progress = func(p string) { fmt.Fprintln(cmd.ErrOrStderr(), p) }
			s, err := eval.Run(ctx, st, o)
			if err != nil {
				return nil, err
			}
			sums = append(sums, s)
		}
	}
	return sums, nil
}

// parseFaults reads --fault NAME=RATE flags and --misread into the fault
// map eval.ApplyFaults takes; names are checked there, against the model
// server.
func parseFaults(flags []string, misread float64) (map[string]float64, error) {
	out := map[string]float64{}
	for _, fl := range flags {
		name, rate, ok := strings.Cut(fl, "=")
		v, err := strconv.ParseFloat(strings.TrimSpace(rate), 64)
		if !ok || strings.TrimSpace(name) == "" || err != nil {
			return nil, fmt.Errorf("--fault %q: write NAME=RATE, e.g. --fault misread=0.2 (known: %s)", fl, strings.Join(eval.FaultNames(), ", "))
		}
		out[strings.TrimSpace(name)] = v
	}
	if misread != 0 {
		out["misread"] = misread
	}
	return out, eval.ApplyFaults(&modelserver.Config{}, out)
}

func faultTitle(f evalFlags, faults map[string]float64) string {
	var s string
	if f.naive {
		s += ", naive executor"
	}
	names := make([]string, 0, len(faults))
	for n := range faults {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s += fmt.Sprintf(", %s %.0f%%", n, faults[n]*100)
	}
	return s
}

// selectTasks keeps the tasks whose id or template is named in only
// (comma-separated); empty keeps all.
func selectTasks(tasks []eval.Task, only string) ([]eval.Task, error) {
	want := map[string]bool{}
	for _, id := range strings.Split(only, ",") {
		if id = strings.TrimSpace(id); id != "" {
			want[id] = true
		}
	}
	if len(want) == 0 {
		return tasks, nil
	}
	var out []eval.Task
	found := map[string]bool{}
	for _, t := range tasks {
		if want[t.ID] || want[t.Template] {
			out = append(out, t)
			found[t.ID], found[t.Template] = true, true
		}
	}
	var missing []string
	for id := range want {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		return nil, fmt.Errorf("--only names neither a template nor a task of the generated suite: %s", strings.Join(missing, ", "))
	}
	return out, nil
}
