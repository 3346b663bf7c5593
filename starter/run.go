package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/progress"
	"github.com/phoneflow/phoneflow/workflows"
)

func init() { rootCmd.AddCommand(newRunCmd()) }

type runFlags struct {
	device   string
	on       string // --on: the kind of phone the goal picks
	plan     string
	single   bool
	detach   bool
	id       string
	taskType string
	ui       string
	// noDeviceCheck starts the goal even when no worker serves the phone.
	noDeviceCheck bool
	events        bool
	// each, with on, starts a fan-out: the goal on every phone of the
	// kind, at most parallel at once; retryFailed reruns the phones of a
	// fan-out that did not end done.
	each        bool
	parallel    int
	retryFailed string
}

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run GOAL",
		Short: "Start a goal and follow it live",
		Long: `run starts a GoalWorkflow for GOAL on the goal task queue and, unless --detach
is given, follows it: the todo checklist, the step counter and the current
action, redrawn in place on a terminal and as plain lines otherwise. It prints
the Web UI link of the goal.

When the goal asks a question or a sensitive action needs approval, type the
answer (or y / n for approvals) and press Enter; when stdin is not a terminal,
run prints the commands that answer from another terminal. Ctrl-C stops
following (exit status 130); the goal keeps running.

Without --device the only phone of the ADB server is used; --on any, --on
label=LABEL or --on serial=SERIAL lets the goal pick a phone of the fleet
its workers published (a free one first), waiting up to device_wait_deadline
while none of the kind is served; its status says which it picked. --on
planner, and no --device or --on while the ADB server has several ready
phones, lets the planner choose the phone from the goal and the fleet (each
phone's labels, model, Android version, apps, lock and whether it is free);
its status says which phone and why. A phone that no worker serves is refused
(exit status 3) unless --no-device-check is given.
--plan FILE gives the todos (one per line, or a JSON array) and skips planning;
--single runs the executor on the whole goal without a planner.

--each with --on starts a fan-out (ID fanout-<random>): one goal per phone of
the kind (goal <fanout-id>-<serial>), at most --parallel at once, and prints one
line per phone as its goal ends and a summary: done, failed, asked (its
question went unanswered), unserved (no worker served the phone, no goal was
started). --retry-failed FANOUT-ID starts a new fan-out of the phones of an
ended fan-out that did not end done, with the same goal.

--events prints, instead of the live view, one JSON object per line for each
event of the goal (plan, todo_started, step, question, answer, approval,
approved, denied, paused, resumed, todo_done, replanned, and last done, failed
or cancelled); docs/observability.md documents the fields. The step viewer
link, which the goal's worker names (its metrics address, /goals/ID), shows
each step with its screenshot.

Exit status: 0 when the goal is done, 1 when it failed or was cancelled.`,
		Example: `  starter run "Turn on Wi-Fi"
  starter run --device emulator-5554 "Send 'on my way' to Alice in Messages"
  starter run --plan todos.txt --max-steps 40 "Tidy my alarms"
  starter run --detach --id goal-morning "Read the first alarm in Clock"
  starter run --on planner "Read the Android version on the phone labelled till"
  starter run --on label=shop --each --parallel 4 "Clear notifications"
  starter run --retry-failed fanout-1a2b3c4d`,
		Args: func(cmd *cobra.Command, args []string) error {
			if f.retryFailed != "" {
				if len(args) > 0 {
					return usageError{errors.New("--retry-failed reruns the fan-out's own goal: give no goal text")}
				}
				return nil
			}
			if len(args) == 0 || strings.TrimSpace(strings.Join(args, " ")) == "" {
				return usageError{errors.New("run needs the goal text, e.g. starter run \"Turn on Wi-Fi\"")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.retryFailed != "" {
				return retryFanOut(cmd, f)
			}
			if f.each {
				return runFanOut(cmd, f, strings.Join(args, " "))
			}
			return runGoal(cmd, f, strings.Join(args, " "))
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.device, "device", "d", "", "serial of the phone to drive (default: the only phone of the ADB server)")
	fs.StringVar(&f.on, "on", "", "let the goal pick its phone of the fleet: `any`, `planner` (the planner chooses), `label=LABEL` (adb.labels) or `serial=SERIAL`, instead of --device")
	fs.BoolVar(&f.each, "each", false, "with --on: run the goal on every phone of the kind, one goal per phone (a fan-out)")
	fs.IntVar(&f.parallel, "parallel", workflows.DefaultFanOutParallel, "with --each or --retry-failed: how many of the fan-out's goals run at once")
	fs.StringVar(&f.retryFailed, "retry-failed", "", "run again, as a new fan-out, the phones of fan-out `ID` that did not end done")
	fs.StringVar(&f.plan, "plan", "", "file with the todos, one per line or a JSON array; skips planning")
	fs.BoolVar(&f.single, "single", false, "single-loop mode: no planner, the executor runs the whole goal")
	fs.BoolVar(&f.detach, "detach", false, "start the goal and return at once")
	fs.StringVar(&f.id, "id", "", "workflow ID (default: goal-<random>)")
	fs.StringVar(&f.taskType, "task-type", "", "task type for the stored prompt (default: the planner's guess)")
	fs.BoolVar(&f.noDeviceCheck, "no-device-check", false, "start even when no worker serves the phone yet (the goal waits for one)")
	fs.StringVar(&f.ui, "ui", "", "Temporal Web UI host:port or URL for links (default: Temporal port + 1000)")
	fs.BoolVar(&f.events, "events", false, eventsHelp)
	config.BindNamedFlags(fs, config.StartFlags)
	return cmd
}

// goalOptions builds the workflow options from the flags and config.
func goalOptions(f runFlags, cfg config.Config) (workflows.GoalOptions, error) {
	o := app.GoalDefaults(cfg, time.Now())
	o.TaskType = f.taskType
	if f.single {
		o.Mode = workflows.ModeSingle
	}
	if f.plan != "" {
		if f.single {
			return o, errors.New("--plan and --single exclude each other: a single-loop goal has no todos")
		}
		plan, err := readPlan(f.plan)
		if err != nil {
			return o, err
		}
		o.Plan = plan
		// A given plan is todos: it runs layered whatever limits.mode says.
		o.Mode = workflows.ModeLayered
	}
	return o, nil
}

// readPlan reads the todos of --plan FILE (see goalctl.ParsePlan).
func readPlan(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--plan: %w", err)
	}
	return goalctl.ParsePlan(path, data)
}

// listDevices asks the configured ADB server for its phones. Tests replace it.
var listDevices = func(ctx context.Context, cfg config.Config) ([]adb.DeviceInfo, error) {
	return adb.New(adb.Config{Addr: cfg.ADB.Address}).Devices(ctx)
}

// pickDevice returns the only ready phone when neither --device nor --on
// is given; "" with no error when several are: the planner chooses one
// of the fleet (docs/design.md#phone-fleet).
func pickDevice(ctx context.Context, cfg config.Config) (string, error) {
	devs, err := listDevices(ctx, cfg)
	if err != nil {
		return "", fmt.Errorf("no --device given and the ADB server at %s cannot list phones: %w", cfg.ADB.Address, err)
	}
	var ready []string
	for _, d := range devs {
		if d.State == adb.StateDevice && allowed(cfg, d.Serial) {
			ready = append(ready, d.Serial)
		}
	}
	switch len(ready) {
	case 1:
		return ready[0], nil
	case 0:
		return "", usageError{fmt.Errorf("no --device given and the ADB server at %s has no ready phone: plug one in or `adb connect host:port`, then see `starter devices`; or let the planner choose a phone of the fleet with --on planner", cfg.ADB.Address)}
	}
	return "", nil
}

func allowed(cfg config.Config, serial string) bool {
	if len(cfg.ADB.Allow) == 0 {
		return true
	}
	for _, s := range cfg.ADB.Allow {
		if s == serial {
			return true
		}
	}
	return false
}

// openRun checks what a run's flags and goal text say before anything
// starts and connects: a goal and a fan-out take them the same way. The
// caller closes the connection.
func openRun(cmd *cobra.Command, f runFlags, goal string) (*goalCmd, workflows.GoalOptions, error) {
	if f.id != "" {
		if err := goalctl.CheckGoalID(f.id); err != nil {
			return nil, workflows.GoalOptions{}, usageError{fmt.Errorf("--id: %w", err)}
		}
	}
	gc, err := openGoals(cmd, f.ui)
	if err != nil {
		return nil, workflows.GoalOptions{}, err
	}
	opts, err := goalOptions(f, gc.cfg)
	if err == nil {
		err = goalctl.CheckGoalText(goal, gc.cfg.Limits.MaxGoalText)
	}
	if err != nil {
		gc.close()
		return nil, workflows.GoalOptions{}, usageError{err}
	}
	return gc, opts, nil
}

func runGoal(cmd *cobra.Command, f runFlags, goal string) error {
	gc, opts, err := openRun(cmd, f, goal)
	if err != nil {
		return err
	}
	defer gc.close()
	ctx := cmd.Context()
	on, err := onSelector(f)
	if err != nil {
		return usageError{err}
	}
	if f.device == "" && on == nil {
		if f.device, err = pickDevice(ctx, gc.cfg); err != nil {
			return err
		}
		if f.device == "" {
			on = &fleet.Selector{Planner: true}
		}
	}
	if !f.noDeviceCheck && on == nil {
		if err := gc.goals.CheckDevice(ctx, f.device); err != nil {
			return cliErr(err)
		}
	}
	id, _, err := gc.goals.Start(ctx, goalctl.StartRequest{ID: f.id, Goal: goal, Device: f.device, On: on, Options: opts})
	if err != nil {
		var taken *goalctl.IDTakenError
		if errors.As(err, &taken) {
			return usageError{err}
		}
		return err
	}
	out := cmd.OutOrStdout()
	if f.events && !f.detach {
		// stdout carries only the JSON lines; the links go to stderr.
		out = cmd.ErrOrStderr()
	}
	if on != nil {
		fmt.Fprintf(out, "started %s on %s (it picks its phone; `starter status %s` says which)\n", id, on.Kind(), id)
	} else {
		fmt.Fprintf(out, "started %s on %s\n", id, f.device)
	}
	if u := gc.goals.WebURL(id); u != "" {
		fmt.Fprintf(out, "Web UI: %s\n", u)
	}
	asked, answered := askViewerURL(ctx, gc, id, 5*time.Second)
	vu := viewerURL(gc, id, asked)
	fmt.Fprintln(out, viewerLine(asked, answered))
	if f.detach {
		fmt.Fprintf(out, "follow it with `%s`; stop it with `%s`\n", starterCmd(gc.cfg, "status -f "+id), starterCmd(gc.cfg, "cancel "+id))
		return nil
	}
	if f.events {
		return followEvents(ctx, gc, id, vu, cmd.OutOrStdout())
	}
	return follow(ctx, gc.goals, id, goal, followIO{
		conn:  conn(gc.cfg),
		out:   out,
		in:    cmd.InOrStdin(),
		ttyIn: isTTY(cmd.InOrStdin()),
		tty:   isTTY(out),
	})
}

// followIO is where follow reads answers and draws the view.
type followIO struct {
	out   io.Writer
	in    io.Reader
	ttyIn bool // answers are typed on a terminal
	tty   bool // out is a terminal: redraw in place
	json  bool // print no view, only the caller's final object
	// errOut, with json, gets each new question or approval and how to
	// answer it, so a goal waiting on a person is never silent.
	errOut io.Writer
	// interrupted replaces the message printed on Ctrl-C.
	interrupted string
	// conn holds the flags the printed commands need for this cluster.
	conn progress.Conn
}

func isTTY(v any) bool {
	f, ok := v.(*os.File)
	return ok && progress.IsTerminal(f)
}

// follow shows the live view of a goal until it ends, answering prompts,
// and prints its outcome. It returns exitError{1} unless the goal is done.
func follow(ctx context.Context, goals *goalctl.Client, id, goal string, fio followIO) error {
	res, err := watch(ctx, goals, id, goal, fio)
	if err != nil {
		return err
	}
	if !fio.json {
		for _, l := range progress.Summary(goalctl.ToResult(id, res)) {
			fmt.Fprintln(fio.out, l)
		}
	}
	if res.Status != workflows.GoalDone {
		return exitError{exitFailure}
	}
	return nil
}

// watch is follow without the closing summary.
func watch(ctx context.Context, goals *goalctl.Client, id, goal string, fio followIO) (workflows.GoalResult, error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	view := progress.New(fio.out, fio.tty)
	view.SetColor(fio.tty && os.Getenv("NO_COLOR") == "") // https://no-color.org
	if f, ok := fio.out.(*os.File); ok && fio.tty {
		view.SetWidth(progress.TerminalWidth(f))
	}
	if fio.json {
		view = progress.New(io.Discard, false)
	}
	var lines chan string
	if fio.ttyIn && !fio.json {
		lines = make(chan string)
		go readLines(fio.in, lines)
	}
	var prompted string
	res, err := goals.Watch(ctx, id, goalctl.WatchOptions{
		Goal:  goal,
		Lines: lines,
		OnUpdate: func(s progress.Snapshot) {
			_ = view.Update(s)
			key := s.Question + "\x00" + s.Approval
			if key == "\x00" || key == prompted {
				prompted = key
				return
			}
			prompted = key
			if fio.json {
				if fio.errOut != nil {
					printWaiting(fio.errOut, s, fio.conn)
				}
				return
			}
			if fio.ttyIn {
				if s.Question != "" {
					_ = view.Print("? " + s.Question + "\n  type your answer and press Enter (or answer from another terminal: " + withConn("starter clarify "+id+" \"…\"", fio.conn) + ")")
				} else {
					_ = view.Print("? approve " + s.Approval + "\n  type y to approve or n to deny (a note may follow), then Enter")
				}
				return
			}
			for _, l := range progress.AnswerHintsFor(s, fio.conn) {
				_ = view.Print(l)
			}
		},
		OnAnswer: func(msg string, err error) {
			if err != nil {
				_ = view.Print("! " + err.Error())
				return
			}
			if msg != "" {
				_ = view.Print("  " + msg)
			}
		},
	})
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			msg := fmt.Sprintf("stopped following %s; the goal keeps running. Follow it again with `%s`, stop it with `%s`",
				id, withConn("starter status -f "+id, fio.conn), withConn("starter cancel "+id, fio.conn))
			if fio.interrupted != "" {
				msg = fio.interrupted
			}
			fmt.Fprintf(fio.out, "\n%s\n", msg)
			return res, exitError{130}
		}
		return res, cliErr(err)
	}
	// The closing summary lists the todos again: erase the live checklist
	// on a terminal so it is printed once.
	_ = view.Clear()
	return res, nil
}

// printWaiting tells a person, on w, what the goal waits for and how to
// answer from another terminal.
func printWaiting(w io.Writer, s progress.Snapshot, c progress.Conn) {
	if s.Question != "" {
		fmt.Fprintf(w, "? %s\n", s.Question)
	} else {
		fmt.Fprintf(w, "? approve %s\n", s.Approval)
	}
	for _, l := range progress.AnswerHintsFor(s, c) {
		fmt.Fprintln(w, l)
	}
}

func readLines(r io.Reader, out chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		out <- sc.Text()
	}
	close(out)
}

// resultLines are the closing lines of a finished goal.
func resultLines(id string, res workflows.GoalResult) []string {
	return progress.Summary(goalctl.ToResult(id, res))
}
