package e2e

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/fleet"
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
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, addrs := startFleet(t, ctx, 3, func(a []string) []string {
		return []string{a[0] + "=shop", a[1] + "=shop work", a[2] + "=tablet"}
	}, labelled(map[string]int{"shop": 2}))
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
