package bench

import (
	"context"
	"strings"
	"testing"
)

func TestFleetNeedsWorkers(t *testing.T) {
	if _, err := Fleet(context.Background(), FleetOptions{Workers: 0}); err == nil || !strings.Contains(err.Error(), "--fleet 0") {
		t.Fatalf("Fleet with no workers: %v, want an error naming --fleet", err)
	}
}

func TestFleetRender(t *testing.T) {
	r := FleetResult{Workers: 2, Goals: 4, Seconds: Sample{30, 20, 40}, GoalsPerMinute: Sample{8, 12, 6}}
	var b strings.Builder
	if err := r.Render(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| 2 | 4 | 3 | 30.0 (20.0–40.0) | 8.0 (6.0–12.0) |") {
		t.Errorf("table:\n%s", b.String())
	}
}
