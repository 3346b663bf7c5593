package routine

import "encoding/json"

// MergeSteps folds a successful run's steps into a routine's
// (docs/design.md §8). A run that took the routine's steps, skipping
// only optional ones, leaves the routine as it is. A run that took every
// step of the routine plus some in between (a pop-up it had to dismiss)
// keeps the routine's steps and adds those as optional, so one changed
// screen neither costs the next clean run its replay nor the run after a
// pop-up. Any other run replaces the steps. It reports whether the steps
// changed.
func MergeSteps(old, run []Step) ([]Step, bool) {
	if len(old) == 0 {
		return run, len(run) > 0
	}
	if covers(run, old) {
		return old, false
	}
	if merged, ok := insertOptional(old, run); ok {
		return merged, true
	}
	return run, !sameSteps(old, run)
}

// covers reports whether run is old with only optional steps left out.
func covers(run, old []Step) bool {
	i := 0
	for _, s := range old {
		if i < len(run) && sameStep(run[i], s) {
			i++
			continue
		}
		if !s.Optional {
			return false
		}
	}
	return i == len(run)
}

// insertOptional returns run with its steps that are not in old marked
// optional, when every step of old appears in run in order and the steps
// added are not the run's last (a finish is never optional).
func insertOptional(old, run []Step) ([]Step, bool) {
	if len(run) <= len(old) {
		return nil, false
	}
	out := make([]Step, 0, len(run))
	i := 0
	for _, s := range run {
		if i < len(old) && sameStep(s, old[i]) {
			s.Optional = old[i].Optional
			i++
		} else {
			if i == len(old) {
				return nil, false // a step after the routine's end
			}
			s.Optional = true
		}
		out = append(out, s)
	}
	return out, i == len(old)
}

// sameStep compares two steps whatever their Optional mark.
func sameStep(a, b Step) bool {
	a.Optional, b.Optional = false, false
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
