package stacktest

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// PollStatus asks a goal's (or todo's) status query until ok accepts it,
// for up to d; it returns the last status read and whether ok accepted it.
// A query that fails (the worker is away, the workflow not started yet) is
// asked again.
func PollStatus(g *goalctl.Client, id string, d time.Duration, ok func(workflows.Status) bool) (workflows.Status, bool) {
	var last workflows.Status
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		st, err := g.Status(ctx, id)
		cancel()
		if err == nil {
			if last = st; ok(st) {
				return st, true
			}
		}
	}
	return last, false
}

// WaitStatus is PollStatus that fails t when ok never accepts the status.
func WaitStatus(t testing.TB, g *goalctl.Client, id string, d time.Duration, ok func(workflows.Status) bool) workflows.Status {
	t.Helper()
	st, matched := PollStatus(g, id, d, ok)
	if !matched {
		t.Fatalf("%s: status never matched in %s; last %+v", id, d, st)
	}
	return st
}
