package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// A goal whose activity fails the same way again and again (a phone nobody
// serves) shows one plain line on the demo's terminal, not one per try;
// another goal's failure, and other logs, still show.
func TestDemoLogShowsAnActivityFailureOnce(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(newOnceActivityErrors(&out, slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn})))
	served := `no worker serves device "nobody-5554": check the serial with ` + "`starter devices`" + ` (type: DeviceNotServed, retryable: false)`
	w := log.With("Namespace", "default", "TaskQueue", "phoneflow")
	for range 5 {
		w.Error("Activity error.", "WorkflowID", "goal-1", "RunID", "r", "ActivityType", "AcquireDevice", "Attempt", 1, "Error", served)
	}
	log.Error("Activity error.", "WorkflowID", "goal-2", "ActivityType", "AcquireDevice", "Error", served)
	log.Warn("something else")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3 (goal-1 once, goal-2 once, the warning):\n%s", len(lines), out.String())
	}
	if !strings.HasPrefix(lines[0], `goal goal-1: AcquireDevice failed — no worker serves device "nobody-5554"`) || !strings.Contains(lines[0], "shown once") || strings.Contains(lines[0], "retryable") {
		t.Errorf("first line %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "goal goal-2:") || !strings.Contains(lines[2], "something else") {
		t.Errorf("lines %q", lines[1:])
	}
}
