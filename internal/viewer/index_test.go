package viewer

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	workflowpb "go.temporal.io/api/workflow/v1"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/mocks"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/phoneflow/phoneflow/workflows"
)

// /goals/ lists the newest goals with their own status, each linked to its
// page (the token carried on).
func TestIndexListsGoals(t *testing.T) {
	mc := &mocks.Client{}
	failed, _ := converter.GetDefaultDataConverter().ToPayload(workflows.GoalFailed)
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return strings.Contains(r.GetQuery(), "WorkflowType = 'GoalWorkflow'")
	})).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{
		{Execution: &commonpb.WorkflowExecution{WorkflowId: "goal-b"}, Status: enumspb.WORKFLOW_EXECUTION_STATUS_FAILED,
			StartTime:        timestamppb.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
			SearchAttributes: &commonpb.SearchAttributes{IndexedFields: map[string]*commonpb.Payload{workflows.SearchAttrStatus: failed}}},
		{Execution: &commonpb.WorkflowExecution{WorkflowId: "goal-a"}, Status: enumspb.WORKFLOW_EXECUTION_STATUS_TERMINATED,
			StartTime: timestamppb.New(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
	}}, nil)
	h := Handler(Options{Reader: &Reader{Client: mc}, Token: "s3cret"})
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest("GET", "/goals/?token=s3cret", nil))
	body := w.Body.String()
	if w.Code != 200 {
		t.Fatalf("index: %d %s", w.Code, body)
	}
	for _, want := range []string{`href="/goals/goal-b?token=s3cret"`, "<td>failed</td>", "2026-01-02 03:04:05", `href="/goals/goal-a?token=s3cret"`, "<td>terminated</td>"} {
		if !strings.Contains(body, want) {
			t.Errorf("index lacks %q:\n%s", want, body)
		}
	}
	if strings.Index(body, "goal-b") > strings.Index(body, "goal-a") {
		t.Error("the index is not newest first")
	}
}

// A visibility store that refuses ORDER BY (the embedded server's) gets the
// unordered query, every page of it, and the index is sorted here, newest
// first; another error is shown as it is.
func TestIndexWhereTheServerCannotSort(t *testing.T) {
	at := func(d int) *timestamppb.Timestamp {
		return timestamppb.New(time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC))
	}
	exec := func(id string, d int) *workflowpb.WorkflowExecutionInfo {
		return &workflowpb.WorkflowExecutionInfo{Execution: &commonpb.WorkflowExecution{WorkflowId: id}, StartTime: at(d),
			Status: enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING}
	}
	mc := &mocks.Client{}
	ordered := func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return strings.Contains(r.GetQuery(), "ORDER BY")
	}
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(ordered)).
		Return(nil, serviceerror.NewInvalidArgument("invalid query: operation is not supported: 'ORDER BY' clause"))
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return !ordered(r) && len(r.GetNextPageToken()) == 0
	})).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{exec("goal-2", 2), exec("goal-5", 5)},
		NextPageToken: []byte("p2")}, nil)
	mc.On("ListWorkflow", mock.Anything, mock.MatchedBy(func(r *workflowservice.ListWorkflowExecutionsRequest) bool {
		return !ordered(r) && string(r.GetNextPageToken()) == "p2"
	})).Return(&workflowservice.ListWorkflowExecutionsResponse{Executions: []*workflowpb.WorkflowExecutionInfo{exec("goal-9", 9), exec("goal-1", 1)}}, nil)
	w := httptest.NewRecorder()
	Handler(Options{Reader: &Reader{Client: mc}}).ServeHTTP(w, httptest.NewRequest("GET", "/goals/", nil))
	body := w.Body.String()
	if w.Code != 200 {
		t.Fatalf("index: %d %s", w.Code, body)
	}
	last := -1
	for _, id := range []string{"goal-9", "goal-5", "goal-2", "goal-1"} {
		i := strings.Index(body, `href="/goals/`+id+`"`)
		if i < last {
			t.Fatalf("%s is missing or out of order (newest first):\n%s", id, body)
		}
		last = i
	}

	down := &mocks.Client{}
	down.On("ListWorkflow", mock.Anything, mock.Anything).Return(nil, serviceerror.NewUnavailable("connection refused"))
	w = httptest.NewRecorder()
	Handler(Options{Reader: &Reader{Client: down}}).ServeHTTP(w, httptest.NewRequest("GET", "/goals/", nil))
	if w.Code != 502 || !strings.Contains(w.Body.String(), "connection refused") {
		t.Fatalf("an unreachable server: %d %s", w.Code, w.Body)
	}
	down.AssertNumberOfCalls(t, "ListWorkflow", 1)
}

// A pause and a resume during a todo show between the steps where they
// happened, not at the top of the todo.
func TestNotesBetweenSteps(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 1, 1, 0, 0, s, 0, time.UTC) }
	g := Goal{ID: "goal-p", Todos: []Todo{{WorkflowID: "goal-p/todo-1", Index: 1, Text: "t", Status: "done", Started: at(0), Closed: at(60),
		Steps: []Step{{N: 1, Scheduled: at(1), Finished: at(2)}, {N: 2, Scheduled: at(10), Finished: at(11)}, {N: 3, Scheduled: at(30), Finished: at(31)}}}},
		Notes: []Note{{Time: at(5), Kind: "paused"}, {Time: at(20), Kind: "resumed"}, {Time: at(40), Kind: "say", Text: "late"}}}
	g.placeNotes()
	steps := g.Todos[0].Steps
	if len(steps[0].NotesBefore) != 0 || len(steps[1].NotesBefore) != 1 || steps[1].NotesBefore[0].Kind != "paused" ||
		len(steps[2].NotesBefore) != 1 || steps[2].NotesBefore[0].Kind != "resumed" || len(g.Todos[0].NotesAfter) != 1 {
		t.Fatalf("notes placed: %+v / after %+v", steps, g.Todos[0].NotesAfter)
	}
	var b strings.Builder
	tpl, err := page.Clone() // executing page itself would keep the handler from cloning it
	if err != nil {
		t.Fatal(err)
	}
	if err := tpl.ExecuteTemplate(&b, "body", pageData{Goal: g}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	order := []string{`data-step="1"`, "<b>paused</b>", `data-step="2"`, "<b>resumed</b>", `data-step="3"`, "<b>say</b>"}
	last := -1
	for _, s := range order {
		i := strings.Index(html, s)
		if i < last {
			t.Fatalf("%q is out of place in the page:\n%s", s, html)
		}
		last = i
	}
}
