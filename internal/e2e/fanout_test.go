package e2e

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/fleet"
	pfstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// freeLoopback returns n loopback addresses on free ports for simulated phones.
func freeLoopback(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l.Addr().String())
		_ = l.Close()
	}
	return out
}

// A fan-out over a label on a real stack (embedded Temporal, the worker,
// three simulated phones, two of them labelled shop) runs one goal on each
// shop phone as a child workflow and none on the third, and ends done with
// each goal's outcome.
func TestFanOutOverALabelOnARealStack(t *testing.T) {
	addrs := freeLoopback(t, 3)
	cfg := config.Default()
	cfg.ADB.Labels = []string{addrs[0] + "=shop", addrs[1] + "=shop work", addrs[2] + "=tablet"}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := pfstack.Start(ctx, pfstack.Options{Config: &cfg, Phones: 3, PhoneAddrs: addrs, ADB: pfstack.AnyADB, Logger: stacktest.Logger(t)})
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
		if err == nil && len(fleet.Selector{Label: "shop"}.Select(phones)) == 2 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the worker never published its two shop phones: %v %+v", err, phones)
		}
		time.Sleep(200 * time.Millisecond)
	}
	opts := workflows.GoalOptions{Plan: []string{"Turn on Bluetooth"}, Mode: workflows.ModeLayered}
	id, err := s.Goals.StartFanOut(ctx, "", workflows.FanOutInput{Goal: "Turn on Bluetooth", On: fleet.Selector{Label: "shop"}, Options: opts, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Goals.FanOutResult(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase != workflows.PhoneDone || len(st.Phones) != 2 {
		t.Fatalf("fan-out = %+v, want both shop phones done", st)
	}
	shop := map[string]bool{addrs[0]: true, addrs[1]: true}
	for _, p := range st.Phones {
		if !shop[p.Serial] || p.Status != workflows.PhoneDone || p.Steps == 0 {
			t.Errorf("phone %+v, want a shop phone done after some steps", p)
		}
		delete(shop, p.Serial)
		res, err := s.Goals.Result(ctx, p.GoalID)
		if err != nil || res.Status != workflows.GoalDone {
			t.Errorf("goal %s: %+v %v", p.GoalID, res, err)
		}
		if info, err := s.Goals.Describe(ctx, p.GoalID); err != nil || info.Device != p.Serial {
			t.Errorf("goal %s ran on %q (%v), want %s", p.GoalID, info.Device, err, p.Serial)
		}
	}
	var out strings.Builder
	s.Goals.WriteFanOut(ctx, &out, id, st, false)
	t.Logf("starter status %s:\n%s", id, out.String())
	for i, ph := range s.Phones {
		if on := ph.State().Toggles.Bluetooth; on != (i < 2) {
			t.Errorf("phone %s: Bluetooth %v, want on only on the shop phones", addrs[i], on)
		}
	}
}
