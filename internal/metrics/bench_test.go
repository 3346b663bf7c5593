package metrics

import (
	"testing"
	"time"
)

// The recording cost per call, as the SDK and the activities pay it. Run
// with: go test ./internal/metrics -run '^$' -bench . -benchmem

func BenchmarkSDKCounter(b *testing.B) {
	h := SDKHandler().WithTags(map[string]string{"namespace": "default", "task_queue": "phoneflow", "worker_type": "ActivityWorker"})
	for b.Loop() {
		h.WithTags(map[string]string{"operation": "RespondActivityTaskCompleted"}).Counter("temporal_request").Inc(1)
	}
}

func BenchmarkSDKTimer(b *testing.B) {
	h := SDKHandler().WithTags(map[string]string{"namespace": "default", "task_queue": "phoneflow", "activity_type": "Step"})
	for b.Loop() {
		h.Timer("temporal_activity_execution_latency").Record(120 * time.Millisecond)
	}
}

func BenchmarkStep(b *testing.B) {
	for b.Loop() {
		Step("think")
	}
}

func BenchmarkDeviceAction(b *testing.B) {
	for b.Loop() {
		DeviceAction("tap", 80*time.Millisecond, nil)
	}
}
