package app

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/operatorservice/v1"
	"go.temporal.io/api/serviceerror"
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
	kw := enumspb.INDEXED_VALUE_TYPE_KEYWORD
	const want = "temporal operator search-attribute create --namespace team-a --name PhoneflowDevice --type Keyword --name PhoneflowStatus --type Keyword"
	if got := RegisterCommand("team-a"); got != want {
		t.Fatalf("RegisterCommand = %q, want %q", got, want)
	}
	for _, tc := range []struct {
		name      string
		op        *fakeOperator
		wantAdded []string
		wantErr   []string // substrings of the error; none means no error
	}{
		{name: "registered", op: &fakeOperator{attrs: map[string]enumspb.IndexedValueType{"PhoneflowStatus": kw, "PhoneflowDevice": kw, "Other": enumspb.INDEXED_VALUE_TYPE_INT}}},
		{name: "one missing is added", op: &fakeOperator{attrs: map[string]enumspb.IndexedValueType{"PhoneflowStatus": kw}},
			wantAdded: []string{"PhoneflowDevice"}},
		{name: "both missing are added", op: &fakeOperator{}, wantAdded: []string{"PhoneflowDevice", "PhoneflowStatus"}},
		{name: "added meanwhile by another worker", op: &fakeOperator{addErr: serviceerror.NewAlreadyExists("exists")},
			wantAdded: []string{"PhoneflowDevice", "PhoneflowStatus"}},
		{name: "not allowed", op: &fakeOperator{addErr: serviceerror.NewPermissionDenied("request unauthorized", "")},
			wantAdded: []string{"PhoneflowDevice", "PhoneflowStatus"},
			wantErr:   []string{"request unauthorized", "lacks PhoneflowDevice, PhoneflowStatus", "`" + want + "`", "tcld namespace search-attributes add --namespace team-a --search-attribute PhoneflowDevice=Keyword --search-attribute PhoneflowStatus=Keyword", "start the worker again"}},
		{name: "wrong type", op: &fakeOperator{attrs: map[string]enumspb.IndexedValueType{"PhoneflowStatus": enumspb.INDEXED_VALUE_TYPE_TEXT, "PhoneflowDevice": kw}},
			wantErr: []string{"PhoneflowStatus on namespace team-a has type", "search-attribute remove --namespace team-a --name PhoneflowStatus", want}},
		{name: "cannot list: serve anyway", op: &fakeOperator{listErr: serviceerror.NewUnavailable("frontend away")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := EnsureSearchAttributes(context.Background(), tc.op, "team-a", slog.New(slog.DiscardHandler))
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
				if ty != kw {
					t.Errorf("%s added as %s", n, ty)
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
