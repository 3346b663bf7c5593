package hooks

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/app"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// events keeps the events a hook or a receiver got, by goal.
type events struct {
	mu  sync.Mutex
	all []hooks.Event
}

func (e *events) add(ev hooks.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.all = append(e.all, ev)
}

// of returns a goal's events (its todos' included), each ID once, in the
// order they came.
func (e *events) of(goalID string) []hooks.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	seen := map[string]bool{}
	var out []hooks.Event
	for _, ev := range e.all {
		if (ev.GoalID == goalID || strings.HasPrefix(ev.ID, goalID+"/")) && !seen[ev.ID] {
			seen[ev.ID] = true
			out = append(out, ev)
		}
	}
	return out
}

func count(evs []hooks.Event, k hooks.Kind) int {
	n := 0
	for _, ev := range evs {
		if ev.Kind == k {
			n++
		}
	}
	return n
}

// TestHooksSeeEveryEvent runs two goals on one phone with a Go hook, a
// hook that always fails, a gate that vetoes typing "running late", and a
// webhook on loopback. The first goal ends done, each event kind seen once
// per occurrence by the Go hook and the webhook; the second's Type is
// vetoed, so its message never reaches the phone and the goal does not end
// done; its planner was shown what the first goal's verified todo taught.
func TestHooksSeeEveryEvent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	s, err := localstack.Start(ctx, localstack.Options{DataDir: t.TempDir(), ADB: localstack.AnyADB, Logger: stacktest.Logger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)

	var posted events
	var badToken int
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer hook-token" {
			posted.mu.Lock()
			badToken++
			posted.mu.Unlock()
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var ev hooks.Event
		if err := json.NewDecoder(r.Body).Decode(&ev); err != nil {
			t.Errorf("webhook body: %v", err)
			return
		}
		posted.add(ev)
	}))
	t.Cleanup(srv.Close)

	var told events
	goHook := hooks.HookFunc(func(_ context.Context, ev hooks.Event) error { told.add(ev); return nil })
	failing := hooks.HookFunc(func(context.Context, hooks.Event) error { return context.DeadlineExceeded })
	gate := hooks.GateFunc(func(_ context.Context, ev hooks.Event) (hooks.Verdict, error) {
		if strings.Contains(ev.Action, "running late") {
			return hooks.Verdict{Reason: "no late notices from this phone"}, nil
		}
		return hooks.Verdict{Allow: true}, nil
	})
	c := s.Config
	c.Hooks.URL, c.Hooks.Token = srv.URL, "hook-token"
	stop, err := s.StartWorkerOptions(ctx, c, app.WorkerOptions{Hooks: []hooks.Hook{failing, goHook}, Gates: []hooks.Gate{gate}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	phone := s.Phones[0]

	run := func(goal string) (string, workflows.GoalResult) {
		id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: goal, Device: s.Serials[0],
			Options: workflows.GoalOptions{AutoApprove: true, MaxSteps: 40, TodoMaxSteps: 12}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := s.Goals.Result(ctx, id)
		if err != nil {
			t.Fatalf("goal %s: %v", id, err)
		}
		return id, res
	}

	id1, res1 := run(`Send Alice a message saying "see you at 7"`)
	if res1.Status != workflows.GoalDone {
		t.Fatalf("goal 1 ended %s: %s (a failing hook must not fail it)", res1.Status, res1.Reason)
	}
	evs := told.of(id1)
	for _, k := range hooks.Kinds {
		if count(evs, k) == 0 {
			t.Errorf("the Go hook never saw %s in goal 1; it saw %d events", k, len(evs))
		}
	}
	for _, k := range []hooks.Kind{hooks.GoalStart, hooks.GoalEnd, hooks.Plan} {
		if n := count(evs, k); n != 1 {
			t.Errorf("goal 1: %s seen %d times, want once", k, n)
		}
	}
	if a, b := count(evs, hooks.TodoStart), count(evs, hooks.TodoEnd); a != b || a != len(res1.Todos) {
		t.Errorf("goal 1: %d todo_start, %d todo_end for %d todos", a, b, len(res1.Todos))
	}
	if a, b := count(evs, hooks.StepStart), count(evs, hooks.StepEnd); a != b {
		t.Errorf("goal 1: %d step_start, %d step_end", a, b)
	}
	if evs[0].Kind != hooks.GoalStart || evs[len(evs)-1].Kind != hooks.GoalEnd || evs[len(evs)-1].Status != workflows.GoalDone {
		t.Errorf("goal 1's events run from %s to %s (%s), want goal_start to goal_end done", evs[0].Kind, evs[len(evs)-1].Kind, evs[len(evs)-1].Status)
	}
	got := map[string]bool{}
	for _, ev := range posted.of(id1) {
		got[ev.ID] = true
	}
	for _, ev := range evs {
		if !got[ev.ID] {
			t.Errorf("the webhook did not get %s %s", ev.Kind, ev.ID)
		}
	}
	if badToken > 0 {
		t.Errorf("%d webhook calls came without the token", badToken)
	}

	id2, res2 := run(`Send Bob a message saying "running late"`)
	if res2.Status == workflows.GoalDone {
		t.Errorf("goal 2 ended done although its message was vetoed: %s", res2.Response)
	}
	st := phone.State()
	for _, m := range st.MessagesSent {
		if strings.Contains(m.Text, "running late") {
			t.Errorf("the vetoed message reached the phone: %+v", m)
		}
	}
	for _, in := range st.InputLog {
		if strings.Contains(strings.Join(in.Args, " "), "running late") {
			t.Errorf("the phone got the vetoed input %+v", in)
		}
	}
	vetoed := 0
	for _, ev := range told.of(id2) {
		if ev.Kind == hooks.BeforeAction && ev.Status == activities.ActVetoed {
			vetoed++
		}
	}
	if vetoed == 0 {
		t.Error("no vetoed before_action in goal 2")
	}

	// Goal 2's first plan request showed what goal 1's verified todo taught.
	shown := planMemory(ctx, t, s, id2)
	if !strings.Contains(strings.Join(shown, "\n"), "see you at 7") {
		t.Errorf("goal 2's planner was shown %q, want goal 1's verified todo", shown)
	}
}

// planMemory reads the memory goal id's PlanOnce was shown, from history.
func planMemory(ctx context.Context, t *testing.T, s *localstack.Stack, id string) []string {
	t.Helper()
	it := s.Client.GetWorkflowHistory(ctx, id, "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	names := map[int64]string{}
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			names[ev.GetEventId()] = a.GetActivityType().GetName()
		}
		if a := ev.GetActivityTaskCompletedEventAttributes(); a != nil && names[a.GetScheduledEventId()] == activities.NamePlanOnce {
			var d activities.PlanDecision
			if err := converter.GetDefaultDataConverter().FromPayloads(a.GetResult(), &d); err != nil {
				t.Fatal(err)
			}
			return d.Memory
		}
	}
	t.Fatalf("goal %s has no PlanOnce result", id)
	return nil
}
