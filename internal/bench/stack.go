package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack"
)

// ErrNoADB means the adb binary is missing; the suite drives its simulated
// phones through a real adb server.
var ErrNoADB = errors.New("adb is not installed: the benchmarks drive simulated phones through a real adb server; install it (Debian/Ubuntu: `sudo apt-get install adb`) or pass --adb PATH")

// Stack is the part shared by every measurement: an in-memory embedded
// Temporal server, a client, and a private adb server, from package stack.
type Stack struct {
	Server  *devserver.Server
	Client  client.Client
	ADB     *adb.Client
	ADBAddr string
	Dir     string // scratch directory for blobs and prompt memory
	log     *slog.Logger
	st      *stack.Stack
	stops   []func()
	// Skin is the look of the phones an EnvOptions without one gets; ""
	// keeps the stack's configured sim.skin.
	Skin phonesim.Skin
}

// StartStack brings up the shared part. adbPath empty means adb on PATH.
// fileStore keeps the embedded server's store in a SQLite file in the
// stack's directory, as `worker --dev` does, instead of in memory.
func StartStack(ctx context.Context, adbPath string, fileStore bool, log *slog.Logger) (_ *Stack, err error) {
	if log == nil {
		log = slog.Default()
	}
	st, err := stack.Start(ctx, stack.Options{Phones: -1, ADB: stack.RealADB, ADBPath: adbPath, Logger: log, FileDB: fileStore})
	if errors.Is(err, stack.ErrNoADB) {
		return nil, ErrNoADB
	}
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	s := &Stack{Server: st.Server(), Client: st.Client, ADB: st.ADB, ADBAddr: st.ADBAddr, Dir: st.Config.DataDir, log: log, st: st}
	s.stops = append(s.stops, st.Stop)
	return s, nil
}

// Stop shuts the stack down.
func (s *Stack) Stop() {
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}

func (s *Stack) baseConfig() config.Config { return s.st.Config }

// EnvOptions describe one measurement's phones and models.
type EnvOptions struct {
	Phones int                // simulated phones; 0 means 1
	Model  modelserver.Config // offline model server behaviour
	// NoWorker leaves the worker out (for measurements that call the
	// activity code directly).
	NoWorker bool
	// Protocol is the executor request layout (one of config.Protocols;
	// the offline server answers each in its grammar); empty keeps the
	// configured default.
	Protocol string
	// Costs is the phones' cost profile; the zero value answers at once.
	Costs phonesim.Costs
	// Skin is how the phones' Settings and Quick Settings look; "" takes
	// the stack's configured sim.skin.
	Skin phonesim.Skin
	// Settle replaces the worker's wait after each action when its Mode
	// is set.
	Settle config.Settle
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
	if o.Skin == "" {
		o.Skin = s.Skin
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

	if e.Model, e.ModelURL, err = s.st.ServeModels(ctx, runCtx, o.Model); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if e.Phones, e.Serials, err = s.st.AddPhonesWith(ctx, runCtx, o.Phones, stack.PhoneOptions{Costs: o.Costs, Skin: o.Skin}); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	for _, serial := range e.Serials {
		e.stops = append(e.stops, func() {
			dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_ = s.ADB.Disconnect(dctx, serial)
		})
	}

	cfg := s.baseConfig()
	cfg.ADB.Allow = append([]string(nil), e.Serials...)
	for _, m := range []*config.Model{&cfg.Planner.Endpoint, &cfg.Executor.Endpoint} {
		m.BaseURL = e.ModelURL
		m.APIKey = o.Model.APIKey
	}
	if o.Protocol != "" {
		cfg.Executor.Protocol = o.Protocol
	}
	// The offline executor reads the screen from the element list only,
	// so it gets the list in every layout.
	cfg.Executor.UIElements = "true"
	if o.Settle.Mode != "" {
		cfg.Settle = o.Settle
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

// PromptMemoryPath is the prompt memory file every worker of the stack
// shares.
func (s *Stack) PromptMemoryPath() string { return s.baseConfig().PromptMemoryPath }
