//go:build drills

package eval

import (
	"os"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
)

// soakFastReps is the fast soak's repetitions; TestSoakFull runs the
// full one.
const soakFastReps = 10

// TestSoakFull repeats every task type of the soak 50 times on a phone of
// its own, each phone starting with long lists. PHONEFLOW_SOAK_KINDS runs
// some of the types (each is on its own phone, so types run apart add up
// to the whole soak). It runs on the default look, one subtest a look;
// PHONEFLOW_SOAK_SKINS names others ("all", "other" or a list such as
// pixel,miui,oneui), each soaked in turn on a stack of its own.
func TestSoakFull(t *testing.T) {
	kinds := []string{"note", "alarm", "message", "toggle", "brightness", "read", "contact", "open"}
	if s := os.Getenv("PHONEFLOW_SOAK_KINDS"); s != "" {
		kinds = strings.Split(s, ",")
	}
	for _, skin := range stacktest.SkinsFromEnv(t, "PHONEFLOW_SOAK_SKINS", []phonesim.Skin{stacktest.DefaultSkin(t)}) {
		t.Run(string(skin), func(t *testing.T) {
			runSoak(t, SoakOptions{Kinds: kinds, Reps: soakReps(t, 50), Seed: 1, Skin: skin,
				Prefill: &phonesim.Fill{Notes: 100, Alarms: 50, Messages: 60}})
		})
	}
}

// TestRepeatedGoalsOnOnePhone is the plain repetition a person tries on a
// new phone: 13 notes, 13 alarms and 40 messages to one contact, each kind
// on a phone of its own starting with the simulator's own data, each goal
// done and each list longer by exactly one item a goal.
// PHONEFLOW_SOAK_SKINS names the looks as for TestSoakFull.
func TestRepeatedGoalsOnOnePhone(t *testing.T) {
	for _, skin := range stacktest.SkinsFromEnv(t, "PHONEFLOW_SOAK_SKINS", []phonesim.Skin{stacktest.DefaultSkin(t)}) {
		t.Run(string(skin), func(t *testing.T) {
			runSoak(t, SoakOptions{Kinds: []string{"note", "alarm", "message"}, Seed: 1, Skin: skin,
				RepsOf: map[string]int{"note": 13, "alarm": 13, "message": 40}})
		})
	}
}
