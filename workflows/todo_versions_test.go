package workflows

import (
	"strings"
	"sync"
	"testing"

	"go.temporal.io/sdk/interceptor"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// askedVersions records the change IDs a workflow asks the SDK for: each
// one asked in a new run is a version marker in its history.
type askedVersions struct {
	interceptor.WorkerInterceptorBase
	mu  sync.Mutex
	ids []string
}

func (a *askedVersions) InterceptWorkflow(ctx workflow.Context, next interceptor.WorkflowInboundInterceptor) interceptor.WorkflowInboundInterceptor {
	return &askedInbound{WorkflowInboundInterceptorBase: interceptor.WorkflowInboundInterceptorBase{Next: next}, a: a}
}

func (a *askedVersions) asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.ids...)
}

type askedInbound struct {
	interceptor.WorkflowInboundInterceptorBase
	a *askedVersions
}

func (i *askedInbound) Init(out interceptor.WorkflowOutboundInterceptor) error {
	return i.Next.Init(&askedOutbound{WorkflowOutboundInterceptorBase: interceptor.WorkflowOutboundInterceptorBase{Next: out}, a: i.a})
}

type askedOutbound struct {
	interceptor.WorkflowOutboundInterceptorBase
	a *askedVersions
}

func (o *askedOutbound) GetVersion(ctx workflow.Context, changeID string, minSupported, maxSupported workflow.Version) workflow.Version {
	o.a.mu.Lock()
	o.a.ids = append(o.a.ids, changeID)
	o.a.mu.Unlock()
	return o.Next.GetVersion(ctx, changeID, minSupported, maxSupported)
}

// runTodoAsking runs a todo that taps twice, is corrected once for being
// stuck, and finishes verified, and returns the change IDs it asked the SDK.
func runTodoAsking(t *testing.T, interceptors []interceptor.WorkerInterceptor) []string {
	t.Helper()
	a := &askedVersions{}
	f := &fakeWorld{stuck: true, scripts: map[string][]autoglm.Action{"t": {tap(1, 1), tap(1, 1), tap(1, 1), tap(1, 1), finish("ok")}}}
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, worker.Options{Interceptors: append(interceptors, a)})
	f.register(env)
	env.ExecuteWorkflow(TodoWorkflow, TodoInput{Index: 1, Task: "t", Device: "emu-1", UITree: true})
	var r TodoResult
	if err := env.GetWorkflowResult(&r); err != nil {
		t.Fatal(err)
	}
	if r.Status != TodoDone {
		t.Fatalf("todo ended %s: %s", r.Status, r.Result)
	}
	return a.asked()
}

// A new todo run records one version marker, whatever changes it reaches
// on the way: steps with action IDs, a stuck correction, the verified
// finish (docs/design.md §16).
func TestTodoRecordsOneVersionMarker(t *testing.T) {
	got := runTodoAsking(t, Interceptors())
	if len(got) != 1 || got[0] != ChangeTodoMarkersOnce {
		t.Fatalf("a new todo run asked the SDK for %v, want only %s", got, ChangeTodoMarkersOnce)
	}
}

// A worker without the signal-order interceptor cannot take a change the
// marker stands for; its todo asks each change as before.
func TestTodoWithoutSignalOrderAsksEachChange(t *testing.T) {
	got := runTodoAsking(t, nil)
	for _, want := range []string{ChangeTodoMarkersOnce, ChangeSignalArrivalOrder, changeActionJournal, ChangeVerifyFinish} {
		found := false
		for _, id := range got {
			found = found || id == want
		}
		if !found {
			t.Errorf("asked %v, want %s among them", got, want)
		}
	}
}

func askMoreOfFrozen(ctx workflow.Context) error {
	ctx = withTodoMarkersOnce(ctx)
	getVersion(ctx, ChangeVerifyFinish, workflow.DefaultVersion, 2)
	return nil
}

// Code that asks a frozen change for a later version fails the workflow
// task, naming the fix, instead of silently keeping the frozen one.
func TestFrozenChangeRefusesLaterVersion(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := newTestEnvironment(&s, worker.Options{Interceptors: Interceptors()})
	env.RegisterWorkflow(askMoreOfFrozen)
	env.ExecuteWorkflow(askMoreOfFrozen)
	err := env.GetWorkflowError()
	if err == nil || !strings.Contains(err.Error(), "its own change ID") {
		t.Fatalf("err = %v, want the frozen change refused", err)
	}
}

// Every change the marker stands for is a change ID of this package at
// version 1, the version new runs took.
func TestTodoMarkersOnceFrozenAtOne(t *testing.T) {
	if len(todoMarkersOnce) < 20 {
		t.Fatalf("todoMarkersOnce holds %d changes", len(todoMarkersOnce))
	}
	for id, v := range todoMarkersOnce {
		if v != 1 {
			t.Errorf("%s frozen at %d", id, v)
		}
	}
}

// A run that recorded the marker at version 1 never takes a change added
// to it later (its history has the Verify activities the change saves);
// a run at the latest version takes every change.
func TestLaterMarkerVersionsAddChanges(t *testing.T) {
	if _, ok := TodoMarkersOnceImplies(1, ChangeVerifyInStep); ok {
		t.Fatalf("version 1 of %s stands for %s", ChangeTodoMarkersOnce, ChangeVerifyInStep)
	}
	if _, ok := TodoMarkersOnceImplies(2, ChangeKeepApplied); ok {
		t.Fatalf("version 2 of %s stands for %s", ChangeTodoMarkersOnce, ChangeKeepApplied)
	}
	for _, id := range []string{ChangeVerifyInStep, ChangeVerifyFinish, ChangeKeepApplied} {
		if v, ok := TodoMarkersOnceImplies(todoMarkersOnceLatest, id); !ok || v != 1 {
			t.Errorf("the latest version of %s gives %s version %d (%v), want 1", ChangeTodoMarkersOnce, id, v, ok)
		}
	}
	for ver, added := range todoMarkersOnceAdded {
		for id, v := range added {
			if _, ok := todoMarkersOnce[id]; ok || v != 1 || ver < 2 {
				t.Errorf("%s added at version %d of the marker at %d: a change is added once, at 1, from version 2", id, ver, v)
			}
		}
	}
}
