package metrics

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// gather renders reg's metrics in the text format.
func gather(t *testing.T, reg *prometheus.Registry) string {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, mf := range mfs {
		if _, err := expfmt.MetricFamilyToText(&b, mf); err != nil {
			t.Fatal(err)
		}
	}
	return b.String()
}

func TestSDKHandler(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := NewSDKHandler(reg).WithTags(map[string]string{"namespace": "default", "task-queue": "phoneflow"})
	h.Counter("temporal_request").Inc(2)
	h.WithTags(map[string]string{"operation": "Poll"}).Counter("temporal_request").Inc(3) // extra tag dropped
	h.Gauge("temporal_worker_slots").Update(7)
	h.Timer("temporal_activity_execution_latency").Record(250 * time.Millisecond)
	// Another metric type under a taken name must not panic.
	h.Timer("temporal_request").Record(time.Second)

	out := gather(t, reg)
	for _, want := range []string{
		"# TYPE temporal_request counter",
		`temporal_request{namespace="default",task_queue="phoneflow"} 5`,
		"# TYPE temporal_worker_slots gauge",
		`temporal_worker_slots{namespace="default",task_queue="phoneflow"} 7`,
		"# TYPE temporal_activity_execution_latency histogram",
		`temporal_activity_execution_latency_bucket{namespace="default",task_queue="phoneflow",le="0.25"} 1`,
		`temporal_activity_execution_latency_sum{namespace="default",task_queue="phoneflow"} 0.25`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, out)
		}
	}
}

func TestServe(t *testing.T) {
	Step("think")
	Step("think")
	Tokens("executor", 1200, 80)
	ModelLatency("executor", "ttft", 300*time.Millisecond)
	ModelLatency("executor", "think_end", 0) // skipped
	ModelError("planner", true)
	DeviceAction("tap", 120*time.Millisecond, nil)
	DeviceAction("launch", time.Second, errors.New("app not found"))
	DevicesServed(3)
	SDKHandler().Counter("temporal_test_counter").Inc(1)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	addr, err := Serve(ctx, "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	for _, want := range []string{
		`phoneflow_steps_total{kind="think"} 2`,
		`phoneflow_model_tokens_total{direction="prompt",role="executor"} 1200`,
		`phoneflow_model_tokens_total{direction="completion",role="executor"} 80`,
		`phoneflow_model_latency_seconds_count{phase="ttft",role="executor"} 1`,
		`phoneflow_model_errors_total{retryable="true",role="planner"} 1`,
		`phoneflow_device_action_seconds_count{action="launch",result="error"} 1`,
		`phoneflow_devices_served 3`,
		`temporal_test_counter 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(string(body), `phase="think_end"`) {
		t.Error("a zero latency was recorded")
	}

	// A taken address fails with the fix.
	if _, err := Serve(ctx, addr, nil); err == nil || !strings.Contains(err.Error(), "--metrics-address") {
		t.Errorf("taken address: %v", err)
	}
}
