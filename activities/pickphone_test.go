package activities

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	taskqueuepb "go.temporal.io/api/taskqueue/v1"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
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
	// reserved are the running reservations: workflow ID → goal.
	reserved map[string]string
	// raceFor, when set, makes another goal reserve the phone of that
	// workflow ID between a pick's look and its reservation.
	raceFor string
	// ended are the goals that have closed; any other runs.
	ended map[string]bool
}

func (w *pickWorld) TerminateWorkflow(_ context.Context, id, _, _ string, _ ...any) error {
	delete(w.reserved, id)
	return nil
}

func (w *pickWorld) ExecuteWorkflow(_ context.Context, o client.StartWorkflowOptions, _ any, _ ...any) (client.WorkflowRun, error) {
	if w.reserved == nil {
		w.reserved = map[string]string{}
	}
	if o.ID == w.raceFor {
		w.reserved[o.ID], w.raceFor = "goal-racer", ""
	}
	if _, ok := w.reserved[o.ID]; ok {
		return nil, serviceerror.NewWorkflowExecutionAlreadyStarted("started", "", "")
	}
	w.reserved[o.ID] = o.Memo[MemoReservedFor].(string)
	return nil, nil
}

func (w *pickWorld) DescribeWorkflowExecution(_ context.Context, id, _ string) (*workflowservice.DescribeWorkflowExecutionResponse, error) {
	if !strings.HasPrefix(id, ReservationWorkflowIDPrefix) {
		st := enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING
		if w.ended[id] {
			st = enumspb.WORKFLOW_EXECUTION_STATUS_COMPLETED
		}
		return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{Status: st}}, nil
	}
	g, ok := w.reserved[id]
	if !ok {
		return nil, serviceerror.NewNotFound("no " + id)
	}
	pl, err := converter.GetDefaultDataConverter().ToPayload(g)
	if err != nil {
		return nil, err
	}
	return &workflowservice.DescribeWorkflowExecutionResponse{WorkflowExecutionInfo: &workflowpb.WorkflowExecutionInfo{
		Execution: &commonpb.WorkflowExecution{WorkflowId: id, RunId: "run-" + g},
		Status:    enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING, Memo: &commonpb.Memo{Fields: map[string]*commonpb.Payload{MemoReservedFor: pl}}}}, nil
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
	if got := w.reserved[ReservationWorkflowID("b")]; got != "goal-1" {
		t.Errorf("b's reservation is for %q, want goal-1", got)
	}
	if r := pick(fleet.Selector{Label: "shop"}); r.Serial != "b" || !r.Free {
		t.Errorf("a retried pick took %+v, want b again: its reservation is the goal's own", r)
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

// A free phone another goal reserved is busy to the next pick, which
// takes another free phone; one reserved between the pick's look and its
// own reservation is skipped the same way; with none free left the pick
// takes a busy one and says whose reservation it had.
func TestPickPhoneSkipsAReservedPhone(t *testing.T) {
	w := &pickWorld{
		phones:   []fleet.Phone{{Serial: "a"}, {Serial: "b"}, {Serial: "c"}},
		polled:   map[string]bool{"q-a": true, "q-b": true, "q-c": true},
		reserved: map[string]string{ReservationWorkflowID("a"): "goal-other"},
		raceFor:  ReservationWorkflowID("b"),
	}
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivity(&LeaseActivities{Client: w, Namespace: "default"})
	pick := func(goal string) PickPhoneResult {
		t.Helper()
		v, err := env.ExecuteActivity(NamePickPhone, PickPhoneInput{GoalID: goal, Selector: fleet.Selector{Any: true}, QueuePrefix: "q-", LeasePrefix: "l-"})
		if err != nil {
			t.Fatal(err)
		}
		var r PickPhoneResult
		if err := v.Get(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := pick("goal-1"); r.Serial != "c" || !r.Free {
		t.Errorf("picked %+v, want c: a was reserved, b reserved by another goal while picking", r)
	}
	if got := w.reserved[ReservationWorkflowID("c")]; got != "goal-1" {
		t.Errorf("c's reservation is for %q, want goal-1", got)
	}
	if r := pick("goal-2"); r.Free || r.Serial != "a" || r.ReservedBy != "goal-other" {
		t.Errorf("with every phone reserved picked %+v, want a, busy, reserved by goal-other", r)
	}
	// A reservation whose goal has ended keeps nobody off the phone.
	w.ended = map[string]bool{"goal-other": true}
	if r := pick("goal-3"); r.Serial != "a" || !r.Free || w.reserved[ReservationWorkflowID("a")] != "goal-3" {
		t.Errorf("after goal-other ended picked %+v (a reserved for %q), want a, free, reserved for goal-3", r, w.reserved[ReservationWorkflowID("a")])
	}
}
