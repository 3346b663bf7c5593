package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

func init() { rootCmd.AddCommand(newDemoCmd()) }

type demoFlags struct {
	goal    string
	ask     bool
	keep    bool
	json    bool
	adbPath string
	builtin bool
	resume  bool
}

// demoTodo is one todo in the --json report.
type demoTodo struct {
	Text   string `json:"text"`
	Status string `json:"status"`
	Steps  int    `json:"steps"`
}

// demoReport is the one JSON object `demo --json` prints.
type demoReport struct {
	WorkflowID string         `json:"workflow_id"`
	Status     string         `json:"status"`
	Todos      []demoTodo     `json:"todos"`
	Steps      int            `json:"steps"`
	Result     string         `json:"result"`
	WebURL     string         `json:"web_url,omitempty"`
	ViewerURL  string         `json:"viewer_url,omitempty"`
	SimState   phonesim.State `json:"sim_state"`
	// Usage is the goal's model calls per role (calls, tokens, latency)
	// and the steps replayed without a model call.
	Usage llm.RoleUsage `json:"usage"`
}

func newDemoCmd() *cobra.Command {
	var f demoFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run phoneflow end to end in one process on a simulated phone",
		Long: `demo starts, in this one process: the embedded Temporal server with its Web UI
(data in ./.phoneflow/demo unless --data-dir), the offline model server, a
simulated phone on a free loopback port attached to a private adb server
(Debian's adb when installed, else — or with --builtin-adb — phoneflow's own
adb server; both speak the real ADB protocols), and a worker. It then runs the showcase goal
— several todos and a replan that carries what one todo read into the next —
printing the Web UI link of the workflow, the live progress and the result.

--goal runs another goal. --ask runs a goal the planner cannot complete without
asking who to message and what to say: answer inline, or from another terminal
with ` + "`starter clarify ID \"" + demo.AskExample + "\"`" + ` or
` + "`temporal workflow signal -w ID --name clarify --input '\"" + demo.AskExample + "\"'`" + `.
--keep keeps the server and Web UI up after the goal until Ctrl-C. --json prints
only one JSON object at the end: workflow_id, status, todos (text, status,
steps), steps, result, web_url, viewer_url (the step viewer page) and sim_state
(the simulated phone's state). The step viewer, on a free loopback port, shows
every step with the screenshot the executor saw.

The demo brings its own server, phone and models: the flags that point a
worker at a cluster, a phone or a model endpoint (--temporal-address, --tls,
--adb-address, --allow-device, --connect, --planner-… and --executor-…) are
refused with what the demo uses instead, and a model the file or environment
names is left to workers (the demo says so).

A goal an interrupted demo left (Ctrl-C, a crash) stays in the data
directory: --resume brings its phone back on the same serial and continues
the goal where its history says it was; a plain demo ends it.

Only one demo runs per data directory; a second one fails with a message.
Exit status: 0 when the goal is done, 1 otherwise.`,
		Example: `  starter demo
  starter demo --ask
  starter demo --goal "Create an alarm at 6:45 labelled Run" --keep
  starter demo --json | jq .sim_state.messages_sent`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&f.goal, "goal", "", "the goal to run (default: the showcase goal)")
	fs.BoolVar(&f.ask, "ask", false, "run a goal that needs a clarification and wait for the answer")
	fs.BoolVar(&f.keep, "keep", false, "keep the Temporal server and Web UI up after the goal, until Ctrl-C")
	fs.BoolVar(&f.json, "json", false, "print one JSON object at the end instead of the live view")
	fs.StringVar(&f.adbPath, "adb", "", "the adb binary (default: adb on PATH, else the built-in adb server)")
	fs.BoolVar(&f.builtin, "builtin-adb", false, "use phoneflow's built-in adb server even when adb is installed")
	fs.BoolVar(&f.resume, "resume", false, "continue the goal an interrupted demo left (same --data-dir) on its phone, brought back, instead of starting one")
	bindDemoFlags(fs)
	return cmd
}

func runDemo(cmd *cobra.Command, f demoFlags) error {
	if cmd.Flags().Changed("goal") && strings.TrimSpace(f.goal) == "" {
		// An empty --goal is a mistake whatever its whitespace, caught
		// before anything starts; leave --goal out for the showcase.
		return usageError{errors.New("--goal is empty: say what the phone should do, e.g. --goal \"Turn on Wi-Fi\", or leave --goal out to run the showcase goal")}
	}
	if f.ask && f.goal != "" {
		return usageError{errors.New("--ask and --goal exclude each other: --ask runs its own goal")}
	}
	if f.resume && (f.ask || f.goal != "") {
		return usageError{errors.New("--resume continues the goal an interrupted demo left; it takes no --goal or --ask")}
	}
	if err := refusedDemoFlags(cmd.Flags()); err != nil {
		return err
	}
	cfg, modelNote, err := loadDemoConfig(cmd.Flags())
	if err != nil {
		return usageError{err}
	}
	dataDir := demo.DefaultDataDir
	if fl := cmd.Flags().Lookup("data-dir"); fl != nil && fl.Changed {
		dataDir = cfg.DataDir
	}
	goal := f.goal
	switch {
	case f.ask:
		goal = demo.AskGoal
	case goal == "":
		goal = demo.Showcase
	}
	out := cmd.OutOrStdout()
	say := func(format string, a ...any) {
		if !f.json {
			fmt.Fprintf(out, format+"\n", a...)
		}
	}
	// The parts log warnings only; the demo narrates what it does.
	level := slog.LevelWarn
	if cmd.Flags().Changed("log-level") {
		_ = level.UnmarshalText([]byte(cfg.Log.Level))
	}
	logger := slog.New(newOnceActivityErrors(cmd.ErrOrStderr(),
		slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level})))

	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if modelNote != "" {
		fmt.Fprintln(cmd.ErrOrStderr(), modelNote)
	}
	say("starting the demo: embedded Temporal + Web UI, offline models, a simulated phone over adb, a worker …")
	began := time.Now()
	env, err := demo.Start(ctx, demo.Options{
		Config:     cfg,
		DataDir:    dataDir,
		ADBPath:    f.adbPath,
		BuiltinADB: f.builtin,
		Resume:     f.resume,
		Logger:     logger,
		Dial:       app.Dialer(logger),
		Worker:     app.WorkerRunner(logger),
	})
	if err != nil {
		return err
	}
	defer env.Stop()
	say("ready in %s: Temporal %s, Web UI %s, phone %s on adb server %s (%s), models %s, data %s",
		time.Since(began).Round(100*time.Millisecond), env.Server.FrontendAddr(), env.Server.UIURL(),
		env.Serial, env.ADBAddr, env.ADBServer, env.ModelURL, env.DataDir)

	if f.json {
		fmt.Fprintln(cmd.ErrOrStderr(), strings.Join(demoPhoneHints(env.Config, env.ADBAddr), "\n"))
	} else {
		say("%s", strings.Join(demoPhoneHints(env.Config, env.ADBAddr), "\n"))
	}

	goals := goalctl.New(env.Client, goalctl.Options{Namespace: cfg.Temporal.Namespace, UIAddress: env.Server.UIURL()})
	viewerBase, err := serveViewer(ctx, env.Config, env.Client, goals.WebURL, logger, cfg.Metrics.Address)
	if err != nil {
		return err
	}
	// Goals left running by an interrupted earlier demo are bound to its
	// phone: --resume brought it back on the same serial and continues
	// them; a plain demo's phone is another one, so it ends them.
	resumeCmd := demoResumeCmd(cmd, env.Config)
	id := ""
	left, _ := goals.ListRunning(ctx)
	for _, old := range left {
		if f.resume {
			info, err := goals.Describe(ctx, old)
			if err == nil && info.Device == env.Serial && id == "" {
				id, goal = old, info.Goal
				continue
			}
		}
		if err := goals.Terminate(ctx, old, "left over from an earlier demo whose simulated phone is gone"); err == nil {
			say("ended %s, left running by an earlier demo (`%s` would have continued it)", old, resumeCmd)
		}
	}
	if f.resume && id == "" {
		return fmt.Errorf("nothing to resume: no goal an interrupted demo left runs in %s (a demo that ended its goal leaves none): run `starter demo`", env.DataDir)
	}
	if id != "" {
		say("continuing %s, which an interrupted demo left, on its phone %s brought back: the goal goes on where its history says it was", id, env.Serial)
	} else {
		opts, err := goalOptions(runFlags{}, env.Config)
		if err != nil {
			return usageError{err}
		}
		if id, _, err = goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: env.Serial, Options: opts}); err != nil {
			return err
		}
	}
	say("goal %s: %s", id, goal)
	say("Web UI: %s", goals.WebURL(id))
	viewerURL := viewer.URL(viewerBase, id)
	say("Step viewer: %s", viewerURL)
	if f.ask {
		hint := fmt.Sprintf("the goal will ask who to message and what to say; answer here, or from another terminal:\n"+
			"  %s\n"+
			"  temporal workflow signal --address %s -w %s --name clarify --input '%s'",
			withConn("go run ./starter clarify "+id+" "+strconv.Quote(demo.AskExample), conn(env.Config)),
			env.Server.FrontendAddr(), id, strconv.Quote(demo.AskExample))
		if f.json {
			fmt.Fprintln(cmd.ErrOrStderr(), hint)
		} else {
			say("%s", hint)
		}
	}

	// A worker that dies ends the demo with its error instead of a goal
	// that waits forever.
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		select {
		case err := <-env.WorkerErr():
			cancel(fmt.Errorf("the demo worker stopped: %w", err))
		case <-wctx.Done():
		}
	}()
	res, err := watch(wctx, goals, id, goal, followIO{
		conn:        conn(env.Config),
		out:         out,
		in:          cmd.InOrStdin(),
		ttyIn:       isTTY(cmd.InOrStdin()),
		tty:         isTTY(out),
		json:        f.json,
		errOut:      cmd.ErrOrStderr(),
		interrupted: fmt.Sprintf("stopped the demo; goal %s stays unfinished in %s: `%s` continues it (a plain demo ends it)", id, env.DataDir, resumeCmd),
	})
	if err != nil {
		if cause := context.Cause(wctx); cause != nil && !errors.Is(cause, context.Canceled) {
			return cause
		}
		return err
	}
	if f.json {
		rep := demoJSON(id, goals.WebURL(id), res, env.Phone.State())
		rep.ViewerURL = viewerURL
		if err := writeJSON(out, rep); err != nil {
			return err
		}
	} else {
		printResult(out, id, res)
		st := env.Phone.State()
		say("phone: Wi-Fi %v, Bluetooth %v, %d message(s) sent, %d alarm(s)", st.Toggles.WiFi, st.Toggles.Bluetooth, len(st.MessagesSent), len(st.Alarms))
		for _, m := range st.MessagesSent {
			say("  sent to %s: %s", m.To, m.Text)
		}
	}
	if f.keep {
		say("Temporal and the Web UI stay up at %s, the step viewer at %s — press Ctrl-C to stop", env.Server.UIURL(), viewerURL)
		<-ctx.Done()
		say("\nstopped the demo: its Temporal server and Web UI, step viewer, worker, models and phone are down; kept in %s: the goals' histories, screenshots and prompt memory", env.DataDir)
	}
	if res.Status != workflows.GoalDone {
		return exitError{exitFailure}
	}
	return nil
}

func printResult(w io.Writer, id string, res workflows.GoalResult) {
	for _, l := range resultLines(id, res) {
		fmt.Fprintln(w, l)
	}
}

func demoJSON(id, webURL string, res workflows.GoalResult, st phonesim.State) demoReport {
	rep := demoReport{WorkflowID: id, Status: res.Status, Steps: res.Steps, Result: res.Response, WebURL: webURL, SimState: st, Todos: []demoTodo{},
		Usage: res.Usage}
	if rep.Result == "" {
		rep.Result = res.Reason
	}
	for _, t := range res.Todos {
		rep.Todos = append(rep.Todos, demoTodo{Text: t.Text, Status: t.Status, Steps: t.Steps})
	}
	return rep
}

// serveViewer serves the step viewer on a free loopback port until ctx ends
// and returns its base URL; workflows link to it from then on.
func serveViewer(ctx context.Context, cfg config.Config, c client.Client, webURL func(string) string, log *slog.Logger, prefer string) (string, error) {
	vo, err := app.ViewerOptions(cfg, c, webURL, log)
	if err != nil {
		return "", err
	}
	// The viewer listens where a worker would (metrics.address) when that
	// port is free, so the links `run` and `status` print from another
	// terminal, which know only that address, open the demo's viewer.
	var l net.Listener
	if prefer != "" {
		l, err = net.Listen("tcp", app.LoopbackDefault(prefer))
	}
	if l == nil {
		l, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		return "", fmt.Errorf("demo: listen for the step viewer: %w", err)
	}
	mux := http.NewServeMux()
	app.MountViewer(mux, l.Addr().String(), vo)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(l) }()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return "http://" + l.Addr().String(), nil
}

// demoResumeCmd is the command that continues this demo's goal after an
// interruption: the same data directory and Temporal ports.
func demoResumeCmd(cmd *cobra.Command, cfg config.Config) string {
	line := "go run ./starter demo --resume"
	if fl := cmd.Flags().Lookup("data-dir"); fl != nil && fl.Changed {
		line += " --data-dir " + quoteArg(fl.Value.String())
	}
	for _, name := range []string{"builtin-adb", "adb"} {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			line += " --" + name + "=" + quoteArg(fl.Value.String())
		}
	}
	return withConn(line, conn(cfg))
}

// demoPhoneHints says how another terminal reaches the demo's phone: it sits
// on the demo's own adb server, not the default one, and its worker on the
// demo's Temporal.
func demoPhoneHints(cfg config.Config, adbAddr string) []string {
	flags := "--adb-address " + adbAddr
	if c := conn(cfg).Starter; c != "" {
		flags += " " + c
	}
	return []string{
		"the demo's phone is on the demo's own adb server; from another terminal, while the demo runs (--keep keeps it up):",
		"  go run ./starter devices " + flags,
		"  go run ./starter run " + flags + " " + strconv.Quote("Turn on Wi-Fi"),
	}
}
