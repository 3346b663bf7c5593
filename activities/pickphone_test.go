package activities

import (
	"context"
	"errors"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/testsuite"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/internal/fleet"
)

// pickWorld is a fleet of published phones, the ones whose queues a
// worker polls, and the leases' holders.
type pickWorld struct {
	LeaseClient
	phones  []fleet.Phone
	polled  map[string]bool   // task queue → a worker polls it now
	holders map[string]string // lease workflow ID → holder
}

func (w *pickWorld) ListWorkflow(context.Context, *workflowservice.ListWorkflowExecutionsRequest) (*workflowservice.ListWorkflowExecutionsResponse, error) {
	resp := &workflowservice.ListWorkflowExecutionsResponse{}
	for _, p := range w.phones {
		pl, err := converter.GetDefaultDataConverter().ToPayload(p)
		if err != nil {
			return nil, err
		}
		resp.Executions = append(resp.Executions, &workflowpb.WorkflowExecutionInfo{Memo: &commonpb.Memo{Fields: map[string]*commonpb.Payload{fleet.MemoPhone: pl}}})
	}
	return resp, nil
}

func (w *pickWorld) DescribeTaskQueue(_ context.Context, q string, _ enumspb.TaskQueueType) (*workflowservice.DescribeTaskQueueResponse, error) {
	if !w.polled[q] {
		return &workflowservice.DescribeTaskQueueResponse{}, nil
	}
	return &workflowservice.DescribeTaskQueueResponse{Pollers: []*taskqueuepb.PollerInfo{{Identity: "w", LastAccessTime: timestamppb.New(time.Now())}}}, nil
}

func (w *pickWorld) QueryWorkflow(_ context.Context, id, _, _ string, _ ...any) (converter.EncodedValue, error) {
	h, ok := w.holders[id]
	if !ok {
		return nil, errors.New("workflow not found")
	}
	pl, _ := converter.GetDefaultDataConverter().ToPayloads(map[string]any{"holder": h})
	return encoded{pl}, nil
}

// encoded is a query answer.
type encoded struct{ p *commonpb.Payloads }

func (e encoded) HasValue() bool { return e.p != nil }
func (e encoded) Get(v any) error {
	return converter.GetDefaultDataConverter().FromPayloads(e.p, v)
}

// PickPhone takes a served phone of the kind, a free one before a held
// one, and says why when there is none.
func TestPickPhone(t *testing.T) {
	w := &pickWorld{
		phones: []fleet.Phone{{Serial: "a", Labels: []string{"shop"}}, {Serial: "b", Labels: []string{"shop"}}, {Serial: "c", Labels: []string{"tablet"}}, {Serial: "d", Labels: []string{"shop"}}},
		polled: map[string]bool{"q-a": true, "q-b": true, "q-c": true},
		// d is not served; a is held by another goal.
		holders: map[string]string{"l-a": "goal-other"},
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&LeaseActivities{Client: w, Namespace: "default"})
	pick := func(sel fleet.Selector) PickPhoneResult {
		t.Helper()
		v, err := env.ExecuteActivity(NamePickPhone, PickPhoneInput{GoalID: "goal-1", Selector: sel, QueuePrefix: "q-", LeasePrefix: "l-"})
		if err != nil {
			t.Fatal(err)
		}
		var r PickPhoneResult
		if err := v.Get(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := pick(fleet.Selector{Label: "shop"}); r.Serial != "b" || !r.Free || r.Matching != 3 || r.Served != 2 {
		t.Errorf("label=shop picked %+v, want b: served and free (a is held, d unserved)", r)
	}
	w.holders["l-b"] = "goal-other"
	if r := pick(fleet.Selector{Label: "shop"}); r.Serial != "a" || r.Free {
		t.Errorf("with both held: picked %+v, want a, held (the lease queues the goal)", r)
	}
	if r := pick(fleet.Selector{Label: "nothing"}); r.Serial != "" || r.Why == "" {
		t.Errorf("label=nothing picked %+v, want none and why", r)
	}
	w.polled = nil
	if r := pick(fleet.Selector{Any: true}); r.Serial != "" || r.Matching != 4 || r.Served != 0 {
		t.Errorf("nothing served: picked %+v, want none of 4", r)
	}
}
