package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// misreadSend is a message todo the offline executor misreads into
// typing "ok" (modelserver.Config.Misread): a misread before it is sent.
const misreadSend = `Send Bob Li a message saying "see you at 8"`

// TestPlannerReviewStopsAMisreadSend: the planner looks in after every
// executor turn (docs/design.md#planner-review); the executor, misreading
// the todo, types other words than the todo's, and the review stops the
// todo for a replan before the Send: nothing wrong is sent, whatever the
// replan does next.
func TestPlannerReviewStopsAMisreadSend(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	s := stacktest.Start(ctx, t, localstack.Options{ADB: localstack.AnyADB, Model: modelserver.Config{Misread: []string{misreadSend}}})
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: misreadSend, Device: s.Serials[0],
		Options: workflows.GoalOptions{Plan: []string{misreadSend}, ReviewEvery: 1}})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, s.Goals, id, 6*time.Minute)
	t.Logf("goal ended %s after %d todos: %s; sent %+v", res.Status, len(res.Todos), res.Reason, s.Phones[0].State().MessagesSent)
	if len(res.Todos) == 0 || res.Todos[0].Status != workflows.TodoFailed ||
		!strings.Contains(res.Todos[0].Result, "stopped by the planner to replan") || !strings.Contains(res.Todos[0].Result, `typed "ok"`) {
		t.Fatalf("todos = %+v, want the first stopped by the planner for typing \"ok\"", res.Todos)
	}
	for _, m := range s.Phones[0].State().MessagesSent {
		if m.To != "Bob Li" || m.Text != "see you at 8" {
			t.Fatalf("sent %+v: the review let a wrong message out (goal %s: %s)", m, res.Status, res.Reason)
		}
	}
	if res.Status == workflows.GoalDone && len(s.Phones[0].State().MessagesSent) != 1 {
		t.Fatalf("goal done with messages sent %+v, want the one message", s.Phones[0].State().MessagesSent)
	}
	var stops []activities.ReviewResult
	for _, r := range reviews(t, s, []string{id + "/todo-1"}) {
		if r.Decision == "replan" {
			stops = append(stops, r)
		}
	}
	if len(stops) != 1 || !strings.Contains(stops[0].Reason, `typed "ok" but the todo's words are "see you at 8"`) {
		t.Fatalf("the first todo's review stops = %+v, want one naming the typed words", stops)
	}
}

// reviews reads the results of every Review activity in the histories of
// the workflows ids.
func reviews(t *testing.T, s *localstack.Stack, ids []string) []activities.ReviewResult {
	t.Helper()
	var out []activities.ReviewResult
	for _, id := range ids {
		hctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		evs, err := drill.History(hctx, s.Client, id)
		cancel()
		if err != nil {
			t.Fatalf("history of %s: %v", id, err)
		}
		asked := map[int64]bool{}
		for _, ev := range evs {
			if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameReview {
				asked[ev.EventId] = true
			}
			if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && asked[a.GetScheduledEventId()] {
				var r activities.ReviewResult
				if p := a.GetResult().GetPayloads(); len(p) > 0 {
					if err := json.Unmarshal(p[0].GetData(), &r); err != nil {
						t.Fatalf("%s: Review result: %v", id, err)
					}
				}
				out = append(out, r)
			}
		}
	}
	return out
}
