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
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/fleet"
	"github.com/phoneflow/phoneflow/internal/llm"
)

// chooseUsage is what the fake planner reports for one phone choice.
var chooseUsage = llm.Usage{Calls: 1, InputTokens: 300, OutputTokens: 20, LatencyMS: 200}

// fakeChooser lists a fleet of two phones (after `empty` empty looks) and
// answers ChoosePhone with answer; PickPhone takes the serial it is asked
// for, held by goal-a when held is set.
type fakeChooser struct {
	mu     sync.Mutex
	empty  int
	answer activities.ChoosePhoneResult
	held   bool
	lists  []activities.ListFleetInput
	asked  []activities.ChoosePhoneInput
	picked []activities.PickPhoneInput
}

func (c *fakeChooser) register(env interface {
	RegisterActivityWithOptions(any, activity.RegisterOptions)
}) {
	env.RegisterActivityWithOptions(c.ListFleet, activity.RegisterOptions{Name: activities.NameListFleet})
	env.RegisterActivityWithOptions(c.ChoosePhone, activity.RegisterOptions{Name: activities.NameChoosePhone})
	env.RegisterActivityWithOptions(c.PickPhone, activity.RegisterOptions{Name: activities.NamePickPhone})
}

func (c *fakeChooser) ListFleet(_ context.Context, in activities.ListFleetInput) (activities.ListFleetResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lists = append(c.lists, in)
	if len(c.lists) <= c.empty {
		return activities.ListFleetResult{Why: "no worker has published a phone: start a worker on a host with phones"}, nil
	}
	return activities.ListFleetResult{Phones: []activities.FleetEntry{
		{Phone: fleet.Phone{Serial: "emu-1", Labels: []string{"shop"}, Facts: device.Facts{Model: "Pixel 7", Android: "14"}}, Served: true, Free: true},
		{Phone: fleet.Phone{Serial: "emu-2", Labels: []string{"shop", "till"}, Facts: device.Facts{Model: "Pixel 8", Android: "15", Apps: []string{"Messages"}}},
			Served: true, ReservedBy: "goal-a"},
	}}, nil
}

func (c *fakeChooser) ChoosePhone(_ context.Context, in activities.ChoosePhoneInput) (activities.ChoosePhoneResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked = append(c.asked, in)
	return c.answer, nil
}

func (c *fakeChooser) PickPhone(_ context.Context, in activities.PickPhoneInput) (activities.PickPhoneResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.picked = append(c.picked, in)
	if c.held {
		return activities.PickPhoneResult{Serial: in.Selector.Serial, Matching: 1, Served: 1, ReservedBy: "goal-a"}, nil
	}
	return activities.PickPhoneResult{Serial: in.Selector.Serial, Free: true, Matching: 1, Served: 1}, nil
}

// A goal whose planner picks its phone lists the fleet with each phone's
// facts and state (ListFleet), asks the planner, then picks the serial it chose as
// --on serial=S does: its todos drive that phone, its status and result
// say which phone and why, and the choice counts in the planner's usage.
func TestPlannerPicksTheGoalsPhone(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}
	env := newEnv(t, f)
	c := &fakeChooser{empty: 1, held: true,
		answer: activities.ChoosePhoneResult{Serial: "emu-2", Reason: "the goal names the label till", Usage: chooseUsage}}
	c.register(env)
	var during Status
	env.RegisterDelayedCallback(func() { during = status(t, env) }, 2*time.Second)
	r := runGoal(t, env, GoalInput{Goal: "wifi on the phone labelled till", On: &fleet.Selector{Planner: true}, Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if !strings.Contains(during.WaitingFor, "waiting for a phone the planner chooses since") || !strings.Contains(during.WaitingFor, "start a worker") {
		t.Errorf("status while the fleet was empty = %q, want what it waits for and the fix", during.WaitingFor)
	}
	want := "on phone emu-2, chosen by the planner: the goal names the label till; reserved by goal goal-a when picked: waiting for it"
	after := status(t, env)
	if after.Device != "emu-2" || after.Picked != want || r.Picked != want {
		t.Errorf("status after the choice = device %q, picked %q, result picked %q; want emu-2, %q", after.Device, after.Picked, r.Picked, want)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.lists) != 2 || c.lists[1].GoalID != testGoalID || c.lists[1].LeasePrefix != LeaseWorkflowIDPrefix || c.lists[1].QueuePrefix != DeviceTaskQueuePrefix {
		t.Errorf("ListFleet asked %+v, want two looks naming the goal, queues and leases", c.lists)
	}
	if len(c.asked) != 1 || c.asked[0].Goal != "wifi on the phone labelled till" || len(c.asked[0].Phones) != 2 || c.asked[0].Phones[1].Phone.Facts.Model != "Pixel 8" {
		t.Errorf("ChoosePhone asked %+v, want the goal and both phones with their facts", c.asked)
	}
	if len(c.picked) != 1 || c.picked[0].Selector != (fleet.Selector{Serial: "emu-2"}) {
		t.Errorf("PickPhone asked %+v, want the planner's serial", c.picked)
	}
	// The same goal given its phone makes the other planner calls.
	given := runGoal(t, newEnv(t, &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {tap(500, 212), finish("wifi on")}}}),
		GoalInput{Goal: "wifi on the phone labelled till", Device: "emu-2", Options: GoalOptions{Plan: []string{"wifi"}}})
	if want := given.Usage.Planner.Add(chooseUsage); r.Usage.Planner != want {
		t.Errorf("planner usage %+v, want %+v: the choice's call counted with the others", r.Usage.Planner, want)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.queues) == 0 {
		t.Fatal("no step ran")
	}
	for _, q := range f.queues {
		if strings.TrimPrefix(q, "verify:") != DeviceTaskQueue("emu-2") {
			t.Fatalf("a step ran on task queue %q, want every step on the chosen phone's %s", q, DeviceTaskQueue("emu-2"))
		}
	}
}

// A planner whose answer named no listed phone, twice, ends the goal
// failed saying so and naming the fix; no phone is picked or driven.
func TestPlannerNamingNoPhoneFailsTheGoal(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	env := newEnv(t, f)
	c := &fakeChooser{answer: activities.ChoosePhoneResult{Invalid: `"serial" is "emu-9", which is none of the listed phones: answer with one of emu-1, emu-2`, Usage: chooseUsage}}
	c.register(env)
	r := runGoal(t, env, GoalInput{Goal: "wifi", On: &fleet.Selector{Planner: true}, Options: GoalOptions{Plan: []string{"wifi"}}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "the planner named no phone of the fleet") || !strings.Contains(r.Reason, "emu-9") ||
		!strings.Contains(r.NextStep, "--on serial=") {
		t.Fatalf("result = %+v, want failed naming the answer and the fix", r)
	}
	if r.Usage.Planner.Calls != 1 {
		t.Errorf("planner usage %+v, want the rejected choice counted", r.Usage.Planner)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.picked) != 0 {
		t.Errorf("PickPhone ran after an invalid choice: %+v", c.picked)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.queues) != 0 {
		t.Errorf("steps ran without a phone: %v", f.queues)
	}
}

// A fleet that lists no phone past device_wait_deadline fails the goal,
// saying what it waited for; the planner is never asked.
func TestPlannerPicksWaitsForAFleetThenFails(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"wifi": {finish("wifi on")}}}
	env := newEnv(t, f)
	c := &fakeChooser{empty: 1 << 30}
	c.register(env)
	r := runGoal(t, env, GoalInput{Goal: "wifi", On: &fleet.Selector{Planner: true},
		Options: GoalOptions{Plan: []string{"wifi"}, DeviceWaitDeadline: time.Minute}})
	if r.Status != GoalFailed || !strings.Contains(r.Reason, "waited 1m0s for a phone the planner chooses") || !strings.Contains(r.Reason, "no worker has published a phone") {
		t.Fatalf("result = %+v, want failed naming the wait", r)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.asked) != 0 || len(c.lists) < 2 {
		t.Errorf("asked the planner %d times after %d looks, want none after several", len(c.asked), len(c.lists))
	}
}
