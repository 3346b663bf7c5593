package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestGoalWaitsForAMessage: "When Alice Chen sends a message, reply 'got
// it'" on the embedded server. The goal waits for the phone: its status
// says so, no model is called and the phone is free for another goal
// meanwhile; Alice's message arrives later, and the reply is sent once.
func TestGoalWaitsForAMessage(t *testing.T) {
	env, g := stack(t, config.ProtocolPhoneflow)
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: "When Alice Chen sends a message, reply 'got it'", Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStatus(t, g, id, 2*time.Minute, func(s workflows.Status) bool { return s.Phase == workflows.GoalWaitingPhone })
	if !strings.HasPrefix(st.WaitingFor, "waiting for a message from Alice Chen since ") || !strings.Contains(st.WaitingFor, "the phone is free meanwhile") {
		t.Fatalf("status while waiting: %q", st.WaitingFor)
	}
	calls := st.Usage.Planner.Calls + st.Usage.Executor.Calls

	// The phone is free: another goal runs on it and ends while the
	// first one waits.
	other, _, err := g.Start(ctx, goalctl.StartRequest{Goal: "Turn on Bluetooth", Device: env.Serial})
	if err != nil {
		t.Fatal(err)
	}
	if res := waitResult(t, g, other, 5*time.Minute); res.Status != workflows.GoalDone {
		t.Fatalf("the other goal on the free phone ended %s: %s", res.Status, res.Reason)
	}
	st, err = g.Status(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if st.Phase != workflows.GoalWaitingPhone || st.Usage.Planner.Calls+st.Usage.Executor.Calls != calls {
		t.Fatalf("while waiting: phase %s, model calls %d then %d", st.Phase, calls, st.Usage.Planner.Calls+st.Usage.Executor.Calls)
	}
	if n := len(env.Phone.State().MessagesSent); n != 0 {
		t.Fatalf("%d messages sent before Alice wrote", n)
	}

	env.Phone.Receive("Bob Li", "not the one you wait for")
	env.Phone.Receive("Alice Chen", "Are you there?")
	res := waitResult(t, g, id, 5*time.Minute)
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s", res.Status, res.Reason)
	}
	if res.Todos[0].Result != "Are you there?" || !res.Todos[0].Verified {
		t.Fatalf("wait todo %+v", res.Todos[0])
	}
	var replies int
	for _, m := range env.Phone.State().MessagesSent {
		if m.To == "Alice Chen" && strings.Contains(m.Text, "got it") {
			replies++
		}
	}
	if replies != 1 {
		t.Fatalf("%d replies to Alice Chen, want 1: %+v", replies, env.Phone.State().MessagesSent)
	}
	// What the wait cost in the goal's history (BENCHMARKS.md#waiting-for-the-phone): the
	// events from the first check's scheduling to the last one's end.
	h, err := history(env.Client, id)
	if err != nil {
		t.Fatal(err)
	}
	first, last, checks := -1, -1, 0
	scheduled := map[int64]bool{}
	for i, ev := range h.Events {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil && a.GetActivityType().GetName() == activities.NameCheckPhone {
			checks++
			scheduled[ev.EventId] = true
			if first < 0 {
				first = i
			}
		}
		if c := ev.GetActivityTaskCompletedEventAttributes(); c != nil && scheduled[c.GetScheduledEventId()] {
			last = i
		}
	}
	t.Logf("the wait ran %d checks in %d history events (%d events in all), %d model calls", checks, last-first+1, len(h.Events), calls)
}

// TestGoalWaitsForTheBankCode: the Bank's sign-in sends a one-time code by
// SMS; the goal signs in with the password, waits for the SMS and types
// the code it read, and the bank signs in.
func TestGoalWaitsForTheBankCode(t *testing.T) {
	env, g := stack(t, config.ProtocolPhoneflow)
	ctx := context.Background()
	id, _, err := g.Start(ctx, goalctl.StartRequest{Goal: "Sign in to the Bank app with the password hunter2, then wait for the SMS code and enter it",
		Device: env.Serial, Options: workflows.GoalOptions{AutoApprove: true}})
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	res, err := g.Result(rctx, id)
	if err != nil {
		s, _ := g.Status(ctx, id)
		t.Fatalf("goal %s did not end: %v; status %+v; phone %+v", id, err, s, env.Phone.State().Screen)
	}
	st := env.Phone.State()
	if res.Status != workflows.GoalDone || !st.BankSignedIn {
		t.Fatalf("goal ended %s (%s), signed in %t; todos %+v", res.Status, res.Reason, st.BankSignedIn, res.Todos)
	}
	var wait *workflows.TodoState
	for i := range res.Todos {
		if strings.HasPrefix(res.Todos[i].Text, "Wait for a one-time code") {
			wait = &res.Todos[i]
		}
	}
	if wait == nil || len(wait.Result) != 6 || !strings.Contains(st.Notifications[len(st.Notifications)-1].Text, wait.Result) {
		t.Fatalf("the code wait %+v; notifications %+v", wait, st.Notifications)
	}
}
