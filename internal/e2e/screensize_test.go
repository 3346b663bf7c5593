package e2e

import (
	"context"
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

// TestGoalOnASmallerScreen: the stack's phone is 720×1600 at 320 dpi
// (sim.width, sim.height, sim.density). The phone says so over adb, and a
// two-todo goal (a setting, then a message typed and sent) ends verified
// done on it, with the phone showing both.
func TestGoalOnASmallerScreen(t *testing.T) {
	stacktest.NeedADB(t)
	cfg := config.Default()
	cfg.Executor.Protocol = config.ProtocolPhoneflow
	cfg.Executor.UIElements = "true"
	cfg.Temporal.Embedded.Port = devserver.AnyPort
	cfg.Sim.Width, cfg.Sim.Height, cfg.Sim.Density = 720, 1600, 320
	logger := stacktest.Logger(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	env, err := demo.Start(ctx, demo.Options{Config: cfg, DataDir: t.TempDir(), Logger: logger,
		Dial: app.Dialer(logger), Worker: app.WorkerRunner(logger)})
	if err != nil {
		t.Fatalf("start the stack: %v", err)
	}
	t.Cleanup(env.Stop)
	for cmd, want := range map[string]string{"wm size": "Physical size: 720x1600", "wm density": "Physical density: 320", "getprop ro.sf.lcd_density": "320"} {
		out, err := env.Stack.ADB.Shell(ctx, env.Serial, cmd)
		if err != nil || strings.TrimSpace(string(out)) != want {
			t.Fatalf("adb shell %s = %q (%v), want %q", cmd, out, err, want)
		}
	}
	g := goalctl.New(env.Client, goalctl.Options{Namespace: env.Config.Temporal.Namespace, UIAddress: env.Server.UIURL()})
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: `Turn on Bluetooth and then send Bob Li a message saying "on the small phone"`, Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, g, id, 6*time.Minute)
	st := env.Phone.State()
	if res.Status != workflows.GoalDone || !st.Toggles.Bluetooth {
		t.Fatalf("goal on 720×1600 ended %s (%s); Bluetooth on: %t; todos %+v", res.Status, res.Reason, st.Toggles.Bluetooth, res.Todos)
	}
	for _, td := range res.Todos {
		if !td.Verified {
			t.Errorf("todo %q ended %s but not verified", td.Text, td.Status)
		}
	}
	sent := 0
	for _, m := range st.MessagesSent {
		if m.To == "Bob Li" && m.Text == "on the small phone" {
			sent++
		}
	}
	if sent != 1 {
		t.Fatalf("%d messages to Bob Li with the text, want 1: %+v", sent, st.MessagesSent)
	}
}
