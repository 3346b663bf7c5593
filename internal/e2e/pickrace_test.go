package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	pfstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// Two goals started at once with --on any on a stack with two free phones
// (embedded Temporal, the worker, two simulated phones) pick two different
// phones: the first pick's reservation keeps the second off its phone.
// Ten pairs, one after the other, so each pair also meets the reservations
// of the pair before, whose goals have ended.
func TestTwoGoalsPickingAtOnceTakeTwoPhones(t *testing.T) {
	addrs := freeLoopback(t, 2)
	cfg := config.Default()
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	s, err := pfstack.Start(ctx, pfstack.Options{Config: &cfg, Phones: 2, PhoneAddrs: addrs, ADB: pfstack.AnyADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	stop, err := s.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	for {
		phones, err := s.Goals.Fleet(ctx)
		if err == nil && len(phones) == 2 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the worker never published its two phones: %v %+v", err, phones)
		}
		time.Sleep(200 * time.Millisecond)
	}
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
