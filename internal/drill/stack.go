package drill

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/loopback"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// ErrNoADB means the adb binary is not on PATH: drills drive their
// simulated phones through a real adb server.
var ErrNoADB = errors.New("adb is not installed (Debian/Ubuntu: `apt-get install adb`): drills drive the simulated phones through a real adb server")

// Options configure Start.
type Options struct {
	// DataDir holds the Temporal SQLite file, blobs and prompt memory.
	DataDir string
	// Phones is the number of simulated phones; 0 means 1.
	Phones int
	// Model configures the offline model server (fault rates, seed).
	Model modelserver.Config
	// Logger receives the stack's and the in-process worker's logs; nil
	// discards them.
	Logger *slog.Logger
}

// Stack is an embedded Temporal server, an offline model server, simulated
// phones behind a private adb server, and a client, all on loopback. The
// worker is started separately: in process (StartWorker) or as a child
// process (Process), so drills can kill and restart it.
type Stack struct {
	// Config points a worker at this stack: Temporal address, ADB address
	// and allowed phones, both model URLs, data directory; metrics off.
	Config  config.Config
	Client  client.Client
	Goals   *goalctl.Client
	Models  *modelserver.Server
	Phones  []*phonesim.Phone
	Serials []string // adb serials, Phones[i] is Serials[i]

	log     *slog.Logger
	srvOpts devserver.Options
	mu      sync.Mutex
	server  *devserver.Server
	stops   []func()

	modelAddr string
	// modelStop stops serving the model server (nil while it is down).
	modelStop func()
}

// serveModels serves the model server on ln until StopModels or ctx.
func (s *Stack) serveModels(ctx context.Context, ln net.Listener) {
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Models.Serve(mctx, ln) }()
	s.mu.Lock()
	s.modelStop = func() { cancel(); <-done }
	s.mu.Unlock()
}

// StopModels takes the model server down: its port refuses connections,
// as an unreachable model endpoint does, until StartModels.
func (s *Stack) StopModels() {
	s.mu.Lock()
	stop := s.modelStop
	s.modelStop = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// StartModels serves the model server again on the same address, retrying
// for up to a minute while the port is not yet free.
func (s *Stack) StartModels(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	for {
		ln, err := net.Listen("tcp", s.modelAddr)
		if err == nil {
			s.serveModels(context.Background(), ln)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("drill: listen for the model server on %s again: %w", s.modelAddr, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Start brings a stack up on free loopback ports. On error everything
// already started is stopped.
func Start(ctx context.Context, o Options) (_ *Stack, err error) {
	adbPath, lerr := exec.LookPath("adb")
	if lerr != nil {
		return nil, ErrNoADB
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if o.Phones <= 0 {
		o.Phones = 1
	}
	dir, err := filepath.Abs(o.DataDir)
	if err != nil {
		return nil, err
	}
	s := &Stack{log: log}
	defer func() {
		if err != nil {
			s.Stop()
		}
	}()

	cfg := config.Default()
	port, err := loopback.FreePort()
	if err != nil {
		return nil, err
	}
	cfg.DataDir = dir
	cfg.Temporal.Embedded.Port = port
	cfg.Temporal.Embedded.UIPort = -1
	cfg.Temporal.Embedded.DBFile = filepath.Join(dir, "temporal.db")
	cfg.Temporal.Address = net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	cfg.PromptMemoryPath = filepath.Join(dir, "prompt_memory.json")
	cfg.Metrics.Address = ""
	s.srvOpts = devserver.Options{
		Port:       port,
		UIPort:     -1,
		DBFile:     cfg.Temporal.Embedded.DBFile,
		Namespaces: []string{cfg.Temporal.Namespace},
		Logger:     log,
	}
	srv, err := devserver.Start(ctx, s.srvOpts)
	if err != nil {
		return nil, fmt.Errorf("drill: start the embedded server: %w", err)
	}
	s.server = srv
	s.stops = append(s.stops, s.stopServer)

	runCtx, cancel := context.WithCancel(context.Background())
	s.stops = append(s.stops, cancel)

	mln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("drill: listen for the model server: %w", err)
	}
	s.Models = modelserver.New(o.Model)
	s.modelAddr = mln.Addr().String()
	s.serveModels(runCtx, mln)
	modelURL := "http://" + mln.Addr().String() + "/v1"
	for _, m := range []*config.Model{&cfg.Planner, &cfg.Executor.Endpoint} {
		m.BaseURL = modelURL
		m.APIKey = ""
	}
	cfg.Planner.Model = config.DefaultPlannerModel
	cfg.Executor.Model = config.DefaultExecutorModel

	for range o.Phones {
		ln, err := phonesim.Listen("127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("drill: listen for a simulated phone: %w", err)
		}
		serial := ln.Addr().String()
		p := phonesim.New(phonesim.Config{Serial: serial, Logger: log})
		go func() { _ = p.Serve(runCtx, ln) }()
		s.Phones = append(s.Phones, p)
		s.Serials = append(s.Serials, serial)
	}

	adbPort, err := loopback.FreePort()
	if err != nil {
		return nil, err
	}
	cfg.ADB.Address = net.JoinHostPort("127.0.0.1", strconv.Itoa(adbPort))
	if out, err := exec.CommandContext(ctx, adbPath, "-P", strconv.Itoa(adbPort), "start-server").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("drill: `adb -P %d start-server`: %v: %s", adbPort, err, strings.TrimSpace(string(out)))
	}
	ac := adb.New(adb.Config{Addr: cfg.ADB.Address})
	s.stops = append(s.stops, func() {
		kctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = ac.Kill(kctx)
	})
	cctx, ccancel := context.WithTimeout(ctx, time.Minute)
	defer ccancel()
	for _, serial := range s.Serials {
		if err := ac.Connect(cctx, serial); err != nil {
			return nil, fmt.Errorf("drill: adb connect %s: %w", serial, err)
		}
		if err := ac.WaitForDevice(cctx, serial); err != nil {
			return nil, fmt.Errorf("drill: phone %s did not come up in adb: %w", serial, err)
		}
	}
	cfg.ADB.Allow = append([]string(nil), s.Serials...)
	cfg.ADB.Connect = nil
	s.Config = cfg

	opts, err := app.ClientOptions(cfg, log)
	if err != nil {
		return nil, err
	}
	c, err := client.DialContext(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("drill: dial the embedded server: %w", err)
	}
	s.Client = c
	s.stops = append(s.stops, c.Close)
	s.Goals = goalctl.New(c, goalctl.Options{Namespace: cfg.Temporal.Namespace})
	return s, nil
}

// StartWorker runs a worker in this process until the returned stop is
// called.
func (s *Stack) StartWorker(ctx context.Context) (stop func(), err error) {
	w, err := app.StartWorker(ctx, s.Config, s.Client, app.Deps{Logger: s.log}, app.WorkerOptions{RelistInterval: time.Second})
	if err != nil {
		return nil, err
	}
	return w.Stop, nil
}

// StopServer stops the embedded server, keeping its SQLite file.
func (s *Stack) StopServer() { s.stopServer() }

func (s *Stack) stopServer() {
	s.mu.Lock()
	srv := s.server
	s.server = nil
	s.mu.Unlock()
	if srv != nil {
		srv.Stop()
	}
}

// RestartServer starts the embedded server again on the same SQLite file
// and port. The port may take a moment to be free again, so it retries
// for up to a minute.
func (s *Stack) RestartServer(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	for {
		srv, err := devserver.Start(ctx, s.srvOpts)
		if err == nil {
			s.mu.Lock()
			s.server = srv
			s.mu.Unlock()
			return nil
		}
		if !errors.Is(err, devserver.ErrPortInUse) || time.Now().After(deadline) {
			return fmt.Errorf("drill: restart the embedded server on %s: %w", s.srvOpts.DBFile, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// Stop shuts everything down in reverse order of start. Safe to call more
// than once.
func (s *Stack) Stop() {
	s.StopModels()
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}
