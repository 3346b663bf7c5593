//go:build bench

package cluster_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestClusterBench measures goal throughput and step latency on the
// PostgreSQL cluster against the embedded server, in the same run on the
// same machine, alternating the two (docs/design.md §14). Each run starts
// a fresh fleet (two worker processes, two phones each) and eight message
// goals, two per phone, at once. It prints a table; it asserts nothing
// about time.
//
//	go test -tags bench -run TestClusterBench ./internal/cluster -v -timeout 60m
//
// PHONEFLOW_CLUSTER_BENCH_RUNS sets the runs of each (default 3).
func TestClusterBench(t *testing.T) {
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("PHONEFLOW_CLUSTER_BENCH_RUNS")); err == nil && n > 0 {
		runs = n
	}
	type sample struct{ perMin, stepMed, stepP90 float64 }
	got := map[string][]sample{}
	kinds := []string{"embedded (SQLite in memory, one process)", "cluster (PostgreSQL, a process per service)"}
	for r := range runs {
		for k, kind := range kinds {
			t.Run(fmt.Sprintf("%d-%s", r+1, strings.Fields(kind)[0]), func(t *testing.T) {
				f := startFleetOn(t, 2, k == 0)
				perMin, steps := benchRun(t, f, 8)
				slices.Sort(steps)
				s := sample{perMin, pct(steps, 50), pct(steps, 90)}
				t.Logf("%s: %.1f goals/min, step latency median %.0f ms, p90 %.0f ms (%d steps)", kind, s.perMin, s.stepMed, s.stepP90, len(steps))
				got[kind] = append(got[kind], s)
			})
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| server | goals per minute | Step latency, median | Step latency, p90 |\n|---|---|---|---|\n")
	for _, kind := range kinds {
		var pm, med, p90 []float64
		for _, s := range got[kind] {
			pm, med, p90 = append(pm, s.perMin), append(med, s.stepMed), append(p90, s.stepP90)
		}
		fmt.Fprintf(&b, "| %s | %s | %s ms | %s ms |\n", kind, summary(pm, 1), summary(med, 0), summary(p90, 0))
	}
	fmt.Fprintf(&b, "\nmedian (min–max) of %d runs each, alternating; each run: 8 message goals, two per phone, on 2 worker processes with 2 phones each\n", runs)
	t.Log(b.String())
}

// benchRun starts n message goals spread over the fleet's phones at once
// and returns the goals per minute (from the first start to the last end)
// and every Step activity's latency (scheduled to completed), in ms.
func benchRun(t *testing.T, f *fleet, n int) (float64, []float64) {
	var serials []string
	for _, h := range f.hosts {
		serials = append(serials, h.Serials...)
	}
	start := time.Now()
	var ids []string
	for i := range n {
		ids = append(ids, f.startGoal(t, fmt.Sprintf("Send %q to Alice Chen in Messages", fmt.Sprintf("bench %d", i)), serials[i%len(serials)]))
	}
	var res []workflows.GoalResult
	for _, id := range ids {
		r := f.result(t, id, 10*time.Minute)
		if r.Status != workflows.GoalDone {
			t.Fatalf("goal %s ended %s: %s", id, r.Status, r.Reason)
		}
		res = append(res, r)
	}
	perMin := float64(n) / time.Since(start).Minutes()
	var steps []float64
	for i, id := range ids {
		for _, wid := range drill.GoalWorkflowIDs(id, res[i])[1:] {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			h, err := drill.HistoryOf(ctx, f.st.Client, wid)
			cancel()
			if err != nil {
				continue
			}
			scheduled := map[int64]time.Time{}
			for _, ev := range h.GetEvents() {
				if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == "Step" {
					scheduled[ev.GetEventId()] = ev.GetEventTime().AsTime()
				}
				if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil {
					if at, ok := scheduled[a.GetScheduledEventId()]; ok {
						steps = append(steps, float64(ev.GetEventTime().AsTime().Sub(at).Microseconds())/1000)
					}
				}
			}
		}
	}
	if len(steps) == 0 {
		t.Fatal("no Step activity found in the todos' histories")
	}
	return perMin, steps
}

// pct is the p-th percentile of sorted xs (nearest rank).
func pct(xs []float64, p int) float64 {
	i := (p*len(xs) + 99) / 100
	return xs[max(i-1, 0)]
}

// summary is "median (min–max)" of xs.
func summary(xs []float64, prec int) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	return fmt.Sprintf("%s (%s–%s)", f(s[len(s)/2]), f(s[0]), f(s[len(s)-1]))
}
