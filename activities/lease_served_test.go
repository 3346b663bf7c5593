package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/temporal"
)

// servedLeaseClient is a lease client that also reports task-queue pollers.
type servedLeaseClient struct {
	fakeLeaseClient
	pollers int
	asked   []string
}

func (c *servedLeaseClient) DescribeTaskQueue(_ context.Context, q string, _ enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error) {
	c.asked = append(c.asked, q)
	resp := &workflowservice.DescribeTaskQueueResponse{}
	for range c.pollers {
		resp.Pollers = append(resp.Pollers, &taskqueuepb.PollerInfo{Identity: "worker"})
	}
	return resp, nil
}

func TestAcquireDeviceChecksAWorkerServesThePhone(t *testing.T) {
	in := AcquireDeviceInput{Request: LeaseRequest{Serial: "s1", GoalID: "goal-1"}, LeaseWorkflowID: "device-lease-s1",
		TaskQueue: "phoneflow", DeviceTaskQueue: "phoneflow-device-s1"}

	served := &servedLeaseClient{pollers: 1}
	if _, err := leaseActivityEnv(served).ExecuteActivity(NameAcquireDevice, in); err != nil {
		t.Fatalf("served phone: %v", err)
	}
	if len(served.asked) != 1 || served.asked[0] != "phoneflow-device-s1" || len(served.signalled) != 1 {
		t.Fatalf("asked %v, signal-with-start calls %d", served.asked, len(served.signalled))
	}

	if testing.Short() {
		t.Skip("the unserved case waits out the grace period")
	}
	unserved := &servedLeaseClient{}
	_, err := leaseActivityEnv(unserved).ExecuteActivity(NameAcquireDevice, in)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != ErrTypeDeviceNotServed ||
		!strings.Contains(err.Error(), `no worker serves device "s1"`) || !strings.Contains(err.Error(), "adb.allow") {
		t.Fatalf("unserved phone: err = %v, want a non-retryable DeviceNotServed error naming the phone and the fix", err)
	}
	if len(unserved.signalled) != 0 {
		t.Fatal("the lease was requested for a phone no worker serves")
	}
}
