package main

import (
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/api/serviceerror"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

func init() { rootCmd.AddCommand(newScheduleCmd()) }

// triggerWait is how long `schedule trigger` looks for the goal it started.
const triggerWait = 5 * time.Second

func newScheduleCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "schedule",
		Short: "Run goals on a cron or interval with Temporal Schedules",
		Long: `schedule manages Temporal Schedules whose action starts a goal on a phone.
Each run is an ordinary goal (ID goal-sched-<name>-<time>) that shows up in
` + "`starter list`" + ` and the Web UI. By default a run that is due while the previous one is
still going waits for it (--overlap buffer-one), so one schedule never drives a
phone twice at once and no run is dropped unseen. A schedule that does not exist
is exit status 3.`,
		Example: `  starter schedule create morning-alarm --goal "Read the first alarm in Clock" --device emulator-5554 --cron "0 8 * * *" --tz Asia/Shanghai
  starter schedule create wifi-check --goal "Turn on Wi-Fi" --device emulator-5554 --every 1h
  starter schedule create shop-tidy --goal "Clear notifications" --on label=shop --each --cron "0 7 * * *"
  starter schedule list
  starter schedule trigger morning-alarm`,
	}
	cmd.AddCommand(newScheduleCreateCmd(), newScheduleListCmd(), newScheduleDescribeCmd(),
		newScheduleNameCmd("pause", "Pause a schedule (no goals start until unpaused)", true),
		newScheduleNameCmd("unpause", "Unpause a paused schedule", true),
		newScheduleNameCmd("trigger", "Start the schedule's goal now", false),
		newScheduleNameCmd("delete", "Delete a schedule (goals it started keep running)", false))
	return cmd
}

func newScheduleCreateCmd() *cobra.Command {
	var r goalctl.ScheduleRequest
	var f runFlags
	var noDeviceCheck bool
	cmd := &cobra.Command{
		Use:   "create NAME --goal TEXT (--device SERIAL | --on KIND [--each]) (--cron EXPR | --every DURATION)",
		Short: "Create a schedule that starts a goal",
		Long: `create makes schedule NAME: at every time of --cron (five fields: minute hour
day-of-month month day-of-week, in --tz) or every --every, it starts a goal with
--goal on --device. --overlap says what happens when a run is due while the
previous one still runs: buffer-one (default: the run waits for the phone),
skip, buffer-all, allow-all, cancel-other or terminate-other. --catchup is how
late a run missed during an outage may still start (default 10m); --jitter
delays each run by up to that long; --run-timeout ends a run that takes longer;
--pause-on-failure pauses the schedule when a run fails or times out.
A run's question or approval waits for a person until the next run is due
(the shortest gap between runs), then the run fails and frees the phone;
--answer-deadline sets another limit.
--paused creates it paused.

--on label=LABEL (or any, serial=SERIAL) instead of --device lets each run
pick a served phone of the kind, a free one first; with --each each run is a
fan-out (ID fanout-sched-<name>-<time>) that runs the goal on every phone of
the kind, at most --parallel at once, and ends with each phone's outcome
(` + "`starter status`" + ` of the run shows it).

The phone must be served by a worker (checked like ` + "`starter run`" + `); pass
--no-device-check to create the schedule anyway, e.g. before the worker starts.`,
		Example: `  starter schedule create morning-alarm --goal "Read the first alarm in Clock" --device emulator-5554 --cron "0 8 * * *" --tz Asia/Shanghai
  starter schedule create wifi-check --goal "Turn on Wi-Fi" --device emulator-5554 --every 1h --jitter 2m --run-timeout 20m --pause-on-failure --paused`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("schedule create needs exactly one NAME; got %d arguments", len(args))}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			r.Name = args[0]
			on, err := onSelector(runFlags{on: f.on, device: r.Device})
			if err != nil {
				return usageError{err}
			}
			r.On = on
			if cmd.Flags().Changed("answer-deadline") && r.AnswerDeadline == 0 {
				return usageError{errors.New("--answer-deadline 0s waits no time at all: give a duration such as 30m, or leave it out to wait until the next run is due")}
			}
			if cmd.Flags().Changed("every") && r.Every == 0 {
				return usageError{errors.New("--every 0s never repeats: give the time between runs, e.g. --every 30m or --every 1h")}
			}
			if err := r.Validate(); err != nil {
				return usageError{err}
			}
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			if r.Options, err = goalOptions(f, gc.cfg); err != nil {
				return usageError{err}
			}
			if err := goalctl.CheckGoalText(r.Goal, gc.cfg.Limits.MaxGoalText); err != nil {
				return usageError{fmt.Errorf("--goal: %w", err)}
			}
			if !noDeviceCheck && r.On == nil {
				if err := gc.goals.CheckDevice(cmd.Context(), r.Device); err != nil {
					var nf *goalctl.NotFoundError
					if errors.As(err, &nf) {
						return notFoundError{fmt.Errorf("%w; or create the schedule anyway with --no-device-check (its runs fail until a worker serves the phone)", err)}
					}
					return err
				}
			}
			if err := gc.goals.CreateSchedule(cmd.Context(), r); err != nil {
				var bad *serviceerror.InvalidArgument
				if errors.As(err, &bad) {
					// The server refused the timing or another value:
					// bad input, like the checks above (exit status 2).
					return usageError{err}
				}
				return err
			}
			state := ""
			if r.Paused {
				state = " (paused)"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "schedule %s created%s: %s, goal %q on %s\n", r.Name, state, r.SpecText(), r.Goal, r.Where())
			if noDeviceCheck {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: not checked that a worker serves %s; runs fail while none does (check with `starter devices`)\n", r.Device)
			}
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&r.Goal, "goal", "", "the goal each run starts (required)")
	fs.StringVar(&r.Device, "device", "", "serial of the phone each run drives (or --on)")
	fs.StringVar(&f.on, "on", "", "instead of --device: each run picks a phone of the fleet, `any`, `label=LABEL` or `serial=SERIAL`")
	fs.BoolVar(&r.Each, "each", false, "with --on: each run is a fan-out, one goal on every phone of the kind")
	fs.IntVar(&r.Parallel, "parallel", workflows.DefaultFanOutParallel, "with --each: how many of a run's goals go at once")
	fs.StringVar(&r.Cron, "cron", "", `cron expression, e.g. "0 8 * * *"`)
	fs.DurationVar(&r.Every, "every", 0, "interval between runs, e.g. 1h or 30m")
	fs.StringVar(&r.TimeZone, "tz", "", "time zone of --cron, e.g. Asia/Shanghai (default UTC)")
	fs.StringVar(&r.Overlap, "overlap", goalctl.DefaultOverlap, "when a run is due while one still runs: buffer-one, skip, buffer-all, allow-all, cancel-other, terminate-other")
	fs.DurationVar(&r.Catchup, "catchup", goalctl.DefaultCatchup, "start a run missed during an outage only if at most this late (at least 10s)")
	fs.DurationVar(&r.Jitter, "jitter", 0, "delay each run by a random time up to this long, e.g. 2m")
	fs.DurationVar(&r.RunTimeout, "run-timeout", 0, "end a run that takes longer than this, e.g. 30m (0 = no limit)")
	fs.BoolVar(&r.PauseOnFailure, "pause-on-failure", false, "pause the schedule when a run fails or times out")
	fs.DurationVar(&r.AnswerDeadline, "answer-deadline", 0, "how long a run's question or approval waits for a person, then the run fails (default: until the next run is due)")
	fs.BoolVar(&noDeviceCheck, "no-device-check", false, "create the schedule even when no worker serves the phone (prints a warning)")
	fs.BoolVar(&r.Paused, "paused", false, "create the schedule paused")
	fs.StringVar(&r.Note, "note", "", "a note shown with the schedule")
	fs.StringVar(&f.plan, "plan", "", "file with the todos, one per line or a JSON array; skips planning")
	fs.BoolVar(&f.single, "single", false, "single-loop mode: no planner")
	config.BindNamedFlags(fs, config.StartFlags)
	return cmd
}

func newScheduleListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List schedules",
		Example: `  starter schedule list` + "\n" + `  starter schedule list --json`,
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			list, err := gc.goals.ListSchedules(cmd.Context())
			if err != nil {
				return err
			}
			return writeList(cmd.OutOrStdout(), asJSON, list, printSchedules)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}

// nextRun is a schedule's next run as list shows it: none while it is
// paused (the times Temporal computes are when it would run), to the
// second, as schedules every few seconds need.
func nextRun(paused bool, ts []time.Time) string {
	switch {
	case paused:
		return "paused"
	case len(ts) == 0:
		return "-"
	}
	return ts[0].Local().Format("2006-01-02 15:04:05 MST")
}

func printSchedules(w io.Writer, list []goalctl.ScheduleInfo) {
	if len(list) == 0 {
		fmt.Fprintln(w, "no schedules (create one with `starter schedule create`)")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSPEC\tDEVICE\tPAUSED\tNEXT\tGOAL")
	for _, s := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%v\t%s\t%s\n", s.Name, s.Spec, s.Device, s.Paused, nextRun(s.Paused, s.NextTimes), s.Goal)
	}
	tw.Flush()
}

func newScheduleDescribeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "describe NAME",
		Short:   "Show a schedule: timing, goal, device, next and recent runs",
		Example: `  starter schedule describe morning-alarm`,
		Args:    scheduleName("describe"),
		RunE: func(cmd *cobra.Command, args []string) error {
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			si, err := gc.goals.DescribeSchedule(cmd.Context(), args[0])
			if err != nil {
				return cliErr(err)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), si)
			}
			printSchedule(cmd.OutOrStdout(), si)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}

func printSchedule(w io.Writer, s goalctl.ScheduleInfo) { goalctl.WriteSchedule(w, s) }

func scheduleName(verb string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != 1 {
			return usageError{fmt.Errorf("schedule %s needs exactly one schedule NAME (see `starter schedule list`); got %d arguments", verb, len(args))}
		}
		return nil
	}
}

// newScheduleNameCmd builds pause, unpause, trigger and delete, which take
// only the schedule's name.
func newScheduleNameCmd(verb, short string, withNote bool) *cobra.Command {
	var note string
	cmd := &cobra.Command{
		Use:     verb + " NAME",
		Short:   short,
		Example: "  starter schedule " + verb + " morning-alarm",
		Args:    scheduleName(verb),
		RunE: func(cmd *cobra.Command, args []string) error {
			gc, err := openGoals(cmd, "")
			if err != nil {
				return err
			}
			defer gc.close()
			ctx, name := cmd.Context(), args[0]
			started := ""
			switch verb {
			case "pause":
				err = gc.goals.PauseSchedule(ctx, name, note)
			case "unpause":
				err = gc.goals.UnpauseSchedule(ctx, name, note)
			case "trigger":
				started, err = gc.goals.TriggerScheduleGoal(ctx, name, triggerWait)
			case "delete":
				err = gc.goals.DeleteSchedule(ctx, name)
			}
			if err != nil {
				return cliErr(err)
			}
			past := map[string]string{"pause": "paused", "unpause": "unpaused", "trigger": "triggered", "delete": "deleted"}[verb]
			fmt.Fprintf(cmd.OutOrStdout(), "schedule %s %s\n", name, past)
			switch {
			case verb != "trigger":
			case started != "":
				fmt.Fprintf(cmd.OutOrStdout(), "started goal %s: follow it with `%s`\n", started, starterCmd(gc.cfg, "status -f "+started))
			default:
				fmt.Fprintf(cmd.OutOrStdout(), "no goal has started yet (under the overlap policy the run may wait for one still going): see `starter schedule describe %s`\n", name)
			}
			return nil
		},
	}
	if withNote {
		cmd.Flags().StringVar(&note, "note", "", "why (shown with the schedule)")
	}
	config.BindNamedFlags(cmd.Flags(), config.ClientFlags)
	return cmd
}
