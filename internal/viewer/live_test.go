package viewer

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/workflows"
)

// events is a history served from a slice.
type events struct{ evs []*historypb.HistoryEvent }

func (e *events) HasNext() bool { return len(e.evs) > 0 }
func (e *events) Next() (*historypb.HistoryEvent, error) {
	ev := e.evs[0]
	e.evs = e.evs[1:]
	return ev, nil
}

// runningGoal is the history of goal id started now and, when phase is
// set, publishing that phase.
func runningGoal(t *testing.T, mc *mocks.Client, id, phase string) {
	t.Helper()
	dc := converter.GetDefaultDataConverter()
	in, err := dc.ToPayloads(workflows.GoalInput{Goal: "send it at nine", Device: "emu-1"})
	if err != nil {
		t.Fatal(err)
	}
	at := timestamppb.New(time.Now().Add(-time.Minute))
	evs := []*historypb.HistoryEvent{{EventId: 1, EventTime: at, EventType: enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
		Attributes: &historypb.HistoryEvent_WorkflowExecutionStartedEventAttributes{WorkflowExecutionStartedEventAttributes: &historypb.WorkflowExecutionStartedEventAttributes{
			WorkflowType: &commonpb.WorkflowType{Name: "GoalWorkflow"}, Input: in}}}}
	if phase != "" {
		p, err := dc.ToPayload(phase)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, &historypb.HistoryEvent{EventId: 5, EventTime: at, EventType: enumspb.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
			Attributes: &historypb.HistoryEvent_UpsertWorkflowSearchAttributesEventAttributes{UpsertWorkflowSearchAttributesEventAttributes: &historypb.UpsertWorkflowSearchAttributesEventAttributes{
				SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{workflows.SearchAttrStatus: p}}}}})
	}
	mc.On("GetWorkflowHistory", mock.Anything, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT).
		Return(func(context.Context, string, string, bool, enumspb.HistoryEventFilterType) client.HistoryEventIterator {
			return &events{evs: evs}
		}).Maybe()
}

func statusValue(t *testing.T, st workflows.Status) converter.EncodedValue {
	t.Helper()
	p, err := converter.GetDefaultDataConverter().ToPayloads(st)
	if err != nil {
		t.Fatal(err)
	}
	return client.NewValue(p)
}

func getPage(t *testing.T, o Options, target string) string {
	t.Helper()
	w := httptest.NewRecorder()
	Handler(o).ServeHTTP(w, httptest.NewRequest("GET", target, nil))
	if w.Code != 200 {
		t.Fatalf("GET %s: %d %s", target, w.Code, w.Body)
	}
	return w.Body.String()
}

// A running goal's page says its phase, not "running": paused, waiting for
// an answer, waiting for a time (and what for, until when, instead of "No
// todo has started yet"), from the goal's status; and from the phase its
// history published when the goal cannot be asked.
func TestPageSaysWhatTheGoalWaitsFor(t *testing.T) {
	nine := time.Now().Add(3*time.Hour + 10*time.Second).UTC()
	cases := []struct {
		name, phase string
		st          workflows.Status
		want        []string
	}{
		{"paused", workflows.GoalPaused, workflows.Status{Phase: workflows.GoalPaused, Paused: true},
			[]string{`id="goal-status">paused<`, `data-goal-status="paused"`, "until the goal is resumed"}},
		{"question", workflows.GoalWaitingUser, workflows.Status{Phase: workflows.GoalWaitingUser, PendingQuestion: "What should the message say?",
			QuestionKind: workflows.QuestionClarify, AnswerBy: nine},
			[]string{`id="goal-status">waiting_user<`, "waiting for your answer to: What should the message say? (until " + nine.Format("2006-01-02 15:04") + " UTC)"}},
		{"time", workflows.GoalWaitingUntil, workflows.Status{Phase: workflows.GoalWaitingUntil, WaitUntil: nine, WaitLabel: "21:00 CST", PhoneReleased: true,
			WaitingFor: "waiting until 21:00 CST"},
			[]string{`id="goal-status">waiting_until<`, "waiting until 21:00 CST (in 3 h); the phone is free meanwhile"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mc := &mocks.Client{}
			runningGoal(t, mc, "goal-w", c.phase)
			mc.On("QueryWorkflow", mock.Anything, "goal-w", "", workflows.QueryStatus).Return(statusValue(t, c.st), nil)
			page := getPage(t, Options{Reader: &Reader{Client: mc}}, "/goals/goal-w")
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %q:\n%s", w, page)
				}
			}
			if strings.Contains(page, ">running<") || strings.Contains(page, "No todo has started yet") {
				t.Errorf("the page says running or that nothing started:\n%s", page)
			}
		})
	}

	// No worker answers the query: the phase the goal last published.
	mc := &mocks.Client{}
	runningGoal(t, mc, "goal-w", workflows.GoalWaitingUntil)
	mc.On("QueryWorkflow", mock.Anything, "goal-w", "", workflows.QueryStatus).Return(nil, errors.New("no poller seen"))
	page := getPage(t, Options{Reader: &Reader{Client: mc}}, "/goals/goal-w")
	if !strings.Contains(page, `id="goal-status">waiting_until<`) {
		t.Errorf("without the query, the page does not say the published phase:\n%s", page)
	}
}
