package goalctl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workerpb "go.temporal.io/api/worker/v1"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/phoneflow/phoneflow/workflows"
)

// PollStale is how old the newest poll of a phone's task queue may be
// while a worker still serves it, on a cluster that takes no worker
// heartbeats: an idle worker's long poll is answered empty after the
// server's long-poll interval (one minute by default) and polls again at
// once, so a newer poll always exists while it lives (docs/design.md §5).
const PollStale = 75 * time.Second

// HeartbeatMisses is how many heartbeat intervals a worker process may
// stay silent while it still counts as alive: one late heartbeat is load,
// a third interval without one is a process that is gone
// (docs/design.md §5).
const HeartbeatMisses = 3

// UnknownHeartbeatInterval is the interval assumed for a worker process
// that has sent a single heartbeat, so its interval cannot be read yet:
// the SDK's default, which is also the largest interval it allows, so a
// living worker is never called gone.
const UnknownHeartbeatInterval = time.Minute

// noHeartbeatsNote is what `starter devices` adds when the cluster takes
// no worker heartbeats and the WORKER column falls back to polls.
const noHeartbeatsNote = "this Temporal cluster does not take worker heartbeats, so a worker that died is seen only after %s without a poll; " +
	"turn on frontend.WorkerHeartbeatsEnabled (Temporal server 1.29.1 or newer; on by default in 1.32.1) to see it within %d heartbeat intervals"

// DeviceService says whether a worker serves a phone.
type DeviceService struct {
	Serial string `json:"serial"`
	Served bool   `json:"served"`
	// Worker is the identity of the worker that was seen last, LastPoll
	// when it last polled the phone's queue (zero when none polled within
	// the server's poller history) and LastHeartbeat when its process last
	// sent a worker heartbeat (zero without heartbeats).
	Worker        string    `json:"worker,omitempty"`
	LastPoll      time.Time `json:"last_poll,omitzero"`
	LastHeartbeat time.Time `json:"last_heartbeat,omitzero"`
	// Lease says why the phone's lease took the phone from a goal whose
	// workflow task kept failing, while it has not given it back
	// (LeaseNote; filled by the caller that asks for it).
	Lease string `json:"lease,omitempty"`
	// Basis is what decided: "goal" (a running goal on the phone said
	// so), "heartbeat" (worker heartbeats) or "poll" (the queue's pollers,
	// on a cluster without heartbeats).
	Basis string `json:"basis"`
	// Text says it in a line: "served by 123@host (heartbeat 3s ago)" or
	// "no worker serves phone X since 15:04:05 …".
	Text string `json:"text"`
	// Note says what the decision cannot see, "" when nothing.
	Note string `json:"note,omitempty"`
}

// DeviceService tells whether a worker serves the phone serial. A running
// goal on the phone that says no worker serves it is believed first (its
// todo found out within a schedule-to-start bound); otherwise the worker
// heartbeats of the processes that poll the phone's task queue decide
// (docs/design.md §5), and on a cluster without heartbeats the polls:
// none, or none newer than PollStale, is not served.
func (g *Client) DeviceService(ctx context.Context, serial string, now time.Time) (DeviceService, error) {
	s := DeviceService{Serial: serial}
	q := workflows.DeviceTaskQueue(serial)
	resp, err := g.c.DescribeTaskQueue(ctx, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil {
		return s, fmt.Errorf("describe task queue %s: %w", q, err)
	}
	pollers := resp.GetPollers()
	if said := g.goalSaysUnserved(ctx, serial); said != "" {
		s.Worker, s.LastPoll = lastPoller(pollers)
		s.Basis, s.Text = "goal", said
		return s, nil
	}
	hbs, err := g.heartbeats(ctx, q, pollers)
	if errors.Is(err, errNoHeartbeats) {
		return pollService(serial, pollers, now), nil
	}
	if err != nil {
		return s, err
	}
	return heartbeatService(serial, pollers, hbs, now), nil
}

// errNoHeartbeats: the cluster does not take worker heartbeats.
var errNoHeartbeats = errors.New("the cluster takes no worker heartbeats")

// heartbeats returns the last heartbeat of every worker that serves the
// task queue q or whose identity polls it (the process's other workers
// tell that it lives while the phone's worker has not sent its first).
func (g *Client) heartbeats(ctx context.Context, q string, pollers []*taskqueuepb.PollerInfo) ([]*workerpb.WorkerHeartbeat, error) {
	ns, err := g.c.WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: g.opts.Namespace})
	if err != nil {
		return nil, fmt.Errorf("describe namespace %s: %w", g.opts.Namespace, err)
	}
	if !ns.GetNamespaceInfo().GetCapabilities().GetWorkerHeartbeats() {
		return nil, errNoHeartbeats
	}
	terms := []string{"TaskQueue = " + quote(q)}
	for _, p := range pollers {
		if id := p.GetIdentity(); id != "" {
			terms = append(terms, "WorkerIdentity = "+quote(id))
		}
	}
	var out []*workerpb.WorkerHeartbeat
	req := &workflowservice.ListWorkersRequest{Namespace: g.opts.Namespace, PageSize: 100, Query: strings.Join(terms, " OR ")}
	for {
		resp, err := g.c.WorkflowService().ListWorkers(ctx, req)
		if status.Code(err) == codes.Unimplemented {
			return nil, errNoHeartbeats
		}
		if err != nil {
			return nil, fmt.Errorf("list the workers of task queue %s: %w", q, err)
		}
		if len(resp.GetWorkers()) == 0 {
			// Servers before the short listing send the whole heartbeats.
			for _, w := range resp.GetWorkersInfo() { //nolint:staticcheck // the only field older servers fill
				if hb := w.GetWorkerHeartbeat(); hb != nil {
					out = append(out, hb)
				}
			}
		}
		for _, w := range resp.GetWorkers() {
			d, err := g.c.WorkflowService().DescribeWorker(ctx, &workflowservice.DescribeWorkerRequest{
				Namespace: g.opts.Namespace, WorkerInstanceKey: w.GetWorkerInstanceKey()})
			if status.Code(err) == codes.NotFound {
				continue // evicted or shut down between the two calls
			}
			if err != nil {
				return nil, fmt.Errorf("describe worker %s: %w", w.GetWorkerIdentity(), err)
			}
			if hb := d.GetWorkerInfo().GetWorkerHeartbeat(); hb != nil {
				out = append(out, hb)
			}
		}
		if len(resp.GetNextPageToken()) == 0 {
			return out, nil
		}
		req.NextPageToken = resp.GetNextPageToken()
	}
}

// quote makes s a string literal of the ListWorkers query language.
func quote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// process is one worker process as its heartbeats show it: the SDK sends
// the heartbeats of all workers of a client in one batch, on one ticker.
type process struct {
	identity string
	last     time.Time     // newest heartbeat
	interval time.Duration // longest interval between two of its heartbeats, 0 when unknown
	running  bool          // it has a running worker on the phone's queue
	stopping bool          // it has a worker on the phone's queue that is shutting down
	polls    bool          // its identity polls the phone's queue
}

// serves: a running worker on the phone's queue, or a poll of it while the
// phone's worker has not sent its first heartbeat.
func (p *process) serves() bool { return p.running || p.polls && !p.stopping }

// heartbeatService decides from heartbeats: the phone is served when a
// process that serves its queue sent a heartbeat within HeartbeatMisses
// of its own interval and is not shutting down.
func heartbeatService(serial string, pollers []*taskqueuepb.PollerInfo, hbs []*workerpb.WorkerHeartbeat, now time.Time) DeviceService {
	q := workflows.DeviceTaskQueue(serial)
	s := DeviceService{Serial: serial, Basis: "heartbeat"}
	s.Worker, s.LastPoll = lastPoller(pollers)
	polling := map[string]bool{}
	for _, p := range pollers {
		polling[p.GetIdentity()] = true
	}
	byKey := map[string]*process{}
	var keys []string
	for _, hb := range hbs {
		h := hb.GetHostInfo()
		key := h.GetWorkerGroupingKey() + "\x00" + h.GetHostName() + "\x00" + h.GetProcessId()
		p := byKey[key]
		if p == nil {
			p = &process{identity: hb.GetWorkerIdentity()}
			byKey[key] = p
			keys = append(keys, key)
		}
		if t := hb.GetHeartbeatTime().AsTime(); hb.GetHeartbeatTime() != nil && t.After(p.last) {
			p.last = t
		}
		if e := hb.GetElapsedSinceLastHeartbeat(); e != nil && e.AsDuration() > p.interval {
			p.interval = e.AsDuration()
		}
		if hb.GetTaskQueue() == q {
			// The phone's own worker names the process: its identity
			// carries the phone's (docs/design.md §5).
			p.identity = hb.GetWorkerIdentity()
			if hb.GetStatus() == enumspb.WORKER_STATUS_RUNNING {
				p.running = true
			} else {
				p.stopping = true
			}
		}
		p.polls = p.polls || polling[hb.GetWorkerIdentity()]
	}
	slices.Sort(keys)
	var gone *process // the serving process seen last
	for _, k := range keys {
		p := byKey[k]
		if !p.serves() && !p.stopping || p.last.IsZero() {
			continue
		}
		interval := p.interval
		if interval == 0 {
			interval = UnknownHeartbeatInterval
		}
		if now.Sub(p.last) <= HeartbeatMisses*interval && p.serves() {
			s.Served, s.Worker, s.LastHeartbeat = true, p.identity, p.last
			s.Text = fmt.Sprintf("served by %s (heartbeat %s ago)", p.identity, now.Sub(p.last).Round(time.Second).Abs())
			return s
		}
		if gone == nil || p.last.After(gone.last) {
			gone = p
		}
	}
	switch {
	case gone != nil:
		s.Worker, s.LastHeartbeat = gone.identity, gone.last
		what := "last heartbeat"
		if !gone.running && gone.stopping {
			what = "shutting down since its last heartbeat"
		}
		s.Text = fmt.Sprintf("no worker serves phone %s since %s (%s from %s); start the worker on the phone's host (`go run ./worker`)",
			serial, gone.last.UTC().Format("15:04:05"), what, gone.identity)
	case !s.LastPoll.IsZero():
		// Pollers are listed for minutes after their process ended; one
		// that stopped cleanly left no heartbeat behind.
		s.Text = fmt.Sprintf("no worker serves phone %s since %s (last poll by %s, which sends no heartbeats any more); start the worker on the phone's host (`go run ./worker`)",
			serial, s.LastPoll.UTC().Format("15:04:05"), s.Worker)
	default:
		s.Text = noPollText(serial)
	}
	return s
}

// pollService decides from the queue's pollers alone, on a cluster that
// takes no worker heartbeats.
func pollService(serial string, pollers []*taskqueuepb.PollerInfo, now time.Time) DeviceService {
	s := DeviceService{Serial: serial, Basis: "poll",
		Note: fmt.Sprintf(noHeartbeatsNote, PollStale, HeartbeatMisses)}
	s.Worker, s.LastPoll = lastPoller(pollers)
	switch {
	case s.LastPoll.IsZero():
		s.Text = noPollText(serial)
	case now.Sub(s.LastPoll) > PollStale:
		s.Text = fmt.Sprintf("no worker serves phone %s since %s (last poll by %s); start the worker on the phone's host (`go run ./worker`)",
			serial, s.LastPoll.UTC().Format("15:04:05"), s.Worker)
	default:
		s.Served = true
		s.Text = fmt.Sprintf("served by %s (polled %s ago)", s.Worker, now.Sub(s.LastPoll).Round(time.Second).Abs())
	}
	return s
}

func noPollText(serial string) string {
	return fmt.Sprintf("no worker serves phone %s: none polled its task queue %s lately; start the worker on the phone's host (`go run ./worker`)",
		serial, workflows.DeviceTaskQueue(serial))
}

// lastPoller returns the identity and time of the newest poll.
func lastPoller(pollers []*taskqueuepb.PollerInfo) (string, time.Time) {
	var id string
	var last time.Time
	for _, p := range pollers {
		if t := p.GetLastAccessTime().AsTime(); p.GetLastAccessTime() != nil && t.After(last) {
			last, id = t, p.GetIdentity()
		}
	}
	return id, last
}

// goalSaysUnserved returns the status line of a running goal on serial
// that waits for a worker of the phone, "" when none does (or the goals
// cannot be read: the pollers decide then).
func (g *Client) goalSaysUnserved(ctx context.Context, serial string) string {
	q := fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running' AND %s = '%s'",
		GoalWorkflowName, workflows.SearchAttrDevice, strings.ReplaceAll(serial, "'", "\\'"))
	resp, err := g.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{Namespace: g.opts.Namespace, PageSize: 20, Query: q})
	if err != nil {
		return ""
	}
	for _, e := range resp.GetExecutions() {
		st, err := g.Status(ctx, e.GetExecution().GetWorkflowId())
		if err == nil && strings.HasPrefix(st.WaitingFor, "no worker serves phone") {
			return st.WaitingFor
		}
	}
	return ""
}
