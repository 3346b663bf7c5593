package workflows

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// order records what happened in which order, in one list shared by the
// activities (their own goroutines) and the workflows: the tests assert
// on the order, never on clocks.
type order struct {
	mu     sync.Mutex
	events []string // in the order they happened
	// stepEnded is set when the Step activity's function has returned.
	stepEnded atomic.Bool
	// waitOpts are the WaitForCancellation of every Step scheduled.
	waitOpts []bool
}

func (o *order) add(what string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, what)
}

// at is the 1-based place of the first event named what (0: none).
func (o *order) at(what string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Index(o.events, what) + 1
}

func (o *order) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return strings.Join(o.events, ", ")
}

// serverCancel puts back, in the time-skipping environment, what the
// Temporal server does when a workflow cancels an activity sent with
// WaitForCancellation: the activity's result comes back only once the
// attempt has ended. The environment (SDK v1.50.0) resolves a cancelled
// activity at once whatever WaitForCancellation says, while the activity
// function still runs; without this interceptor the tests below could not
// tell a todo that waits for its Step from one that does not. Activities
// sent without WaitForCancellation keep the environment's behaviour, which
// is the server's for them.
type serverCancel struct {
	interceptor.WorkerInterceptorBase
	o *order
	// deadWorker: the Step's worker is gone (it never heartbeats again):
	// the server ends the cancelled attempt at its heartbeat timeout, with
	// a heartbeat timeout error, and does not retry it (a cancel was
	// requested).
	deadWorker bool
}

func (s *serverCancel) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &serverCancelInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, s: s}
}

type serverCancelInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	s *serverCancel
}

func (i *serverCancelInbound) Init(outbound interceptor.WorkflowOutboundInterceptor) error {
	return i.Next.Init(&serverCancelOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: outbound}, s: i.s})
}

func (i *serverCancelInbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	res, err := i.Next.ExecuteWorkflow(ctx, in)
	if workflow.GetInfo(ctx).WorkflowType.Name == "TodoWorkflow" {
		i.s.o.add("todo-closed")
	}
	return res, err
}

type serverCancelOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	s *serverCancel
}

func (o *serverCancelOutbound) ExecuteActivity(ctx workflow.Context, typ string, args ...any) workflow.Future {
	f := o.Next.ExecuteActivity(ctx, typ, args...)
	if typ != activities.NameStep {
		return f
	}
	opts := workflow.GetActivityOptions(ctx)
	o.s.o.mu.Lock()
	o.s.o.waitOpts = append(o.s.o.waitOpts, opts.WaitForCancellation)
	o.s.o.mu.Unlock()
	if !opts.WaitForCancellation {
		return f
	}
	res, set := workflow.NewFuture(ctx)
	workflow.Go(ctx, func(gctx workflow.Context) {
		dctx, cancel := workflow.NewDisconnectedContext(gctx)
		defer cancel()
		err := f.Get(dctx, nil)
		if err == nil || !temporal.IsCanceledError(err) || ctx.Err() == nil {
			set.Chain(f)
			return
		}
		// Resolved early by the environment: wait for what the server
		// waits for. Timers fire only while no activity runs, so a poll
		// ends only after the Step function has returned.
		if o.s.deadWorker {
			_ = workflow.Sleep(dctx, deviceHeartbeatTimeout)
			o.s.o.add("step-timed-out")
			set.Set(nil, temporal.NewHeartbeatTimeoutError())
			return
		}
		for !o.s.o.stepEnded.Load() {
			_ = workflow.Sleep(dctx, time.Second)
		}
		set.Set(nil, err)
	})
	return res
}

// TestCancelledGoalReleasesPhoneAfterStepStopped cancels a goal while its
// todo's Step runs and requires the phone's release to come after the
// Step stopped (docs/design.md §5): for a Step that returns a while after
// it learns of the cancel, and for one whose worker is gone (the attempt
// ends at its heartbeat timeout). The todo must not try the step again,
// and the goal closes as Canceled.
func TestCancelledGoalReleasesPhoneAfterStepStopped(t *testing.T) {
	for _, dead := range []bool{false, true} {
		name := "step returns on cancel"
		if dead {
			name = "worker gone"
		}
		t.Run(name, func(t *testing.T) {
			o := &order{}
			f := &fakeWorld{scripts: map[string][]autoglm.Action{"send": {tap(1, 1), finish("sent")}}}
			env := newEnv(t, f)
			env.SetWorkerOptions(onLoadedMachine(worker.Options{
				Interceptors: []interceptor.WorkerInterceptor{&serverCancel{o: o, deadWorker: dead}},
			}))
			var calls atomic.Int32
			// What the Step's next heartbeat would tell it: the cancel.
			told := make(chan struct{})
			var tell sync.Once
			env.SetOnActivityCanceledListener(func(*activity.Info) { tell.Do(func() { close(told) }) })
			step := func(ctx context.Context, in activities.StepInput) (activities.StepResult, error) {
				if calls.Add(1) > 1 {
					o.add("step-tried-again")
					return activities.StepResult{}, errors.New("tried again after the cancel")
				}
				o.add("step-started")
				if dead {
					// The worker took the task and died: no heartbeat, no
					// result, ever.
					return activities.StepResult{}, activity.ErrResultPending
				}
				env.CancelWorkflow()
				select {
				case <-told:
				case <-ctx.Done():
				}
				o.add("step-saw-cancel")
				// Stopping takes a while (an adb command or a model call
				// ending with the context).
				time.Sleep(200 * time.Millisecond)
				o.add("step-returned")
				o.stepEnded.Store(true)
				return activities.StepResult{}, ctx.Err()
			}
			env.RegisterActivityWithOptions(step, activity.RegisterOptions{Name: activities.NameStep, DisableAlreadyRegisteredCheck: true})
			if dead {
				env.RegisterDelayedCallback(env.CancelWorkflow, 5*time.Second)
			}
			DeviceLease = func(ctx workflow.Context, serial, goalID string, wait bool, waiting func(string)) (func(workflow.Context), error) {
				o.add("acquire")
				return func(workflow.Context) { o.add("release") }, nil
			}
			env.ExecuteWorkflow(GoalWorkflow, GoalInput{Goal: "send", Device: "emu-1", Options: GoalOptions{Plan: []string{"send"}}})
			if !env.IsWorkflowCompleted() {
				t.Fatal("goal did not complete")
			}
			var r GoalResult
			if err := env.GetWorkflowError(); !temporal.IsCanceledError(err) || !CanceledResult(err, &r) || r.Status != GoalCancelled {
				t.Fatalf("goal ended with %v (%+v), want Canceled with its result", err, r)
			}
			if len(o.waitOpts) == 0 || slices.Contains(o.waitOpts, false) {
				t.Fatalf("Step sent with WaitForCancellation = %v, want true for every Step", o.waitOpts)
			}
			stopped := "step-returned"
			if dead {
				stopped = "step-timed-out"
			}
			st, closed, rel := o.at(stopped), o.at("todo-closed"), o.at("release")
			if o.at("step-tried-again") != 0 || st == 0 || closed == 0 || rel == 0 || !(st < closed && closed < rel) {
				t.Fatalf("order: %s; want %s, then todo-closed, then release, and the step not tried again", o, stopped)
			}
		})
	}
}
