package eval

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	enumspb "go.temporal.io/api/enums/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/mocks"
	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// A goal still running past its bound is cancelled and waited for, so the
// next task never starts while it still holds the phone.
func TestAwaitGoalCancelsAGoalPastItsBoundAndWaitsForIt(t *testing.T) {
	mc := mocks.NewClient(t)
	cancelled := make(chan struct{})
	run := mocks.NewWorkflowRun(t)
	run.On("Get", mock.Anything, mock.Anything).Return(func(ctx context.Context, _ any) error {
		select {
		case <-cancelled:
			return temporal.NewCanceledError(workflows.GoalResult{Status: workflows.GoalCancelled, Steps: 3, Reason: "cancelled by the user"})
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	mc.On("GetWorkflow", mock.Anything, "goal-1", "").Return(run)
	mc.On("DescribeWorkflowExecution", mock.Anything, "goal-1", "").Return(&workflowservice.DescribeWorkflowExecutionResponse{
		WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{Status: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING}}, nil)
	mc.On("CancelWorkflow", mock.Anything, "goal-1", "").Run(func(mock.Arguments) { close(cancelled) }).Return(nil).Once()
	r, err := awaitGoal(context.Background(), goalctl.New(mc, goalctl.Options{}), "goal-1", 10*time.Millisecond)
	if err != nil || r.Status != workflows.GoalCancelled || r.Steps != 3 || !strings.Contains(r.Reason, "still running after") {
		t.Fatalf("awaitGoal = %+v, %v; want the cancelled goal's result, saying it ran past its bound", r, err)
	}
	mc.AssertNotCalled(t, "TerminateWorkflow", mock.Anything, mock.Anything, mock.Anything, mock.Anything)
}
