package e2e

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/metrics"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestTelemetryTwoPhones runs two goals on two simulated phones at once and
// reads /metrics as Prometheus would: the SDK's and phoneflow's metrics
// are there, both phones' task queues are in the SDK's series, and every
// series of a metric carries the same label keys.
func TestTelemetryTwoPhones(t *testing.T) {
	logger := slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	s, err := drill.Start(ctx, drill.Options{DataDir: t.TempDir(), Phones: 2, Logger: logger})
	if err == drill.ErrNoADB {
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			t.Fatal(err.Error() + ", but PHONEFLOW_REQUIRE_ADB=1 requires it")
		}
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	stop, err := s.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)

	goals := []string{"Turn on Bluetooth", "Turn on Wi-Fi"}
	ids := make([]string, len(goals))
	for i, goal := range goals {
		ids[i], _, err = s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: s.Serials[i]})
		if err != nil {
			t.Fatalf("start %q: %v", goal, err)
		}
	}
	for i, id := range ids {
		rctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
		res, err := s.Goals.Result(rctx, id)
		cancel()
		if err != nil {
			t.Fatalf("goal %s: %v", id, err)
		}
		if res.Status != workflows.GoalDone {
			t.Errorf("goal %q ended %s: %s", goals[i], res.Status, res.Reason)
		}
	}

	// What `curl /metrics` shows, from the handler the worker serves.
	mctx, mcancel := context.WithCancel(context.Background())
	defer mcancel()
	addr, err := metrics.Serve(mctx, "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := metrics.LabelKeys(body)
	if err != nil {
		t.Fatal(err)
	}
	for name, sets := range keys {
		if len(sets) != 1 {
			t.Errorf("%s has series with different label keys: %q", name, sets)
		}
	}
	for _, name := range []string{
		"temporal_request_total", "temporal_request_latency_seconds", "temporal_long_request_total",
		"temporal_workflow_completed_total", "temporal_workflow_endtoend_latency_seconds",
		"temporal_activity_execution_latency_seconds", "temporal_worker_task_slots_available",
		"phoneflow_steps_total", "phoneflow_model_latency_seconds", "phoneflow_model_tokens_total",
		"phoneflow_device_action_seconds", "phoneflow_devices_served",
	} {
		if keys[name] == nil {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	text := string(body)
	for _, serial := range s.Serials {
		q := `task_queue="` + workflows.DeviceTaskQueue(serial) + `"`
		if !strings.Contains(text, `temporal_activity_execution_latency_seconds_count{activity_type="Step"`) || !strings.Contains(text, q) {
			t.Errorf("/metrics has no Step activity series on %s", q)
		}
	}
	for _, want := range []string{`phoneflow_steps_total{kind="think"}`, `phoneflow_steps_total{kind="act"}`, `phoneflow_steps_total{kind="plan"}`,
		`phoneflow_model_tokens_total{direction="prompt",role="executor"}`, `phoneflow_device_action_seconds_count{action="tap",result="ok"}`} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if d := metrics.DroppedSDKLabels(metrics.SDKHandler()); len(d) > 0 {
		t.Errorf("the SDK tagged metrics with labels the fixed sets leave out: %q", d)
	}
}
