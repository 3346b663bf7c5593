package demo_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/demo"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// startDemo starts the demo in dir on the built-in adb server.
func startDemo(t *testing.T, dir string, resume bool) (*demo.Env, *goalctl.Client) {
	t.Helper()
	cfg := config.Default()
	cfg.Temporal.Embedded.Port = devserver.AnyPort
	cfg.Temporal.Embedded.UIPort = -1
	logger := stacktest.Logger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{Config: cfg, DataDir: dir, BuiltinADB: true, Resume: resume, Logger: logger,
		Dial: app.Dialer(logger), Worker: app.WorkerRunner(logger)})
	if err != nil {
		t.Fatalf("start the demo (resume %v): %v", resume, err)
	}
	t.Cleanup(env.Stop)
	return env, goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace})
}

// TestResumeContinuesAnInterruptedGoal is the headline promise on the
// demo: a demo stopped while its goal waits for an answer, started again
// with Resume, brings its phone back on the same serial, and the goal
// takes the answer and ends done on it, where its history says it was.
func TestResumeContinuesAnInterruptedGoal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the embedded Temporal server twice; skipped with -short")
	}
	dir := t.TempDir()
	if _, err := demo.LastPhone(dir); !errors.Is(err, demo.ErrNothingToResume) || !strings.Contains(err.Error(), "starter demo") {
		t.Fatalf("LastPhone of a fresh directory: %v, want ErrNothingToResume naming what to run", err)
	}
	first, g := startDemo(t, dir, false)
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: demo.AskGoal, Device: first.Serial})
	if err != nil {
		t.Fatal(err)
	}
	stacktest.WaitStatus(t, g, id, 2*time.Minute, func(s workflows.Status) bool { return s.PendingQuestion != "" })
	serial := first.Serial
	first.Stop() // the demo is interrupted: server, worker and phone go

	again, g := startDemo(t, dir, true)
	if again.Serial != serial {
		t.Fatalf("resumed phone is %s, want the interrupted demo's %s", again.Serial, serial)
	}
	info, err := g.Describe(ctx, id)
	if err != nil || info.State != "running" || info.Device != serial {
		t.Fatalf("the interrupted goal after resume: %+v, %v; want it running on %s", info, err, serial)
	}
	if err := g.Clarify(ctx, id, demo.AskExample, false); err != nil {
		t.Fatalf("answer the resumed goal: %v", err)
	}
	rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	res, err := g.Result(rctx, id)
	if err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("resumed goal ended %+v, %v; want done", res, err)
	}
	_, want, _ := strings.Cut(demo.AskExample, ": ")
	if sent := again.Phone.State().MessagesSent; len(sent) != 1 || sent[0].Text != want {
		t.Fatalf("messages sent on the phone brought back = %+v, want one %q", sent, want)
	}
}
