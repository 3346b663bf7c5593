package app

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// Continue never answers a question that asks for words (the planner's
// "what should the message say?"): it sends nothing and says how to answer
// it. A goal of a worker from before the question kinds is taken the same
// way. The mock has no update or signal to give: sending one fails the test.
func TestContinueRefusesAQuestionForWords(t *testing.T) {
	for _, kind := range []string{workflows.QuestionClarify, ""} {
		mc := &mocks.Client{}
		p, err := converter.GetDefaultDataConverter().ToPayloads(workflows.Status{Phase: workflows.GoalWaitingUser,
			PendingQuestion: "What should the message to Alice say?", QuestionKind: kind})
		if err != nil {
			t.Fatal(err)
		}
		mc.On("QueryWorkflow", mock.Anything, "goal-1", "", workflows.QueryStatus).Return(client.NewValue(p), nil)
		to := takeOver{ctl: goalctl.New(mc, goalctl.Options{Namespace: "default"})}
		how, err := to.Continue(context.Background(), "goal-1")
		if err == nil || how != "" || !strings.Contains(err.Error(), "only your words answer it") || !strings.Contains(err.Error(), "starter clarify goal-1") {
			t.Fatalf("kind %q: Continue = %q, %v; want a refusal that says how to answer", kind, how, err)
		}
		mc.AssertExpectations(t)
	}
}
