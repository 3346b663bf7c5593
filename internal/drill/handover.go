package drill

import (
	"context"
	"fmt"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// PhoneUse is one activity a workflow ran on a phone's task queue, with the
// server's times for it. A zero Closed means it has not closed.
type PhoneUse struct {
	Workflow, Activity string
	Scheduled, Closed  time.Time
}

// Handover is what the histories say about one phone passing from goal
// From to goal To (docs/design.md §5): every phone-bound activity of
// each, and when the lease took From's release (zero: it never did).
type Handover struct {
	From, To string
	FromUses []PhoneUse
	ToUses   []PhoneUse
	Released time.Time
}

// ReadHandover reads the histories of goals from and to (each goal and the
// todos it started) and of serial's lease. Event times are the server's, so
// they place the three histories on one clock.
func ReadHandover(ctx context.Context, c client.Client, serial, from, to string) (Handover, error) {
	h := Handover{From: from, To: to}
	var err error
	queue := workflows.DeviceTaskQueue(serial)
	if h.FromUses, err = GoalPhoneUses(ctx, c, from, queue); err != nil {
		return h, err
	}
	if h.ToUses, err = GoalPhoneUses(ctx, c, to, queue); err != nil {
		return h, err
	}
	runs, err := Runs(ctx, c, workflows.LeaseWorkflowID(serial))
	if err != nil {
		return h, err
	}
	dc := converter.GetDefaultDataConverter()
	for _, run := range runs {
		for _, e := range run.GetEvents() {
			at := e.GetWorkflowExecutionSignaledEventAttributes()
			if at.GetSignalName() != workflows.SignalLeaseRelease {
				continue
			}
			var r activities.LeaseRelease
			if dc.FromPayloads(at.GetInput(), &r) == nil && r.GoalID == from && h.Released.IsZero() {
				h.Released = e.GetEventTime().AsTime()
			}
		}
	}
	return h, nil
}

// GoalPhoneUses lists the activities goal id and every todo it started ran
// on queue, the phone's task queue.
func GoalPhoneUses(ctx context.Context, c client.Client, id, queue string) ([]PhoneUse, error) {
	ids := []string{id}
	var uses []PhoneUse
	for i := 0; i < len(ids); i++ {
		runs, err := Runs(ctx, c, ids[i])
		if err != nil {
			return nil, err
		}
		for _, run := range runs {
			evs := run.GetEvents()
			for _, e := range evs {
				if child := e.GetStartChildWorkflowExecutionInitiatedEventAttributes(); child != nil && !slices.Contains(ids, child.GetWorkflowId()) {
					ids = append(ids, child.GetWorkflowId())
				}
			}
			uses = append(uses, phoneUses(ids[i], evs, queue)...)
		}
	}
	return uses, nil
}

func phoneUses(wf string, evs []*historypb.HistoryEvent, queue string) []PhoneUse {
	byID := map[int64]*PhoneUse{}
	var order []int64
	for _, e := range evs {
		if at := e.GetActivityTaskScheduledEventAttributes(); at != nil {
			if at.GetTaskQueue().GetName() != queue {
				continue
			}
			byID[e.GetEventId()] = &PhoneUse{Workflow: wf, Activity: at.GetActivityType().GetName(), Scheduled: e.GetEventTime().AsTime()}
			order = append(order, e.GetEventId())
			continue
		}
		var sched int64
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			sched = e.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			sched = e.GetActivityTaskFailedEventAttributes().GetScheduledEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
			sched = e.GetActivityTaskTimedOutEventAttributes().GetScheduledEventId()
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
			sched = e.GetActivityTaskCanceledEventAttributes().GetScheduledEventId()
		default:
			continue
		}
		if u := byID[sched]; u != nil {
			u.Closed = e.GetEventTime().AsTime()
		}
	}
	out := make([]PhoneUse, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	return out
}

// Check says whether the phone was double-booked, with inputs the phone's
// timestamped input log. The guarantee (docs/design.md §5): To uses the
// phone only after From's last phone-bound activity closed and the lease
// took From's release, and no input reaches the phone between From's last
// activity closing and To's first one starting. From's workflow closing is
// not part of it: a goal releases its phone before it closes, so To may
// rightly start while From is still closing.
func (h Handover) Check(inputs []phonesim.InputEvent) error {
	if len(h.ToUses) == 0 {
		return fmt.Errorf("goal %s never used the phone", h.To)
	}
	var fromEnd time.Time
	for _, u := range h.FromUses {
		if u.Closed.IsZero() {
			return fmt.Errorf("goal %s's %s (%s, scheduled %s) has not closed, yet goal %s used the phone: the phone was double-booked",
				h.From, u.Activity, u.Workflow, stamp(u.Scheduled), h.To)
		}
		if u.Closed.After(fromEnd) {
			fromEnd = u.Closed
		}
	}
	if h.Released.IsZero() {
		return fmt.Errorf("the lease never took goal %s's release, yet goal %s used the phone: the phone was double-booked", h.From, h.To)
	}
	first := h.ToUses[0]
	for _, u := range h.ToUses[1:] {
		if u.Scheduled.Before(first.Scheduled) {
			first = u
		}
	}
	if first.Scheduled.Before(fromEnd) {
		return fmt.Errorf("goal %s's %s (%s) was scheduled at %s, before goal %s's last phone activity closed at %s: the phone was double-booked",
			h.To, first.Activity, first.Workflow, stamp(first.Scheduled), h.From, stamp(fromEnd))
	}
	if first.Scheduled.Before(h.Released) {
		return fmt.Errorf("goal %s's %s (%s) was scheduled at %s, before the lease took goal %s's release at %s: the phone was double-booked",
			h.To, first.Activity, first.Workflow, stamp(first.Scheduled), h.From, stamp(h.Released))
	}
	// Inputs after From's last activity closed belong to To's activities.
	// Inputs after To's last activity closed belong to whoever came next;
	// zero: one of To's activities is still open.
	var toEnd time.Time
	for _, u := range h.ToUses {
		if u.Closed.IsZero() {
			toEnd = time.Time{}
			break
		}
		if u.Closed.After(toEnd) {
			toEnd = u.Closed
		}
	}
	for _, in := range inputs {
		if in.At.Before(fromEnd) || (!toEnd.IsZero() && in.At.After(toEnd)) {
			continue
		}
		if !h.duringTo(in.At) {
			return fmt.Errorf("input %d (%s %v on %s/%s) at %s came after goal %s's last phone activity closed (%s) and outside every phone activity of goal %s",
				in.Seq, in.Kind, in.Args, in.App, in.Page, stamp(in.At), h.From, stamp(fromEnd), h.To)
		}
	}
	return nil
}

// duringTo reports whether at falls inside one of To's phone activities,
// from its schedule (so every attempt counts) to its close.
func (h Handover) duringTo(at time.Time) bool {
	for _, u := range h.ToUses {
		if !at.Before(u.Scheduled) && (u.Closed.IsZero() || !at.After(u.Closed)) {
			return true
		}
	}
	return false
}

func stamp(t time.Time) string { return t.Format("15:04:05.000") }
