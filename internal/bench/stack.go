package bench

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
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/loopback"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// ErrNoADB means the adb binary is missing; the suite drives its simulated
// phones through a real adb server.
var ErrNoADB = errors.New("adb is not installed: the benchmarks drive simulated phones through a real adb server; install it (Debian/Ubuntu: `sudo apt-get install adb`) or pass --adb PATH")

// Stack is the part shared by every measurement: an in-memory embedded
// Temporal server, a client, and a private adb server.
type Stack struct {
	Server  *devserver.Server
	Client  client.Client
	ADB     *adb.Client
	ADBAddr string
	Dir     string // scratch directory for blobs and prompt memory
	log     *slog.Logger
	stops   []func()
}

// StartStack brings up the shared part. adbPath empty means adb on PATH.
func StartStack(ctx context.Context, adbPath string, log *slog.Logger) (_ *Stack, err error) {
	if log == nil {
		log = slog.Default()
	}
	if adbPath == "" {
		adbPath = "adb"
	}
	if adbPath, err = exec.LookPath(adbPath); err != nil {
		return nil, ErrNoADB
	}
	s := &Stack{log: log}
	defer func() {
		if err != nil {
			s.Stop()
		}
	}()
	if s.Dir, err = os.MkdirTemp("", "phoneflow-bench-"); err != nil {
		return nil, err
	}
	s.stops = append(s.stops, func() { _ = os.RemoveAll(s.Dir) })

	port, err := loopback.FreePort()
	if err != nil {
		return nil, err
	}
	s.Server, err = devserver.Start(ctx, devserver.Options{Port: port, UIPort: -1, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("bench: start the embedded Temporal server: %w", err)
	}
	s.stops = append(s.stops, s.Server.Stop)

	aport, err := loopback.FreePort()
	if err != nil {
		return nil, err
	}
	s.ADBAddr = net.JoinHostPort("127.0.0.1", strconv.Itoa(aport))
	out, err := exec.CommandContext(ctx, adbPath, "-P", strconv.Itoa(aport), "start-server").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("bench: `adb -P %d start-server` failed: %v: %s", aport, err, strings.TrimSpace(string(out)))
	}
	s.ADB = adb.New(adb.Config{Addr: s.ADBAddr})
	s.stops = append(s.stops, func() {
		kctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s.ADB.Kill(kctx)
	})

	cfg := s.baseConfig()
	opts, err := app.ClientOptions(cfg, log)
	if err != nil {
		return nil, err
	}
	if s.Client, err = client.DialContext(ctx, opts); err != nil {
		return nil, fmt.Errorf("bench: dial the embedded server: %w", err)
	}
	s.stops = append(s.stops, s.Client.Close)
	return s, nil
}

// Stop shuts the stack down.
func (s *Stack) Stop() {
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}

func (s *Stack) baseConfig() config.Config {
	cfg := config.Default()
	cfg.Temporal.Address = s.Server.FrontendAddr()
	cfg.DataDir = s.Dir
	cfg.PromptMemoryPath = filepath.Join(s.Dir, "prompt_memory.json")
	cfg.ADB.Address = s.ADBAddr
	cfg.Metrics.Address = ""
	return cfg
}

// EnvOptions describe one measurement's phones and models.
type EnvOptions struct {
	Phones int                // simulated phones; 0 means 1
	Model  modelserver.Config // offline model server behaviour
	// NoWorker leaves the worker out (for measurements that call the
	// activity code directly).
	NoWorker bool
	// Protocol is the executor request layout (config.ProtocolAutoGLM or
	// config.ProtocolPhoneflow); empty keeps the configured default.
	Protocol string
}

// Env is one measurement's phones, model server and worker.
type Env struct {
	Phones   []*phonesim.Phone
	Serials  []string
	ModelURL string
	Model    *modelserver.Server // its Stats count the model calls
	Config   config.Config
	Acts     *activities.Activities // the activity code, built like the worker's
	Worker   *app.Worker
	stops    []func()
}

// Stop stops the worker, disconnects the phones and stops the servers.
func (e *Env) Stop() {
	for i := len(e.stops) - 1; i >= 0; i-- {
		e.stops[i]()
	}
	e.stops = nil
}

// StartEnv starts phones, a model server and (unless NoWorker) a worker
// serving exactly those phones.
func (s *Stack) StartEnv(ctx context.Context, o EnvOptions) (_ *Env, err error) {
	if o.Phones <= 0 {
		o.Phones = 1
	}
	if err := o.Model.Validate(); err != nil {
		return nil, err
	}
	e := &Env{}
	defer func() {
		if err != nil {
			e.Stop()
		}
	}()
	runCtx, cancel := context.WithCancel(context.Background())
	e.stops = append(e.stops, cancel)

	mln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("bench: listen for the model server: %w", err)
	}
	ms := modelserver.New(o.Model)
	e.Model = ms
	go func() { _ = ms.Serve(runCtx, mln) }()
	e.ModelURL = "http://" + mln.Addr().String() + "/v1"
	if err := loopback.WaitHTTP(ctx, e.ModelURL+"/models", 10*time.Second); err != nil {
		return nil, fmt.Errorf("bench: the offline model server: %w", err)
	}

	for range o.Phones {
		ln, err := phonesim.Listen("127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("bench: listen for a simulated phone: %w", err)
		}
		serial := ln.Addr().String()
		p := phonesim.New(phonesim.Config{Serial: serial})
		go func() { _ = p.Serve(runCtx, ln) }()
		e.Phones = append(e.Phones, p)
		e.Serials = append(e.Serials, serial)
	}
	cctx, ccancel := context.WithTimeout(ctx, 2*time.Minute)
	defer ccancel()
	for _, serial := range e.Serials {
		if err := s.ADB.Connect(cctx, serial); err != nil {
			return nil, fmt.Errorf("bench: adb connect %s: %w", serial, err)
		}
		e.stops = append(e.stops, func() {
			dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = s.ADB.Disconnect(dctx, serial)
		})
	}
	for _, serial := range e.Serials {
		if err := s.ADB.WaitForDevice(cctx, serial); err != nil {
			return nil, fmt.Errorf("bench: simulated phone %s did not come up in adb: %w", serial, err)
		}
	}

	cfg := s.baseConfig()
	cfg.ADB.Allow = append([]string(nil), e.Serials...)
	for _, m := range []*config.Model{&cfg.Planner, &cfg.Executor.Endpoint} {
		m.BaseURL = e.ModelURL
		m.APIKey = ""
	}
	if o.Protocol != "" {
		cfg.Executor.Protocol = o.Protocol
	}
	e.Config = cfg
	if e.Acts, err = app.NewActivities(ctx, cfg, app.Deps{Logger: s.log}); err != nil {
		return nil, err
	}
	if o.NoWorker {
		return e, nil
	}
	w, err := app.StartWorker(ctx, cfg, s.Client, app.Deps{Logger: s.log, Activities: e.Acts}, app.WorkerOptions{RelistInterval: time.Second})
	if err != nil {
		return nil, err
	}
	e.Worker = w
	e.stops = append(e.stops, w.Stop)
	// Wait until every phone has its own worker.
	deadline := time.Now().Add(2 * time.Minute)
	for len(w.Serials()) < len(e.Serials) {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("bench: the worker serves %d of %d phones after 2 minutes", len(w.Serials()), len(e.Serials))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
	return e, nil
}
