package activities

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// NameListFleet is the activity that lists the whole fleet as a goal
// would choose from it: every published phone with its labels and facts,
// whether a worker serves it and whether it is free
// (docs/design.md#phone-fleet). It decides nothing; a workflow that
// chooses a phone from its answer keeps the answer in its history.
const NameListFleet = "ListFleet"

// ListFleetInput names the asking goal (its own lease or reservation
// does not make a phone busy) and the queue and lease name prefixes, as
// PickPhoneInput does.
type ListFleetInput struct {
	GoalID      string `json:"goal_id"`
	QueuePrefix string `json:"queue_prefix"`
	LeasePrefix string `json:"lease_prefix"`
}

// FleetEntry is one published phone now.
type FleetEntry struct {
	Phone fleet.Phone `json:"phone"`
	// Served says a worker polled the phone's queue within 75 s; Free
	// that no other goal holds, waits for or reserved it. A phone not
	// served is never Free.
	Served bool `json:"served"`
	Free   bool `json:"free,omitempty"`
	// Holder is the goal holding the phone's lease, ReservedBy the other
	// goal that reserved it, Waiting the goals in its lease's queue.
	Holder     string `json:"holder,omitempty"`
	ReservedBy string `json:"reserved_by,omitempty"`
	Waiting    int    `json:"waiting,omitempty"`
}

// ListFleetResult is the fleet in serial order; Why says why it is empty.
type ListFleetResult struct {
	Phones []FleetEntry `json:"phones"`
	Why    string       `json:"why,omitempty"`
}

// ListFleet lists every phone the workers published with its labels,
// facts, whether a worker serves it and whether it is free.
func (a *LeaseActivities) ListFleet(ctx context.Context, in ListFleetInput) (ListFleetResult, error) {
	c, phones, err := a.fleet(ctx, "list the fleet")
	if err != nil {
		return ListFleetResult{}, err
	}
	var res ListFleetResult
	if len(phones) == 0 {
		res.Why = "no worker has published a phone: start a worker on a host with phones"
	}
	phones = slices.Clone(phones)
	slices.SortFunc(phones, func(x, y fleet.Phone) int { return strings.Compare(x.Serial, y.Serial) })
	for _, p := range phones {
		st, err := a.phoneNow(ctx, c, p, in.GoalID, in.QueuePrefix, in.LeasePrefix)
		if err != nil {
			return ListFleetResult{}, fmt.Errorf("list the fleet: %w", err)
		}
		res.Phones = append(res.Phones, FleetEntry{Phone: p, Served: st.served, Free: st.served && st.free,
			Holder: st.holder, ReservedBy: st.by, Waiting: st.waiting})
	}
	return res, nil
}
