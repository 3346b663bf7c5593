package planner_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/llm"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/planner"
)

// The requests this package builds must be understood by the offline model
// server, which plays the planner over real HTTP.
func offlinePlanner(t *testing.T, stream bool) *llm.Client {
	t.Helper()
	srv := httptest.NewServer(modelserver.New(modelserver.Config{}))
	t.Cleanup(srv.Close)
	cfg := llm.Config{BaseURL: srv.URL + "/v1", Model: modelserver.PlannerModel, Stream: stream, Timeout: 10 * time.Second}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	return llm.New(cfg)
}

func TestOfflinePlanAndReplan(t *testing.T) {
	for _, stream := range []bool{false, true} {
		c := offlinePlanner(t, stream)
		ctx := context.Background()
		goal := "Turn on Wi-Fi and then Bluetooth"
		ans, err := c.Chat(ctx, planner.BuildPlanMessages(planner.PlanContext{Goal: goal}, []string{"toggle_setting"}))
		if err != nil {
			t.Fatal(err)
		}
		plan, err := planner.ParsePlan(ans.Text)
		if err != nil {
			t.Fatalf("stream=%v: plan answer %q: %v", stream, ans.Text, err)
		}
		if plan.Status != planner.StatusPlanned || len(plan.Plan) != 2 || plan.TaskType == "" {
			t.Fatalf("stream=%v: plan = %+v, want two todos and a task type", stream, plan)
		}

		ans, err = c.Chat(ctx, planner.BuildReplanMessages(planner.ReplanContext{
			Goal:      goal,
			Done:      []planner.TodoResult{{Todo: plan.Plan[0], Status: "done", Result: "Wi-Fi is on", Steps: 3}},
			Remaining: plan.Plan[1:],
			Feedback:  []string{`do(action="Tap", element=[500,120]) -> ok`},
		}))
		if err != nil {
			t.Fatal(err)
		}
		re, err := planner.ParseReplan(ans.Text)
		if err != nil {
			t.Fatalf("stream=%v: replan answer %q: %v", stream, ans.Text, err)
		}
		if re.Status != planner.StatusReplanned || len(re.Plan) != 1 || re.Plan[0] != plan.Plan[1] {
			t.Errorf("stream=%v: replan = %+v, want the remaining todo %q", stream, re, plan.Plan[1])
		}
	}
}

func TestOfflineAsksForMissingRecipient(t *testing.T) {
	c := offlinePlanner(t, false)
	ans, err := c.Chat(context.Background(), planner.BuildPlanMessages(planner.PlanContext{Goal: "Send a message saying I am late"}, nil))
	if err != nil {
		t.Fatal(err)
	}
	d, err := planner.ParsePlan(ans.Text)
	if err != nil || d.Status != planner.StatusAskUser || d.Question == "" {
		t.Errorf("decision = %+v, %v; want ask_user with a question", d, err)
	}
}
