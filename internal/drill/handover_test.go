package drill

import (
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// TestHandoverCheck runs the double-booking check on handovers made by
// hand: the one a loaded machine produces (b starts between a's release and
// a's workflow close) passes, and each way a phone can be double-booked
// fails with the events that show it.
func TestHandoverCheck(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	use := func(wf string, sched, closed int) PhoneUse {
		u := PhoneUse{Workflow: wf, Activity: "Step", Scheduled: at(sched)}
		if closed >= 0 {
			u.Closed = at(closed)
		}
		return u
	}
	input := func(seq, ms int) phonesim.InputEvent {
		return phonesim.InputEvent{Seq: seq, Kind: "tap", Args: []string{"1", "2"}, App: "Messages", Page: "list", At: at(ms)}
	}
	// a's Steps run 0–1000 and 1100–2000 and send inputs inside them; the
	// lease takes a's release at 2010; b's Steps run from 2020.
	good := Handover{From: "a", To: "b",
		FromUses: []PhoneUse{use("a/todo-1", 0, 1000), use("a/todo-1", 1100, 2000)},
		ToUses:   []PhoneUse{use("b/todo-1", 2020, 2500), use("b/todo-1", 2600, 3000)},
		Released: at(2010),
	}
	inputs := []phonesim.InputEvent{input(1, 500), input(2, 1500), input(3, 2300), input(4, 2700), input(5, 4000)}

	cases := []struct {
		name   string
		change func(h *Handover, in *[]phonesim.InputEvent)
		want   string // "" passes
	}{
		{"b starts between a's release and a's close", func(*Handover, *[]phonesim.InputEvent) {}, ""},
		{"b's Step before a's last Step closed", func(h *Handover, _ *[]phonesim.InputEvent) {
			h.ToUses[0].Scheduled = at(1900)
		}, "before goal a's last phone activity closed"},
		{"b's Step before the lease took a's release", func(h *Handover, _ *[]phonesim.InputEvent) {
			h.Released = at(2030)
		}, "before the lease took goal a's release"},
		{"a never released", func(h *Handover, _ *[]phonesim.InputEvent) {
			h.Released = time.Time{}
		}, "never took goal a's release"},
		{"a's Step still open", func(h *Handover, _ *[]phonesim.InputEvent) {
			h.FromUses[1].Closed = time.Time{}
		}, "has not closed"},
		{"an input after a's Step closed, before b's", func(_ *Handover, in *[]phonesim.InputEvent) {
			*in = append(*in, input(6, 2005))
		}, "input 6"},
		{"an input between b's Steps", func(_ *Handover, in *[]phonesim.InputEvent) {
			*in = append(*in, input(6, 2550))
		}, "input 6"},
		{"b never used the phone", func(h *Handover, _ *[]phonesim.InputEvent) {
			h.ToUses = nil
		}, "never used the phone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := good
			h.FromUses = append([]PhoneUse(nil), good.FromUses...)
			h.ToUses = append([]PhoneUse(nil), good.ToUses...)
			in := append([]phonesim.InputEvent(nil), inputs...)
			c.change(&h, &in)
			err := h.Check(in)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("check failed: %v", err)
			case c.want != "" && err == nil:
				t.Fatalf("check passed, want a failure naming %q", c.want)
			case c.want != "" && !strings.Contains(err.Error(), c.want):
				t.Fatalf("check failed with %q, want it to name %q", err, c.want)
			}
		})
	}
}

// TestPhoneUsesFromHistory reads the phone-bound activities out of a
// history: only those on the phone's queue, each with its close.
func TestPhoneUsesFromHistory(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ev := func(id int64, ms int, e *historypb.HistoryEvent) *historypb.HistoryEvent {
		e.EventId, e.EventTime = id, timestamppb.New(t0.Add(time.Duration(ms)*time.Millisecond))
		return e
	}
	sched := func(name, queue string) *historypb.HistoryEvent {
		return &historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
			Attributes: &historypb.HistoryEvent_ActivityTaskScheduledEventAttributes{ActivityTaskScheduledEventAttributes: &historypb.ActivityTaskScheduledEventAttributes{
				ActivityType: &commonpb.ActivityType{Name: name}, TaskQueue: &taskqueuepb.TaskQueue{Name: queue}}}}
	}
	completed := func(s int64) *historypb.HistoryEvent {
		return &historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
			Attributes: &historypb.HistoryEvent_ActivityTaskCompletedEventAttributes{ActivityTaskCompletedEventAttributes: &historypb.ActivityTaskCompletedEventAttributes{ScheduledEventId: s}}}
	}
	failed := func(s int64) *historypb.HistoryEvent {
		return &historypb.HistoryEvent{EventType: enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED,
			Attributes: &historypb.HistoryEvent_ActivityTaskFailedEventAttributes{ActivityTaskFailedEventAttributes: &historypb.ActivityTaskFailedEventAttributes{ScheduledEventId: s}}}
	}
	evs := []*historypb.HistoryEvent{
		ev(5, 0, sched("Step", "phone-q")),
		ev(6, 10, sched("PlanOnce", "shared")),
		ev(7, 100, completed(5)),
		ev(8, 120, completed(6)),
		ev(9, 200, sched("Step", "phone-q")),
		ev(10, 300, failed(9)),
		ev(11, 400, sched("Step", "phone-q")),
	}
	got := phoneUses("g/todo-1", evs, "phone-q")
	if len(got) != 3 {
		t.Fatalf("got %d uses, want the 3 Steps on the phone's queue: %+v", len(got), got)
	}
	if !got[0].Closed.Equal(t0.Add(100*time.Millisecond)) || !got[1].Closed.Equal(t0.Add(300*time.Millisecond)) || !got[2].Closed.IsZero() {
		t.Errorf("closes = %v, %v, %v; want 100 ms, 300 ms and open", got[0].Closed, got[1].Closed, got[2].Closed)
	}
	if got[2].Workflow != "g/todo-1" || got[2].Activity != "Step" {
		t.Errorf("use = %+v", got[2])
	}
}
