package demo

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack"
)

// Showcase goals. The offline planner splits Showcase into three todos; the
// replan after the first fills the message of the second with the time the
// first read. AskGoal leaves the recipient and text open so the planner
// asks.
const (
	Showcase = "Read the time of the first alarm in Clock, send it to Alice in Messages and then turn on Bluetooth"
	AskGoal  = "Turn on Bluetooth and then send a message in Messages"
	// AskExample is an answer the offline planner understands for AskGoal.
	AskExample = "Alice Chen: on my way"
)

// DefaultDataDir is where the demo keeps its Temporal database, blobs and
// prompt memory unless told otherwise.
const DefaultDataDir = ".phoneflow/demo"

// WorkerFunc runs a phoneflow worker for cfg on c until ctx ends.
type WorkerFunc func(ctx context.Context, cfg config.Config, c client.Client) error

// DialFunc connects a Temporal client for cfg.
type DialFunc func(ctx context.Context, cfg config.Config) (client.Client, error)

// Options configure Start.
type Options struct {
	// Config is the base configuration (flags, file, environment); the demo
	// overrides the Temporal address (embedded), the ADB address and the
	// allowed phone, both model endpoints, the data directory and metrics.
	Config config.Config
	// DataDir; empty = DefaultDataDir.
	DataDir string
	// Worker runs the worker; required.
	Worker WorkerFunc
	// Dial connects the client; required.
	Dial DialFunc
	// ADBPath is the adb binary; empty = "adb" on PATH, and when that is
	// missing the built-in server (internal/adbserver).
	ADBPath string
	// BuiltinADB uses the built-in adb server even when adb is installed.
	BuiltinADB bool
	// Logger for progress messages; nil = slog.Default().
	Logger *slog.Logger
	// Resume brings back the phone of the last demo in DataDir, on the
	// same serial, so the goals it left running continue on it (a goal
	// names its phone by serial). Without it each demo's phone gets a free
	// port.
	Resume bool
}

// Env is a running demo.
type Env struct {
	Config    config.Config
	Client    client.Client
	Server    *devserver.Server
	Stack     *stack.Stack // everything above comes from it
	Phone     *phonesim.Phone
	Serial    string // the phone's serial as adb names it
	ADBAddr   string // the private adb server
	ADBServer string // the adb binary serving it, or "built-in"
	ModelURL  string // base URL of the offline model server
	DataDir   string
	workerErr chan error
	stops     []func()
}

// WorkerErr delivers the worker's error if it stops before Stop.
func (e *Env) WorkerErr() <-chan error { return e.workerErr }

// Stop shuts everything down in reverse order of start.
func (e *Env) Stop() {
	for i := len(e.stops) - 1; i >= 0; i-- {
		e.stops[i]()
	}
	e.stops = nil
}

// ErrNoADB means the adb binary named in Options.ADBPath does not exist.
var ErrNoADB = errors.New("adb not found: install it (Debian/Ubuntu: `sudo apt-get install adb`; macOS: `brew install android-platform-tools`), pass its path with --adb, or leave --adb out to use the built-in adb server")

// ErrRunning means another demo holds the data directory.
var ErrRunning = errors.New("another demo is running")

// Start brings the demo up. On error everything already started is stopped.
func Start(ctx context.Context, opts Options) (_ *Env, err error) {
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if opts.Worker == nil || opts.Dial == nil {
		return nil, errors.New("demo: Options.Worker and Options.Dial are required")
	}
	dir := opts.DataDir
	if dir == "" {
		dir = DefaultDataDir
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	env := &Env{DataDir: dir, workerErr: make(chan error, 1)}
	defer func() {
		if err != nil {
			env.Stop()
		}
	}()
	unlock, err := lock(dir)
	if err != nil {
		return nil, err
	}
	env.stops = append(env.stops, unlock)
	var phoneAddrs []string
	if opts.Resume {
		addr, err := LastPhone(dir)
		if err != nil {
			return nil, err
		}
		phoneAddrs = []string{addr}
	}

	// Debian's adb when it is installed (or named); else the built-in
	// server, which speaks the same protocols. Either way a private one, so
	// the user's own adb server and phones are left alone.
	mode := stack.AnyADB
	switch {
	case opts.BuiltinADB:
		mode = stack.BuiltinADB
	case opts.ADBPath != "":
		mode = stack.RealADB
	}
	cfg := opts.Config
	cfg.Temporal.Address = ""
	port := cfg.Temporal.Embedded.Port
	if port == devserver.AnyPort {
		port = 0
	}
	log.Info("starting the embedded Temporal server", "port", port, "db", filepath.Join(dir, "temporal.db"))
	st, err := stack.Start(ctx, stack.Options{
		Config:     &cfg,
		DataDir:    dir,
		FileDB:     true,
		Port:       port,
		WebUI:      cfg.Temporal.Embedded.UIPort >= 0,
		UIPort:     max(cfg.Temporal.Embedded.UIPort, 0),
		ADB:        mode,
		ADBPath:    opts.ADBPath,
		Logger:     log,
		PhoneAddrs: phoneAddrs,
	})
	if err != nil {
		switch {
		case errors.Is(err, devserver.ErrLocked):
			return nil, fmt.Errorf("%w: %w (stop the other demo or worker, or pass --data-dir and --temporal-port)", ErrRunning, err)
		case errors.Is(err, devserver.ErrPortInUse):
			// A taken port names its holder (devserver asks it); it is not
			// necessarily another demo.
			return nil, err
		case errors.Is(err, stack.ErrNoADB):
			return nil, fmt.Errorf("%w: %s", ErrNoADB, opts.ADBPath)
		case opts.Resume && strings.Contains(err.Error(), "listen for a simulated phone"):
			return nil, fmt.Errorf("demo: bring back the last demo's phone: %w (its goals name it by this address; stop what holds the port, or run a plain demo, which ends them)", err)
		}
		return nil, fmt.Errorf("demo: %w", err)
	}
	env.Stack = st
	env.stops = append(env.stops, st.Stop)
	env.Server = st.Server()
	env.ModelURL = st.ModelURL
	env.Serial = st.Serials[0]
	env.Phone = st.Phones[0]
	env.ADBAddr = st.ADBAddr
	env.ADBServer = st.ADBServer
	if err := os.WriteFile(filepath.Join(dir, phoneFile), []byte(env.Serial+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("demo: note the phone's serial for --resume: %w", err)
	}
	cfg = st.Config
	cfg.Temporal.Address = "" // the embedded server, as `worker --dev` names it
	env.Config = cfg

	c, err := opts.Dial(ctx, cfg)
	if err != nil {
		return nil, err
	}
	env.Client = c
	env.stops = append(env.stops, c.Close)

	wctx, stopWorker := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := opts.Worker(wctx, cfg, c); err != nil && !errors.Is(err, context.Canceled) {
			env.workerErr <- err
		}
	}()
	env.stops = append(env.stops, func() {
		stopWorker()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			log.Warn("the demo worker did not stop within 15s")
		}
	})
	return env, nil
}

// phoneFile, in the data directory, holds the serial of the last demo's
// phone.
const phoneFile = "phone"

// ErrNothingToResume means no demo has run in the data directory.
var ErrNothingToResume = errors.New("no earlier demo in this data directory to resume")

// LastPhone is the serial (a loopback address) of the phone of the last
// demo in dir.
func LastPhone(dir string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, phoneFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%w (%s): run `starter demo` first, with the same --data-dir", ErrNothingToResume, dir)
	}
	if err != nil {
		return "", fmt.Errorf("demo: read the last demo's phone: %w", err)
	}
	addr := strings.TrimSpace(string(b))
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return "", fmt.Errorf("demo: %s holds %q, not a phone's address: delete it and run a plain demo", filepath.Join(dir, phoneFile), addr)
	}
	return addr, nil
}

// lock takes the demo lock of dir, or says which process holds it.
func lock(dir string) (func(), error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("demo: create the data directory: %w", err)
	}
	path := filepath.Join(dir, "demo.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("demo: open the lock file: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		_ = f.Close()
		pid := strings.TrimSpace(string(holder))
		if pid == "" {
			pid = "unknown"
		}
		return nil, fmt.Errorf("%w with data directory %s (pid %s): stop it (Ctrl-C), or run a second one with another --data-dir and --temporal-port", ErrRunning, dir, pid)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		_ = f.Truncate(0)
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		_ = f.Close()
	}, nil
}
