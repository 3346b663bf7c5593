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
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

func init() {
	rootCmd.AddCommand(newStatusCmd(), newTodosCmd(), newListCmd(), newCancelCmd())
}

func oneID(verb string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		switch len(args) {
		case 1:
			return nil
		case 0:
			return usageError{fmt.Errorf("%s needs the goal ID (list goals with `starter list`)", verb)}
		}
		return usageError{fmt.Errorf("%s takes one goal ID; got %d arguments", verb, len(args))}
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeList prints list as a JSON array (never null) or with print.
func writeList[T any](w io.Writer, asJSON bool, list []T, print func(io.Writer, []T)) error {
	if asJSON {
		if list == nil {
			list = []T{}
		}
		return writeJSON(w, list)
	}
	print(w, list)
	return nil
}

// statusReport is the `status --json` object.
type statusReport struct {
	ID        string                `json:"workflow_id"`
	Execution string                `json:"execution"`
	Goal      string                `json:"goal,omitempty"`
	Device    string                `json:"device,omitempty"`
	WebURL    string                `json:"web_url,omitempty"`
	ViewerURL string                `json:"viewer_url,omitempty"`
	Status    *workflows.Status     `json:"status,omitempty"`
	Todos     []workflows.TodoState `json:"todos,omitempty"`
	Result    *workflows.GoalResult `json:"result,omitempty"`
	Error     string                `json:"error,omitempty"`
	// Usage is every model call so far, the running todo's included;
	// EstimatedCost is set when the config has model prices.
	Usage         llm.RoleUsage `json:"usage"`
	EstimatedCost *float64      `json:"estimated_cost,omitempty"`

	live   *progress.Snapshot // the view with the running todo's live counters
	prices goalctl.Prices
	conn   progress.Conn // the flags printed commands need
	// viewerAnswered: a worker answered the goal's query (ViewerURL is
	// its viewer, "" when it serves none).
	viewerAnswered bool
}

// prices are the configured model prices.
func prices(cfg config.Config) goalctl.Prices {
	conv := func(p config.Price) llm.Price { return llm.Price{Input: p.Input, Cached: p.Cached, Output: p.Output} }
	return goalctl.Prices{Planner: conv(cfg.Planner.Price), Executor: conv(cfg.Executor.Price)}
}

// withUsage sets the report's usage and cost estimate.
func (r *statusReport) withUsage(u llm.RoleUsage, p goalctl.Prices) {
	r.Usage, r.prices = u, p
	if c, ok := p.Estimate(u); ok {
		r.EstimatedCost = &c
	}
}

func newStatusCmd() *cobra.Command {
	var asJSON, followLive, events bool
	var ui string
	cmd := &cobra.Command{
		Use:   "status ID",
		Short: "Show a goal's phase, steps, todos and what it waits for",
		Long: `status shows goal ID: its phase, step counter, todo checklist, the latest
executor action and any question or approval it is waiting for, with the
commands that answer it. For a goal that has ended it shows the result.
--follow shows the live view until the goal ends, as ` + "`run`" + ` does (exit status
0 when it is done, 1 otherwise). A goal that does not exist is exit status 3.`,
		Example: `  starter status goal-1a2b3c4d
  starter status -f goal-1a2b3c4d
  starter status goal-1a2b3c4d --json | jq .status.phase`,
		Args: oneID("status"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if events && !followLive {
				return usageError{errors.New("--events needs --follow (-f): it prints the events as the goal runs")}
			}
			gc, err := openGoals(cmd, ui)
			if err != nil {
				return err
			}
			defer gc.close()
			if goalctl.IsFanOutID(args[0]) {
				return fanOutStatus(cmd, gc, args[0], asJSON, followLive)
			}
			if events {
				asked, _ := askViewerURL(cmd.Context(), gc, args[0], 5*time.Second)
				return followEvents(cmd.Context(), gc, args[0], viewerURL(gc, args[0], asked), cmd.OutOrStdout())
			}
			if followLive {
				info, err := gc.goals.Describe(cmd.Context(), args[0])
				if err != nil {
					return cliErr(err)
				}
				if info.State == "running" {
					if u := gc.goals.WebURL(args[0]); u != "" {
						fmt.Fprintf(cmd.OutOrStdout(), "Web UI: %s\n", u)
					}
					fmt.Fprintln(cmd.OutOrStdout(), viewerLine(askViewerURL(cmd.Context(), gc, args[0], 5*time.Second)))
					return follow(cmd.Context(), gc.goals, args[0], info.Goal, followIO{
						conn: conn(gc.cfg),
						out:  cmd.OutOrStdout(), in: cmd.InOrStdin(),
						ttyIn: isTTY(cmd.InOrStdin()), tty: isTTY(cmd.OutOrStdout()),
					})
				}
			}
			rep, err := goalStatus(cmd.Context(), gc.goals, args[0], prices(gc.cfg))
			if err != nil {
				return cliErr(err)
			}
			if rep.Status != nil {
				rep.ViewerURL, rep.viewerAnswered = rep.Status.ViewerURL, true
			} else if rep.Result != nil {
				// An ended goal answers its query from a worker that
				// replays it, which names its own viewer.
				rep.ViewerURL, rep.viewerAnswered = askViewerURL(cmd.Context(), gc, args[0], 3*time.Second)
			}
			rep.conn = conn(gc.cfg)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			printStatus(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVarP(&followLive, "follow", "f", false, "follow a running goal with the live view until it ends (like `run`)")
	cmd.Flags().BoolVar(&events, "events", false, "with -f: "+eventsHelp)
	cmd.Flags().StringVar(&ui, "ui", "", "Temporal Web UI host:port or URL for links (default: Temporal port + 1000)")
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}

// goalStatus gathers what is known about a goal: visibility, the queries
// while it runs, the result once it has ended.
func goalStatus(ctx context.Context, goals *goalctl.Client, id string, p goalctl.Prices) (statusReport, error) {
	info, err := goals.Describe(ctx, id)
	if err != nil {
		return statusReport{}, err
	}
	if info.Goal == "" {
		// Started without phoneflow's memo (the Temporal CLI): the goal
		// is in its start event.
		goal, device := goals.StartedGoal(ctx, id)
		info.Goal = goal
		if info.Device == "" {
			info.Device = device
		}
	}
	rep := statusReport{ID: id, Execution: info.State, Goal: info.Goal, Device: info.Device, WebURL: goals.WebURL(id)}
	if info.State != "running" {
		r, err := goals.Result(ctx, id)
		if err != nil {
			rep.Error = err.Error()
		} else {
			rep.Result = &r
			rep.withUsage(r.Usage, p)
		}
		return rep, nil
	}
	qctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	st, err := goals.Status(qctx, id)
	if err != nil {
		rep.Error = "the goal did not answer its status query (is a worker running?): " + err.Error()
		if why := goals.RevokedFrom(qctx, info.Device, id); why != "" && info.Device != "" {
			// A goal whose workflow task keeps failing cannot answer; its
			// phone's lease says so (docs/design.md §5).
			rep.Error = "the goal did not answer its status query; " + why + "; it asks for the phone again once a worker can run it"
		}
		return rep, nil
	}
	rep.Status = &st
	if rep.Todos, err = goals.Todos(qctx, id); err != nil {
		rep.Error = err.Error()
	}
	live := goals.SnapshotOf(qctx, id, st, rep.Todos)
	rep.live = &live
	rep.withUsage(goals.LiveUsage(qctx, id, st, rep.Todos), p)
	return rep, nil
}

// picked is how a goal started without a device chose its phone ("on
// phone X, chosen by the planner: …"), "" for a goal given one.
func (rep statusReport) picked() string {
	switch {
	case rep.Status != nil:
		return rep.Status.Picked
	case rep.Result != nil:
		return rep.Result.Picked
	}
	return ""
}

func printStatus(w io.Writer, rep statusReport) {
	if rep.Goal != "" {
		fmt.Fprintf(w, "goal: %s\n", rep.Goal)
	}
	if rep.Device != "" {
		fmt.Fprintf(w, "device: %s\n", rep.Device)
	}
	if p := rep.picked(); p != "" {
		fmt.Fprintf(w, "phone: %s\n", p)
	}
	if rep.WebURL != "" {
		fmt.Fprintf(w, "Web UI: %s\n", rep.WebURL)
	}
	if rep.ViewerURL != "" || rep.Result != nil || rep.Status != nil {
		fmt.Fprintln(w, viewerLine(rep.ViewerURL, rep.viewerAnswered))
	}
	switch {
	case rep.Result != nil:
		for _, l := range progress.Summary(goalctl.ToResult(rep.ID, *rep.Result)) {
			fmt.Fprintln(w, l)
		}
	case rep.Status != nil:
		s := goalctl.ToSnapshot(rep.ID, *rep.Status, rep.Todos)
		if rep.live != nil {
			s = *rep.live
		}
		for _, l := range progress.Block(s) {
			fmt.Fprintln(w, l)
		}
		for _, l := range progress.AnswerHintsFor(s, rep.conn) {
			fmt.Fprintln(w, l)
		}
	default:
		fmt.Fprintf(w, "%s  %s\n", rep.ID, rep.Execution)
	}
	for _, l := range goalctl.UsageLines(rep.Usage, rep.prices) {
		fmt.Fprintln(w, l)
	}
	if rep.Error != "" {
		fmt.Fprintf(w, "note: %s\n", rep.Error)
	}
}

func newTodosCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "todos ID",
		Short: "List a running goal's todos with their status",
		Long: `todos prints the todo list of goal ID (the todos query): each todo's status,
steps used and result. A goal that does not exist is exit status 3.`,
		Example: `  starter todos goal-1a2b3c4d
  starter todos goal-1a2b3c4d --json`,
		Args: oneID("todos"),
		RunE: func(cmd *cobra.Command, args []string) error {
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			todos, err := gc.goals.LiveTodos(cmd.Context(), args[0])
			if err != nil {
				return cliErr(err)
			}
			return writeList(cmd.OutOrStdout(), asJSON, todos, printTodos)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}

func printTodos(w io.Writer, todos []workflows.TodoState) {
	if len(todos) == 0 {
		fmt.Fprintln(w, "no todos yet (the goal is still planning)")
		return
	}
	for i, t := range todos {
		l := fmt.Sprintf("%s %d. %s  (%s, %d steps)", progress.Mark(t.Status), i+1, t.Text, t.Status, t.Steps)
		if t.Device != "" {
			l += " on phone " + t.Device
		}
		if t.Result != "" {
			l += " → " + t.Result
		}
		fmt.Fprintln(w, l)
	}
}

func newListCmd() *cobra.Command {
	var opts goalctl.ListOptions
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List goals, newest first",
		Long: `list shows goals from Temporal visibility, newest first, filtered by their
PhoneflowStatus (planning, running, paused, waiting_user, done, failed,
cancelled), PhoneflowDevice or PhoneflowLabels search attributes: --label L
lists the goals on a phone labelled L (adb.labels).`,
		Example: `  starter list
  starter list --status waiting_user
  starter list --device emulator-5554 --limit 5 --json
  starter list --label shop`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := goalctl.ListQuery(opts); err != nil {
				return usageError{err}
			}
			if opts.Limit < 1 {
				return usageError{fmt.Errorf("--limit %d: give how many goals to show, at least 1 (default 20)", opts.Limit)}
			}
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			goals, err := gc.goals.List(cmd.Context(), opts)
			if err != nil {
				return err
			}
			return writeList(cmd.OutOrStdout(), asJSON, goals, printGoals)
		},
	}
	cmd.Flags().StringVar(&opts.Status, "status", "", "only goals with this status")
	cmd.Flags().StringVar(&opts.Device, "device", "", "only goals on this phone")
	cmd.Flags().StringVar(&opts.Label, "label", "", "only goals on a phone with this label")
	cmd.Flags().IntVar(&opts.Limit, "limit", 20, "at most this many goals")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}

func printGoals(w io.Writer, goals []goalctl.GoalInfo) {
	if len(goals) == 0 {
		fmt.Fprintln(w, "no goals (start one with `starter run \"…\"`)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSTATUS\tDEVICE\tLABELS\tSTARTED\tGOAL")
	for _, g := range goals {
		labels := strings.Join(g.Labels, ",")
		if labels == "" {
			labels = "-"
		}
		goal := strings.Join(strings.Fields(g.Goal), " ")
		if r := []rune(goal); len(r) > 60 {
			goal = string(r[:59]) + "…"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", g.ID, g.Status, g.Device, labels, g.Start.Local().Format("2006-01-02 15:04:05"), goal)
	}
	tw.Flush()
}

func newCancelCmd() *cobra.Command {
	var wait bool
	cmd := &cobra.Command{
		Use:   "cancel ID",
		Short: "Cancel a goal",
		Long: `cancel asks goal ID to stop: its running todo is cancelled cleanly, the
remaining todos are marked cancelled and the goal ends with status cancelled.
--wait waits for that and prints the result. A goal that does not exist is exit
status 3.`,
		Example: `  starter cancel goal-1a2b3c4d
  starter cancel --wait goal-1a2b3c4d`,
		Args: oneID("cancel"),
		RunE: func(cmd *cobra.Command, args []string) error {
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			id := args[0]
			if err := gc.goals.Cancel(cmd.Context(), id); err != nil {
				return cliErr(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "cancel requested for %s\n", id)
			if !wait {
				return nil
			}
			r, err := gc.goals.Result(cmd.Context(), id)
			if err != nil {
				return cliErr(err)
			}
			for _, l := range progress.Summary(goalctl.ToResult(id, r)) {
				fmt.Fprintln(cmd.OutOrStdout(), l)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&wait, "wait", false, "wait until the goal has stopped and print its result")
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}
