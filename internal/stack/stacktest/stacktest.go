// Package stacktest starts the local stacks (docs/design.md §14) of the
// tests that run on the embedded server: a stack whose logs go to the
// test's log, with a worker in the test process, both stopped when the
// test ends.
package stacktest

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/stack"
)

// Logger writes warnings and errors to t's log.
func Logger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(writer{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type writer struct{ t testing.TB }

func (w writer) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// RequireADB fails t when PHONEFLOW_REQUIRE_ADB=1 and Debian's adb is not
// installed: CI must not fall back to the built-in ADB server unnoticed.
func RequireADB(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("adb"); err != nil && os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
		t.Fatal("adb is not installed, but PHONEFLOW_REQUIRE_ADB=1 requires it")
	}
}

// NeedADB returns the path of Debian's adb for a test that cannot run
// without it: when it is not installed the test is skipped, or fails
// under PHONEFLOW_REQUIRE_ADB=1 (CI installs it and must run the test).
func NeedADB(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("adb")
	if err != nil {
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			t.Fatal("adb is not installed, but PHONEFLOW_REQUIRE_ADB=1 requires it")
		}
		t.Skip("adb is not installed (apt-get install adb)")
	}
	return path
}

// Start starts a stack with o (logging to t unless o.Logger is set) and a
// worker in this process, and stops both when the test ends.
func Start(ctx context.Context, t testing.TB, o stack.Options) *stack.Stack {
	t.Helper()
	if o.ADB == stack.AnyADB {
		RequireADB(t)
	}
	if o.Logger == nil {
		o.Logger = Logger(t)
	}
	s, err := stack.Start(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	stop, err := s.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return s
}
