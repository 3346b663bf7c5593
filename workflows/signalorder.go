package workflows

import (
	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/workflow"
)

// ChangeSignalArrivalOrder versions how a goal and a todo take plain
// steering signals of different names that arrive together (docs/design.md
// §6): in the order they arrived, as the worker's SignalOrder interceptor
// numbered them, instead of in a fixed order of names. A run records
// version 1 only when its first workflow task ran on a worker with the
// interceptor; runs without the marker (or with the default version) keep
// reading channels in name order.
const ChangeSignalArrivalOrder = "signal-arrival-order"

// orderedSignals are the signals whose arrival order the workflows use:
// every name the goal, the todo and the lease read with readByArrival and
// drainByArrival.
var orderedSignals = map[string]bool{
	SignalTodoEvent: true, SignalPause: true, SignalResume: true, SignalInject: true,
	SignalUserInput: true, SignalApprove: true, SignalClarify: true, SignalSteer: true,
	// The lease's requests (ChangeLeaseRequestOrder).
	SignalLeaseAcquire: true, SignalLeaseRelease: true,
}

// Interceptors returns the worker interceptors every worker, test
// environment and replayer running phoneflow's workflows must register.
func Interceptors() []interceptor.WorkerInterceptor {
	return []interceptor.WorkerInterceptor{&SignalOrder{}}
}

// SignalOrder is the worker interceptor that numbers signals as they
// arrive. The SDK keeps one channel per signal name and no order across
// them; it calls HandleSignal once per signal event, in history order,
// before the value reaches its channel. So the numbers depend on history
// alone and are the same on every replay.
type SignalOrder struct {
	interceptor.WorkerInterceptorBase
}

var _ interceptor.WorkerInterceptor = (*SignalOrder)(nil)

// InterceptWorkflow gives each workflow execution its own arrival log.
func (*SignalOrder) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &signalOrderInbound{
		WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next},
		log:                            &arrivals{pending: map[string][]int{}},
	}
}

type signalOrderInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	log *arrivals
}

type arrivalsKey struct{}

// ExecuteWorkflow hands the arrival log to the workflow through its
// context. Signals may arrive before the workflow function starts (in its
// first workflow task); the log has them already.
func (i *signalOrderInbound) ExecuteWorkflow(ctx workflow.Context, in *interceptor.ExecuteWorkflowInput) (any, error) {
	return i.Next.ExecuteWorkflow(workflow.WithValue(ctx, arrivalsKey{}, i.log), in)
}

// HandleSignal numbers a signal once its value is in its channel.
func (i *signalOrderInbound) HandleSignal(ctx workflow.Context, in *interceptor.HandleSignalInput) error {
	if err := i.Next.HandleSignal(ctx, in); err != nil {
		return err
	}
	if orderedSignals[in.SignalName] {
		i.log.add(in.SignalName)
	}
	return nil
}

// arrivals is one execution's log of signals still in their channels: per
// name, the arrival numbers of the values not yet received, oldest first.
type arrivals struct {
	count   int
	pending map[string][]int
}

func (a *arrivals) add(name string) {
	a.count++
	a.pending[name] = append(a.pending[name], a.count)
}

// signalOrder is how a run takes the signals it reads: by arrival, or (nil
// log) in the fixed order of names of runs from before the change.
type signalOrder struct {
	log *arrivals
}

// newSignalOrder decides, once per run and before any signal is read, how
// this run takes signals, and records the decision. A worker without the
// interceptor records the default version, so the run keeps name order on
// every worker that replays it; a run that recorded arrival order fails its
// workflow tasks on a worker without the interceptor (the SDK names the
// unsupported version) until a worker with it takes them.
func newSignalOrder(ctx workflow.Context) signalOrder {
	log, _ := ctx.Value(arrivalsKey{}).(*arrivals)
	maxV := workflow.DefaultVersion
	if log != nil {
		maxV = 1
	}
	if getVersion(ctx, ChangeSignalArrivalOrder, workflow.DefaultVersion, maxV) < 1 {
		return signalOrder{}
	}
	return signalOrder{log: log}
}

// byArrival reports whether the run takes signals in arrival order.
func (o signalOrder) byArrival() bool { return o.log != nil }

// next returns the name, among names, of the signal that arrived first of
// those waiting in their channels ("" when none waits). A value the log
// has no number for (it cannot happen: the interceptor sees every signal)
// counts as the oldest, so nothing is left unread.
func (o signalOrder) next(names []string, ch func(string) workflow.ReceiveChannel) string {
	best, bestSeq := "", 0
	for _, n := range names {
		if ch(n).Len() == 0 {
			continue
		}
		seq := 0
		if p := o.log.pending[n]; len(p) > 0 {
			seq = p[0]
		}
		if best == "" || seq < bestSeq {
			best, bestSeq = n, seq
		}
	}
	return best
}

// took drops the number of the value just received from name's channel.
func (o signalOrder) took(name string) {
	if p := o.log.pending[name]; len(p) > 0 {
		o.log.pending[name] = p[1:]
	}
}

// readByArrival applies signals of names as they arrive, one at a time,
// with apply (which receives from the channel it is given). Like the
// selector loop of runs from before the change, the wait ignores
// cancellation and the loop stops after the first signal applied once ctx
// is done. Waiting is a condition, not a selector: a selector takes the
// ready channels in the order its cases were added.
func (o signalOrder) readByArrival(ctx workflow.Context, names []string, ch func(string) workflow.ReceiveChannel,
	apply func(name string, c workflow.ReceiveChannel)) {
	wait, _ := workflow.NewDisconnectedContext(ctx)
	for {
		var name string
		if workflow.Await(wait, func() bool { name = o.next(names, ch); return name != "" }) != nil {
			return
		}
		o.took(name)
		apply(name, ch(name))
		if ctx.Err() != nil {
			return
		}
	}
}

// drainByArrival applies, in arrival order, every signal of names already
// in its channel.
func (o signalOrder) drainByArrival(names []string, ch func(string) workflow.ReceiveChannel,
	apply func(name string, c workflow.ReceiveChannel)) {
	for {
		name := o.next(names, ch)
		if name == "" {
			return
		}
		o.took(name)
		apply(name, ch(name))
	}
}
