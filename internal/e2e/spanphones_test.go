package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/workflows"
)

// A goal that spans phones on a real stack (embedded Temporal, the
// worker, two simulated phones labelled home and work;
// docs/design.md#goals-that-span-phones): the message read on the home
// phone is sent from the work phone, once, and the home phone sends
// nothing.
func TestGoalReadsOnOnePhoneAndSendsFromAnother(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s, addrs := startFleet(t, ctx, 2, func(a []string) []string { return []string{a[0] + "=home", a[1] + "=work"} },
		labelled(map[string]int{"home": 1, "work": 1}))
	const text = "The spare key is under the blue pot"
	home, work := s.Phones[0], s.Phones[1]
	home.Receive("Alice Chen", text)
	goal := "Read the latest message from Alice Chen on the phone labelled home, then send it to Bob on the phone labelled work"
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: addrs[0]})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Goals.Result(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != workflows.GoalDone {
		t.Fatalf("goal ended %s: %s (%s); todos %+v", res.Status, res.Reason, res.Response, res.Todos)
	}
	if len(res.Todos) != 2 {
		t.Fatalf("todos = %+v, want the read and the send", res.Todos)
	}
	for i, want := range addrs {
		if td := res.Todos[i]; td.Status != workflows.TodoDone || td.Device != want {
			t.Errorf("todo %d %q ended %s on %q, want done on %s", i+1, td.Text, td.Status, td.Device, want)
		}
	}
	if r := res.Todos[0].Result; !strings.Contains(r, text) {
		t.Errorf("the read todo's result = %q, want Alice's message", r)
	}
	if sent := work.State().MessagesSent; len(sent) != 1 || !strings.HasPrefix(sent[0].To, "Bob") || sent[0].Text != text {
		t.Errorf("work phone sent %+v, want exactly one %q to Bob", sent, text)
	}
	if sent := home.State().MessagesSent; len(sent) != 0 {
		t.Errorf("home phone sent %+v, want nothing", sent)
	}
}
