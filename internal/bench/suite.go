package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Measurement names, for --only.
const (
	MeasureOverhead   = "overhead"
	MeasureHistory    = "history"
	MeasureScale      = "scale"
	MeasureScreenshot = "screenshot"
	MeasureSettle     = "settle"
	MeasureRobustness = "robustness"
	MeasureCost       = "cost"
	MeasurePhoneWait  = "phone-wait"
	MeasurePhoneCosts = "phone-costs"
	MeasureFanOut20   = "fanout-20"
)

// Measurements lists every measurement in the order the report shows them.
var Measurements = []string{MeasureOverhead, MeasureHistory, MeasureScale, MeasureScreenshot, MeasureSettle, MeasureRobustness, MeasureCost, MeasurePhoneWait, MeasurePhoneCosts, MeasureFanOut20}

// Options configure Run.
type Options struct {
	Runs    int    // repetitions per measurement; 0 means 5 (1 when Quick)
	Quick   bool   // one run, 1 and 5 phones, fewer seeds: for tests
	Only    string // run only this measurement (one of Measurements); empty = all
	ADBPath string // adb binary; empty = adb on PATH
	Command string // the command line, for the report
	Logger  *slog.Logger
	// CPUProfile, when set, is the path prefix of CPU profiles the
	// overhead measurement writes: one per path, model latency and run
	// (PREFIX-200ms-temporal-1.pprof), to see where a step's time goes.
	CPUProfile string
	// FileStore keeps the embedded Temporal server's store in a SQLite
	// file (write-ahead log, a sync to disk per commit), as `worker --dev`
	// and `starter demo` do; by default it is in memory.
	FileStore bool
	// Progress, when set, receives one line per finished piece of work.
	Progress func(string)
	// Skin is how the measured phones look (docs/phones.md#skins); ""
	// keeps the stack's configured sim.skin.
	Skin phonesim.Skin
}

func (o Options) withDefaults() Options {
	if o.Runs <= 0 {
		o.Runs = 5
		if o.Quick {
			o.Runs = 1
		}
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Progress == nil {
		o.Progress = func(string) {}
	}
	return o
}

// Validate reports options that cannot run.
func (o Options) Validate() error {
	if o.Only != "" && !slices.Contains(Measurements, o.Only) {
		return fmt.Errorf("unknown measurement %q: use one of %s", o.Only, strings.Join(Measurements, ", "))
	}
	if o.Runs < 0 {
		return errors.New("runs must be 1 or more")
	}
	return nil
}

// Run runs the suite and returns the report, one Section per measurement.
// A measurement that fails is listed under Report.Errors (and its
// Section's Err); the others still run.
func Run(ctx context.Context, o Options) (*Report, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	rep := &Report{Machine: ReadMachine(), Date: time.Now(), Command: o.Command, Runs: o.Runs, Code: Commit(), FileStore: o.FileStore}
	loadStart := LoadAvg()
	st, err := StartStack(ctx, o.ADBPath, o.FileStore, o.Logger)
	if err != nil {
		return nil, err
	}
	st.Skin = o.Skin
	defer st.Stop()
	r := &runner{st: st, o: o}
	steps := []struct {
		name string
		fn   func(context.Context) ([]Table, error)
	}{
		{MeasureOverhead, r.overhead},
		{MeasureHistory, r.history},
		{MeasureScale, r.scale},
		{MeasureScreenshot, r.screenshot},
		{MeasureSettle, r.settle},
		{MeasureRobustness, r.robustness},
		{MeasureCost, r.cost},
		{MeasurePhoneWait, r.phoneWait},
		{MeasurePhoneCosts, r.phoneCosts},
		{MeasureFanOut20, r.fanOut20},
	}
	for _, s := range steps {
		if o.Only != "" && o.Only != s.name {
			continue
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		began, load := time.Now(), LoadAvg()
		ts, err := s.fn(ctx)
		sec := Section{Name: s.name, Began: began, Tables: ts}
		if load != "" {
			sec.Load = fmt.Sprintf("%s at start, %s at end", load, LoadAvg())
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			sec.Err = err.Error()
			rep.Errors = append(rep.Errors, fmt.Sprintf("%s: %v", s.name, err))
		}
		rep.Sections = append(rep.Sections, sec)
		o.Progress(fmt.Sprintf("%s done in %s", s.name, time.Since(began).Round(time.Second)))
	}
	rep.Load = fmt.Sprintf("%s at start, %s at end", loadStart, LoadAvg())
	return rep, nil
}

// runner carries the shared stack through the measurements.
type runner struct {
	st  *Stack
	o   Options
	seq atomic.Int64
}

// id returns a fresh workflow id.
func (r *runner) id(kind string) string {
	return fmt.Sprintf("bench-%s-%d-%d", kind, time.Now().UnixNano()%1e9, r.seq.Add(1))
}

// runGoal runs a GoalWorkflow to its end.
func (r *runner) runGoal(ctx context.Context, id, goal, serial string, opts workflows.GoalOptions) (workflows.GoalResult, error) {
	opts.Resolved = true // the benchmark's options, no worker defaults
	return runWorkflow[workflows.GoalResult](ctx, r.st, id, workflows.TaskQueue, workflows.GoalWorkflow,
		workflows.GoalInput{Goal: goal, Device: serial, Options: opts})
}
