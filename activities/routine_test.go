package activities

import (
	"context"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/routine"
)

func TestRoutineRecordFindAndReplay(t *testing.T) {
	a, p, m := newActivities(t, `<think>the model looks</think><answer>do(action="Back")</answer>`)
	store, err := routine.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a.Routines = store
	ctx := context.Background()
	task := `Turn on Wi-Fi for "Home"`

	// A verified todo records its trace: the Wi-Fi screen, a tap on the switch, a finish.
	obs, err := a.Observe(ctx, ObserveInput{Serial: "fake-1", UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	found, err := a.FindRoutine(ctx, FindRoutineInput{Serial: "fake-1", Task: task})
	if err != nil || found.ID != "" || found.Key.Width != 1080 || found.Key.App != "com.android.settings" {
		t.Fatalf("before any routine: %+v %v", found, err)
	}
	tapWiFi := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 212}}
	rec, err := a.RecordRoutine(ctx, RecordRoutineInput{Key: found.Key, Task: found.Task, Example: task, Success: true,
		Trace: []TraceStep{{Screen: obs, Action: tapWiFi}, {Screen: obs, Action: autoglm.Action{Name: autoglm.ActionFinish, Message: "Wi-Fi is on"}}}})
	if err != nil || !rec.Created || rec.Steps != 2 {
		t.Fatalf("record: %+v %v", rec, err)
	}

	// The same task finds it, made concrete.
	found, err = a.FindRoutine(ctx, FindRoutineInput{Serial: "fake-1", Task: task})
	if err != nil || found.ID != rec.ID || len(found.Steps) != 2 {
		t.Fatalf("find: %+v %v", found, err)
	}

	// The screen matches: the step is replayed without a model call.
	res, err := a.Step(ctx, StepInput{Serial: "fake-1", Task: task, UITree: true, Think: true, Replay: &found.Steps[0]})
	if err != nil || res.Think == nil || !res.Think.Replayed || res.Think.Action != autoglm.FormatAction(tapWiFi) || res.Think.HistoryRef == "" {
		t.Fatalf("replay: %+v %v", res.Think, err)
	}
	if len(m.reqs) != 0 {
		t.Fatalf("the replay asked the model %d times", len(m.reqs))
	}
	// Another screen (the phone's pixels and tree are the same, but the
	// recorded fingerprint is another screen's): the model decides.
	other := found.Steps[0]
	other.Screen = "tree:com.android.settings:0000"
	res, err = a.Step(ctx, StepInput{Serial: "fake-1", Task: task, UITree: true, Think: true, Replay: &other})
	if err != nil || res.Think.Replayed || !strings.Contains(res.Think.ReplayMiss, "differs from the recorded one") || len(m.reqs) != 1 {
		t.Fatalf("mismatch: %+v %v (model calls %d)", res.Think, err, len(m.reqs))
	}

	// A phone with another resolution is not offered the routine, and is told why.
	p.w = 720
	found, err = a.FindRoutine(ctx, FindRoutineInput{Serial: "fake-1", Task: task})
	if err != nil || found.ID != "" || len(found.Steps) != 0 || !strings.Contains(found.Note, "recorded on") ||
		!strings.Contains(found.Note, "1080x2400") || !strings.Contains(found.Note, "720x2400: not used") {
		t.Fatalf("another resolution: %+v %v", found, err)
	}
}

// A replay stops where the action it replayed did not go through: a
// routine recorded in one conversation, replayed in another, has its Send
// refused, and the model decides the rest.
func TestReplayStopsAtARefusedAction(t *testing.T) {
	for _, c := range []struct {
		act  *ActResult
		stop string
	}{
		{nil, ""},
		{&ActResult{Result: "ok", Touched: true}, ""},
		{&ActResult{Result: ActAlreadyApplied}, ""},
		{&ActResult{Result: `refused: this conversation is with "Bob Li", but the todo sends to "Alice Chen"`,
			Refused: `this conversation is with "Bob Li", but the todo sends to "Alice Chen"`}, "refused"},
		{&ActResult{Result: "vetoed", Vetoed: "the hook said no"}, "vetoed"},
		{&ActResult{Result: "no element at that point"}, "failed"},
		{&ActResult{Result: "ADB Keyboard missing", NeedsHuman: "install the ADB Keyboard"}, "needs a person"},
	} {
		got := replayStops(c.act)
		if (c.stop == "") != (got == "") || !strings.Contains(got, c.stop) {
			t.Errorf("replayStops(%+v) = %q, want one naming %q", c.act, got, c.stop)
		}
	}
}
