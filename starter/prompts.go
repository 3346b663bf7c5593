package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/promptmem"
)

func init() { rootCmd.AddCommand(newPromptsCmd()) }

func newPromptsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "prompts",
		Short: "List, show and roll back the executor guidance learned per todo type",
		Long: `prompts manages the executor guidance the worker learns in prompt memory
(prompt_memory_path; docs/design.md §2 Guards). Guidance is kept per todo
type: the todo text with its quoted text, numbers and names abstracted, as
routines key it ("send {1} a message saying {2}"). Every verified run counts
for the guidance version it used. After prompt_rewrite.failures failed runs
in a row, or prompt_rewrite.every runs of one version, the planner rewrites
the guidance from the recent runs; the new version is tried for
prompt_rewrite.trial_runs runs and rolled back when its success rate is
worse than the version before it. Version 1 is the base: no guidance.

The guidance in force rides in the executor's system prompt, after
"Advice for this kind of task:". A rollback here is durable: the worker
reads the file before every think, so the next todo of the type uses it.`,
		Example: `  starter prompts list
  starter prompts show "send {1} a message saying {2}"
  starter prompts show "send {1} a message saying {2}" v2
  starter prompts rollback "send {1} a message saying {2}" v1`,
	}
	cmd.AddCommand(newPromptsListCmd(), newPromptsShowCmd(), newPromptsRollbackCmd())
	return cmd
}

// openPrompts opens the configured prompt memory file.
func openPrompts(cmd *cobra.Command) (*promptmem.Memory, error) {
	cfg, _, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
	if err != nil {
		return nil, usageError{err}
	}
	return promptmem.Open(cfg.PromptMemoryPath)
}

// promptRow is one todo type as list prints it.
type promptRow struct {
	TodoType string             `json:"todo_type"`
	Guidance promptmem.Guidance `json:"guidance"`
}

func newPromptsListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List todo types with their guidance versions and success rates",
		Long: `list prints one line per todo type: the version in force (and whether it is
on trial), the number of versions, and the success rate of the version in
force and of all runs (verified done of runs counted). Then the goal task
types the planner names, with their run counts and success rates.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := openPrompts(cmd)
			if err != nil {
				return err
			}
			all, err := m.AllGuidance()
			if err != nil {
				return err
			}
			var rows []promptRow
			for k, g := range all {
				rows = append(rows, promptRow{k, g})
			}
			slices.SortFunc(rows, func(a, b promptRow) int { return strings.Compare(a.TodoType, b.TodoType) })
			if asJSON {
				return writeList(cmd.OutOrStdout(), true, rows, nil)
			}
			w := cmd.OutOrStdout()
			printPromptRows(w, m.Path(), rows)
			goals, err := m.All()
			if err != nil {
				return err
			}
			printGoalTypes(w, goals)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array of the todo types")
	config.BindFlags(cmd.Flags())
	return cmd
}

func printPromptRows(w io.Writer, path string, rows []promptRow) {
	if len(rows) == 0 {
		fmt.Fprintf(w, "no todo types in %s yet: every todo that ends with prompt_memory on records one\n", path)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TODO TYPE\tIN FORCE\tVERSIONS\tIN FORCE DONE\tALL DONE\tUPDATED")
	for _, r := range rows {
		cur := r.Guidance.Current()
		inForce := "v" + strconv.Itoa(cur.N)
		if cur.Status == promptmem.StatusTrial {
			inForce += " (trial)"
		}
		runs, done := 0, 0
		for _, v := range r.Guidance.Versions {
			runs, done = runs+v.Runs, done+v.Successes
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", r.TodoType, inForce, len(r.Guidance.Versions),
			rate(cur.Successes, cur.Runs), rate(done, runs), r.Guidance.Updated.UTC().Format(time.DateTime))
	}
	tw.Flush()
}

func printGoalTypes(w io.Writer, goals map[string]promptmem.Entry) {
	if len(goals) == 0 {
		return
	}
	keys := make([]string, 0, len(goals))
	for k := range goals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "GOAL TASK TYPE\tRUNS\tSUCCESS RATE")
	for _, k := range keys {
		e := goals[k]
		fmt.Fprintf(tw, "%s\t%d\t%.0f%%\n", k, e.Runs, 100*e.SuccessRate)
	}
	tw.Flush()
}

// rate is "done/runs (p%)", or "-" before any run.
func rate(done, runs int) string {
	if runs == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", done, runs, 100*float64(done)/float64(runs))
}

// parseVersion reads "v2" or "2".
func parseVersion(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v"))
	if err != nil || n < 1 {
		return 0, usageError{fmt.Errorf("version %q: give a version number such as v2 (see `starter prompts show TODO-TYPE`)", s)}
	}
	return n, nil
}

// guidanceOf reads a todo type's guidance, or says how to find one.
func guidanceOf(m *promptmem.Memory, todoType string) (promptmem.Guidance, error) {
	g, ok, err := m.Guidance(todoType)
	if err != nil {
		return g, err
	}
	if !ok {
		return g, notFoundError{fmt.Errorf("no todo type %q in %s: copy one from `starter prompts list` (quote it)", todoType, m.Path())}
	}
	return g, nil
}

func newPromptsShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show TODO-TYPE [VERSION]",
		Short: "Show a todo type's guidance versions, or one version's text",
		Long: `show prints every guidance version of a todo type: its status (kept, trial,
rolled back), the version it rewrote, why it was written or rolled back, its
runs and success rate, and its text; with VERSION (v2 or 2), only that one.
Then the recent runs the next rewrite will read.`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			m, err := openPrompts(cmd)
			if err != nil {
				return err
			}
			g, err := guidanceOf(m, args[0])
			if err != nil {
				return err
			}
			versions := g.Versions
			if len(args) == 2 {
				n, err := parseVersion(args[1])
				if err != nil {
					return err
				}
				v, ok := g.Version(n)
				if !ok {
					return notFoundError{fmt.Errorf("%w: v%d of %q (it has v1 to v%d)", promptmem.ErrNoVersion, n, args[0], len(g.Versions))}
				}
				versions = []promptmem.Version{v}
			}
			if asJSON {
				return writeList(cmd.OutOrStdout(), true, versions, nil)
			}
			printGuidance(cmd.OutOrStdout(), g, versions, len(args) == 1)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the versions as a JSON array")
	config.BindFlags(cmd.Flags())
	return cmd
}

func printGuidance(w io.Writer, g promptmem.Guidance, versions []promptmem.Version, recent bool) {
	for i, v := range versions {
		if i > 0 {
			fmt.Fprintln(w)
		}
		mark := ""
		if v.N == g.InForce {
			mark = ", in force"
		}
		fmt.Fprintf(w, "v%d (%s%s) runs %s, created %s\n", v.N, v.Status, mark, rate(v.Successes, v.Runs), v.Created.UTC().Format(time.DateTime))
		if v.Parent > 0 {
			fmt.Fprintf(w, "  rewrote v%d: %s\n", v.Parent, v.Why)
		} else if v.Why != "" {
			fmt.Fprintf(w, "  %s\n", v.Why)
		}
		if v.Text == "" {
			fmt.Fprintln(w, "  (no guidance: the executor's own system prompt only)")
		}
		for _, l := range strings.Split(v.Text, "\n") {
			if l != "" {
				fmt.Fprintf(w, "  | %s\n", l)
			}
		}
	}
	if !recent || len(g.Recent) == 0 {
		return
	}
	fmt.Fprintln(w, "\nrecent runs, oldest first:")
	for _, o := range g.Recent {
		verdict := "done"
		if !o.Success {
			verdict = "not done"
		}
		line := fmt.Sprintf("  v%d %s: %s", o.Version, verdict, o.Todo)
		if o.Reason != "" {
			line += " — " + o.Reason
		}
		fmt.Fprintln(w, line)
	}
}

func newPromptsRollbackCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollback TODO-TYPE VERSION",
		Short: "Put an earlier (or later) guidance version of a todo type in force",
		Long: `rollback puts VERSION (v1 or 1) of TODO-TYPE in force, in the prompt memory
file, at once: the next todo of the type uses it. A version on trial that is
left is marked rolled back; the version put in force is kept and is not on
trial. Rolling back to v1 leaves the executor with no guidance for the type.
Todos already running keep the version they started with.`,
		Example: `  starter prompts rollback "send {1} a message saying {2}" v1`,
		Args:    cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseVersion(args[1])
			if err != nil {
				return err
			}
			m, err := openPrompts(cmd)
			if err != nil {
				return err
			}
			if _, err := guidanceOf(m, args[0]); err != nil {
				return err
			}
			if err := m.Rollback(args[0], n); err != nil {
				if errors.Is(err, promptmem.ErrNoVersion) {
					return notFoundError{err}
				}
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "v%d of %q is in force (%s)\n", n, args[0], m.Path())
			return nil
		},
	}
	config.BindFlags(cmd.Flags())
	return cmd
}
