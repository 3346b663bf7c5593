package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/devserver"
	"github.com/phoneflow/phoneflow/internal/loopback"
	"github.com/phoneflow/phoneflow/workflows"
)

// freePort is for ports that go to the worker as flag values, which can
// only name a port number.
func freePort(t *testing.T) int {
	t.Helper()
	p, err := loopback.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDevWebUIPortTakenIsAnError(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	taken := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	err = run(context.Background(), []string{"--dev", "--data-dir", t.TempDir(), "--temporal-port", strconv.Itoa(freePort(t)),
		"--temporal-ui-port", taken, "--metrics-address", ""}, io.Discard)
	if !errors.Is(err, devserver.ErrPortInUse) {
		t.Fatalf("Web UI port taken: %v, want ErrPortInUse", err)
	}
	for _, want := range []string{"port " + taken + " is in use", "--temporal-ui-port"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// syncBuffer is a log sink safe for the worker's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// hasPoller waits until a worker polls queue.
func hasPoller(ctx context.Context, t *testing.T, c client.Client, queue string, kind enumspb.TaskQueueType) bool {
	t.Helper()
	for ctx.Err() == nil {
		resp, err := c.DescribeTaskQueue(ctx, queue, kind)
		if err == nil && len(resp.GetPollers()) > 0 {
			return true
		}
		time.Sleep(200 * time.Millisecond)
	}
	return false
}

func pollers(ctx context.Context, c client.Client, queue string) []*taskqueuepb.PollerInfo {
	resp, err := c.DescribeTaskQueue(ctx, queue, enumspb.TASK_QUEUE_TYPE_WORKFLOW)
	if err != nil {
		return nil
	}
	return resp.GetPollers()
}

func TestDevWorkerRunsAndStopsCleanly(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	port, uiPort := freePort(t), freePort(t)
	t.Setenv("HOME", t.TempDir())
	t.Chdir(t.TempDir())
	const secret = "sk-never-logged"
	t.Setenv("MODEL_API_KEY", secret)
	args := []string{"--dev", "--data-dir", dir, "--temporal-port", strconv.Itoa(port),
		"--temporal-ui-port", strconv.Itoa(uiPort), "--metrics-address", "127.0.0.1:" + strconv.Itoa(freePort(t)),
		"--adb-address", "127.0.0.1:" + strconv.Itoa(freePort(t)), "--log-format", "json"}

	var logs syncBuffer
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- run(runCtx, args, &logs) }()

	c, err := dialWhenUp(ctx, "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !hasPoller(ctx, t, c, workflows.TaskQueue, enumspb.TASK_QUEUE_TYPE_WORKFLOW) {
		t.Fatal("no worker polls the shared task queue")
	}
	// A second --dev worker on the same ports fails with the fix, not a panic.
	err = run(ctx, args, io.Discard)
	if !errors.Is(err, devserver.ErrPortInUse) || !strings.Contains(err.Error(), "--temporal-address") {
		t.Errorf("second --dev: %v", err)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("worker exit: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("worker did not stop")
	}
	out := logs.String()
	for _, want := range []string{`"msg":"worker started"`, `"msg":"worker stopped"`, `"web_ui":"http://127.0.0.1:`} {
		if !strings.Contains(out, want) {
			t.Errorf("logs lack %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, secret) {
		t.Error("logs contain the model API key")
	}
	// The database survives for the next start.
	if _, err := filepath.Glob(filepath.Join(dir, "temporal.db")); err != nil {
		t.Fatal(err)
	}
}

func dialWhenUp(ctx context.Context, addr string) (client.Client, error) {
	var err error
	for ctx.Err() == nil {
		var c client.Client
		c, err = client.DialContext(ctx, client.Options{HostPort: addr, Logger: nopLogger{}})
		if err == nil {
			return c, nil
		}
		time.Sleep(300 * time.Millisecond)
	}
	return nil, err
}

type nopLogger struct{}

func (nopLogger) Debug(string, ...any) {}
func (nopLogger) Info(string, ...any)  {}
func (nopLogger) Warn(string, ...any)  {}
func (nopLogger) Error(string, ...any) {}

func TestWorkerServesAllowedPhonesAndPicksUpNewOnes(t *testing.T) {
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

	fake, err := adbtest.New(
		adbtest.Device{Serial: "emulator-5554", State: "device", Model: "Pixel"},
		adbtest.Device{Serial: "R58M", State: "unauthorized"},
		adbtest.Device{Serial: "not-allowed", State: "device"},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()

	cfg, _, err := config.Load(config.LoadOptions{Env: func(string) (string, bool) { return "", false }, SearchDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Temporal.Address = srv.FrontendAddr()
	cfg.ADB.Address = fake.Addr
	cfg.ADB.Allow = []string{"emulator-5554", "R58M", "10.0.0.7:5555"}
	cfg.DataDir = t.TempDir()
	cfg.PromptMemoryPath = filepath.Join(cfg.DataDir, "pm.json")
	cfg.Metrics.Address = ""
	c, err := app.NewClient(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	var logs syncBuffer
	w, err := app.StartWorker(ctx, cfg, c, app.Deps{Logger: slog.New(slog.NewTextHandler(&logs, nil)), ADB: adb.New(adb.Config{Addr: fake.Addr})},
		app.WorkerOptions{RelistInterval: 200 * time.Millisecond, StopTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if got := strings.Join(w.Serials(), ","); got != "emulator-5554" {
		t.Fatalf("served %q, want only the ready, allowed phone", got)
	}
	if !hasPoller(ctx, t, c, workflows.DeviceTaskQueue("emulator-5554"), enumspb.TASK_QUEUE_TYPE_ACTIVITY) {
		t.Fatal("no worker polls the phone's task queue")
	}
	if len(pollers(ctx, c, workflows.DeviceTaskQueue("not-allowed"))) != 0 {
		t.Error("a phone outside the allow list is served")
	}

	// A network phone that appears later, and one that gets authorized, are picked up.
	fake.SetDevices(
		adbtest.Device{Serial: "emulator-5554", State: "device"},
		adbtest.Device{Serial: "R58M", State: "device"},
		adbtest.Device{Serial: "10.0.0.7:5555", State: "device"},
	)
	deadline := time.Now().Add(30 * time.Second)
	for strings.Join(w.Serials(), ",") != "10.0.0.7:5555,R58M,emulator-5554" && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if got := strings.Join(w.Serials(), ","); got != "10.0.0.7:5555,R58M,emulator-5554" {
		t.Fatalf("after re-listing served %q", got)
	}
	if !hasPoller(ctx, t, c, workflows.DeviceTaskQueue("10.0.0.7:5555"), enumspb.TASK_QUEUE_TYPE_WORKFLOW) {
		t.Error("the new phone's task queue has no poller")
	}
	w.Stop()
	w.Stop() // idempotent
	if !strings.Contains(logs.String(), "serving phone") {
		t.Errorf("logs: %s", logs.String())
	}
}
