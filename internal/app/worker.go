package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/internal/retention"
	"github.com/phoneflow/phoneflow/internal/viewer"
	"github.com/phoneflow/phoneflow/workflows"
)

// Register registers phoneflow's workflows and activities on a worker.
// Every worker, shared or per phone, registers the same set: the task queue
// decides what it runs.
func Register(r worker.Registry, acts *activities.Activities, leases *activities.LeaseActivities) {
	register(r, acts, leases, nil)
}

// register is Register with goal, when set, registered under GoalWorkflow's
// name instead of it (WorkerOptions.GoalWorkflow).
func register(r worker.Registry, acts *activities.Activities, leases *activities.LeaseActivities, goal any) {
	if goal != nil {
		r.RegisterWorkflowWithOptions(goal, workflow.RegisterOptions{Name: goalctl.GoalWorkflowName})
	} else {
		r.RegisterWorkflow(workflows.GoalWorkflow)
	}
	r.RegisterWorkflow(workflows.TodoWorkflow)
	r.RegisterWorkflow(workflows.DeviceLeaseWorkflow)
	r.RegisterWorkflowWithOptions(workflows.FanOutWorkflow, workflow.RegisterOptions{Name: workflows.FanOutWorkflowName})
	r.RegisterWorkflowWithOptions(workflows.PhoneRecordWorkflow, workflow.RegisterOptions{Name: workflows.PhoneRecordWorkflowType})
	r.RegisterWorkflowWithOptions(workflows.PhoneReservationWorkflow, workflow.RegisterOptions{Name: workflows.PhoneReservationWorkflowType})
	r.RegisterActivity(acts)
	r.RegisterActivityWithOptions(acts.Notifier.Notify, activity.RegisterOptions{Name: activities.NameNotify})
	r.RegisterActivity(leases)
}

// LeaseActivities builds the lease activities of a worker: its client,
// namespace, and the bounds it gives the leases it starts.
func LeaseActivities(cfg config.Config, c client.Client) *activities.LeaseActivities {
	dc, err := DataConverter(cfg)
	if err != nil {
		dc = nil // the client was built with the same keys: it cannot fail here
	}
	return &activities.LeaseActivities{Client: c, Namespace: cfg.Temporal.Namespace,
		CheckInterval: cfg.Limits.LeaseCheckInterval, BlockedAfter: cfg.Limits.BlockedHolderAfter, DataConverter: dc}
}

// Default timings of a Worker.
const (
	DefaultRelistInterval = 10 * time.Second
	DefaultStopTimeout    = 30 * time.Second
)

// WorkerOptions tune StartWorker; the zero value takes the defaults.
type WorkerOptions struct {
	// RelistInterval is how often the ADB server's phones are listed again
	// to pick up phones that appear.
	RelistInterval time.Duration
	// StopTimeout is how long in-flight activities get to finish on
	// shutdown before they are abandoned (their retries run elsewhere).
	StopTimeout time.Duration
	// GoalWorkflow, when set, is registered under GoalWorkflow's name
	// instead of workflows.GoalWorkflow: drills play a broken deploy with it.
	GoalWorkflow any
	// Identity is the worker process's identity; empty takes the SDK's
	// default, pid@host@. A phone's worker adds the phone's identity
	// ("…@phone=R58M123ABC"), so other workers can tell which phone it
	// serves (docs/design.md §5).
	Identity string
	// Hooks and Gates join Deps' (docs/design.md §10): Go code told every
	// event of this worker's goals, and asked before every device action.
	Hooks []hooks.Hook
	Gates []hooks.Gate
}

// Worker serves the shared task queue and one task queue per allowed phone.
type Worker struct {
	c      client.Client
	acts   *activities.Activities
	leases *activities.LeaseActivities
	goal   any // WorkerOptions.GoalWorkflow
	allow  []string
	labels config.ADB // adb.labels, published with each phone's facts
	opts   worker.Options
	log    *slog.Logger

	ctl      *goalctl.Client
	identity string

	mu      sync.Mutex
	main    worker.Worker
	devices map[string]worker.Worker
	lastErr string
	// refused are the phones another live worker serves, with why.
	refused map[string]string

	cancel context.CancelFunc
	done   chan struct{}
	bg     sync.WaitGroup // background passes such as blob retention
	once   sync.Once
}

// StartWorker builds the activities (unless deps carries them), connects
// the network phones of adb.connect, serves metrics on metrics.address,
// starts the shared worker on workflows.TaskQueue and one worker per ready,
// allowed phone on workflows.DeviceTaskQueue(serial), and keeps re-listing
// phones and collecting old blobs (every blobs.gc_interval) until Stop.
func StartWorker(ctx context.Context, cfg config.Config, c client.Client, deps Deps, o WorkerOptions) (*Worker, error) {
	if o.RelistInterval <= 0 {
		o.RelistInterval = DefaultRelistInterval
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = DefaultStopTimeout
	}
	log := deps.logger()
	// Goals are started with phoneflow's search attributes: register them
	// where the cluster allows it, else say what to run (docs/design.md §14).
	if err := EnsureSearchAttributes(ctx, c.OperatorService(), c.WorkflowService(), cfg.Temporal.Namespace, log); err != nil {
		return nil, err
	}
	deps.Hooks = append(slices.Clone(deps.Hooks), o.Hooks...)
	deps.Gates = append(slices.Clone(deps.Gates), o.Gates...)
	acts, err := NewActivities(ctx, cfg, deps)
	if err != nil {
		return nil, err
	}
	if len(cfg.ADB.Connect) > 0 {
		serials, err := device.ConnectAll(ctx, ADBClient(cfg, deps), cfg.ADB.Connect)
		if err != nil {
			// A phone that is not reachable now may come later; the
			// re-listing picks it up once someone connects it.
			log.Warn("some network phones could not be connected", "error", err)
		}
		if len(serials) > 0 {
			log.Info("connected network phones", "serials", serials)
		}
	}
	if o.GoalWorkflow == nil {
		// Goals started without phoneflow's client take this config's
		// options for what their input leaves out (docs/design.md §2).
		o.GoalWorkflow = workflows.NewGoalWorkflow(GoalDefaults(cfg, time.Now()))
	}
	wctx, cancel := context.WithCancel(context.Background())
	w := &Worker{
		c: c, acts: acts, leases: LeaseActivities(cfg, c), goal: o.GoalWorkflow, allow: cfg.ADB.Allow, labels: cfg.ADB, log: log,
		// Every worker takes signals in arrival order (docs/design.md §6).
		opts:    worker.Options{WorkerStopTimeout: o.StopTimeout, Interceptors: workflows.Interceptors(), Identity: o.Identity},
		devices: map[string]worker.Worker{}, refused: map[string]string{},
		cancel: cancel, done: make(chan struct{}),
		ctl:      goalctl.New(c, goalctl.Options{Namespace: cfg.Temporal.Namespace}),
		identity: o.Identity,
	}
	if w.identity == "" {
		w.identity = defaultIdentity()
	}
	if cfg.Metrics.Address != "" {
		vo, err := ViewerOptions(cfg, c, nil, log)
		if err != nil {
			cancel()
			return nil, err
		}
		addr, err := metrics.Serve(wctx, LoopbackDefault(cfg.Metrics.Address), func(mux *http.ServeMux, addr string) {
			MountViewer(mux, addr, vo)
		})
		if err != nil {
			cancel()
			return nil, err
		}
		log.Info("serving metrics and the step viewer", "metrics", "http://"+addr+"/metrics", "viewer", "http://"+linkHost(addr)+viewer.Path+"<goal id>")
	}
	if fs, ok := acts.Blobs.(*blob.FS); ok && cfg.Blobs.GCInterval > 0 {
		col := &retention.Collector{
			Store: fs, Goals: VisibilityGoals(c, cfg.Temporal.Namespace),
			Retention: cfg.Blobs.Retention, Logger: log,
		}
		w.bg.Add(1)
		go func() { defer w.bg.Done(); col.Run(wctx, cfg.Blobs.GCInterval) }()
	}
	w.main = worker.New(c, workflows.TaskQueue, w.opts)
	register(w.main, acts, w.leases, w.goal)
	if err := w.main.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("start the worker on task queue %s: %w", workflows.TaskQueue, err)
	}
	log.Info("worker started", "task_queue", workflows.TaskQueue, "namespace", cfg.Temporal.Namespace)
	w.refresh(ctx)
	go func() {
		defer close(w.done)
		t := time.NewTicker(o.RelistInterval)
		defer t.Stop()
		for {
			select {
			case <-wctx.Done():
				return
			case <-t.C:
				w.refresh(wctx)
			}
		}
	}()
	return w, nil
}

// refresh lists the phones and starts a worker for each new ready one. A
// phone that goes away keeps its worker: its activities fail as retryable
// until it is back.
func (w *Worker) refresh(ctx context.Context) {
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	infos, err := w.acts.Devices.List(lctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		if msg := err.Error(); msg != w.lastErr {
			w.lastErr = msg
			w.log.Warn("cannot list phones; goals wait until the ADB server answers", "error", err)
		}
		return
	}
	w.lastErr = ""
	for _, in := range infos {
		if in.State != adb.StateDevice || w.devices[in.Serial] != nil {
			continue
		}
		if len(w.allow) > 0 && !slices.Contains(w.allow, in.Serial) {
			continue
		}
		if ctx.Err() != nil {
			return
		}
		cctx, ccancel := context.WithTimeout(ctx, 15*time.Second)
		phone, uerr := w.phoneIdentity(cctx, in.Serial)
		if uerr != nil {
			// Too old an Android: refuse it rather than misread it.
			ccancel()
			if w.refused[in.Serial] != uerr.Error() {
				w.log.Error("not serving the phone", "serial", in.Serial, "error", uerr)
			}
			w.refused[in.Serial] = uerr.Error()
			continue
		}
		why, err := w.servedElsewhere(cctx, in.Serial, phone)
		ccancel()
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			// The cluster cannot say who serves the phone: serve it
			// rather than leave it unserved; the log says so.
			w.log.Warn("cannot tell whether another worker serves the phone; serving it", "serial", in.Serial, "error", err)
		}
		if why != "" {
			if w.refused[in.Serial] != why {
				w.log.Error(why, "serial", in.Serial, "phone", phone)
			}
			w.refused[in.Serial] = why
			continue
		}
		delete(w.refused, in.Serial)
		q := workflows.DeviceTaskQueue(in.Serial)
		opts := w.opts
		opts.Identity = phoneWorkerIdentity(w.identity, phone, w.journalDir())
		dw := worker.New(w.c, q, opts)
		register(dw, w.acts, w.leases, w.goal)
		if err := dw.Start(); err != nil {
			w.log.Error("cannot serve phone", "serial", in.Serial, "task_queue", q, "error", err)
			continue
		}
		w.devices[in.Serial] = dw
		w.log.Info("serving phone", "serial", in.Serial, "phone", phone, "model", in.Model, "task_queue", q)
		w.publish(ctx, in.Serial, opts.Identity)
	}
	metrics.DevicesServed(len(w.devices))
}

// Serials returns the phones served, sorted.
func (w *Worker) Serials() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.devices))
	for s := range w.devices {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Stop stops re-listing and all workers. In-flight activities get the stop
// timeout to finish; what does not finish is retried by Temporal on the
// next worker. Safe to call more than once.
func (w *Worker) Stop() {
	w.once.Do(func() {
		w.cancel()
		<-w.done
		w.bg.Wait()
		w.mu.Lock()
		all := []worker.Worker{w.main}
		for _, dw := range w.devices {
			all = append(all, dw)
		}
		w.mu.Unlock()
		var wg sync.WaitGroup
		for _, x := range all {
			wg.Add(1)
			go func() { defer wg.Done(); x.Stop() }()
		}
		wg.Wait()
		w.log.Info("worker stopped", "phones", len(all)-1)
	})
}

// RunWorker runs StartWorker until ctx ends, then stops gracefully.
func RunWorker(ctx context.Context, cfg config.Config, c client.Client, deps Deps) error {
	w, err := StartWorker(ctx, cfg, c, deps, WorkerOptions{})
	if err != nil {
		return err
	}
	<-ctx.Done()
	w.Stop()
	return nil
}

// WorkerRunner runs a worker in process as `starter worker` would, logging
// to logger: demo.Options.Worker of an in-process stack.
func WorkerRunner(logger *slog.Logger) func(context.Context, config.Config, client.Client) error {
	return func(ctx context.Context, cfg config.Config, c client.Client) error {
		return RunWorker(ctx, cfg, c, Deps{Logger: logger})
	}
}
