package activities

import (
	"context"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// NameFleetPhones is the activity a fan-out runs first to learn the
// phones it starts one goal on each (docs/design.md#phone-fleet).
const NameFleetPhones = "FleetPhones"

// FleetPhonesInput names the phones a fan-out runs on: every published
// phone Selector matches, or, when Serials is set (a retry of the phones
// that failed), those serials whatever the selector says now.
type FleetPhonesInput struct {
	Selector    fleet.Selector `json:"selector"`
	Serials     []string       `json:"serials,omitempty"`
	QueuePrefix string         `json:"queue_prefix"`
}

// FleetPhone is one phone of a fan-out and whether a worker serves it.
type FleetPhone struct {
	Serial string   `json:"serial"`
	Labels []string `json:"labels,omitempty"`
	Served bool     `json:"served"`
	// Why says, for a phone not served, what is wrong.
	Why string `json:"why,omitempty"`
}

// FleetPhonesResult is the fan-out's phones in serial order; Why says
// why there are none.
type FleetPhonesResult struct {
	Phones []FleetPhone `json:"phones"`
	Why    string       `json:"why,omitempty"`
}

// FleetPhones lists the phones a fan-out runs on and asks each phone's
// task queue whether a worker polls it. A phone no worker serves is
// listed, not dropped: the fan-out reports it as a result.
func (a *LeaseActivities) FleetPhones(ctx context.Context, in FleetPhonesInput) (FleetPhonesResult, error) {
	c, phones, err := a.fleet(ctx, "list the fleet")
	if err != nil {
		return FleetPhonesResult{}, err
	}
	var res FleetPhonesResult
	var chosen []fleet.Phone
	if len(in.Serials) > 0 {
		known := map[string]fleet.Phone{}
		for _, p := range phones {
			known[p.Serial] = p
		}
		for _, s := range in.Serials {
			p, ok := known[s]
			if !ok {
				res.Phones = append(res.Phones, FleetPhone{Serial: s, Why: "no worker publishes phone " + s + " any more: plug it in and start its host's worker"})
				continue
			}
			chosen = append(chosen, p)
		}
	} else {
		chosen = in.Selector.Select(phones)
		switch {
		case len(phones) == 0:
			res.Why = "no worker has published a phone: start a worker on a host with phones"
		case len(chosen) == 0:
			res.Why = fmt.Sprintf("none of the fleet's %d phones is %s: label one in adb.labels of its host and restart its worker", len(phones), in.Selector.Kind())
		}
	}
	for _, p := range chosen {
		resp, err := c.DescribeTaskQueue(ctx, in.QueuePrefix+fleet.QueueSafe(p.Serial), enumspb.TASK_QUEUE_TYPE_ACTIVITY)
		if err != nil {
			return FleetPhonesResult{}, fmt.Errorf("list the fleet: describe the task queue of %s: %w", p.Serial, err)
		}
		fp := FleetPhone{Serial: p.Serial, Labels: p.Labels, Served: polledSince(resp, time.Now().Add(-pickPollStale))}
		if !fp.Served {
			fp.Why = "no worker serves phone " + p.Serial + ": start the worker of its host"
		}
		res.Phones = append(res.Phones, fp)
	}
	return res, nil
}
