package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/routine"
)

func init() { rootCmd.AddCommand(newRoutinesCmd()) }

func newRoutinesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "routines",
		Short: "List, show and delete the learned routines of this host's phones",
		Long: `routines manages the routines the worker learned from todos verified done
(docs/design.md §8). A routine is kept per task (the todo text with its
quoted text, numbers and names abstracted), app in front at the start, and
phone model and resolution; it lives in <data_dir>/routines on the host whose
worker drives the phone. A later todo of the same task on the same kind of
phone replays it without the executor model while the screens match.`,
		Example: `  starter routines list
  starter routines show r-28c8dc46de5b --device 127.0.0.1:5555
  starter routines delete r-28c8dc46de5b`,
	}
	cmd.AddCommand(newRoutinesListCmd(), newRoutinesShowCmd(), newRoutinesDeleteCmd())
	return cmd
}

// openRoutines opens the routine store of the configured data directory.
func openRoutines(cmd *cobra.Command) (*routine.Store, config.Config, error) {
	cfg, _, err := config.Load(config.LoadOptions{Flags: cmd.Flags()})
	if err != nil {
		return nil, cfg, usageError{err}
	}
	s, err := app.OpenRoutines(cmd.Context(), cfg, nil)
	return s, cfg, err
}

func newRoutinesListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the learned routines",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, _, err := openRoutines(cmd)
			if err != nil {
				return err
			}
			rs, lerr := s.List()
			if err := writeList(cmd.OutOrStdout(), asJSON, rs, func(w io.Writer, rs []routine.Routine) { printRoutines(w, s.Dir(), rs) }); err != nil {
				return err
			}
			return lerr
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	config.BindFlags(cmd.Flags())
	return cmd
}

func printRoutines(w io.Writer, dir string, rs []routine.Routine) {
	if len(rs) == 0 {
		fmt.Fprintf(w, "no routines in %s yet: a todo that ends verified done records one\n", dir)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTASK\tSTART APP\tPHONE\tSTEPS\tSUCCESSES\tRUNS\tFAILING\tUPDATED")
	for _, r := range rs {
		task := r.Key.Template
		if r.Version < routine.Version {
			task += " (first version: not replayed, learned again on its next verified run)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s %s\t%d\t%d\t%d\t%d\t%s\n", r.ID, task, r.Key.App, r.Key.Model,
			r.Key.Resolution(), len(r.Steps), r.Successes, r.Runs, r.Failures, r.Updated.UTC().Format(time.DateTime))
	}
	tw.Flush()
}

// phoneOf reads a phone's model and resolution through the ADB server.
var phoneOf = func(ctx context.Context, cfg config.Config, serial string) (string, int, int, error) {
	devs, err := listDevices(ctx, cfg)
	if err != nil {
		return "", 0, 0, err
	}
	model := ""
	found := false
	for _, d := range devs {
		if d.Serial == serial {
			model, found = d.Model, true
		}
	}
	if !found {
		return "", 0, 0, notFoundError{fmt.Errorf("no phone %s on the ADB server at %s (see `starter devices`)", serial, cfg.ADB.Address)}
	}
	d, err := device.NewPool(app.ADBClient(cfg, app.Deps{}), device.PoolOptions{}).Get(ctx, serial)
	if err != nil {
		return "", 0, 0, err
	}
	w, h, err := d.ScreenSize(ctx)
	return model, w, h, err
}

func newRoutinesShowCmd() *cobra.Command {
	var asJSON bool
	var serial string
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show a routine's key, counts and steps",
		Long: `show prints a routine: its task template, the phone it was recorded on, its
counts and each step (the screen fingerprint it expects and the action, with
placeholders {1}, {2}… for the todo's parameters). With --device SERIAL it
also says whether that phone can use it: a routine recorded on another model or
resolution is never replayed there.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, cfg, err := openRoutines(cmd)
			if err != nil {
				return err
			}
			r, err := s.Get(args[0])
			if err != nil {
				if errors.Is(err, routine.ErrNotFound) {
					return notFoundError{err}
				}
				return err
			}
			fit := ""
			if serial != "" {
				model, w, h, err := phoneOf(cmd.Context(), cfg, serial)
				if err != nil {
					return err
				}
				fit = routineFits(r, serial, model, w, h)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				v := struct {
					routine.Routine
					Device string `json:"device_check,omitempty"`
				}{r, fit}
				return enc.Encode(v)
			}
			printRoutine(out, r)
			if fit != "" {
				fmt.Fprintln(out, fit)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the routine as JSON")
	cmd.Flags().StringVar(&serial, "device", "", "say whether this phone (serial) can use the routine")
	config.BindFlags(cmd.Flags())
	return cmd
}

// routineFits says whether a phone can use a routine.
func routineFits(r routine.Routine, serial, model string, w, h int) string {
	k := r.Key
	if k.Model == model && k.Width == w && k.Height == h {
		return fmt.Sprintf("%s (%s %dx%d) can use this routine", serial, model, w, h)
	}
	var diff []string
	if k.Model != model {
		diff = append(diff, fmt.Sprintf("model %s, recorded on %s", model, k.Model))
	}
	if k.Width != w || k.Height != h {
		diff = append(diff, fmt.Sprintf("resolution %dx%d, recorded on %s", w, h, k.Resolution()))
	}
	return fmt.Sprintf("%s cannot use this routine: %s. Its todos run with the model and learn a routine of their own.", serial, strings.Join(diff, "; "))
}

func printRoutine(w io.Writer, r routine.Routine) {
	fmt.Fprintf(w, "routine %s\n", r.ID)
	fmt.Fprintf(w, "  task:       %s\n", r.Key.Template)
	fmt.Fprintf(w, "  example:    %s\n", r.Example)
	fmt.Fprintf(w, "  start app:  %s\n", r.Key.App)
	fmt.Fprintf(w, "  phone:      %s %s (used only on this model and resolution)\n", r.Key.Model, r.Key.Resolution())
	fmt.Fprintf(w, "  counts:     %d successes in %d runs, %d failures in a row (dropped at %d)\n", r.Successes, r.Runs, r.Failures, routine.MaxFailures)
	if r.LastFailure != "" {
		fmt.Fprintf(w, "  last failure: %s\n", r.LastFailure)
	}
	fmt.Fprintf(w, "  updated:    %s\n", r.Updated.UTC().Format(time.RFC3339))
	fmt.Fprintf(w, "  steps:\n")
	for i, s := range r.Steps {
		a := s.Action
		act, _ := json.Marshal(a)
		line := fmt.Sprintf("  %2d. %s", i+1, act)
		if s.Target != nil {
			line += fmt.Sprintf(" on the %s labelled %q", s.Target.Class, s.Target.Label)
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "      expects %s\n", routine.Describe(s.Screen))
		if s.Model != "" {
			fmt.Fprintf(w, "      left to the model: %s\n", s.Model)
		}
	}
}

func newRoutinesDeleteCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "delete ID",
		Short: "Delete a routine (its todos run with the model and learn it again)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, _, err := openRoutines(cmd)
			if err != nil {
				return err
			}
			if err := s.Delete(args[0]); err != nil {
				if errors.Is(err, routine.ErrNotFound) {
					return notFoundError{err}
				}
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "deleted routine %s\n", args[0])
			return nil
		},
	}
	config.BindFlags(cmd.Flags())
	return cmd
}
