package workflows

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// spanTestOther is the second phone of the goals that span phones.
const spanTestOther = "phone-2"

// spanHarness starts the leases of both phones, optionally lets goal-a
// hold phone-2 for an hour, then runs a real GoalWorkflow ("goal-b") on
// phone-1 and returns its result and phone-2's lease as it ended.
func spanHarness(ctx workflow.Context, in GoalInput, busy bool) (GoalResult, error) {
	for _, s := range []string{leaseTestSerial, spanTestOther} {
		lctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: LeaseWorkflowID(s)})
		if err := workflow.ExecuteChildWorkflow(lctx, DeviceLeaseWorkflow, LeaseState{Serial: s}).GetChildWorkflowExecution().Get(ctx, nil); err != nil {
			return GoalResult{}, err
		}
	}
	if busy {
		workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-a"}),
			spanHolder, time.Hour)
		_ = workflow.Sleep(ctx, time.Minute)
	}
	var r GoalResult
	err := workflow.ExecuteChildWorkflow(workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{WorkflowID: "goal-b"}), GoalWorkflow, in).Get(ctx, &r)
	return r, err
}

// spanHolder holds phone-2 for hold.
func spanHolder(ctx workflow.Context, hold time.Duration) error {
	release, err := AcquireDevice(ctx, spanTestOther, true, nil)
	if err != nil {
		return err
	}
	_ = workflow.Sleep(ctx, hold)
	release(ctx)
	return nil
}

func newSpanEnv(t *testing.T, f *fakeWorld, in GoalInput, busy bool) (*leaseWorld, error) {
	w, _, err := runSpan(t, f, in, busy)
	return w, err
}

// runSpan is newSpanEnv that also answers phone-2's lease as the goal left it.
func runSpan(t *testing.T, f *fakeWorld, in GoalInput, busy bool) (*leaseWorld, LeaseState, error) {
	t.Helper()
	saved := DeviceLease
	DeviceLease = LeaseDevice
	t.Cleanup(func() { DeviceLease = saved })
	env, w := newLeaseEnv(t)
	f.register(env)
	env.RegisterWorkflowWithOptions(spanHarness, workflow.RegisterOptions{Name: "spanHarness"})
	env.RegisterWorkflowWithOptions(spanHolder, workflow.RegisterOptions{Name: "spanHolder"})
	var other LeaseState
	env.ExecuteWorkflow(spanHarness, in, busy)
	if !env.IsWorkflowCompleted() {
		t.Fatal("harness did not complete")
	}
	if v, err := env.QueryWorkflowByID(LeaseWorkflowID(spanTestOther), QueryLease); err != nil || v.Get(&other) != nil {
		t.Fatalf("phone-2's lease query: %v", err)
	}
	return w, other, env.GetWorkflowError()
}

// A todo the plan puts on another phone leases that phone for its run
// only: it asks for phone-2 after todo 1 ended on phone-1, its steps run
// on phone-2 with phone-2's token, it gives phone-2 back when it ends,
// and todo 3 runs on phone-1 again with the goal's own token.
func TestTodoOnAnotherPhoneLeasesItForItsRunOnly(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"Read the code": {finish("482913")},
		"Type 482913":   {tap(4, 4), finish("typed")},
		"Open Clock":    {finish("open")},
	}}
	f.plans = []activities.PlanDecision{{Status: activities.PlanPlanned,
		Plan:   []string{"Read the code", "Type 482913", "Open Clock"},
		Phones: []string{"", "serial=" + spanTestOther, ""}}}
	w, other, err := runSpan(t, f, GoalInput{Goal: "Read the code on phone-1, then type it on phone phone-2", Device: leaseTestSerial,
		Options: GoalOptions{TimeZone: "UTC"}}, false)
	if err != nil {
		t.Fatalf("goal: %v", err)
	}

	serialOf := map[int]string{}
	tokenOf := map[int]int64{}
	for _, s := range f.steps {
		for i := 1; i <= 3; i++ {
			if strings.HasSuffix(s.WorkflowID, "/todo-"+string(rune('0'+i))) {
				serialOf[i] = s.In.Serial
				if s.In.LeaseToken != 0 {
					tokenOf[i] = s.In.LeaseToken
				}
			}
		}
	}
	if serialOf[1] != leaseTestSerial || serialOf[2] != spanTestOther || serialOf[3] != leaseTestSerial {
		t.Fatalf("todos ran on %v, want 1 and 3 on %s, 2 on %s", serialOf, leaseTestSerial, spanTestOther)
	}
	if other.Holder != "" || other.Token == 0 {
		t.Errorf("phone-2's lease after the goal: holder %q, token %d; want it given back after granting one token", other.Holder, other.Token)
	}
	if tokenOf[2] != other.Token {
		t.Errorf("todo 2 acted with token %d, want phone-2's grant %d", tokenOf[2], other.Token)
	}
	if tokenOf[2] == 0 {
		t.Errorf("todo 2's acting step on %s carried no lease token", spanTestOther)
	}
	var asked []string
	w.mu.Lock()
	for _, r := range w.acquires {
		if r.GoalID == "goal-b" {
			asked = append(asked, r.Serial)
			if r.Serial == spanTestOther && r.Revocable {
				t.Errorf("the lease for one todo asked as revocable: %+v", r)
			}
		}
	}
	w.mu.Unlock()
	if strings.Join(asked, ",") != leaseTestSerial+","+spanTestOther {
		t.Errorf("goal-b asked for %v, want its own phone once, then %s once", asked, spanTestOther)
	}
}

// A todo whose other phone another goal holds waits for it under the
// goal's bounded device_wait, naming that phone and its holder, then the
// goal fails naming them, without a step on that phone.
func TestTodoOnABusyOtherPhoneWaitsUnderTheBound(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{
		"Read the code": {finish("482913")},
		"Type 482913":   {tap(4, 4), finish("typed")},
	}}
	f.plans = []activities.PlanDecision{{Status: activities.PlanPlanned,
		Plan:   []string{"Read the code", "Type 482913"},
		Phones: []string{"", spanTestOther}}}
	_, err := newSpanEnv(t, f, GoalInput{Goal: "Read the code, then type it on phone phone-2", Device: leaseTestSerial,
		Options: GoalOptions{TimeZone: "UTC", DeviceWait: "10m"}}, true)
	if err == nil || !strings.Contains(err.Error(), "device "+spanTestOther+" is busy: goal goal-a") ||
		!strings.Contains(err.Error(), "device_wait of 10m0s") {
		t.Fatalf("goal-b's end = %v, want failed naming %s, goal-a and the 10m wait", err, spanTestOther)
	}
	for _, s := range f.steps {
		if s.In.Serial == spanTestOther {
			t.Fatalf("goal-b acted on %s, which goal-a held: %+v", spanTestOther, s.In)
		}
	}
	done := false
	for _, s := range f.steps {
		done = done || strings.HasSuffix(s.WorkflowID, "/todo-1")
	}
	if !done {
		t.Error("todo 1 on the goal's own phone did not run")
	}
}

// A replan that fills a read value into a todo on another phone keeps
// that todo on its phone; a todo written as before keeps its own.
func TestReplanKeepsTheRewrittenTodosPhone(t *testing.T) {
	old := []TodoState{
		{Text: "Read the latest message from Alice Chen in Messages", Status: TodoDone, Phone: "label=home"},
		{Text: "Send Bob a message with what was read", Status: TodoPending, Phone: "label=work"},
		{Text: "Turn on Bluetooth", Status: TodoPending},
	}
	for _, c := range []struct {
		plan, phones, want []string
	}{
		{[]string{"Send Bob a message: the key", "Turn on Bluetooth"}, nil, []string{"label=work", ""}},
		{[]string{"Send Bob a message with what was read", "Turn on Bluetooth"}, nil, []string{"label=work", ""}},
		{[]string{"Send Bob a message: the key", "Turn on Bluetooth"}, []string{"label=tablet", ""}, []string{"label=tablet", ""}},
		// Another number of todos: a rewritten todo takes the phone of the
		// pending todo whose words it shares; an unlike one takes none.
		{[]string{"Open Clock", "Send Bob a message: the key", "Turn on Bluetooth"}, nil, []string{"", "label=work", ""}},
		{[]string{"Open Clock", "Set an alarm for 7:00", "Turn on Bluetooth"}, nil, []string{"", "", ""}},
	} {
		if got := keepPhones(old, c.plan, c.phones); !reflect.DeepEqual(got, c.want) {
			t.Errorf("keepPhones(%q, %q) = %q, want %q", c.plan, c.phones, got, c.want)
		}
	}
}
