package drill_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestBadInput sends wrong input of every kind while a goal runs: each must
// get a clear error, and the running goal must complete with its message
// and no failed workflow task.
func TestBadInput(t *testing.T) {
	s := drilltest.StartStack(t, drill.Options{Phones: 1}, variantDescription)
	ctx := context.Background()
	stop, err := s.StartWorker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	goal, text := drilltest.MessageGoal(1)
	id := drilltest.StartGoal(t, s, goal, s.Serials[0])
	if st, ok := drilltest.WaitStatus(s, id+"/todo-1", 2*time.Minute, func(st workflows.Status) bool { return st.Steps >= 1 }); !ok {
		t.Fatalf("goal %s never started its first todo; last status %+v", id, st)
	}

	// wantErr fails unless err names every phrase (case-insensitive).
	wantErr := func(t *testing.T, err error, phrases ...string) {
		t.Helper()
		if err == nil {
			t.Fatalf("accepted; want an error naming %q", phrases)
		}
		for _, p := range phrases {
			if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(p)) {
				t.Errorf("error %q does not name %q", err, p)
			}
		}
		t.Logf("rejected: %v", err)
	}
	update := func(name string, args ...any) error {
		uctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		h, err := s.Client.UpdateWorkflow(uctx, client.UpdateWorkflowOptions{
			WorkflowID: id, UpdateName: name, Args: args, WaitForStage: client.WorkflowUpdateStageCompleted,
		})
		if err != nil {
			return err
		}
		return h.Get(uctx, nil)
	}
	long := strings.Repeat("x", workflows.MaxSignalText+1)

	t.Run("empty_goal", func(t *testing.T) {
		_, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "  ", Device: s.Serials[0]})
		wantErr(t, err, "goal is empty")
	})
	t.Run("unknown_device", func(t *testing.T) {
		var nf *goalctl.NotFoundError
		err := s.Goals.CheckDevice(ctx, "127.0.0.1:1")
		if !errors.As(err, &nf) {
			t.Fatalf("CheckDevice of a phone no worker serves = %v, want a *goalctl.NotFoundError", err)
		}
		wantErr(t, err, "127.0.0.1:1")
	})
	t.Run("update_wrong_type", func(t *testing.T) {
		wantErr(t, update(workflows.SignalInject, 42), "inject")
		wantErr(t, update(workflows.SignalApprove, "yes"), "approve")
	})
	t.Run("update_oversized", func(t *testing.T) {
		wantErr(t, update(workflows.SignalInject, long), "limit")
		wantErr(t, update(workflows.SignalUserInput, long), "limit")
	})
	t.Run("update_not_applicable", func(t *testing.T) {
		wantErr(t, update(workflows.SignalClarify, "blue"), "no question is pending")
		wantErr(t, update(workflows.SignalResume), "not paused")
		wantErr(t, update("teleport"), "teleport")
	})
	t.Run("signals_wrong_type_and_oversized", func(t *testing.T) {
		// A signal cannot be rejected; the goal must drop it and go on.
		for _, sig := range []struct {
			name string
			arg  any
		}{{workflows.SignalInject, 42}, {workflows.SignalApprove, "yes"}, {workflows.SignalInject, long}, {workflows.SignalClarify, long}, {workflows.SignalUserInput, map[string]int{"x": 1}}} {
			if err := s.Client.SignalWorkflow(ctx, id, "", sig.name, sig.arg); err != nil {
				t.Errorf("signal %s: %v", sig.name, err)
			}
		}
	})
	t.Run("config_wrong_type", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), config.FileName)
		if err := os.WriteFile(path, []byte("limits:\n  max_steps: lots\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err := config.Load(config.LoadOptions{File: path, Env: func(string) (string, bool) { return "", false }})
		wantErr(t, err, "limits.max_steps", "lots", "integer")
	})

	// The goal that ran through all of it.
	res := drilltest.WaitResult(t, s, id, 4*time.Minute)
	drilltest.CheckDone(t, id, res)
	drilltest.CheckOneMessage(t, s.Phones[0], text)
	for _, wid := range drill.GoalWorkflowIDs(id, res) {
		evs, err := drill.History(ctx, s.Client, wid)
		if err != nil {
			t.Error(err)
			continue
		}
		for _, ev := range evs {
			if ev.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_TASK_FAILED {
				t.Errorf("%s: workflow task failed at event %d: %s", wid, ev.GetEventId(), ev.GetWorkflowTaskFailedEventAttributes().GetFailure().GetMessage())
			}
		}
	}
}
