package cancelrelease

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// slowScreencap is how long each screencap of the phone takes while goal a
// runs: every Step observes (and settles on) the screen, so a Step lasts
// several seconds and the cancel lands in one.
const slowScreencap = 3 * time.Second

// TestCancelReleasesPhoneAfterStep cancels goal a while one of its todo's
// Steps that acts runs on a slow phone, with goal b queued for the same
// phone. From the histories, in order: a's Step closed, then a's todo,
// then a sent the release, which the lease took before it granted b, and
// b's first Step came after all of them. The phone's input log shows no
// input between a's Step closing and b's first action.
func TestCancelReleasesPhoneAfterStep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two goals on the embedded server")
	}
	ctx := context.Background()
	st := stacktest.Start(ctx, t, stack.Options{Config: drilltest.Config(t), ADB: stack.BuiltinADB})
	serial, phone := st.Serials[0], st.Phones[0]
	start := func(text string) string {
		id, _, err := st.Goals.Start(ctx, goalctl.StartRequest{Goal: fmt.Sprintf("Send %q to Alice Chen in Messages", text), Device: serial})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	a := start("cancel drill a")
	b := start("cancel drill b")
	todoA := a + "/todo-1"
	if s, ok := waitStatus(st, b, 2*time.Minute, func(s workflows.Status) bool {
		return strings.Contains(s.WaitingFor, "device busy: held by "+a)
	}); !ok {
		t.Fatalf("goal b does not wait for a: %+v", s)
	}
	if err := phone.SetFault(phonesim.Fault{Kind: phonesim.FaultScreencapSlow, Duration: slowScreencap}); err != nil {
		t.Fatal(err)
	}
	// Cancel while a Step that acts has started and not ended.
	deadline := time.Now().Add(3 * time.Minute)
	for !actingStepRuns(ctx, st, todoA) {
		if time.Now().After(deadline) {
			evs, _ := drill.History(ctx, st.Client, todoA)
			for _, e := range evs {
				if in, ok := stepInput(e); ok {
					t.Logf("step %d act=%+v", e.GetEventId(), in.Act)
				}
			}
			t.Fatalf("goal a's todo never ran a Step that acts:\n%s", describe(evs))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := st.Goals.Cancel(ctx, a); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	if res, err := st.Goals.Result(rctx, a); err != nil || res.Status != workflows.GoalCancelled {
		t.Fatalf("goal a: %v %s %s, want cancelled", err, res.Status, res.Reason)
	}
	if err := phone.SetFault(phonesim.Fault{Kind: phonesim.FaultClear}); err != nil {
		t.Fatal(err)
	}
	if res, err := st.Goals.Result(rctx, b); err != nil || res.Status != workflows.GoalDone {
		t.Fatalf("goal b: %v %s %s, want done", err, res.Status, res.Reason)
	}

	hist := func(id string) []*historypb.HistoryEvent {
		evs, err := drill.History(ctx, st.Client, id)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	// a's todo: the Step the cancel reached closed before the todo did,
	// and no Step was sent after the cancel.
	ta := hist(todoA)
	asked := first(ta, func(e *historypb.HistoryEvent) bool {
		return e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCEL_REQUESTED
	})
	if asked == nil {
		t.Fatalf("goal a's todo never asked its Step to stop:\n%s", describe(ta))
	}
	stepID := asked.GetActivityTaskCancelRequestedEventAttributes().GetScheduledEventId()
	stepClosed := first(ta, func(e *historypb.HistoryEvent) bool { return closes(e, stepID) })
	todoClosed := first(ta, func(e *historypb.HistoryEvent) bool {
		return e.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED
	})
	if stepClosed == nil || todoClosed == nil || stepClosed.GetEventId() > todoClosed.GetEventId() {
		t.Fatalf("goal a's todo closed before its Step did (Step closed: %v, todo closed: %v):\n%s", stepClosed, todoClosed, describe(ta))
	}
	if later := first(ta, func(e *historypb.HistoryEvent) bool {
		return e.GetEventId() > asked.GetEventId() && e.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED
	}); later != nil {
		t.Fatalf("goal a's todo sent an activity after the cancel: %v", later)
	}
	t.Logf("a's Step closed with %s", stepClosed.GetEventType())

	// a: the todo closed before the release was sent.
	ga := hist(a)
	childClosed := first(ga, func(e *historypb.HistoryEvent) bool {
		return e.GetChildWorkflowExecutionCanceledEventAttributes().GetWorkflowExecution().GetWorkflowId() == todoA ||
			e.GetChildWorkflowExecutionCompletedEventAttributes().GetWorkflowExecution().GetWorkflowId() == todoA
	})
	releaseSent := first(ga, func(e *historypb.HistoryEvent) bool {
		return e.GetSignalExternalWorkflowExecutionInitiatedEventAttributes().GetSignalName() == workflows.SignalLeaseRelease
	})
	if childClosed == nil || releaseSent == nil || childClosed.GetEventId() > releaseSent.GetEventId() {
		t.Fatalf("goal a sent the release before its todo closed (todo closed: %v, release: %v)", childClosed, releaseSent)
	}

	// The lease: a's release arrived, then b was granted.
	lease := hist(workflows.LeaseWorkflowID(serial))
	released := first(lease, func(e *historypb.HistoryEvent) bool {
		at := e.GetWorkflowExecutionSignaledEventAttributes()
		if at.GetSignalName() != workflows.SignalLeaseRelease {
			return false
		}
		var r activities.LeaseRelease
		return converter.GetDefaultDataConverter().FromPayloads(at.GetInput(), &r) == nil && r.GoalID == a
	})
	granted := first(lease, func(e *historypb.HistoryEvent) bool {
		at := e.GetSignalExternalWorkflowExecutionInitiatedEventAttributes()
		return at.GetSignalName() == workflows.SignalLeaseGranted && at.GetWorkflowExecution().GetWorkflowId() == b
	})
	if released == nil || granted == nil || granted.GetEventId() < released.GetEventId() {
		t.Fatalf("the lease granted b before a released (release: %v, grant: %v):\n%s", released, granted, describe(lease))
	}
	// Across histories the server's event times place them on one clock.
	if released.GetEventTime().AsTime().Before(stepClosed.GetEventTime().AsTime()) {
		t.Fatalf("the lease took a's release at %v, before a's Step closed at %v",
			released.GetEventTime().AsTime(), stepClosed.GetEventTime().AsTime())
	}

	// b's todo: its first Step after the release; its first action is the
	// first input the phone got after a's Step closed.
	tb := hist(b + "/todo-1")
	firstStep := first(tb, func(e *historypb.HistoryEvent) bool { return isStep(e) })
	if firstStep == nil || firstStep.GetEventTime().AsTime().Before(released.GetEventTime().AsTime()) {
		t.Fatalf("goal b's first Step (%v) came before the lease took a's release at %v", firstStep, released.GetEventTime().AsTime())
	}
	firstAct := first(tb, func(e *historypb.HistoryEvent) bool {
		in, ok := stepInput(e)
		return ok && in.Act != nil && in.Act.TouchesDevice()
	})
	if firstAct == nil {
		t.Fatal("goal b's todo never acted")
	}
	actStarted := first(tb, func(e *historypb.HistoryEvent) bool {
		return e.GetActivityTaskStartedEventAttributes().GetScheduledEventId() == firstAct.GetEventId()
	})
	from, until := stepClosed.GetEventTime().AsTime(), actStarted.GetEventTime().AsTime()
	state := phone.State()
	for _, in := range state.InputLog {
		if !in.At.Before(from) && in.At.Before(until) {
			t.Errorf("input %d (%s %v on %s/%s) at %v: after goal a's Step closed (%v) and before goal b's first action started (%v)",
				in.Seq, in.Kind, in.Args, in.App, in.Page, in.At, from, until)
		}
	}
	t.Logf("a's Step asked to stop %v, stopped %v; the lease took a's release %v; b's first Step scheduled %v, b's first action started %v",
		asked.GetEventTime().AsTime().Format("15:04:05.000"), from.Format("15:04:05.000"),
		released.GetEventTime().AsTime().Format("15:04:05.000"),
		firstStep.GetEventTime().AsTime().Format("15:04:05.000"), until.Format("15:04:05.000"))
	// The same guarantee as the lost-host drills check it.
	h, err := drill.ReadHandover(ctx, st.Client, serial, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Check(state.InputLog); err != nil {
		t.Error(err)
	}
	var sent []string
	for _, m := range state.MessagesSent {
		sent = append(sent, m.Text)
	}
	if n := strings.Count(strings.Join(sent, "|"), "cancel drill b"); n != 1 {
		t.Errorf("messages sent = %q, want b's once", sent)
	}
}

// actingStepRuns reports whether the todo's latest Step acts on the phone
// and has started but not closed. A started attempt shows in the pending
// activities only: its started event is written when it closes.
func actingStepRuns(ctx context.Context, st *stack.Stack, id string) bool {
	evs, err := drill.History(ctx, st.Client, id)
	if err != nil {
		return false
	}
	var last *historypb.HistoryEvent
	for _, e := range evs {
		if isStep(e) {
			last = e
		}
	}
	if in, ok := stepInput(last); !ok || in.Act == nil || !in.Act.TouchesDevice() {
		return false
	}
	for _, e := range evs {
		if closes(e, last.GetEventId()) {
			return false
		}
	}
	d, err := st.Client.DescribeWorkflowExecution(ctx, id, "")
	if err != nil {
		return false
	}
	for _, p := range d.GetPendingActivities() {
		if p.GetActivityType().GetName() == activities.NameStep && p.GetState() == enumspb.PENDING_ACTIVITY_STATE_STARTED {
			return true
		}
	}
	return false
}

func isStep(e *historypb.HistoryEvent) bool {
	return e.GetActivityTaskScheduledEventAttributes().GetActivityType().GetName() == activities.NameStep
}

func stepInput(e *historypb.HistoryEvent) (activities.StepInput, bool) {
	var in activities.StepInput
	if e == nil || !isStep(e) {
		return in, false
	}
	err := converter.GetDefaultDataConverter().FromPayloads(e.GetActivityTaskScheduledEventAttributes().GetInput(), &in)
	return in, err == nil
}

// closes reports whether e ends the activity scheduled as event id.
func closes(e *historypb.HistoryEvent, id int64) bool {
	switch e.GetEventType() {
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
		return e.GetActivityTaskCompletedEventAttributes().GetScheduledEventId() == id
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
		return e.GetActivityTaskFailedEventAttributes().GetScheduledEventId() == id
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
		return e.GetActivityTaskTimedOutEventAttributes().GetScheduledEventId() == id
	case enumspb.EVENT_TYPE_ACTIVITY_TASK_CANCELED:
		return e.GetActivityTaskCanceledEventAttributes().GetScheduledEventId() == id
	}
	return false
}

func first(evs []*historypb.HistoryEvent, ok func(*historypb.HistoryEvent) bool) *historypb.HistoryEvent {
	for _, e := range evs {
		if ok(e) {
			return e
		}
	}
	return nil
}

func describe(evs []*historypb.HistoryEvent) string {
	var b strings.Builder
	for _, e := range evs {
		fmt.Fprintf(&b, "%d %s %s\n", e.GetEventId(), e.GetEventTime().AsTime().Format("15:04:05.000"), e.GetEventType())
	}
	return b.String()
}

// waitStatus polls a workflow's status query until ok or d passes, and
// returns the last status read.
func waitStatus(st *stack.Stack, id string, d time.Duration, ok func(workflows.Status) bool) (workflows.Status, bool) {
	return stacktest.PollStatus(st.Goals, id, d, ok)
}
