package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/llm"
)

func TestCorrectAsksThePlannerWithTheScreen(t *testing.T) {
	a, _, m := newActivities(t, `{"correction":"Tap the Wi-Fi switch at [500,212] instead."}`)
	ctx := context.Background()
	obs, err := a.Observe(ctx, ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Correct(ctx, CorrectInput{Task: "Turn on Wi-Fi", Why: "the screen did not change after 3 actions",
		Recent: []string{`do(action="Tap", element=[10,10]) → ok`}, Screen: obs})
	if err != nil || res.Correction != "Tap the Wi-Fi switch at [500,212] instead." || res.Invalid != "" {
		t.Fatalf("Correct = %+v, %v", res, err)
	}
	req := m.last()
	if len(req) != 2 || !strings.HasPrefix(req[0].Text, "You are the correction writer") {
		t.Fatalf("request = %+v", req)
	}
	for _, want := range []string{"Task: Turn on Wi-Fi", `- do(action="Tap", element=[10,10]) → ok`, "Current app: Settings", `"Wi-Fi"`} {
		if !strings.Contains(req[1].Text, want) {
			t.Errorf("request lacks %q:\n%s", want, req[1].Text)
		}
	}
	if len(req[1].Images) != 0 {
		t.Error("the correction request carries a screenshot; the planner need not be a vision model")
	}
}

func TestCorrectFeedsABadAnswerBackOnce(t *testing.T) {
	a, _, m := newActivities(t, `Try going back.`, `{"correction":"Go back with do(action=\"Back\")."}`)
	res, err := a.Correct(context.Background(), CorrectInput{Task: "Turn on Wi-Fi", Why: "stuck"})
	if err != nil || res.Correction != `Go back with do(action="Back").` || res.Rejected != 1 {
		t.Fatalf("Correct = %+v, %v (want the correction and one rejected answer)", res, err)
	}
	req := m.last()
	if len(req) != 4 || req[2].Text != "Try going back." || !strings.Contains(req[3].Text, "no JSON object") {
		t.Fatalf("retry request = %+v", req)
	}

	a, _, _ = newActivities(t, `{"fix":"x"}`, `{"correction":""}`)
	res, err = a.Correct(context.Background(), CorrectInput{Task: "Turn on Wi-Fi", Why: "stuck"})
	if err != nil || res.Correction != "" || !strings.Contains(res.Invalid, "non-empty") || res.Rejected != 2 {
		t.Fatalf("two bad answers: %+v, %v (want no correction and the problem)", res, err)
	}
}

func TestCorrectErrors(t *testing.T) {
	a, _, _ := newActivities(t, &llm.Error{Kind: llm.Retryable, Status: 503, Msg: "overloaded"})
	_, err := a.Correct(context.Background(), CorrectInput{Task: "x", Why: "stuck"})
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.NonRetryable() {
		t.Fatalf("a 503 = %v, want a retryable application error", err)
	}
	a.Planner = nil
	_, err = a.Correct(context.Background(), CorrectInput{Task: "x", Why: "stuck"})
	if !errors.As(err, &app) || !app.NonRetryable() || !strings.Contains(err.Error(), "no planner model") {
		t.Fatalf("no planner = %v", err)
	}
}

func TestVerifyCountsTheAnswersItFedBack(t *testing.T) {
	in := VerifyInput{Task: "Read today's forecast", Message: "Sunny, 21 degrees"}
	a, _, _ := newActivities(t, `the todo looks done`, `{"status":"done","evidence":"the forecast shows sunny"}`)
	res, err := a.Verify(context.Background(), in)
	// The second answer is valid, but its evidence quotes no element of a
	// final screen (there is none): not done (docs/design.md §9).
	if err != nil || res.Status != "failed" || res.Invalid != "" || res.Rejected != 1 {
		t.Fatalf("Verify = %+v, %v (want failed with one rejected answer)", res, err)
	}

	a, _, _ = newActivities(t, `{"status":"probably"}`, `{"status":"done"}`)
	res, err = a.Verify(context.Background(), in)
	if err != nil || res.Status != "failed" || res.Invalid == "" || res.Rejected != 2 {
		t.Fatalf("two bad answers: %+v, %v (want failed, the problem and two rejected answers)", res, err)
	}
}
