package activities

import (
	"testing"

	"go.temporal.io/sdk/testsuite"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// ListFleet shows every published phone with its labels and facts, and
// says of each whether a worker serves it and whether it is free: held by
// another goal, reserved by one, or not served is not free; the asking
// goal's own reservation is.
func TestListFleet(t *testing.T) {
	w := &pickWorld{
		phones: []fleet.Phone{
			{Serial: "d", Labels: []string{"work"}, Facts: device.Facts{Model: "Pixel 7"}},
			{Serial: "a"}, {Serial: "b"}, {Serial: "c"},
		},
		polled:   map[string]bool{"q-a": true, "q-b": true, "q-d": true},
		holders:  map[string]string{"l-a": "goal-other"},
		reserved: map[string]string{ReservationWorkflowID("b"): "goal-9", ReservationWorkflowID("d"): "goal-1"},
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&LeaseActivities{Client: w, Namespace: "default"})
	v, err := env.ExecuteActivity(NameListFleet, ListFleetInput{GoalID: "goal-1", QueuePrefix: "q-", LeasePrefix: "l-"})
	if err != nil {
		t.Fatal(err)
	}
	var r ListFleetResult
	if err := v.Get(&r); err != nil {
		t.Fatal(err)
	}
	want := []FleetEntry{
		{Phone: fleet.Phone{Serial: "a"}, Served: true, Holder: "goal-other"},
		{Phone: fleet.Phone{Serial: "b"}, Served: true, ReservedBy: "goal-9"},
		{Phone: fleet.Phone{Serial: "c"}},
		{Phone: fleet.Phone{Serial: "d", Labels: []string{"work"}, Facts: device.Facts{Model: "Pixel 7"}}, Served: true, Free: true},
	}
	if len(r.Phones) != len(want) {
		t.Fatalf("fleet = %+v, want %+v", r.Phones, want)
	}
	for i, e := range r.Phones {
		g := want[i]
		if e.Phone.Serial != g.Phone.Serial || e.Phone.Facts.Model != g.Phone.Facts.Model || len(e.Phone.Labels) != len(g.Phone.Labels) ||
			e.Served != g.Served || e.Free != g.Free || e.Holder != g.Holder || e.ReservedBy != g.ReservedBy {
			t.Errorf("phone %d = %+v, want %+v", i, e, g)
		}
	}
	w.phones = nil
	v, err = env.ExecuteActivity(NameListFleet, ListFleetInput{GoalID: "goal-1", QueuePrefix: "q-", LeasePrefix: "l-"})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Get(&r); err != nil || len(r.Phones) != 0 || r.Why == "" {
		t.Errorf("empty fleet = %+v %v, want no phones and why", r, err)
	}
}
