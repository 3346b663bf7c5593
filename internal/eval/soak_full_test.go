//go:build drills

package eval

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// soakFastReps is the fast soak's repetitions; TestSoakFull runs the
// full one.
const soakFastReps = 10

// TestSoakFull repeats every task type of the soak 50 times on a phone of
// its own, each phone starting with long lists.
func TestSoakFull(t *testing.T) {
	kinds := []string{"note", "alarm", "message", "toggle", "brightness", "read", "contact", "open"}
	runSoak(t, SoakOptions{Kinds: kinds, Reps: 50, Seed: 1, Prefill: &phonesim.Fill{Notes: 100, Alarms: 50, Messages: 60}})
}
