package llm

import (
	"math"
	"testing"
)

func TestUsageSumsAndPrices(t *testing.T) {
	a := Usage{Calls: 1, InputTokens: 1000, OutputTokens: 100, CachedTokens: 400, LatencyMS: 1500}
	b := Usage{Calls: 2, InputTokens: 3000, OutputTokens: 50, LatencyMS: 700}
	sum := a.Add(b)
	if sum != (Usage{Calls: 3, InputTokens: 4000, OutputTokens: 150, CachedTokens: 400, LatencyMS: 2200}) {
		t.Fatalf("sum = %+v", sum)
	}
	if got, want := sum.String(), "3 calls, 4000 in (400 cached) / 150 out tokens, 2.2s"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	r := RoleUsage{Planner: a, ReplayedSteps: 2}.Add(RoleUsage{Executor: b, ReplayedSteps: 1})
	if r.Total() != sum || r.ReplayedSteps != 3 || r.IsZero() || !(RoleUsage{}).IsZero() {
		t.Errorf("role usage = %+v", r)
	}
	// 3600 uncached at 2/M, 400 cached at 0.5/M, 150 out at 8/M.
	p := Price{Input: 2, Cached: 0.5, Output: 8}
	if got, want := p.Cost(sum), (3600*2+400*0.5+150*8)/1e6; math.Abs(got-want) > 1e-12 {
		t.Errorf("cost = %v, want %v", got, want)
	}
	// Without a cached price, cached tokens cost the input price.
	if got, want := (Price{Input: 2}).Cost(sum), 4000*2/1e6; math.Abs(got-want) > 1e-12 {
		t.Errorf("cost without cached price = %v, want %v", got, want)
	}
	if (*Answer)(nil).Usage() != (Usage{}) {
		t.Error("a nil answer has usage")
	}
}
