package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// Two goals started at once with --on any on a stack with two free phones
// (embedded Temporal, the worker, two simulated phones) pick two different
// phones: the first pick's reservation keeps the second off its phone.
// Ten pairs, one after the other, so each pair also meets the reservations
// of the pair before, whose goals have ended.
func TestTwoGoalsPickingAtOnceTakeTwoPhones(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	s, _ := startFleet(t, ctx, 2, nil, func(phones []fleet.Phone) bool { return len(phones) == 2 })
	opts := workflows.GoalOptions{Plan: []string{"Turn on Bluetooth"}, Mode: workflows.ModeLayered}
	const pairs = 10
	for pair := range pairs {
		ids := make([]string, 2)
		errs := make(chan error, 2)
		for i := range ids {
			go func() {
				id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Turn on Bluetooth", On: &fleet.Selector{Any: true}, Options: opts})
				ids[i] = id
				errs <- err
			}()
		}
		for range ids {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		on := map[string]string{}
		for _, id := range ids {
			res, err := s.Goals.Result(ctx, id)
			if err != nil || res.Status != workflows.GoalDone {
				t.Fatalf("pair %d: goal %s: %+v %v", pair, id, res, err)
			}
			st, err := s.Goals.Status(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if other, ok := on[st.Device]; ok {
				t.Fatalf("pair %d: goals %s and %s both picked %s (%q)", pair, other, id, st.Device, st.Picked)
			}
			on[st.Device] = id
			if pair == 0 {
				t.Logf("goal %s: %s", id, st.Picked)
			}
		}
	}
}
