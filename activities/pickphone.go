package activities

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// NamePickPhone is the activity a goal started with `--on` runs to choose
// its phone (docs/design.md#phone-fleet).
const NamePickPhone = "PickPhone"

// PickPhoneInput says what phone a goal needs; the workflows name a
// phone's task queue (QueuePrefix + fleet.QueueSafe(serial)) and lease
// (LeasePrefix + serial).
type PickPhoneInput struct {
	GoalID      string         `json:"goal_id"`
	Selector    fleet.Selector `json:"selector"`
	QueuePrefix string         `json:"queue_prefix"`
	LeasePrefix string         `json:"lease_prefix"`
	// ReserveFor is how long the reservation of a free phone lasts; zero
	// is DefaultReserveFor.
	ReserveFor time.Duration `json:"reserve_for,omitempty"`
}

// PickPhoneResult is the phone chosen, "" Serial when none of the kind is
// served now, with why in Why.
type PickPhoneResult struct {
	Serial string   `json:"serial,omitempty"`
	Labels []string `json:"labels,omitempty"`
	// Free says no goal held or had reserved the phone when it was
	// chosen, and the pick reserved it for this goal; a phone that was
	// held is waited for under the lease's rules.
	Free bool `json:"free,omitempty"`
	// ReservedBy names, for a phone that is not Free, the goal whose
	// reservation it had when it was picked ("" when a lease holder made
	// it busy).
	ReservedBy string `json:"reserved_by,omitempty"`
	// Matching and Served count the fleet's phones of the kind, and
	// of those the ones a worker polls.
	Matching int    `json:"matching"`
	Served   int    `json:"served"`
	Why      string `json:"why,omitempty"`
}

// pickClient is the part of client.Client PickPhone uses.
type pickClient interface {
	ListWorkflow(ctx context.Context, request *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error)
	DescribeTaskQueue(ctx context.Context, taskQueue string, taskQueueType enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error)
	QueryWorkflow(ctx context.Context, workflowID string, runID string, queryType string, args ...any) (converter.EncodedValue, error)
	reserveClient
}

var _ pickClient = client.Client(nil)

// pickPollStale: a phone whose queue was last polled longer ago has no
// living worker (an idle worker's long poll is renewed every minute).
const pickPollStale = 75 * time.Second

// PickPhone chooses a phone of the kind the goal needs from the phones the
// workers published: one a worker polls, a free one before a held one,
// of the held ones the one with the fewest goals waiting, ties by serial.
// A phone is free when no other goal holds its lease, waits in its queue
// or has reserved it; a free phone is taken only once this goal's
// reservation of it started, so two goals picking at once take two
// phones while there are two free. The choice is this activity's result,
// so the goal's history keeps it.
func (a *LeaseActivities) PickPhone(ctx context.Context, in PickPhoneInput) (PickPhoneResult, error) {
	c, phones, err := a.fleet(ctx, "pick a phone")
	if err != nil {
		return PickPhoneResult{}, err
	}
	matching := in.Selector.Select(phones)
	res := PickPhoneResult{Matching: len(matching)}
	type cand struct {
		p       fleet.Phone
		free    bool
		waiting int
		by      string // the other goal that had reserved it
	}
	var cands []cand
	for _, p := range matching {
		st, err := a.phoneNow(ctx, c, p, in.GoalID, in.QueuePrefix, in.LeasePrefix)
		if err != nil {
			return PickPhoneResult{}, fmt.Errorf("pick a phone: %w", err)
		}
		if st.served {
			cands = append(cands, cand{p: p, free: st.free, waiting: st.waiting, by: st.by})
		}
	}
	res.Served = len(cands)
	if len(cands) == 0 {
		switch {
		case len(phones) == 0:
			res.Why = "no worker has published a phone: start a worker on a host with phones"
		case len(matching) == 0:
			res.Why = fmt.Sprintf("none of the fleet's %d phones is %s: label one in adb.labels of its host and restart its worker", len(phones), in.Selector.Kind())
		default:
			res.Why = fmt.Sprintf("no worker serves the %d phones that are %s: start the worker of their host", len(matching), in.Selector.Kind())
		}
		return res, nil
	}
	order := func(x, y cand) int {
		switch {
		case x.free != y.free:
			if x.free {
				return -1
			}
			return 1
		case x.waiting != y.waiting:
			return x.waiting - y.waiting
		}
		return strings.Compare(x.p.Serial, y.p.Serial)
	}
	slices.SortStableFunc(cands, order)
	// The free phones come first: take the first one this goal reserves.
	// One another goal reserved since the look above is busy now.
	queue := activity.GetInfo(ctx).TaskQueue
	reserved := false
	for i := 0; i < len(cands) && cands[i].free && !reserved; i++ {
		ok, by, err := a.reserve(ctx, c, queue, cands[i].p.Serial, in.GoalID, in.ReserveFor)
		if err != nil {
			return PickPhoneResult{}, fmt.Errorf("pick a phone: %w", err)
		}
		if ok {
			cands[0], cands[i] = cands[i], cands[0]
			reserved = true
		} else {
			cands[i].free, cands[i].by = false, by
		}
	}
	if !reserved {
		slices.SortStableFunc(cands, order)
	}
	best := cands[0]
	res.Serial, res.Labels, res.Free, res.ReservedBy = best.p.Serial, best.p.Labels, best.free, best.by
	activity.GetLogger(ctx).Info("picked a phone", "goal", in.GoalID, "on", in.Selector.String(), "serial", res.Serial, "free", res.Free)
	return res, nil
}

// phoneState is what a phone is doing now, as goal sees it.
type phoneState struct {
	served  bool   // a worker polled its queue within pickPollStale
	free    bool   // no other goal holds its lease, waits for it or reserved it
	holder  string // the goal holding its lease
	waiting int    // goals in its lease's queue
	by      string // the other running goal that reserved it
}

// phoneNow asks p's task queue whether a worker serves it and, when one
// does, its lease and reservation whether another goal than goal has it.
func (a *LeaseActivities) phoneNow(ctx context.Context, c pickClient, p fleet.Phone, goal, queuePrefix, leasePrefix string) (phoneState, error) {
	resp, err := c.DescribeTaskQueue(ctx, queuePrefix+fleet.QueueSafe(p.Serial), enumspb.TASK_QUEUE_TYPE_ACTIVITY)
	if err != nil {
		return phoneState{}, fmt.Errorf("describe the task queue of %s: %w", p.Serial, err)
	}
	if !polledSince(resp, time.Now().Add(-pickPollStale)) {
		return phoneState{}, nil
	}
	st := phoneState{served: true, free: true}
	if v, err := c.QueryWorkflow(ctx, leasePrefix+p.Serial, "", LeaseQueryState); err == nil {
		var ls struct {
			Holder string `json:"holder"`
			Queue  []struct {
				GoalID string `json:"goal_id"`
			} `json:"queue"`
		}
		if v.Get(&ls) == nil {
			st.holder, st.waiting = ls.Holder, len(ls.Queue)
			if ls.Holder != "" && ls.Holder != goal {
				st.free = false
			}
			for _, w := range ls.Queue {
				if w.GoalID != goal {
					st.free = false
				}
			}
		}
	}
	if st.free {
		by, _, err := a.reservedFor(ctx, c, p.Serial, goal)
		if err != nil {
			return phoneState{}, err
		}
		if by != "" && by != goal {
			st.free, st.by = false, by
		}
	}
	return st, nil
}

func polledSince(resp *workflowservice.DescribeTaskQueueResponse, since time.Time) bool {
	for _, p := range resp.GetPollers() {
		if p.GetLastAccessTime() != nil && p.GetLastAccessTime().AsTime().After(since) {
			return true
		}
	}
	return false
}

// fleet lists the phones the workers published, with the client that
// asks after their queues and leases; doing names the caller's work in the
// error of a client that cannot list workflows.
func (a *LeaseActivities) fleet(ctx context.Context, doing string) (pickClient, []fleet.Phone, error) {
	c, ok := a.Client.(pickClient)
	if !ok {
		return nil, nil, fmt.Errorf("%s: the worker's Temporal client cannot list workflows", doing)
	}
	dc := a.DataConverter
	if dc == nil {
		dc = converter.GetDefaultDataConverter()
	}
	phones, err := fleet.List(ctx, c, a.namespace(), dc)
	return c, phones, err
}
