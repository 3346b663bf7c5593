package blocked

import (
	"context"
	"slices"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// BenchmarkFenceQuery measures what the lease fence adds to a Step that
// acts (docs/design.md §24): the lease's `lease` query as Step sends it, on
// the embedded server with the worker in this process, against the
// duration of the Steps of one message goal on the same stack:
//
//	go test -run '^$' -bench FenceQuery -benchtime 200x ./internal/drill/blocked
func BenchmarkFenceQuery(b *testing.B) {
	ctx := context.Background()
	s := stacktest.Start(ctx, b, stack.Options{ADB: stack.BuiltinADB})
	serial := s.Serials[0]
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: `Send "fence bench" to Alice Chen in Messages`, Device: serial})
	if err != nil {
		b.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	if res, err := s.Goals.Result(rctx, id); err != nil || res.Status != workflows.GoalDone {
		b.Fatalf("goal: %v %s", err, res.Status)
	}
	steps := stepDurations(b, s, id+"/todo-1")
	var lat []time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		resp, err := s.Client.QueryWorkflowWithOptions(ctx, &client.QueryWorkflowWithOptionsRequest{
			WorkflowID: workflows.LeaseWorkflowID(serial), QueryType: activities.LeaseQueryState,
			QueryRejectCondition: enumspb.QUERY_REJECT_CONDITION_NOT_OPEN,
		})
		if err != nil || resp.QueryRejected != nil {
			b.Fatalf("query: %v %v", err, resp)
		}
		var st workflows.LeaseState
		if err := resp.QueryResult.Get(&st); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	q50, q95 := pct(lat, 50), pct(lat, 95)
	s50 := pct(steps, 50)
	b.ReportMetric(float64(q50.Microseconds())/1000, "query-p50-ms")
	b.ReportMetric(float64(q95.Microseconds())/1000, "query-p95-ms")
	b.ReportMetric(float64(s50.Microseconds())/1000, "step-p50-ms")
	b.ReportMetric(100*float64(q50)/float64(s50), "%-of-step")
	b.Logf("| fence query p50 | p95 | Step p50 (%d Steps) | query / Step |\n| %s | %s | %s | %.1f%% |",
		len(steps), q50.Round(10*time.Microsecond), q95.Round(10*time.Microsecond), s50.Round(time.Millisecond), 100*float64(q50)/float64(s50))
}

// stepDurations are the schedule-to-close times of a todo's Steps.
func stepDurations(b *testing.B, s *stack.Stack, id string) []time.Duration {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	events, err := drill.History(ctx, s.Client, id)
	if err != nil {
		b.Fatal(err)
	}
	scheduled := map[int64]time.Time{}
	var out []time.Duration
	for _, e := range events {
		switch e.GetEventType() {
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			if e.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == activities.NameStep {
				scheduled[e.GetEventId()] = e.GetEventTime().AsTime()
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			if at, ok := scheduled[e.GetActivityTaskCompletedEventAttributes().GetScheduledEventId()]; ok {
				out = append(out, e.GetEventTime().AsTime().Sub(at))
			}
		}
	}
	if len(out) == 0 {
		b.Fatal("no Step in the todo's history")
	}
	return out
}

func pct(d []time.Duration, p int) time.Duration {
	d = slices.Clone(d)
	slices.Sort(d)
	return d[(len(d)-1)*p/100]
}
