package searchattr

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"google.golang.org/grpc"
)

// frontend answers CountWorkflowExecutions with answers in turn, the last
// one from then on, and records the queries.
type frontend struct {
	workflowservice.WorkflowServiceClient
	answers []error
	calls   atomic.Int32
	query   string
}

func (f *frontend) CountWorkflowExecutions(_ context.Context, r *workflowservice.CountWorkflowExecutionsRequest, _ ...grpc.CallOption) (*workflowservice.CountWorkflowExecutionsResponse, error) {
	n := int(f.calls.Add(1)) - 1
	f.query = r.GetQuery()
	if err := f.answers[min(n, len(f.answers)-1)]; err != nil {
		return nil, err
	}
	return &workflowservice.CountWorkflowExecutionsResponse{}, nil
}

func unmapped() error {
	return serviceerror.NewInvalidArgument("Namespace default has no mapping defined for search attribute PhoneflowStatus")
}

func TestAwaitServedWaitsOutTheFrontendsRefresh(t *testing.T) {
	f := &frontend{answers: []error{unmapped(), serviceerror.NewUnavailable("frontend busy"), unmapped(), nil}}
	var told []string
	err := AwaitServed(context.Background(), f, "default", AwaitOptions{Every: time.Millisecond,
		Waiting: func(refused error) { told = append(told, refused.Error()) }})
	if err != nil {
		t.Fatal(err)
	}
	if f.calls.Load() != 4 {
		t.Errorf("%d probes, want 4 (until the frontend answered)", f.calls.Load())
	}
	if len(told) != 1 || !strings.Contains(told[0], "no mapping defined") {
		t.Errorf("waiting told %q, want once with the frontend's answer", told)
	}
	for _, n := range Names() {
		if !strings.Contains(f.query, n) {
			t.Errorf("probe query %q does not name %s", f.query, n)
		}
	}
}

func TestAwaitServedBoundAndOtherAnswers(t *testing.T) {
	f := &frontend{answers: []error{unmapped()}}
	err := AwaitServed(context.Background(), f, "team-a", AwaitOptions{For: 20 * time.Millisecond, Every: time.Millisecond})
	if !errors.Is(err, ErrNotServed) || !strings.Contains(err.Error(), "team-a") || !strings.Contains(err.Error(), "no mapping defined") ||
		!strings.Contains(err.Error(), "namespaceCacheRefreshInterval") {
		t.Errorf("at the bound: %v, want ErrNotServed naming the namespace, the frontend's answer and the refresh setting", err)
	}
	// A frontend that may not be asked is not waited for: the start says
	// what is wrong.
	f = &frontend{answers: []error{serviceerror.NewPermissionDenied("no visibility for this role", "")}}
	if err := AwaitServed(context.Background(), f, "default", AwaitOptions{Every: time.Millisecond}); err != nil || f.calls.Load() != 1 {
		t.Errorf("permission denied: %v after %d probes, want nil after 1", err, f.calls.Load())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f = &frontend{answers: []error{unmapped()}}
	if err := AwaitServed(ctx, f, "default", AwaitOptions{Every: time.Millisecond}); !errors.Is(err, ErrNotServed) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestUnmapped(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{unmapped(), true},
		{serviceerror.NewInvalidArgument("invalid query: column name 'PhoneflowDevice' is not a valid search attribute"), true},
		{serviceerror.NewInvalidArgument("WorkflowId is not set"), false},
		{serviceerror.NewUnavailable("PhoneflowStatus"), false},
		{nil, false},
	} {
		if got := Unmapped(c.err); got != c.want {
			t.Errorf("Unmapped(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
