package bench

import (
	"math"
	"testing"
)

func TestSampleStats(t *testing.T) {
	s := Sample{5, 1, 3, 2, 4}
	if s.Median() != 3 || s.Min() != 1 || s.Max() != 5 {
		t.Fatalf("median/min/max = %v/%v/%v", s.Median(), s.Min(), s.Max())
	}
	if got := (Sample{1, 2, 3, 4}).Median(); got != 2.5 {
		t.Fatalf("even median = %v, want 2.5", got)
	}
	if got := (Sample{0, 10}).Quantile(0.95); math.Abs(got-9.5) > 1e-9 {
		t.Fatalf("p95 = %v, want 9.5", got)
	}
	if empty := (Sample{}); !math.IsNaN(empty.Median()) || empty.Summary(1) != "n/a" {
		t.Fatal("empty sample must be NaN / n/a")
	}
	if got := (Sample{2, 1, 3}).Summary(1); got != "2.0 (1.0–3.0)" {
		t.Fatalf("summary = %q", got)
	}
}
