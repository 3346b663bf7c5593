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
)

// A person's actions while the goal asks run as PersonAct activities on
// the phone's queue, in order, each recorded as the person's; one sent
// while the goal asks nothing, or that is malformed, is refused with a
// reason and never reaches the phone.
func TestPersonActionRunsWhileTheGoalAsks(t *testing.T) {
	f := &fakeWorld{scripts: map[string][]autoglm.Action{"sign in": {takeOver("please sign in"), finish("signed in")}}}
	env := newEnv(t, f)
	var mu sync.Mutex
	var ran []activities.PersonActInput
	var queues []string
	env.RegisterActivityWithOptions(func(ctx context.Context, in activities.PersonActInput) (activities.PersonActResult, error) {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, in)
		queues = append(queues, activity.GetInfo(ctx).TaskQueue)
		return activities.PersonActResult{By: "person", Did: in.Action.Describe()}, nil
	}, activity.RegisterOptions{Name: activities.NamePersonAct})

	early := &updateResult{}
	var bad, wrongKind *updateResult
	env.RegisterDelayedCallback(func() {
		early = update(env, UpdatePersonAction, PersonAction{Kind: activities.PersonTap, X: 1, Y: 1})
	}, 0)
	// One at a time, as the step viewer sends them.
	for i, a := range []PersonAction{
		{Kind: activities.PersonTap, X: 540, Y: 1200},
		{Kind: activities.PersonType, Chars: 8, Sealed: "0123456789abcdef0123456789abcdef"},
		{Kind: activities.PersonBack},
	} {
		env.RegisterDelayedCallback(func() { mustUpdate(t, env, UpdatePersonAction, a) }, time.Minute+time.Duration(i)*10*time.Second)
	}
	env.RegisterDelayedCallback(func() {
		bad = update(env, UpdatePersonAction, PersonAction{Kind: activities.PersonType})
		wrongKind = update(env, UpdatePersonAction, PersonAction{Kind: "shake"})
	}, 90*time.Second)
	env.RegisterDelayedCallback(func() { mustUpdate(t, env, SignalClarify, "done it myself") }, 2*time.Minute)
	r := runGoal(t, env, GoalInput{Goal: "sign in", Device: "emu-1", Options: GoalOptions{Plan: []string{"sign in"}}})
	if r.Status != GoalDone {
		t.Fatalf("result = %+v", r)
	}
	if early.Err() == nil || !strings.Contains(early.Err().Error(), "not waiting for a person") {
		t.Fatalf("action before the question: %v", early.Err())
	}
	if bad.Err() == nil || !strings.Contains(bad.Err().Error(), "type needs the text") {
		t.Fatalf("type without text: %v", bad.Err())
	}
	if wrongKind.Err() == nil || !strings.Contains(wrongKind.Err().Error(), "use tap, swipe, type, back or home") {
		t.Fatalf("unknown kind: %v", wrongKind.Err())
	}
	var did []string
	for i, in := range ran {
		did = append(did, in.Action.Describe())
		if in.GoalID != testGoalID || in.Serial != "emu-1" || queues[i] != DeviceTaskQueue("emu-1") {
			t.Errorf("action %d ran as %+v on %s", i, in, queues[i])
		}
	}
	if got := strings.Join(did, "; "); got != "tapped (540, 1200); typed 8 characters; pressed Back" {
		t.Fatalf("the phone got %q", got)
	}
	if acts := f.acts(); len(acts) != 0 {
		t.Fatalf("the executor acted too: %v", acts)
	}
}
