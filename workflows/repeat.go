package workflows

import (
	"slices"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ChangeRepeatThatMovesOn: the same action decided again counts towards
// the stuck guard only when the action before it left a screen this run of
// repeats had already shown, and a screen whose elements say something new
// (a value label) is not the same screen even when its picture hashes alike
// (docs/design.md §2 Guards). A stepper's "-"
// tapped nine times from 90% to 0%, or a swipe through a long list, moves
// the screen on each time and is progress; a tap that changes nothing or
// flips between two screens is not. Before it, every third decision of the
// same action was a correction, and a todo needing nine taps ended stuck.
const ChangeRepeatThatMovesOn = "repeat-that-moves-on"

// maxRepeatScreens bounds the screens a run of repeats remembers.
const maxRepeatScreens = 16

// repeatRun is the screens (their hashes) a run of one decided action was
// decided on, oldest first: the screen of the first decision, then the one
// each repeat left.
type repeatRun struct {
	Screens []string `json:"screens,omitempty"`
}

// movedOn reports whether o is a screen this run has not shown yet.
func (r repeatRun) movedOn(o activities.Observation) bool {
	return o.Hash != "" && len(r.Screens) > 0 && !slices.Contains(r.Screens, screenKey(o))
}

// saw records the screen a decision was made on: the start of a new run,
// or one more screen of the current one.
func (r *repeatRun) saw(again bool, o activities.Observation) {
	if !again {
		r.Screens = r.Screens[:0]
	}
	r.Screens = append(r.Screens, screenKey(o))
	if n := len(r.Screens); n > maxRepeatScreens {
		r.Screens = append([]string(nil), r.Screens[n-maxRepeatScreens:]...)
	}
}

// screenKey names a screen by its picture and what its elements say.
func screenKey(o activities.Observation) string { return o.Hash + "/" + o.TextHash }

// textMoved reports whether what the app's elements say changed between
// two screens whose pictures hash alike (a value label, a counter).
func textMoved(before, now activities.Observation) bool {
	return before.TextHash != "" && now.TextHash != "" && before.TextHash != now.TextHash
}

// repeatMovesOn says whether this run judges repeats by the screens they
// leave; it is asked only when that changes the guard's count.
func repeatMovesOn(ctx workflow.Context) bool {
	return getVersion(ctx, ChangeRepeatThatMovesOn, workflow.DefaultVersion, 1) >= 1
}
