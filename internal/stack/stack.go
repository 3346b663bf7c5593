package stack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/loopback"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// ErrNoADB means the adb binary is not on PATH while the stack was asked
// to drive its phones through it.
var ErrNoADB = errors.New("adb is not installed (Debian/Ubuntu: `apt-get install adb`): this stack drives its simulated phones through a real adb server")

// ADBMode says which ADB server the stack's phones are attached to.
type ADBMode int

const (
	// RealADB starts a private server of the adb binary (ADBPath, or adb
	// on PATH) and fails with ErrNoADB without one.
	RealADB ADBMode = iota
	// BuiltinADB serves the built-in ADB server on a listener of the stack.
	BuiltinADB
	// AnyADB uses the adb binary when there is one, else the built-in server.
	AnyADB
)

// Options shape a stack. The zero value is an in-memory server, one phone
// behind a real adb server, the offline models, no Web UI.
type Options struct {
	// Config is the base configuration; the zero value means
	// config.Default(). The stack overrides the addresses, models, data
	// directory and allow-list it provides.
	Config *config.Config
	// DataDir holds blobs and prompt memory, and with FileDB the Temporal
	// SQLite file; empty means a temporary directory removed on Stop.
	DataDir string
	// FileDB keeps the Temporal store in DataDir/temporal.db (goals survive
	// RestartServer); otherwise the store is in memory.
	FileDB bool
	// Port is the Temporal frontend port; 0 means a free port.
	Port int
	// TemporalAddress, when set, is the frontend of a running Temporal
	// cluster (internal/cluster, say): the stack starts no embedded
	// server, and Port, FileDB and WebUI are ignored.
	TemporalAddress string
	// WebUI serves the Web UI on UIPort (0: the frontend port + 1000, or
	// a free port when Port is 0).
	WebUI  bool
	UIPort int
	// Phones is the number of simulated phones; 0 means 1, -1 none.
	Phones int
	// PhoneAddrs are the loopback addresses (so the adb serials) the first
	// phones listen on, to bring back the phones of an earlier run: its
	// goals name them. The others get free ports.
	PhoneAddrs []string
	// ADB picks the ADB server; ADBPath names the adb binary.
	ADB     ADBMode
	ADBPath string
	// Model configures the offline model server (fault rates, seed, key).
	Model modelserver.Config
	// Life is what the simulated phones do by themselves; the zero value
	// takes the sim keys of Config (off by default).
	Life phonesim.Life
	// Costs is the simulated phones' cost profile; the zero value takes
	// the config's sim.costs (none by default).
	Costs phonesim.Costs
	// Logger receives the stack's logs; nil discards them.
	Logger *slog.Logger
}

// Stack is a running local stack. Workers are started separately:
// StartWorker in this process, NewProcess as a child process.
type Stack struct {
	// Config points a worker or client at this stack: Temporal address,
	// ADB address and the allowed phones, both model URLs, data directory;
	// metrics off.
	Config   config.Config
	Client   client.Client
	Goals    *goalctl.Client
	Models   *modelserver.Server
	ModelURL string
	Phones   []*phonesim.Phone
	Serials  []string // adb serials, Phones[i] is Serials[i]
	ADB      *adb.Client
	ADBAddr  string
	// ADBServer is the adb binary's path, or "built-in".
	ADBServer string

	log    *slog.Logger
	runCtx context.Context
	// modelAddr is where the stack's own model server listens; modelStop
	// stops serving it (nil while it is down).
	modelAddr string
	modelStop func()
	srvOpts   devserver.Options
	life      phonesim.Life
	screen    config.Sim // its Width, Height, Density and Skin shape the phones' screens
	costs     phonesim.Costs
	mu        sync.Mutex
	server    *devserver.Server
	stops     []func()
}

// Start brings a stack up. On error everything already started is stopped.
func Start(ctx context.Context, o Options) (_ *Stack, err error) {
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	adbPath, err := findADB(o.ADB, o.ADBPath)
	if err != nil {
		return nil, err
	}
	s := &Stack{log: log}
	defer func() {
		if err != nil {
			s.Stop()
		}
	}()
	runCtx, cancel := context.WithCancel(context.Background())
	s.runCtx = runCtx
	s.stops = append(s.stops, cancel)

	dir := o.DataDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "phoneflow-stack-"); err != nil {
			return nil, err
		}
		s.stops = append(s.stops, func() { _ = os.RemoveAll(dir) })
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	cfg := config.Default()
	if o.Config != nil {
		cfg = *o.Config
	}
	s.life = o.Life
	s.screen = cfg.Sim
	if s.life == (phonesim.Life{}) {
		s.life = LifeOf(cfg.Sim)
	}
	if s.costs = o.Costs; s.costs == (phonesim.Costs{}) {
		if s.costs, err = phonesim.CostProfile(cfg.Sim.Costs); err != nil {
			return nil, err
		}
	}
	cfg.DataDir = dir
	cfg.PromptMemoryPath = filepath.Join(dir, "prompt_memory.json")
	cfg.Metrics.Address = "" // a team worker may hold the default metrics port
	cfg.Temporal.Embedded.DBFile = ""
	if o.FileDB {
		cfg.Temporal.Embedded.DBFile = filepath.Join(dir, "temporal.db")
	}

	if o.TemporalAddress != "" {
		cfg.Temporal.Address = o.TemporalAddress
	} else if err := s.startServer(ctx, o, &cfg); err != nil {
		return nil, err
	}

	if s.Models, s.ModelURL, err = s.ServeModels(ctx, s.runCtx, o.Model); err != nil {
		return nil, err
	}
	s.stops = append(s.stops, s.StopModels)
	for _, m := range []*config.Model{&cfg.Planner.Endpoint, &cfg.Executor.Endpoint} {
		m.BaseURL = s.ModelURL
		m.APIKey = o.Model.APIKey
	}
	cfg.Planner.Model = config.DefaultPlannerModel
	cfg.Executor.Model = config.DefaultExecutorModel

	if adbPath != "" {
		s.ADBAddr, err = s.startRealADB(ctx, adbPath)
		s.ADBServer = adbPath
	} else {
		s.ADBAddr, err = s.serveBuiltinADB()
		s.ADBServer = "built-in"
	}
	if err != nil {
		return nil, err
	}
	s.ADB = adb.New(adb.Config{Addr: s.ADBAddr})
	cfg.ADB.Address = s.ADBAddr
	cfg.ADB.Connect = nil

	phones := o.Phones
	if phones == 0 {
		phones = 1
	}
	if phones > 0 {
		if s.Phones, s.Serials, err = s.attachPhones(ctx, s.runCtx, s.ADB, phones, o.PhoneAddrs, s.costs); err != nil {
			return nil, err
		}
	}
	cfg.ADB.Allow = append([]string(nil), s.Serials...)
	s.Config = cfg

	copts, err := app.ClientOptions(cfg, log)
	if err != nil {
		return nil, err
	}
	if s.Client, err = client.DialContext(ctx, copts); err != nil {
		return nil, fmt.Errorf("stack: dial the Temporal server at %s: %w", cfg.Temporal.Address, err)
	}
	s.stops = append(s.stops, s.Client.Close)
	ui := ""
	if srv := s.Server(); srv != nil {
		ui = srv.UIURL()
	}
	s.Goals = goalctl.New(s.Client, goalctl.Options{Namespace: cfg.Temporal.Namespace, UIAddress: ui})
	return s, nil
}

// startServer starts the embedded server for o and points cfg at it.
func (s *Stack) startServer(ctx context.Context, o Options, cfg *config.Config) error {
	s.srvOpts = devserver.Options{
		Port:       o.Port,
		UIPort:     -1,
		DBFile:     cfg.Temporal.Embedded.DBFile,
		Namespaces: []string{cfg.Temporal.Namespace},
		Logger:     s.log,
	}
	if o.Port == 0 {
		s.srvOpts.Port = devserver.AnyPort
	}
	if o.WebUI {
		s.srvOpts.UIPort = o.UIPort
	}
	srv, err := devserver.Start(ctx, s.srvOpts)
	if err != nil {
		return err
	}
	s.server = srv
	s.stops = append(s.stops, s.stopServer)
	// Restarts come back on the ports this start picked.
	s.srvOpts.Port = portOf(srv.FrontendAddr())
	cfg.Temporal.Address = srv.FrontendAddr()
	cfg.Temporal.Embedded.Port = s.srvOpts.Port
	cfg.Temporal.Embedded.UIPort = -1
	if u := srv.UIURL(); u != "" {
		s.srvOpts.UIPort = portOf(strings.TrimPrefix(u, "http://"))
		cfg.Temporal.Embedded.UIPort = s.srvOpts.UIPort
	}
	return nil
}

// Server is the running embedded server, or nil while it is stopped.
func (s *Stack) Server() *devserver.Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.server
}

// StartWorker runs a worker for s.Config in this process until the
// returned stop is called; see StartWorkerWith.
func (s *Stack) StartWorker(ctx context.Context) (stop func(), err error) {
	return s.StartWorkerWith(ctx, s.Config)
}

// StartWorkerWith runs a worker for c (a Host's Config, say) in this
// process until the returned stop is called. It returns once the worker
// serves every phone of c's allow-list.
func (s *Stack) StartWorkerWith(ctx context.Context, c config.Config) (stop func(), err error) {
	return s.StartWorkerOptions(ctx, c, app.WorkerOptions{})
}

// StartWorkerOptions is StartWorkerWith with worker options (a drill's
// broken GoalWorkflow, say); the phones are listed again every second.
func (s *Stack) StartWorkerOptions(ctx context.Context, c config.Config, o app.WorkerOptions) (stop func(), err error) {
	o.RelistInterval = time.Second
	w, err := app.StartWorker(ctx, c, s.Client, app.Deps{Logger: s.log}, o)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(2 * time.Minute)
	for len(w.Serials()) < len(c.ADB.Allow) {
		if time.Now().After(deadline) {
			w.Stop()
			return nil, fmt.Errorf("stack: the worker serves %d of %d phones after 2 minutes", len(w.Serials()), len(c.ADB.Allow))
		}
		select {
		case <-ctx.Done():
			w.Stop()
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
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

// RestartServer starts the embedded server again on the same store and
// ports. A port may take a moment to be free again, so it retries for up
// to a minute.
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
			return fmt.Errorf("stack: restart the embedded server: %w", err)
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
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}

// ServeModels serves one more offline model server on a listener of its
// own until life ends or the stack stops, and returns its base URL.
func (s *Stack) ServeModels(ctx, life context.Context, mc modelserver.Config) (*modelserver.Server, string, error) {
	if err := mc.Validate(); err != nil {
		return nil, "", err
	}
	if mc.Logger == nil {
		mc.Logger = s.log
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("stack: listen for the model server: %w", err)
	}
	ms := modelserver.New(mc)
	if s.Models == nil {
		// The stack's own model server: drills take it down and up again.
		s.Models = ms
		s.modelAddr = ln.Addr().String()
		s.serveModels(life, ln)
	} else {
		go func() { _ = ms.Serve(s.both(life), ln) }()
	}
	url := "http://" + ln.Addr().String() + "/v1"
	if err := loopback.WaitHTTP(ctx, url+"/models", 10*time.Second); err != nil {
		return nil, "", fmt.Errorf("stack: the offline model server: %w", err)
	}
	return ms, url, nil
}

// serveBuiltinADB serves a built-in ADB server on a listener of its own.
func (s *Stack) serveBuiltinADB() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("stack: listen for the built-in adb server: %w", err)
	}
	as := adbserver.New(adbserver.Config{Logger: s.log})
	go func() { _ = as.Serve(s.runCtx, ln) }()
	s.stops = append(s.stops, func() { _ = as.Close() })
	return ln.Addr().String(), nil
}

// startRealADB starts a private server of the adb binary. adb takes a port
// number, not a listener: the port comes from loopback.FreePort, and a
// start that loses the port to another process is retried on a new one.
func (s *Stack) startRealADB(ctx context.Context, adbPath string) (string, error) {
	var last error
	for range 3 {
		port, err := loopback.FreePort()
		if err != nil {
			return "", err
		}
		p := strconv.Itoa(port)
		out, err := exec.CommandContext(ctx, adbPath, "-P", p, "start-server").CombinedOutput()
		if err != nil {
			last = fmt.Errorf("stack: `adb -P %s start-server`: %v: %s", p, err, strings.TrimSpace(string(out)))
			continue
		}
		addr := net.JoinHostPort("127.0.0.1", p)
		ac := adb.New(adb.Config{Addr: addr})
		s.stops = append(s.stops, func() {
			kctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := ac.Kill(kctx); err != nil {
				s.log.Warn("could not stop the stack's adb server", "addr", addr, "err", err)
			}
		})
		return addr, nil
	}
	return "", last
}

// serveModels serves the stack's model server on ln until StopModels, life
// or the stack's end.
func (s *Stack) serveModels(life context.Context, ln net.Listener) {
	mctx, cancel := context.WithCancel(s.both(life))
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Models.Serve(mctx, ln) }()
	s.mu.Lock()
	s.modelStop = func() { cancel(); <-done }
	s.mu.Unlock()
}

// StopModels takes the stack's model server down: its port refuses
// connections, as an unreachable model endpoint does, until StartModels.
func (s *Stack) StopModels() {
	s.mu.Lock()
	stop := s.modelStop
	s.modelStop = nil
	s.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// StartModels serves the stack's model server again on the same address,
// retrying for up to a minute while the port is not yet free.
func (s *Stack) StartModels(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	for {
		ln, err := net.Listen("tcp", s.modelAddr)
		if err == nil {
			s.serveModels(context.Background(), ln)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("stack: listen for the model server on %s again: %w", s.modelAddr, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// AddPhones serves n more simulated phones, until life ends or the stack
// stops, and attaches them to the stack's ADB server. They are not in
// s.Config's allow-list.
func (s *Stack) AddPhones(ctx, life context.Context, n int) ([]*phonesim.Phone, []string, error) {
	return s.attachPhones(ctx, life, s.ADB, n, nil, s.costs)
}

// PhoneOptions shape the phones AddPhonesWith adds.
type PhoneOptions struct {
	Costs phonesim.Costs // their cost profile; the zero value answers at once
	Skin  phonesim.Skin  // how Settings and Quick Settings look; "" takes the config's sim.skin
}

// AddPhonesWith is AddPhones with phones shaped by o.
func (s *Stack) AddPhonesWith(ctx, life context.Context, n int, o PhoneOptions) ([]*phonesim.Phone, []string, error) {
	if o.Skin == "" {
		o.Skin = phonesim.Skin(s.screen.Skin)
	}
	return s.attachPhonesOf(ctx, life, s.ADB, n, nil, o)
}

// both ends when life ends or the stack stops.
func (s *Stack) both(life context.Context) context.Context {
	ctx, cancel := context.WithCancel(life)
	context.AfterFunc(s.runCtx, cancel)
	return ctx
}

// attachPhones serves n simulated phones on listeners of their own until
// life ends or the stack stops, and attaches them to the ADB server of ac.
func (s *Stack) attachPhones(ctx, life context.Context, ac *adb.Client, n int, addrs []string, costs phonesim.Costs) ([]*phonesim.Phone, []string, error) {
	return s.attachPhonesOf(ctx, life, ac, n, addrs, PhoneOptions{Costs: costs, Skin: phonesim.Skin(s.screen.Skin)})
}

// attachPhonesOf is attachPhones with phones shaped by o.
func (s *Stack) attachPhonesOf(ctx, life context.Context, ac *adb.Client, n int, addrs []string, o PhoneOptions) ([]*phonesim.Phone, []string, error) {
	life = s.both(life)
	var phones []*phonesim.Phone
	var serials []string
	for range n {
		addr := "127.0.0.1:0"
		if len(addrs) > 0 {
			addr, addrs = addrs[0], addrs[1:]
		}
		ln, err := phonesim.Listen(addr)
		if err != nil {
			return nil, nil, fmt.Errorf("stack: listen for a simulated phone on %s: %w", addr, err)
		}
		serial := ln.Addr().String()
		own := s.life
		own.Seed += uint64(len(phones)) // each phone a life of its own
		p := phonesim.New(phonesim.Config{Serial: serial, Logger: s.log, Life: own, Costs: o.Costs,
			Width: s.screen.Width, Height: s.screen.Height, Density: s.screen.Density, Skin: o.Skin})
		go func() { _ = p.Serve(life, ln) }()
		phones = append(phones, p)
		serials = append(serials, serial)
	}
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for _, serial := range serials {
		if err := ac.Connect(cctx, serial); err != nil {
			return nil, nil, fmt.Errorf("stack: adb connect %s: %w", serial, err)
		}
	}
	for _, serial := range serials {
		if err := ac.WaitForDevice(cctx, serial); err != nil {
			return nil, nil, fmt.Errorf("stack: simulated phone %s did not come up in adb: %w", serial, err)
		}
	}
	return phones, serials, nil
}

// LifeOf is the simulated phones' own behaviour the sim keys describe
// (docs/design.md §15).
func LifeOf(c config.Sim) phonesim.Life {
	return phonesim.Life{Seed: uint64(c.Seed), Messages: c.Messages, Dialogs: c.Dialogs, ScreenTimeout: c.ScreenTimeout, PIN: c.PIN}
}

// findADB resolves the adb binary for mode; "" means the built-in server.
func findADB(mode ADBMode, path string) (string, error) {
	if mode == BuiltinADB {
		return "", nil
	}
	name := path
	if name == "" {
		name = "adb"
	}
	p, err := exec.LookPath(name)
	switch {
	case err == nil:
		return p, nil
	case mode == AnyADB && path == "":
		return "", nil
	case path != "":
		return "", fmt.Errorf("%w: %s", ErrNoADB, path)
	default:
		return "", ErrNoADB
	}
}

// portOf is the port of a host:port the stack itself bound.
func portOf(addr string) int {
	_, p, _ := net.SplitHostPort(addr)
	n, _ := strconv.Atoi(p)
	return n
}
