package workflows

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// fanOutPhones is a fleet of five shop phones: one served only by no
// worker; the others' goals end as their serial says.
var fanOutPhones = activities.FleetPhonesResult{Phones: []activities.FleetPhone{
	{Serial: "ok-1", Labels: []string{"shop"}, Served: true},
	{Serial: "ok-2", Labels: []string{"shop"}, Served: true},
	{Serial: "broken", Labels: []string{"shop"}, Served: true},
	{Serial: "locked", Labels: []string{"shop"}, Served: true},
	{Serial: "gone", Labels: []string{"shop"}, Served: false, Why: "no worker serves phone gone: start the worker of its host"},
}}

// fanOutWorld plays the goals of a fan-out: each runs a minute, then ends
// as its phone's serial says; it counts the goals running at once.
type fanOutWorld struct {
	mu           sync.Mutex
	running, max int
	started      []string
	listed       []activities.FleetPhonesInput
}

func (w *fanOutWorld) FleetPhones(_ context.Context, in activities.FleetPhonesInput) (activities.FleetPhonesResult, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.listed = append(w.listed, in)
	if len(in.Serials) == 0 {
		return fanOutPhones, nil
	}
	var out activities.FleetPhonesResult
	for _, s := range in.Serials {
		for _, p := range fanOutPhones.Phones {
			if p.Serial == s {
				out.Phones = append(out.Phones, p)
			}
		}
	}
	return out, nil
}

func (w *fanOutWorld) goal(ctx workflow.Context, in GoalInput) (GoalResult, error) {
	w.mu.Lock()
	w.running++
	w.max = max(w.max, w.running)
	w.started = append(w.started, workflow.GetInfo(ctx).WorkflowExecution.ID+" "+in.Device+" "+in.Goal)
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.running--
		w.mu.Unlock()
	}()
	if err := workflow.Sleep(ctx, time.Minute); err != nil {
		return GoalResult{}, err
	}
	fail := func(r GoalResult) (GoalResult, error) {
		return GoalResult{}, temporal.NewApplicationErrorWithOptions("goal failed: "+r.Reason, ErrTypeGoalFailed,
			temporal.ApplicationErrorOptions{NonRetryable: true, Details: []any{r}})
	}
	switch in.Device {
	case "broken":
		return fail(GoalResult{Status: GoalFailed, Steps: 7, Reason: "todo 1: the notification shade did not open"})
	case "locked":
		un := &unansweredError{What: "question", Text: "the phone is locked: unlock it", Deadline: time.Hour}
		return fail(GoalResult{Status: GoalFailed, Steps: 1, Reason: un.Error(), NextStep: un.nextStep()})
	}
	return GoalResult{Status: GoalDone, Steps: 4, Response: "cleared on " + in.Device}, nil
}

func newFanOutEnv(t *testing.T, w *fanOutWorld) *testsuite.TestWorkflowEnvironment {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(FanOutWorkflow, workflow.RegisterOptions{Name: FanOutWorkflowName})
	env.RegisterWorkflowWithOptions(w.goal, workflow.RegisterOptions{Name: GoalWorkflowName})
	env.RegisterActivityWithOptions(w.FleetPhones, activity.RegisterOptions{Name: activities.NameFleetPhones})
	return env
}

// A fan-out over a label starts one goal per served phone, two at once,
// and ends with every phone's outcome: done, failed with its reason,
// asked for the locked phone whose question nobody answered, unserved for
// the phone no worker serves (no goal started there). None of these
// stops the others; the fan-out then closes as Failed, naming the summary,
// with the whole status as the failure's details.
func TestFanOutRunsOneGoalPerPhoneAndSummarisesEach(t *testing.T) {
	w := &fanOutWorld{}
	env := newFanOutEnv(t, w)
	var during FanOutStatus
	env.RegisterDelayedCallback(func() {
		v, err := env.QueryWorkflow(QueryFanOut)
		if err != nil {
			t.Errorf("query: %v", err)
			return
		}
		_ = v.Get(&during)
	}, 90*time.Second)
	env.ExecuteWorkflow(FanOutWorkflow, FanOutInput{Goal: "Clear notifications", On: fleet.Selector{Label: "shop"}, Parallel: 2})
	var st FanOutStatus
	ferr := env.GetWorkflowError()
	var ae *temporal.ApplicationError
	if !errors.As(ferr, &ae) || ae.Type() != ErrTypeFanOutFailed || !ae.NonRetryable() {
		t.Fatalf("fan-out closed with %v, want a non-retryable %s", ferr, ErrTypeFanOutFailed)
	}
	wantMsg := "2 of 5 phones done; failed: broken (todo 1: the notification shade did not open); asked: locked ("
	if !strings.Contains(ae.Message(), wantMsg) || !strings.Contains(ae.Message(), "; unserved: gone (no worker serves phone gone") {
		t.Errorf("failure message = %q, want the summary %q…", ae.Message(), wantMsg)
	}
	st, err := FanOutOutcome(st, ferr)
	if err != nil {
		t.Fatalf("the failure carries no status: %v", err)
	}
	want := map[string]string{"ok-1": PhoneDone, "ok-2": PhoneDone, "broken": PhoneFailed, "locked": PhoneAsked, "gone": PhoneUnserved}
	if len(st.Phones) != len(want) {
		t.Fatalf("phones = %+v, want %d", st.Phones, len(want))
	}
	for _, p := range st.Phones {
		if p.Status != want[p.Serial] {
			t.Errorf("%s: status %s, want %s (%+v)", p.Serial, p.Status, want[p.Serial], p)
		}
	}
	if st.Phase != PhoneFailed {
		t.Errorf("phase = %s, want failed: not every phone is done", st.Phase)
	}
	byS := map[string]PhoneOutcome{}
	for _, p := range st.Phones {
		byS[p.Serial] = p
	}
	if p := byS["broken"]; p.Steps != 7 || !strings.Contains(p.Reason, "shade did not open") {
		t.Errorf("broken = %+v, want its steps and reason", p)
	}
	if p := byS["locked"]; !strings.Contains(p.Reason, "the phone is locked") {
		t.Errorf("locked = %+v, want the unanswered question as the reason", p)
	}
	if p := byS["gone"]; p.GoalID != "" || !strings.Contains(p.Reason, "start the worker") {
		t.Errorf("gone = %+v, want no goal and the fix", p)
	}
	if p := byS["ok-1"]; p.GoalID != FanOutChildID("default-test-workflow-id", "ok-1") || p.Response != "cleared on ok-1" {
		t.Errorf("ok-1 = %+v", p)
	}
	if len(w.started) != 4 || w.max != 2 {
		t.Errorf("goals started %v with %d at once, want 4 with at most --parallel 2", w.started, w.max)
	}
	if during.Phase != "running" || during.Count(PhoneRunning) != 2 || during.Count(PhoneDone) != 2 {
		t.Errorf("status while running = %+v, want two done and two running at 90s", during)
	}
	if len(w.listed) != 1 || w.listed[0].QueuePrefix != DeviceTaskQueuePrefix || w.listed[0].Selector.Label != "shop" {
		t.Errorf("listed %+v", w.listed)
	}
	var retry []string
	for _, p := range st.Phones {
		if p.Retry() {
			retry = append(retry, p.Serial)
		}
	}
	if strings.Join(retry, " ") != "broken locked gone" {
		t.Errorf("a retry runs %v, want the three not done", retry)
	}
}

// A retry runs only the serials it is given, whatever the label
// matches now.
func TestFanOutRetryRunsOnlyTheGivenPhones(t *testing.T) {
	w := &fanOutWorld{}
	env := newFanOutEnv(t, w)
	env.ExecuteWorkflow(FanOutWorkflow, FanOutInput{Goal: "Clear notifications", On: fleet.Selector{Label: "shop"},
		Serials: []string{"ok-2"}, RetryOf: "fanout-1"})
	var st FanOutStatus
	if err := env.GetWorkflowResult(&st); err != nil {
		t.Fatal(err)
	}
	if len(st.Phones) != 1 || st.Phones[0].Status != PhoneDone || st.Phase != PhoneDone {
		t.Fatalf("retry = %+v, want ok-2 done and the fan-out done", st)
	}
	if len(w.listed) != 1 || strings.Join(w.listed[0].Serials, ",") != "ok-2" {
		t.Errorf("listed %+v", w.listed)
	}
}

// A fan-out with no phone of its kind ends failed, saying why.
func TestFanOutWithNoPhoneSaysWhy(t *testing.T) {
	w := &fanOutWorld{}
	env := newFanOutEnv(t, w)
	env.OnActivity(activities.NameFleetPhones, mock.Anything, mock.Anything).Return(activities.FleetPhonesResult{Why: "none of the fleet's 3 phones is a phone labelled till"}, nil)
	env.ExecuteWorkflow(FanOutWorkflow, FanOutInput{Goal: "Clear notifications", On: fleet.Selector{Label: "till"}})
	ferr := env.GetWorkflowError()
	st, err := FanOutOutcome(FanOutStatus{}, ferr)
	if err != nil || ferr == nil {
		t.Fatalf("closed with %v, want Failed with the status", ferr)
	}
	if st.Phase != PhoneFailed || len(st.Phones) != 0 || !strings.Contains(st.Why, "labelled till") {
		t.Fatalf("status = %+v", st)
	}
	if !strings.Contains(ferr.Error(), "fan-out failed: none of the fleet's 3 phones is a phone labelled till") {
		t.Errorf("failure = %v, want why there were no phones", ferr)
	}
}

// A fan-out that recorded no fan-out-fails marker completes with phase
// failed in its result, as it did before the change.
func TestFanOutBeforeFanOutFailsCompletes(t *testing.T) {
	w := &fanOutWorld{}
	env := newFanOutEnv(t, w)
	env.OnGetVersion(ChangeFanOutFails, workflow.DefaultVersion, 1).Return(workflow.DefaultVersion)
	env.ExecuteWorkflow(FanOutWorkflow, FanOutInput{Goal: "Clear notifications", On: fleet.Selector{Label: "shop"}, Serials: []string{"ok-1", "broken"}})
	var st FanOutStatus
	if err := env.GetWorkflowResult(&st); err != nil {
		t.Fatalf("fan-out: %v, want it completed", err)
	}
	if st.Phase != PhoneFailed || st.Count(PhoneDone) != 1 || st.Count(PhoneFailed) != 1 {
		t.Fatalf("status = %+v, want one done, one failed, phase failed", st)
	}
}
