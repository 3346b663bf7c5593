package app

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
)

// fakeOperator answers ListSearchAttributes with attrs and
// AddSearchAttributes with addErr, recording what was added.
type fakeOperator struct {
	operatorservice.OperatorServiceClient
	attrs   map[string]enumspb.IndexedValueType
	listErr error
	addErr  error
	added   map[string]enumspb.IndexedValueType
}

func (f *fakeOperator) ListSearchAttributes(_ context.Context, r *operatorservice.ListSearchAttributesRequest, _ ...grpc.CallOption) (*operatorservice.ListSearchAttributesResponse, error) {
	if f.listErr != nil {
		return nil, f.listErr
	}
	return &operatorservice.ListSearchAttributesResponse{CustomAttributes: f.attrs}, nil
}

func (f *fakeOperator) AddSearchAttributes(_ context.Context, r *operatorservice.AddSearchAttributesRequest, _ ...grpc.CallOption) (*operatorservice.AddSearchAttributesResponse, error) {
	f.added = r.GetSearchAttributes()
	if f.addErr != nil {
		return nil, f.addErr
	}
	return &operatorservice.AddSearchAttributesResponse{}, nil
}

func TestEnsureSearchAttributes(t *testing.T) {
	kw, kwl := enumspb.INDEXED_VALUE_TYPE_KEYWORD, enumspb.INDEXED_VALUE_TYPE_KEYWORD_LIST
	const want = "temporal operator search-attribute create --namespace team-a --name PhoneflowDevice --type Keyword --name PhoneflowLabels --type KeywordList --name PhoneflowStatus --type Keyword"
	if got := RegisterCommand("team-a"); got != want {
		t.Fatalf("RegisterCommand = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name      string
		op        *fakeOperator
		wantAdded []string
		wantErr   []string // substrings of the error; none means no error
	}{
		{name: "registered", op: &fakeOperator{attrs: map[string]enumspb.IndexedValueType{"PhoneflowStatus": kw, "PhoneflowDevice": kw, "PhoneflowLabels": kwl, "Other": enumspb.INDEXED_VALUE_TYPE_INT}}},
		{name: "one missing is added", op: &fakeOperator{attrs: map[string]enumspb.IndexedValueType{"PhoneflowStatus": kw}},
			wantAdded: []string{"PhoneflowDevice", "PhoneflowLabels"}},
		{name: "all missing are added", op: &fakeOperator{}, wantAdded: []string{"PhoneflowDevice", "PhoneflowLabels", "PhoneflowStatus"}},
		{name: "added meanwhile by another worker", op: &fakeOperator{addErr: serviceerror.NewAlreadyExists("exists")},
			wantAdded: []string{"PhoneflowDevice", "PhoneflowLabels", "PhoneflowStatus"}},
		{name: "not allowed", op: &fakeOperator{addErr: serviceerror.NewPermissionDenied("request unauthorized", "")},
			wantAdded: []string{"PhoneflowDevice", "PhoneflowLabels", "PhoneflowStatus"},
			wantErr:   []string{"request unauthorized", "lacks PhoneflowDevice, PhoneflowLabels, PhoneflowStatus", "`" + want + "`", "tcld namespace search-attributes add --namespace team-a --search-attribute PhoneflowDevice=Keyword --search-attribute PhoneflowLabels=KeywordList --search-attribute PhoneflowStatus=Keyword", "start the worker again"}},
		{name: "wrong type", op: &fakeOperator{attrs: map[string]enumspb.IndexedValueType{"PhoneflowStatus": enumspb.INDEXED_VALUE_TYPE_TEXT, "PhoneflowDevice": kw}},
			wantErr: []string{"PhoneflowStatus on namespace team-a has type", "search-attribute remove --namespace team-a --name PhoneflowStatus", want}},
		{name: "cannot list: serve anyway", op: &fakeOperator{listErr: serviceerror.NewUnavailable("frontend away")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := EnsureSearchAttributes(context.Background(), tc.op, nil, "team-a", slog.New(slog.DiscardHandler))
			if len(tc.wantErr) == 0 && err != nil {
				t.Fatalf("error %v", err)
			}
			for _, s := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), s) {
					t.Errorf("error %v lacks %q", err, s)
				}
			}
			var added []string
			for n, ty := range tc.op.added {
				if ty != SearchAttributes[n] {
					t.Errorf("%s added as %s, want %s", n, ty, SearchAttributes[n])
				}
				added = append(added, n)
			}
			if len(added) != len(tc.wantAdded) {
				t.Errorf("added %v, want %v", added, tc.wantAdded)
			}
			for _, n := range tc.wantAdded {
				if _, ok := tc.op.added[n]; !ok {
					t.Errorf("added %v, want %v", added, tc.wantAdded)
				}
			}
		})
	}
}

// refreshingFrontend refuses the attributes in queries for its first
// refusals probes, as a frontend does until its namespace refresh.
type refreshingFrontend struct {
	workflowservice.WorkflowServiceClient
	refusals, probes int
}

func (f *refreshingFrontend) CountWorkflowExecutions(context.Context, *workflowservice.CountWorkflowExecutionsRequest, ...grpc.CallOption) (*workflowservice.CountWorkflowExecutionsResponse, error) {
	f.probes++
	if f.probes <= f.refusals {
		return nil, serviceerror.NewInvalidArgument("Namespace team-a has no mapping defined for search attribute PhoneflowDevice")
	}
	return &workflowservice.CountWorkflowExecutionsResponse{}, nil
}

// The worker is not ready until the frontend serves what it registered:
// a goal started the moment it says so would be refused otherwise.
func TestEnsureSearchAttributesWaitsUntilServed(t *testing.T) {
	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	ws := &refreshingFrontend{refusals: 3}
	if err := EnsureSearchAttributes(context.Background(), &fakeOperator{}, ws, "team-a", log); err != nil {
		t.Fatal(err)
	}
	if ws.probes != 4 {
		t.Errorf("%d probes, want 4: until the frontend answered", ws.probes)
	}
	if !strings.Contains(logged.String(), "waiting for the Temporal frontend to serve") || !strings.Contains(logged.String(), "serves phoneflow's search attributes") {
		t.Errorf("log does not say it waited and what for:\n%s", logged.String())
	}
	// Not listed (server away): no wait, the worker serves as before.
	ws = &refreshingFrontend{refusals: 1000}
	if err := EnsureSearchAttributes(context.Background(), &fakeOperator{listErr: serviceerror.NewUnavailable("away")}, ws, "team-a", log); err != nil || ws.probes != 0 {
		t.Errorf("unlisted: %v after %d probes", err, ws.probes)
	}
}
