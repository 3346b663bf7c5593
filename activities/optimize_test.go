package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/promptmem"
)

func TestTodoTypeIsTheRoutineKey(t *testing.T) {
	a := TodoType(`Send Alice a message saying "hi"`)
	b := TodoType(`Send Bob a message saying "running late"`)
	if a == "" || a != b {
		t.Fatalf("todo types %q and %q, want one key for both", a, b)
	}
	if c := TodoType("Turn on Wi-Fi"); c == a {
		t.Fatalf("another kind of todo shares the key %q", c)
	}
}

func TestOptimizePromptCountsGoalAndTodoType(t *testing.T) {
	a, _, _ := newActivities(t)
	mem, err := promptmem.Open(t.TempDir() + "/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	a.Prompts = mem
	ctx := context.Background()
	for _, ok := range []bool{false, true} {
		if _, err := a.OptimizePrompt(ctx, OptimizeInput{TaskType: "chat", Todo: `Send Alice a message saying "hi"`, Success: ok, Reason: "not sent"}); err != nil {
			t.Fatal(err)
		}
	}
	e, ok, err := mem.Get("chat")
	if err != nil || !ok || e.Runs != 2 || e.SuccessRate != 0.5 {
		t.Fatalf("goal task type entry = %+v, %v, %v", e, ok, err)
	}
	g, ok, err := mem.Guidance(TodoType(`Send Bob a message saying "x"`))
	if err != nil || !ok || g.InForce != 1 || g.Current().Runs != 2 || g.Current().Successes != 1 || len(g.Recent) != 2 {
		t.Fatalf("todo type guidance = %+v, %v, %v", g, ok, err)
	}
}

// A failure streak asks for a rewrite, the planner writes the new version,
// it goes on trial, and the executor's next request carries it in the
// system prompt with its version in the result.
func TestFailureStreakRewritesAndExecutorGetsVersion(t *testing.T) {
	a, _, m := newActivities(t, `{"guidance":"After each tap, check the new screen."}`, tapAnswer)
	mem, err := promptmem.Open(t.TempDir() + "/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	a.Prompts, a.PromptPolicy = mem, promptmem.Policy{FailureStreak: 3, Every: 10, TrialRuns: 5}
	ctx := context.Background()
	todos := []string{`Send Alice a message saying "a"`, `Send Bob a message saying "b"`, `Send Carol a message saying "c"`}
	var res OptimizeResult
	for i, todo := range todos {
		res, err = a.OptimizePrompt(ctx, OptimizeInput{Todo: todo, Success: false, Reason: "done, but the message is not in the thread", Guidance: 1})
		if err != nil {
			t.Fatal(err)
		}
		if (res.Rewrite != nil) != (i == 2) {
			t.Fatalf("run %d: rewrite = %+v, want one only after the third failure", i+1, res.Rewrite)
		}
	}
	if res.Rewrite.From != 1 || !strings.Contains(res.Rewrite.Why, "3 failures in a row") {
		t.Fatalf("rewrite = %+v", res.Rewrite)
	}
	rw, err := a.RewritePrompt(ctx, *res.Rewrite)
	if err != nil || rw.Version != 2 {
		t.Fatalf("rewrite result = %+v, %v", rw, err)
	}
	req := m.last()
	if !strings.HasPrefix(req[0].Text, "You are the guidance writer") || strings.Count(req[1].Text, "NOT done") != 3 ||
		!strings.Contains(req[1].Text, "the message is not in the thread") {
		t.Fatalf("guidance request = %q", req[1].Text)
	}
	g, _, _ := mem.Guidance(res.TodoType)
	if v, trial := g.Trial(); !trial || v.N != 2 || v.Parent != 1 {
		t.Fatalf("guidance after rewrite = %+v", g)
	}
	obs, err := a.Observe(ctx, ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	th, err := a.Think(ctx, ThinkInput{Task: `Send Dave a message saying "d"`, Screen: obs})
	if err != nil {
		t.Fatal(err)
	}
	if th.Guidance != 2 || !strings.Contains(m.last()[0].Text, "After each tap, check the new screen.") {
		t.Fatalf("think used v%d; system prompt %q", th.Guidance, m.last()[0].Text)
	}
	// A todo pinned to v1 keeps v1 (no text): its system prompt has no advice.
	m.answers = append(m.answers, tapAnswer)
	th, err = a.Think(ctx, ThinkInput{Task: `Send Dave a message saying "d"`, Screen: obs, Guidance: 1})
	if err != nil || th.Guidance != 1 || strings.Contains(m.last()[0].Text, "After each tap") {
		t.Fatalf("pinned think = v%d, %v; system prompt %q", th.Guidance, err, m.last()[0].Text)
	}
}

func TestRewriteRefusesBadAnswersAndMovedVersions(t *testing.T) {
	a, _, _ := newActivities(t, `{"advice":"x"}`, `{"guidance":""}`)
	mem, err := promptmem.Open(t.TempDir() + "/prompts.json")
	if err != nil {
		t.Fatal(err)
	}
	a.Prompts = mem
	ctx := context.Background()
	todo := `Send Alice a message saying "a"`
	if _, err := a.OptimizePrompt(ctx, OptimizeInput{Todo: todo, Success: false}); err != nil {
		t.Fatal(err)
	}
	rw, err := a.RewritePrompt(ctx, RewriteInput{TodoType: TodoType(todo), From: 1, Why: "test"})
	if err != nil || rw.Version != 0 || rw.Invalid == "" {
		t.Fatalf("two bad answers = %+v, %v; want no version and why", rw, err)
	}
	rw, err = a.RewritePrompt(ctx, RewriteInput{TodoType: TodoType(todo), From: 7, Why: "test"})
	if err != nil || rw.Version != 0 || !strings.Contains(rw.Invalid, "moved on") {
		t.Fatalf("stale rewrite = %+v, %v", rw, err)
	}
}
