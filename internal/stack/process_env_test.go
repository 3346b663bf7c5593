package stack

import (
	"slices"
	"testing"
)

// A worker started by a test gets its settings from its file only: the
// runner's PHONEFLOW_ switches would make a worker of an earlier release
// refuse to start.
func TestWorkerEnvDropsPhoneflowVariables(t *testing.T) {
	got := workerEnv([]string{"PATH=/bin", "PHONEFLOW_REQUIRE_ADB=1", "PHONEFLOW_TEMPORAL_CLI=/x/temporal", "HOME=/h", "MODEL_API_KEY=k"})
	want := []string{"PATH=/bin", "HOME=/h", "MODEL_API_KEY=k"}
	if !slices.Equal(got, want) {
		t.Fatalf("workerEnv = %q, want %q", got, want)
	}
}
