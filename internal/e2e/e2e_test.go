package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
	"google.golang.org/protobuf/encoding/protojson"
)

// TestShowcaseGoal runs the multi-todo showcase goal (a read, a replan that
// carries what was read into the next todo, a message, a toggle) on the
// embedded server in every executor protocol and checks the phone, the
// read's result, the result and the history.
func TestShowcaseGoal(t *testing.T) {
	for _, p := range showcaseProtocols {
		t.Run(p, func(t *testing.T) { showcaseGoal(t, p, "") })
	}
}

// TestShowcaseGoalOnPixel runs the showcase goal on a phone wearing the
// Pixel skin in the layouts that send no app line, where the offline
// executor tells a Pixel screen's app from what it shows (Bluetooth three
// pages deep in Settings, the read in DeskClock's list).
func TestShowcaseGoalOnPixel(t *testing.T) {
	for _, p := range []string{config.ProtocolUITARS, config.ProtocolMobileUse} {
		t.Run(p, func(t *testing.T) { showcaseGoal(t, p, phonesim.SkinPixel) })
	}
}

func showcaseGoal(t *testing.T, protocol string, skin phonesim.Skin) {
	env, g := stackOn(t, protocol, skin)
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: demo.Showcase, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s (%s)", res.Status, res.Reason, res.Response)
	}
	if len(res.Todos) < 3 {
		t.Fatalf("want at least 3 todos, got %+v", res.Todos)
	}
	// The read's value is the first todo's result, in every family's
	// grammar (a mobile_use terminate carries it from the answer before).
	if r := res.Todos[0]; r.Status != workflows.TodoDone || !strings.Contains(r.Result, "07:00") {
		t.Errorf("the read todo ended %s with result %q, want done with 07:00", r.Status, r.Result)
	}
	st := env.Phone.State()
	if !st.Toggles.Bluetooth {
		t.Error("Bluetooth is still off")
	}
	if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Alice Chen" || st.MessagesSent[0].Text != "07:00" {
		t.Errorf("messages sent = %+v, want exactly one \"07:00\" to Alice Chen", st.MessagesSent)
	}

	hs := histories(t, env.Client, id, res.Todos)
	events, bytes := 0, 0
	for wid, h := range hs {
		raw, err := protojson.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		if n := imageBytes(raw); n > 0 {
			t.Errorf("%s: %d bytes of image data in history", wid, n)
		}
		events += len(h.Events)
		bytes += size(h)
	}
	perStepEvents := float64(events) / float64(res.Steps)
	perStepBytes := float64(bytes) / float64(res.Steps)
	t.Logf("history: %d workflows, %d events, %d bytes for %d steps: %.1f events and %.0f bytes per step",
		len(hs), events, bytes, res.Steps, perStepEvents, perStepBytes)
	if perStepEvents >= 12 || perStepBytes >= 4096 {
		t.Errorf("history per step = %.1f events / %.0f bytes, want < 12 events and < 4 KB", perStepEvents, perStepBytes)
	}
	if protocol == config.ProtocolPhoneflow {
		recordHistories(t, "showcase", hs, id)
	}
	checkRetentionSeesGoal(t, env, id)
}

// checkRetentionSeesGoal asks the embedded server's visibility, as blob
// retention does, for the goals closed in the last hour: the goal just run
// must pin the cutoff at its start.
func checkRetentionSeesGoal(t *testing.T, env *demo.Env, id string) {
	t.Helper()
	ctx := context.Background()
	desc, err := env.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		t.Fatal(err)
	}
	started := desc.GetWorkflowExecutionInfo().GetStartTime().AsTime()
	goals := app.VisibilityGoals(env.Client, env.Config.Temporal.Namespace)
	deadline := time.Now().Add(30 * time.Second)
	for {
		start, ok, err := goals.OldestStart(ctx, time.Now().Add(-time.Hour))
		if err != nil {
			t.Fatalf("retention's visibility query failed: %v", err)
		}
		if ok && !start.After(started) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("retention's visibility query found oldest start %v (found %t), want at most %v", start, ok, started)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if r, err := goals.Retention(ctx); err != nil || r <= 0 {
		t.Fatalf("namespace retention = %v, %v; want a positive duration", r, err)
	}
}

// TestClarifyRoundTrip runs a goal the planner cannot plan without asking,
// answers through the clarify update, and checks the goal then completes.
func TestClarifyRoundTrip(t *testing.T) {
	for _, p := range protocols {
		t.Run(p, func(t *testing.T) { clarifyRoundTrip(t, p) })
	}
}

func clarifyRoundTrip(t *testing.T, protocol string) {
	env, g := stack(t, protocol)
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: demo.AskGoal, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStatus(t, g, id, 2*time.Minute, func(s workflows.Status) bool { return s.PendingQuestion != "" })
	if st.Phase != workflows.GoalWaitingUser {
		t.Errorf("phase while asking = %q, want %q", st.Phase, workflows.GoalWaitingUser)
	}
	// Wrong calls are rejected with a clear error and change nothing.
	if err := g.Send(ctx, id, workflows.SignalResume, nil, false); err == nil || !strings.Contains(err.Error(), "not paused") {
		t.Errorf("resume while not paused: err = %v, want a rejection saying it is not paused", err)
	}
	// Bypass the CLI's own checks so the workflow's validator answers.
	if err := g.Send(ctx, id, workflows.SignalClarify, "  ", false); err == nil {
		t.Error("an empty clarify was accepted by the workflow")
	}
	if err := g.Send(ctx, id, workflows.SignalClarify, strings.Repeat("x", workflows.MaxSignalText+1), false); err == nil {
		t.Error("an oversized clarify was accepted by the workflow")
	}
	if err := g.Clarify(ctx, id, demo.AskExample, false); err != nil {
		t.Fatalf("clarify: %v", err)
	}
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s", res.Status, res.Reason)
	}
	sent := env.Phone.State().MessagesSent
	_, want, _ := strings.Cut(demo.AskExample, ": ")
	if len(sent) != 1 || sent[0].To != "Alice Chen" || sent[0].Text != want {
		t.Fatalf("messages sent = %+v", sent)
	}
	if protocol == config.ProtocolPhoneflow {
		recordHistories(t, "clarify", histories(t, env.Client, id, res.Todos), id)
	}
}

// TestVerifiedGoal runs a goal whose first todo the verifier model confirms
// on the screen and whose second is impossible on this phone: the goal ends
// failed naming what is missing, with each todo's verdict in the result.
func TestVerifiedGoal(t *testing.T) {
	env, g := stack(t, protocols[0])
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: verifiedGoal, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalFailed || !strings.Contains(res.Reason, "travel") {
		t.Fatalf("goal ended %s: %s (%s), want failed naming the travel app", res.Status, res.Reason, res.Response)
	}
	if b := env.Phone.State().Brightness; b != 80 {
		t.Errorf("brightness = %d, want 80", b)
	}
	if len(res.Todos) != 2 || !res.Todos[0].Verified || res.Todos[0].Evidence == "" ||
		res.Todos[1].Status != workflows.TodoFailed || res.Todos[1].Verified || !strings.Contains(res.Todos[1].Evidence, "travel") {
		t.Fatalf("todos = %+v, want a verified first todo and a failed second one naming the travel app", res.Todos)
	}
	recordHistories(t, "verified", histories(t, env.Client, id, res.Todos), id)
}

// verifiedGoal: brightness is judged by the verifier model, the travel
// booking by the executor's own admission.
const verifiedGoal = "Set brightness to 80% and then book a train ticket in the travel app"
