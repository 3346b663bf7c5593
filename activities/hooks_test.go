package activities

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/hooks"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// recorder is a hook that keeps the kinds it was told.
type recorder struct {
	mu    sync.Mutex
	kinds []hooks.Kind
}

func (r *recorder) Handle(_ context.Context, ev hooks.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.kinds = append(r.kinds, ev.Kind)
	return nil
}

func (r *recorder) got() []hooks.Kind {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.kinds)
}

func deny(reason string) hooks.Gate {
	return hooks.GateFunc(func(context.Context, hooks.Event) (hooks.Verdict, error) {
		return hooks.Verdict{Reason: reason}, nil
	})
}

// TestVetoedActionNeverReachesThePhone: a gate's veto is the action's
// result, nothing is typed, and the journal keeps the veto so a retry of
// the step returns it without asking the gate again.
func TestVetoedActionNeverReachesThePhone(t *testing.T) {
	a, p := newJournalled(t)
	asked := 0
	a.Hooks = &hooks.Set{Gates: []hooks.Gate{hooks.GateFunc(func(_ context.Context, ev hooks.Event) (hooks.Verdict, error) {
		asked++
		if ev.Kind != hooks.BeforeAction || ev.Action == "" {
			t.Errorf("gate asked with %+v", ev)
		}
		return hooks.Verdict{Reason: "no messages to Mom today"}, nil
	})}}
	before := observeTree(t, a)
	typ := autoglm.Action{Name: autoglm.ActionType, Text: "see you at 6"}
	for i := range 2 {
		res, err, _ := stepAct(t, a, typ, "goal/todo-1/run/3", before, false)
		if err != nil || res.Act == nil || res.Act.Vetoed != "no messages to Mom today" {
			t.Fatalf("try %d: %+v, %v", i+1, res.Act, err)
		}
	}
	if got := p.got(); len(got) != 0 {
		t.Errorf("the phone got %v after a veto", got)
	}
	if asked != 1 {
		t.Errorf("the gate was asked %d times, want once: the journal keeps the veto", asked)
	}
}

// TestSilentGateTakesTheDefault: a gate that does not answer in time, or
// fails, counts as hooks.default; a failing hook never fails the step.
func TestSilentGateTakesTheDefault(t *testing.T) {
	slow := hooks.GateFunc(func(ctx context.Context, _ hooks.Event) (hooks.Verdict, error) {
		<-ctx.Done()
		return hooks.Verdict{}, ctx.Err()
	})
	broken := hooks.HookFunc(func(context.Context, hooks.Event) error { return errors.New("receiver down") })
	for _, denyByDefault := range []bool{false, true} {
		a, p, _ := newActivities(t, tapAnswer)
		rec := &recorder{}
		a.Hooks = &hooks.Set{Hooks: []hooks.Hook{broken, rec}, Gates: []hooks.Gate{slow},
			Timeout: 50 * time.Millisecond, DenyByDefault: denyByDefault}
		act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
		res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Act: &act, Width: 1080, Height: 2400})
		if err != nil {
			t.Fatalf("deny=%v: the step failed: %v", denyByDefault, err)
		}
		sent := len(p.got()) == 1
		if sent == denyByDefault || (res.Act.Vetoed != "") != denyByDefault {
			t.Errorf("deny=%v: sent %v, act %+v", denyByDefault, sent, res.Act)
		}
		if got := rec.got(); !slices.Equal(got, []hooks.Kind{hooks.StepStart, hooks.BeforeAction, hooks.StepEnd}) {
			t.Errorf("deny=%v: the hook after a failing one was told %v", denyByDefault, got)
		}
	}
}

// TestGateNotAskedForLooks: an action that does not touch the phone (a
// Wait) and a step that only looks ask no gate.
func TestGateNotAskedForLooks(t *testing.T) {
	a, _, _ := newActivities(t)
	a.Hooks = &hooks.Set{Gates: []hooks.Gate{deny("no")}}
	act := autoglm.Action{Name: autoglm.ActionWait, Duration: "1 seconds"}
	res, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Act: &act})
	if err != nil || res.Act == nil || res.Act.Vetoed != "" {
		t.Fatalf("a Wait was vetoed: %+v, %v", res.Act, err)
	}
}
