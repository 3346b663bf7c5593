package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// A worker publishes each phone it serves to the fleet: the labels its
// adb.labels gives the phone and what it read from it, for `starter
// devices` and goals that pick a phone (docs/design.md#phone-fleet).
func TestWorkerPublishesItsPhonesToTheFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv, err := devserver.Start(ctx, devserver.Options{Port: devserver.AnyPort, UIPort: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	h, err := adbtest.New(adbtest.Device{Serial: "emulator-5554", State: "device", Model: "SM_T500"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.SetShell(func(_, cmd string, _ bool) []byte {
		switch cmd = strings.TrimSpace(cmd); {
		case strings.HasPrefix(cmd, "getprop ro.serialno"):
			return []byte("R52T500\n34\n14\n")
		case strings.HasPrefix(cmd, "getprop ro.product.model"):
			return []byte("SM-T500\n13\n")
		case cmd == "wm size":
			return []byte("Physical size: 1200x2000\n")
		case strings.HasPrefix(cmd, "dumpsys power"):
			return []byte("  mWakefulness=Awake\n  KeyguardServiceDelegate\n    showing=false\n    secure=true\n")
		case cmd == "pm list packages":
			return []byte("package:com.android.settings\npackage:com.google.android.apps.messaging\npackage:com.example.unknown\n")
		}
		return nil
	})
	cfg, _, err := config.Load(config.LoadOptions{Env: func(string) (string, bool) { return "", false }, SearchDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Temporal.Address = srv.FrontendAddr()
	cfg.ADB.Address = h.Addr
	cfg.ADB.Labels = []string{"emulator-5554=tablet shop"}
	cfg.DataDir = t.TempDir()
	cfg.PromptMemoryPath = filepath.Join(cfg.DataDir, "pm.json")
	cfg.Metrics.Address = ""
	c, err := app.NewClient(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	w, err := app.StartWorker(ctx, cfg, c, app.Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ADB: adb.New(adb.Config{Addr: h.Addr})},
		app.WorkerOptions{RelistInterval: 200 * time.Millisecond, StopTimeout: time.Second, Identity: "worker-a@host-a@"})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	ctl := goalctl.New(c, goalctl.Options{Namespace: cfg.Temporal.Namespace})
	var phones []fleet.Phone
	waitFor(t, "the phone in the fleet", func() bool {
		phones, err = ctl.Fleet(ctx)
		return err == nil && len(phones) == 1
	})
	p := phones[0]
	if p.Serial != "emulator-5554" || !slices.Equal(p.Labels, []string{"shop", "tablet"}) || !strings.HasPrefix(p.Worker, "worker-a@host-a@phone=R52T500") {
		t.Errorf("published %+v, want emulator-5554 labelled shop and tablet, served by worker-a for phone R52T500", p)
	}
	f := p.Facts
	if f.Model != "SM-T500" || f.Android != "13" || f.Width != 1200 || f.Height != 2000 || f.Lock != "secure" || !slices.Equal(f.Apps, []string{"Messages", "Settings"}) {
		t.Errorf("facts %+v, want SM-T500, Android 13, 1200x2000, a secure lock, Messages and Settings", f)
	}
	if sel, _ := fleet.ParseSelector("label=shop"); len(sel.Select(phones)) != 1 {
		t.Errorf("--on label=shop selects none of %+v", phones)
	}

	// A goal's phone labels are its PhoneflowLabels search attribute
	// (the Web UI's column and filter, `starter list --label`): a goal
	// started for the phone carries them from its start, one that picks
	// it from its pick.
	opts := workflows.GoalOptions{Plan: []string{"Open Settings"}, DeviceWait: workflows.DeviceWaitWait}
	named, _, err := ctl.Start(ctx, goalctl.StartRequest{Goal: "Open Settings", Device: "emulator-5554", Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	picked, _, err := ctl.Start(ctx, goalctl.StartRequest{Goal: "Open Settings", On: &fleet.Selector{Label: "tablet"}, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	listed := func(label string) []string {
		goals, err := ctl.List(ctx, goalctl.ListOptions{Label: label})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range goals {
			if slices.Equal(g.Labels, []string{"shop", "tablet"}) {
				ids = append(ids, g.ID)
			}
		}
		slices.Sort(ids)
		return ids
	}
	both := []string{named, picked}
	slices.Sort(both)
	waitFor(t, "both goals listed by the phone's label", func() bool { return slices.Equal(listed("tablet"), both) })
	if got := listed("shop"); !slices.Equal(got, both) {
		t.Errorf("list --label shop = %v, want %v", got, both)
	}
	if got, err := ctl.List(ctx, goalctl.ListOptions{Label: "work"}); err != nil || len(got) != 0 {
		t.Errorf("list --label work = %+v, %v: want no goal", got, err)
	}
}
