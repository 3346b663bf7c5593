package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/goalctl"
)

// host is a fake ADB server that lists emulator-5554, a phone whose
// ro.serialno is serialNo.
func host(t *testing.T, serialNo string) *adbtest.Server {
	t.Helper()
	h, err := adbtest.New(adbtest.Device{Serial: "emulator-5554", State: "device", Model: "Pixel"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	h.SetShell(func(_, cmd string, _ bool) []byte {
		// The identity is read with the release in one round trip
		// (`getprop ro.serialno; getprop ro.build.version.sdk; …`).
		if strings.HasPrefix(strings.TrimSpace(cmd), "getprop ro.serialno") {
			return []byte(serialNo + "\n")
		}
		return nil
	})
	return h
}

// startOn starts a worker named identity on the phones of h.
func startOn(ctx context.Context, t *testing.T, c client.Client, temporalAddr string, h *adbtest.Server, identity string) *app.Worker {
	t.Helper()
	cfg, _, err := config.Load(config.LoadOptions{Env: func(string) (string, bool) { return "", false }, SearchDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Temporal.Address = temporalAddr
	cfg.ADB.Address = h.Addr
	cfg.DataDir = t.TempDir()
	cfg.PromptMemoryPath = filepath.Join(cfg.DataDir, "pm.json")
	cfg.Metrics.Address = ""
	w, err := app.StartWorker(ctx, cfg, c, app.Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ADB: adb.New(adb.Config{Addr: h.Addr})},
		app.WorkerOptions{RelistInterval: 200 * time.Millisecond, StopTimeout: time.Second, Identity: identity})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	return w
}

// waitFor polls cond until it holds or the minute is up.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// Two workers started on one phone (docs/design.md §5): the second serves
// nothing for it and says which worker does and what to do; it takes the
// phone over once that worker is gone. A third host whose emulator-5554 is
// another phone (another ro.serialno) is told so, with the fix.
func TestSecondWorkerOnAPhoneServesNothingAndSaysWhy(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	srv, err := devserver.Start(ctx, devserver.Options{Port: devserver.AnyPort, UIPort: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	cfg, _, err := config.Load(config.LoadOptions{Env: func(string) (string, bool) { return "", false }, SearchDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Temporal.Address = srv.FrontendAddr()
	dial := func() client.Client {
		c, err := app.NewClient(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	ctl := goalctl.New(dial(), goalctl.Options{Namespace: cfg.Temporal.Namespace})
	servedBy := func() string {
		s, err := ctl.DeviceService(ctx, "emulator-5554", time.Now())
		if err != nil || !s.Served {
			return ""
		}
		return s.Worker
	}

	// The same phone (ro.serialno R58AAA) seen from two hosts.
	a := startOn(ctx, t, dial(), srv.FrontendAddr(), host(t, "R58AAA"), "worker-a@host-a@")
	waitFor(t, "worker a to serve the phone", func() bool { return strings.HasPrefix(servedBy(), "worker-a@host-a@phone=R58AAA") })
	b := startOn(ctx, t, dial(), srv.FrontendAddr(), host(t, "R58AAA"), "worker-b@host-b@")
	waitFor(t, "worker b to refuse the phone", func() bool { return b.Refused()["emulator-5554"] != "" })
	if got := b.Serials(); len(got) != 0 {
		t.Fatalf("worker b serves %v, want nothing while worker a does", got)
	}
	why := b.Refused()["emulator-5554"]
	for _, s := range []string{"worker-a@host-a@phone=R58AAA", "already serves it", "stop that worker", "adb disconnect emulator-5554"} {
		if !strings.Contains(why, s) {
			t.Errorf("worker b says %q, want it to say %q", why, s)
		}
	}

	// Worker a stops: b takes the phone over.
	a.Stop()
	waitFor(t, "worker b to serve the phone once a is gone", func() bool { return len(b.Serials()) == 1 })
	waitFor(t, "the phone served by worker b", func() bool { return strings.HasPrefix(servedBy(), "worker-b@host-b@phone=R58AAA") })

	// Another phone that is emulator-5554 on its own host.
	c := startOn(ctx, t, dial(), srv.FrontendAddr(), host(t, "R58CCC"), "worker-c@host-c@")
	waitFor(t, "worker c to refuse the phone", func() bool { return c.Refused()["emulator-5554"] != "" })
	why = c.Refused()["emulator-5554"]
	for _, s := range []string{"another phone listed under the same serial", "R58AAA", "R58CCC", "another serial"} {
		if !strings.Contains(why, s) {
			t.Errorf("worker c says %q, want it to say %q", why, s)
		}
	}
	if len(c.Serials()) != 0 {
		t.Fatalf("worker c serves %v", c.Serials())
	}
}
