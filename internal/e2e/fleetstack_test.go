package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/fleet"
	pfstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// startFleet starts a real stack (embedded Temporal, the worker, n
// simulated phones on loopback addresses) whose phones carry the labels
// labels gives for their addresses (adb.labels, nil for none), and waits
// until the worker has published the fleet ready accepts. It returns the
// stack and the phones' serials.
func startFleet(t *testing.T, ctx context.Context, n int, labels func(addrs []string) []string, ready func([]fleet.Phone) bool) (*pfstack.Stack, []string) {
	t.Helper()
	addrs := freeLoopback(t, n)
	cfg := config.Default()
	if labels != nil {
		cfg.ADB.Labels = labels(addrs)
	}
	s, err := pfstack.Start(ctx, pfstack.Options{Config: &cfg, Phones: n, PhoneAddrs: addrs, ADB: pfstack.AnyADB, Logger: stacktest.Logger(t)})
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
		if err == nil && ready(phones) {
			return s, addrs
		}
		if ctx.Err() != nil {
			t.Fatalf("the worker never published the fleet the test needs: %v %+v", err, phones)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// labelled is a fleet check: want phones of each label.
func labelled(want map[string]int) func([]fleet.Phone) bool {
	return func(phones []fleet.Phone) bool {
		for l, n := range want {
			if len(fleet.Selector{Label: l}.Select(phones)) != n {
				return false
			}
		}
		return true
	}
}
