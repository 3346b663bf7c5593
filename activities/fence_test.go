package activities

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// fencedTap runs a Step that taps for goal with token under id.
func fencedTap(a *Activities, goal string, token int64, id string) error {
	act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	_, err := a.Step(context.Background(), StepInput{Serial: "fake-1", Task: "t", Act: &act, ActionID: id, GoalID: goal, LeaseToken: token})
	return err
}

func wantLeaseLost(t *testing.T, err error, says ...string) {
	t.Helper()
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != ErrTypePhoneLeaseLost || !app.NonRetryable() {
		t.Fatalf("err = %v, want a non-retryable %s", err, ErrTypePhoneLeaseLost)
	}
	for _, s := range says {
		if !strings.Contains(app.Message(), s) {
			t.Errorf("error %q does not say %q", app.Message(), s)
		}
	}
}

// A goal's action under an older grant's token is refused once a goal
// granted the phone later has acted on it (docs/design.md §5): nothing
// reaches the phone, the error names both tokens, and it is not retried.
// The refusal survives a worker restart (a journal opened again) and
// compaction; a newer grant acts.
func TestStaleLeaseTokenRefusedAfterANewerGrant(t *testing.T) {
	a, p := newJournalled(t)
	a.Journal.Keep = 2
	if err := fencedTap(a, "goal-a", 100, "a/1"); err != nil {
		t.Fatal(err)
	}
	if err := fencedTap(a, "goal-b", 200, "b/1"); err != nil {
		t.Fatal(err)
	}
	wantLeaseLost(t, fencedTap(a, "goal-a", 100, "a/2"), "goal goal-a", "lease token 100", "recorded token 200")
	// A goal granted before fencing tokens is refused too once a token
	// was seen (fails closed).
	wantLeaseLost(t, fencedTap(a, "goal-c", 0, "c/1"), "no lease token")
	if n := len(p.got()); n != 2 {
		t.Fatalf("the phone got %d inputs, want the 2 fenced in: %v", n, p.got())
	}
	// A retry of goal-a's first action is refused too, before its recorded
	// result: the goal asks for the phone again first.
	wantLeaseLost(t, fencedTap(a, "goal-a", 100, "a/1"))

	// Enough actions for the journal to compact (2×Keep records).
	for i, id := range []string{"b/2", "b/3", "b/4"} {
		if err := fencedTap(a, "goal-b", 200+int64(i), id); err != nil {
			t.Fatal(err)
		}
	}
	j, err := OpenJournal(a.Journal.Dir()) // the worker restarted
	if err != nil {
		t.Fatal(err)
	}
	j.Keep = 2
	a.Journal = j
	wantLeaseLost(t, fencedTap(a, "goal-b", 201, "b/5"), "recorded token 202")
	if err := fencedTap(a, "goal-a", 300, "a/3"); err != nil {
		t.Fatalf("a newer grant's action: %v", err)
	}
	if n := len(p.got()); n != 6 {
		t.Fatalf("the phone got %d inputs, want 6: %v", n, p.got())
	}
}

// Without tokens (no lease, or runs from before fencing tokens on a phone
// that never saw one) actions go through.
func TestTokenlessActionsWithoutAnyTokenGoThrough(t *testing.T) {
	a, p := newJournalled(t)
	for _, id := range []string{"x/1", "x/2"} {
		if err := fencedTap(a, "", 0, id); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(p.got()); n != 2 {
		t.Fatalf("inputs %v", p.got())
	}
}

// What a Step does to the phone before its action is fenced as the action
// is (docs/design.md §5): once a goal granted the phone later has acted,
// the older goal's Step neither unlocks the phone (typing its PIN) nor
// scrolls its list in the look before a commit; it gets PhoneLeaseLost.
func TestUnlockAndProbesBeforeTheActionAreFenced(t *testing.T) {
	t.Run("unlock", func(t *testing.T) {
		a, fp, _ := newActivities(t)
		j, err := OpenJournal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		a.Journal = j
		p := &lockedPhone{fakePhone: fp, pin: "4827"}
		a.Devices = lockedPool{p}
		a.Unlock = &Unlocker{PIN: "4827"}
		if err := fencedTap(a, "goal-b", 200, "b/1"); err != nil {
			t.Fatal(err)
		}
		p.locked = true // the screen timed out to its lock screen
		wantLeaseLost(t, fencedTap(a, "goal-a", 100, "a/1"), "recorded token 200")
		if len(p.tried) != 0 || !p.locked || len(fp.got()) != 1 {
			t.Fatalf("the fenced goal's Step typed %v into the lock screen (locked %v), inputs %v", p.tried, p.locked, fp.got())
		}
		if err := fencedTap(a, "goal-b", 200, "b/2"); err != nil || p.locked {
			t.Fatalf("the holder's Step: %v, locked %v", err, p.locked)
		}
	})
	t.Run("look before a commit", func(t *testing.T) {
		a, p := notesGrantedToB(t)
		before := len(p.got())
		in := tapAt("Create a note titled n31 with the text x", 540, 2250) // New note: a commit, looked before
		in.ActionID, in.GoalID, in.LeaseToken = "a/1", "goal-a", 100
		_, err := a.Step(context.Background(), in)
		wantLeaseLost(t, err, "recorded token 200")
		if got := p.got()[before:]; len(got) != 0 || p.scroll != 0 {
			t.Fatalf("the fenced goal's look before its commit sent %v (scroll %d)", got, p.scroll)
		}
	})
}

// A verification's probes past the screen's edge are fenced as the
// action is (docs/design.md §5): once a goal granted the phone later has
// acted, the older goal's Verify scrolls nothing, and neither an
// element_exists nor an element_absent holds on what it did not look at.
// The holder's Verify probes as before.
func TestVerifyProbesAreFenced(t *testing.T) {
	a, p := notesGrantedToB(t)
	before := len(p.got())
	scr := Observation{App: "Notes", AppPackage: "com.example.notes", Width: 1080, Height: 2400}
	check := func(goal string, token int64, c postcond.Check) VerifyResult {
		t.Helper()
		v, err := a.Verify(context.Background(), VerifyInput{Serial: "fake-1", Task: "Check the note " + c.Text, Message: "Done",
			Screen: scr, Expect: []postcond.Check{c}, GoalID: goal, LeaseToken: token})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	exists := postcond.Check{Kind: postcond.ElementExists, Text: "n28"}
	absent := postcond.Check{Kind: postcond.ElementAbsent, Text: "n40"}
	for _, c := range []postcond.Check{exists, absent} {
		if v := check("goal-a", 100, c); v.Status == verify.Done || v.Probes != 0 {
			t.Fatalf("%s for the goal that lost the phone: %+v", c, v)
		}
	}
	if got := p.got()[before:]; len(got) != 0 || p.scroll != 0 {
		t.Fatalf("the fenced goal's verification sent %v (scroll %d)", got, p.scroll)
	}
	for _, c := range []postcond.Check{exists, absent} {
		if v := check("goal-b", 200, c); v.Status != verify.Done || v.Probes == 0 {
			t.Fatalf("%s for the holder: %+v", c, v)
		}
	}
}

// notesGrantedToB is a journalled phone of 30 notes on which goal-b,
// granted it under token 200, has acted once.
func notesGrantedToB(t *testing.T) (*Activities, *notesPhone) {
	t.Helper()
	a, p := newNotes(t, 30)
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a.Journal = j
	in := tapAt("Create a note titled n31 with the text x", 540, 600)
	in.ActionID, in.GoalID, in.LeaseToken = "b/1", "goal-b", 200
	if _, err := a.Step(context.Background(), in); err != nil {
		t.Fatal(err)
	}
	return a, p
}
