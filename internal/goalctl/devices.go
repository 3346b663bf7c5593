package goalctl

import (
	"context"
	"fmt"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"

	"github.com/phoneflow/phoneflow/workflows"
)

// PollStale is how old the newest poll of a phone's task queue may be
// while a worker still serves it: an idle worker's long poll is answered
// empty after the server's long-poll interval (one minute by default) and
// polls again at once, so a newer poll always exists while it lives
// (docs/design.md §24).
const PollStale = 75 * time.Second

// DeviceService says whether a worker serves a phone.
type DeviceService struct {
	Serial string `json:"serial"`
	Served bool   `json:"served"`
	// Worker is the identity of the worker that polled last, LastPoll
	// when (zero when none polled within the server's poller history).
	Worker   string    `json:"worker,omitempty"`
	LastPoll time.Time `json:"last_poll,omitzero"`
	// Text says it in a line: "served by 123@host (polled 3s ago)" or
	// "no worker serves phone X since 15:04:05 …".
	Text string `json:"text"`
}

// DeviceService tells whether a worker serves the phone serial. A running
// goal on the phone that says no worker serves it is believed first (its
// todo found out within a schedule-to-start bound); otherwise the pollers
// of the phone's task queue decide: none, or none newer than PollStale,
// is not served.
func (g *Client) DeviceService(ctx context.Context, serial string, now time.Time) (DeviceService, error) {
	s := DeviceService{Serial: serial}
	q := workflows.DeviceTaskQueue(serial)
	resp, err := g.c.DescribeTaskQueue(ctx, q, enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil {
		return s, fmt.Errorf("describe task queue %s: %w", q, err)
	}
	for _, p := range resp.GetPollers() {
		if t := p.GetLastAccessTime().AsTime(); p.GetLastAccessTime() != nil && t.After(s.LastPoll) {
			s.LastPoll, s.Worker = t, p.GetIdentity()
		}
	}
	if said := g.goalSaysUnserved(ctx, serial); said != "" {
		s.Text = said
		return s, nil
	}
	switch {
	case s.LastPoll.IsZero():
		s.Text = fmt.Sprintf("no worker serves phone %s: none polled its task queue %s lately; start the worker on the phone's host (`go run ./worker`)", serial, q)
	case now.Sub(s.LastPoll) > PollStale:
		s.Text = fmt.Sprintf("no worker serves phone %s since %s (last poll by %s); start the worker on the phone's host (`go run ./worker`)",
			serial, s.LastPoll.UTC().Format("15:04:05"), s.Worker)
	default:
		s.Served = true
		s.Text = fmt.Sprintf("served by %s (polled %s ago)", s.Worker, now.Sub(s.LastPoll).Round(time.Second))
	}
	return s, nil
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
