package workflows

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// fakeFleet answers PickPhone: none of the kind is served for the first
// `none` looks, then emu-2.
type fakeFleet struct {
	mu    sync.Mutex
	none  int
	asked []activities.PickPhoneInput
}

func (f *fakeFleet) PickPhone(_ context.Context, in activities.PickPhoneInput) (activities.PickPhoneResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, in)
	if len(f.asked) <= f.none {
		return activities.PickPhoneResult{Matching: 1, Why: "no worker serves the 1 phones that are a phone labelled shop: start the worker of their host"}, nil
	}
	return activities.PickPhoneResult{Serial: "emu-2", Labels: []string{"shop"}, Free: true, Matching: 2, Served: 1}, nil
}

// A goal started with --on label=shop waits, saying for what, while no
// such phone is served, then runs on the phone PickPhone chose: its todos
// drive that phone and its status says how it was chosen.
func TestGoalPicksAPhoneOfTheKindItNeeds(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	ff := &fakeFleet{none: 2}
	env.RegisterActivityWithOptions(ff.PickPhone, activity.RegisterOptions{Name: activities.NamePickPhone})
	var during Status
	env.RegisterDelayedCallback(func() { during = status(t, env) }, 7*time.Second)
	r := runGoal(t, env, GoalInput{Goal: "wifi", On: &fleet.Selector{Label: "shop"}, Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(during.WaitingFor, "waiting for a phone labelled shop since") || !strings.Contains(during.WaitingFor, "start the worker") {
		t.Errorf("status while no such phone was served = %q, want what it waits for and the fix", during.WaitingFor)
	}
	after := status(t, env)
	if after.Device != "emu-2" || after.Picked != "on phone emu-2 (label shop) for --on label=shop" || after.WaitingFor != "" {
		t.Errorf("status after the pick = device %q, picked %q, waiting %q", after.Device, after.Picked, after.WaitingFor)
	}
	if len(ff.asked) != 3 || ff.asked[0].QueuePrefix != DeviceTaskQueuePrefix || ff.asked[0].LeasePrefix != LeaseWorkflowIDPrefix || ff.asked[0].GoalID != testGoalID {
		t.Errorf("PickPhone asked %+v, want three looks naming the queues and leases as the workflows do", ff.asked)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.queues) == 0 {
		t.Fatal("no step ran")
	}
	for _, q := range f.queues {
		if strings.TrimPrefix(q, "verify:") != DeviceTaskQueue("emu-2") {
			t.Fatalf("a step ran on task queue %q, want every step on the picked phone's %s", q, DeviceTaskQueue("emu-2"))
		}
	}
}

// Past device_wait_deadline with no phone of the kind the goal fails,
// saying what it waited for and what to do.
func TestGoalWithNoPhoneOfItsKindFailsNamingTheFix(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	env := newEnv(t, f)
	ff := &fakeFleet{none: 1 << 30}
	env.RegisterActivityWithOptions(ff.PickPhone, activity.RegisterOptions{Name: activities.NamePickPhone})
	r := runGoal(t, env, GoalInput{Goal: "wifi", On: &fleet.Selector{Label: "shop"},
		Options: GoalOptions{Plan: []string{"wifi"}, DeviceWaitDeadline: time.Minute}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "waited 1m0s for a phone labelled shop") || !strings.Contains(r.NextStep, "adb.labels") {
		t.Fatalf("result = %+v, want failed naming the wait and the fix", r)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.queues) != 0 {
		t.Errorf("steps ran without a phone: %v", f.queues)
	}
}
