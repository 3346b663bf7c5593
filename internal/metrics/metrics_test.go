package metrics

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
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

// stable fails t when a family in out has series with different label keys.
func stable(t *testing.T, out string) map[string][]string {
	t.Helper()
	keys, err := LabelKeys([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for name, sets := range keys {
		if len(sets) != 1 {
			t.Errorf("%s has series with different label keys: %q", name, sets)
		}
	}
	return keys
}

func TestSDKHandlerFixesLabelsPerMetric(t *testing.T) {
	reg := prometheus.NewRegistry()
	h := NewSDKHandler(newProvider(reg).Meter("test"))

	// The first use carries few tags (the bug of the hand-made bridge
	// fixed the labels here); later uses add the metric's own and one the
	// table does not know.
	h.WithTags(map[string]string{"namespace": "default"}).Counter("temporal_request").Inc(2)
	root := h.WithTags(map[string]string{"namespace": "default", "task_queue": "phoneflow", "worker_type": "ActivityWorker"})
	root.WithTags(map[string]string{"operation": "PollActivityTaskQueue"}).Counter("temporal_request").Inc(3)
	root.WithTags(map[string]string{"operation": "Poll", "status_code": "UNAVAILABLE", "surprise": "x"}).Counter("temporal_request_failure").Inc(1)
	root.WithTags(map[string]string{"operation": "PollActivityTaskQueue"}).Counter("temporal_request_attempt").Inc(1)
	root.WithTags(map[string]string{"poller_type": "activity_task"}).Gauge("temporal_num_pollers").Update(2)
	root.Gauge("temporal_worker_task_slots_available").Update(7)
	root.WithTags(map[string]string{"activity_type": "Step"}).Timer("temporal_activity_execution_latency").Record(250 * time.Millisecond)

	out := gather(t, reg)
	keys := stable(t, out)
	for name, want := range map[string]string{
		"temporal_request_total":                      "activity_type,client_name,namespace,operation,task_queue,worker_type,workflow_type",
		"temporal_request_attempt_total":              "activity_type,client_name,namespace,operation,task_queue,worker_type,workflow_type",
		"temporal_request_failure_total":              "activity_type,client_name,namespace,operation,status_code,task_queue,worker_type,workflow_type",
		"temporal_num_pollers":                        "activity_type,client_name,namespace,poller_type,task_queue,worker_type,workflow_type",
		"temporal_worker_task_slots_available":        "activity_type,client_name,namespace,task_queue,worker_type,workflow_type",
		"temporal_activity_execution_latency_seconds": "activity_type,client_name,namespace,task_queue,worker_type,workflow_type",
	} {
		if got := keys[name]; !slices.Equal(got, []string{want}) {
			t.Errorf("%s labels = %q, want %q", name, got, want)
		}
	}
	for _, want := range []string{
		`temporal_request_total{activity_type="none",client_name="none",namespace="default",operation="none",task_queue="none",worker_type="none",workflow_type="none"} 2`,
		`temporal_request_total{activity_type="none",client_name="none",namespace="default",operation="PollActivityTaskQueue",task_queue="phoneflow",worker_type="ActivityWorker",workflow_type="none"} 3`,
		"# TYPE temporal_activity_execution_latency_seconds histogram",
		`temporal_activity_execution_latency_seconds_bucket{activity_type="Step",client_name="none",namespace="default",task_queue="phoneflow",worker_type="ActivityWorker",workflow_type="none",le="0.25"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, out)
		}
	}
	if got := DroppedSDKLabels(h); !slices.Equal(got, []string{"temporal_request_failure/surprise"}) {
		t.Errorf("dropped labels = %q", got)
	}
}

func TestServe(t *testing.T) {
	Step("think")
	Step("think")
	StepReplayed("tap")
	Tokens("executor", 1200, 80)
	ModelLatency("executor", "ttft", 300*time.Millisecond)
	ModelLatency("executor", "think_end", 0) // skipped
	ModelError("planner", true)
	FormatUsage("planner", "json_schema", time.Second, 300, 20)
	DeviceAction("tap", 120*time.Millisecond, nil)
	DeviceAction("launch", time.Second, errors.New("app not found"))
	DevicesServed(3)
	BlobsCollected(2, 4096, 1<<20)
	SDKHandler().WithTags(map[string]string{"namespace": "default"}).Counter("temporal_test_counter").Inc(1)

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
		`phoneflow_steps_replayed_total{action="tap"} 1`,
		`phoneflow_model_tokens_total{direction="prompt",role="executor"} 1200`,
		`phoneflow_model_tokens_total{direction="completion",role="executor"} 80`,
		`phoneflow_model_latency_seconds_count{phase="ttft",role="executor"} 1`,
		`phoneflow_model_latency_seconds_bucket{phase="ttft",role="executor",le="0.5"} 1`,
		`phoneflow_model_errors_total{retryable="true",role="planner"} 1`,
		`phoneflow_model_format_requests_total{format="json_schema",role="planner"} 1`,
		`phoneflow_device_action_seconds_count{action="launch",result="error"} 1`,
		`phoneflow_devices_served 3`,
		`phoneflow_blobs_freed_bytes_total 4096`,
		`phoneflow_blobs_kept_bytes 1.048576e+06`,
		`temporal_test_counter_total{activity_type="none",client_name="none",namespace="default",task_queue="none",worker_type="none",workflow_type="none"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
	if strings.Contains(string(body), `phase="think_end"`) {
		t.Error("a zero latency was recorded")
	}
	stable(t, string(body))

	// A taken address fails with the fix.
	if _, err := Serve(ctx, addr, nil); err == nil || !strings.Contains(err.Error(), "--metrics-address") {
		t.Errorf("taken address: %v", err)
	}
}
