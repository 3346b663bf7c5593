package bench

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// TestQuickBench runs real measurements on the embedded stack. Without adb
// it skips (fails with PHONEFLOW_REQUIRE_ADB=1). The default run measures
// the history cost only (a goal end to end through the worker, about half
// a minute); PHONEFLOW_BENCH_FULL=1 runs the whole quick suite (minutes).
func TestQuickBench(t *testing.T) {
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	only := MeasureHistory
	if os.Getenv("PHONEFLOW_BENCH_FULL") == "1" {
		only = ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	rep, err := Run(ctx, Options{Quick: true, Only: only, Command: "go test", Logger: log, Progress: func(s string) { t.Log(s) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) > 0 {
		t.Fatalf("measurements failed: %v", rep.Errors)
	}
	var hist *Table
	tables := rep.Tables()
	for i := range tables {
		if tables[i].Title == Headings[MeasureHistory] {
			hist = &tables[i]
		}
	}
	if hist == nil {
		t.Fatalf("no history table in %d tables", len(tables))
	}
	vals := map[string]string{}
	for _, row := range hist.Rows {
		vals[row[0]] = row[1]
	}
	if v := vals["**image signatures found in history**"]; v != "0" {
		t.Errorf("image signatures in history = %q, want 0", v)
	}
	if v := vals["executor steps (Step activities)"]; v == "" || v == "0" {
		t.Errorf("executor steps = %q, want some", v)
	}
	if v := vals["workflows read (goal + todos)"]; v != "4" {
		t.Errorf("workflows read = %q, want the goal and its three todos", v)
	}
	var b bytes.Buffer
	if err := rep.Render(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
}
