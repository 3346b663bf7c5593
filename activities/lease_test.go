package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"
)

// fakeLeaseClient records signal-with-start calls and answers describes
// from a table of workflow statuses.
type fakeLeaseClient struct {
	signalled []fakeSignalWithStart
	statuses  map[string]enumspb.WorkflowExecutionStatus
	err       error
}

type fakeSignalWithStart struct {
	WorkflowID, Signal string
	Arg                any
	Options            client.StartWorkflowOptions
	Workflow           any
	Args               []any
}

func (f *fakeLeaseClient) SignalWithStartWorkflow(_ context.Context, id, signal string, arg any, opts client.StartWorkflowOptions, wf any, args ...any) (client.WorkflowRun, error) {
	if f.err != nil {
		return nil, f.err
	}
	f.signalled = append(f.signalled, fakeSignalWithStart{id, signal, arg, opts, wf, args})
	return nil, nil
}

func (f *fakeLeaseClient) DescribeWorkflowExecution(_ context.Context, id, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	if f.err != nil {
		return nil, f.err
	}
	st, ok := f.statuses[id]
	if !ok {
		return nil, serviceerror.NewNotFound("workflow not found for ID: " + id)
	}
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{Status: st}}, nil
}

func leaseActivityEnv(c LeaseClient) *testsuite.TestActivityEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&LeaseActivities{Client: c})
	return env
}

func TestAcquireDeviceSignalsWithStart(t *testing.T) {
	fc := &fakeLeaseClient{}
	env := leaseActivityEnv(fc)
	in := AcquireDeviceInput{
		Request:         LeaseRequest{Serial: "emulator-5554", GoalID: "goal-1", Wait: true, RequestID: "r1"},
		LeaseWorkflowID: "device-lease-emulator-5554",
		TaskQueue:       "phoneflow",
	}
	if _, err := env.ExecuteActivity(NameAcquireDevice, in); err != nil {
		t.Fatal(err)
	}
	if len(fc.signalled) != 1 {
		t.Fatalf("%d signal-with-start calls, want 1", len(fc.signalled))
	}
	got := fc.signalled[0]
	if got.WorkflowID != in.LeaseWorkflowID || got.Options.ID != in.LeaseWorkflowID || got.Options.TaskQueue != "phoneflow" {
		t.Fatalf("started %+v", got)
	}
	if got.Signal != LeaseSignalAcquire || got.Arg != in.Request {
		t.Fatalf("signal %q %+v", got.Signal, got.Arg)
	}
	if got.Workflow != LeaseWorkflowType || len(got.Args) != 1 || got.Args[0] != (LeaseStart{Serial: "emulator-5554"}) {
		t.Fatalf("workflow %v args %v", got.Workflow, got.Args)
	}
	if !strings.Contains(got.Options.StaticSummary, "emulator-5554") {
		t.Fatalf("summary %q", got.Options.StaticSummary)
	}
}

func TestAcquireDeviceErrors(t *testing.T) {
	env := leaseActivityEnv(&fakeLeaseClient{})
	_, err := env.ExecuteActivity(NameAcquireDevice, AcquireDeviceInput{Request: LeaseRequest{GoalID: "g"}})
	if err == nil || !strings.Contains(err.Error(), "required") {
		t.Fatalf("incomplete input: err = %v", err)
	}
	env = leaseActivityEnv(&fakeLeaseClient{err: errors.New("connection refused")})
	_, err = env.ExecuteActivity(NameAcquireDevice, AcquireDeviceInput{
		Request: LeaseRequest{Serial: "s", GoalID: "g"}, LeaseWorkflowID: "device-lease-s", TaskQueue: "q",
	})
	if err == nil || !strings.Contains(err.Error(), "device-lease-s") || !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("service error: err = %v", err)
	}
}

func TestDescribeLeaseHolder(t *testing.T) {
	fc := &fakeLeaseClient{statuses: map[string]enumspb.WorkflowExecutionStatus{
		"goal-running":    enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING,
		"goal-done":       enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED,
		"goal-terminated": enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED,
	}}
	env := leaseActivityEnv(fc)
	for id, want := range map[string]bool{"goal-running": true, "goal-done": false, "goal-terminated": false, "goal-unknown": false} {
		v, err := env.ExecuteActivity(NameDescribeLeaseHolder, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		var hs HolderStatus
		if err := v.Get(&hs); err != nil {
			t.Fatal(err)
		}
		if hs.Running != want || hs.Status == "" {
			t.Errorf("%s: %+v, want running=%v", id, hs, want)
		}
	}
	// A service error is an error (the lease then keeps its holder), not "not running".
	env = leaseActivityEnv(&fakeLeaseClient{err: serviceerror.NewUnavailable("down")})
	if _, err := env.ExecuteActivity(NameDescribeLeaseHolder, "goal-x"); err == nil {
		t.Fatal("unavailable service reported as an answer")
	}
}
