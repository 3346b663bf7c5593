package eval

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// soakStack starts the shared stack for a soak, or skips without adb or
// with -short.
func soakStack(t *testing.T, ctx context.Context) *bench.Stack {
	t.Helper()
	stacktest.NeedADB(t)
	if testing.Short() {
		t.Skip("starts the embedded Temporal server")
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	st, err := StartStack(ctx, "", log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Stop)
	return st
}

// runSoak runs a soak and fails the test unless every repetition ended
// verified done with its effect on the phone exactly once, and the steps of
// the last repetitions of each goal are no more than those of its first
// ones (the data grew, the work did not).
func runSoak(t *testing.T, o SoakOptions) {
	t.Helper()
	// A soak stops a minute before the test's own deadline (-timeout), so
	// the repetitions it ran still print their table.
	end := time.Now().Add(60 * time.Minute)
	if d, ok := t.Deadline(); ok {
		end = d.Add(-time.Minute)
	}
	ctx, cancel := context.WithDeadline(context.Background(), end)
	defer cancel()
	st := soakStack(t, ctx)
	o.Progress = func(s string) { t.Log(s) }
	runs, err := Soak(ctx, st, o)
	var b bytes.Buffer
	if rerr := RenderSoak(&b, runs); rerr != nil {
		t.Fatal(rerr)
	}
	t.Log("\n" + b.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range runs {
		if r.Done != len(r.Reps) || r.Duplicates != 0 || r.Missing != 0 || r.Lost != 0 {
			t.Errorf("%s: %d of %d verified done, %d duplicate, %d missing, %d earlier effects lost", r.Kind, r.Done, len(r.Reps), r.Duplicates, r.Missing, r.Lost)
		}
		if r.ItemsBefore >= 0 && r.ItemsAfter-r.ItemsBefore != len(r.Reps) {
			t.Errorf("%s: the phone held %d items before and %d after %d repetitions", r.Kind, r.ItemsBefore, r.ItemsAfter, len(r.Reps))
		}
		for _, x := range r.Reps {
			if x.Why != "" {
				t.Errorf("%s %d (%s): %s", r.Kind, x.Rep, x.Goal, x.Why)
			}
		}
		for _, grew := range r.StepsGrew() {
			t.Error(grew)
		}
	}
}

// TestSoakFast repeats three task types that add items to a list on one
// phone each, past the length of the screen.
func TestSoakFast(t *testing.T) {
	kinds := []string{"note", "alarm", "message"}
	if s := os.Getenv("PHONEFLOW_SOAK_KINDS"); s != "" {
		kinds = strings.Split(s, ",")
	}
	// The lists start nearly a screen long, so they outgrow it halfway.
	runSoak(t, SoakOptions{Kinds: kinds, Reps: soakReps(t, soakFastReps), Seed: 1, Prefill: &phonesim.Fill{Notes: 5, Alarms: 5, Messages: 8}})
}

// soakLookReps is the repetitions of each kind of TestSoakOnEachLook: the
// fewest whose steps StepsGrew still compares.
const soakLookReps = 4

// TestSoakOnEachLook runs a bounded TestSoakFast on every look but the
// default one (docs/phones.md#skins), one subtest a look: four notes,
// alarms and messages on lists that start as long as the fast soak's, so
// each look's lists are added to past their first screen. The full soak
// on each look is TestSoakFull with PHONEFLOW_SOAK_SKINS (-tags drills);
// PHONEFLOW_SOAK_SKINS names the looks here too ("all", "other" or a
// list such as miui,oneui), PHONEFLOW_SOAK_KINDS and PHONEFLOW_SOAK_REPS
// the kinds and repetitions.
func TestSoakOnEachLook(t *testing.T) {
	kinds := []string{"note", "alarm", "message"}
	if s := os.Getenv("PHONEFLOW_SOAK_KINDS"); s != "" {
		kinds = strings.Split(s, ",")
	}
	for _, skin := range stacktest.SkinsFromEnv(t, "PHONEFLOW_SOAK_SKINS", stacktest.OtherSkins(t)) {
		t.Run(string(skin), func(t *testing.T) {
			runSoak(t, SoakOptions{Kinds: kinds, Reps: soakReps(t, soakLookReps), Seed: 1, Skin: skin,
				Prefill: &phonesim.Fill{Notes: 5, Alarms: 5, Messages: 8}})
		})
	}
}

// soakReps is a soak's repetitions: def, or PHONEFLOW_SOAK_REPS when set.
func soakReps(t *testing.T, def int) int {
	t.Helper()
	s := os.Getenv("PHONEFLOW_SOAK_REPS")
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("PHONEFLOW_SOAK_REPS=%q: use a positive number", s)
	}
	return n
}

// Steps are compared between goals that ask for the same work: a 0%
// brightness goal at repetition 50 is set against the 0% ones before it,
// not against repetition 1's one step up, and a goal that did take more
// steps than its own earlier runs is flagged.
func TestSoakComparesStepsOfLikeGoals(t *testing.T) {
	kind := SoakKinds["brightness"]
	run := SoakRun{Kind: "brightness"}
	for k := 1; k <= 50; k++ {
		steps := 4
		if k%10 == 0 {
			steps = 14 // nine taps down from 90%
		}
		run.Reps = append(run.Reps, SoakRep{Rep: k, Goal: kind.Goal(k), Steps: steps, Like: kind.Like(k)})
	}
	if grew := run.StepsGrew(); len(grew) != 0 {
		t.Fatalf("flat steps flagged: %v", grew)
	}
	run.Reps[49].Steps = 30
	grew := run.StepsGrew()
	if len(grew) != 1 || !strings.Contains(grew[0], "Set brightness to 0%") || !strings.Contains(grew[0], "40 and 50") {
		t.Fatalf("a 0%% goal that took 30 steps at the end: %v", grew)
	}
	// A kind whose goals are all alike compares them all.
	notes := SoakRun{Kind: "note"}
	for k, steps := range []int{16, 14, 14, 14, 14, 18} {
		notes.Reps = append(notes.Reps, SoakRep{Rep: k + 1, Steps: steps})
	}
	if grew := notes.StepsGrew(); len(grew) != 1 {
		t.Fatalf("notes: %v", grew)
	}
}
