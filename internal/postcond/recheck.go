package postcond

import "fmt"

// Recheck judges again, on a later screen, the states earlier todos of a
// goal established (docs/design.md §9): a switch set on or off, an item
// made absent. It returns a result for each check whose subject the screen
// shows, held when the state is still there and not held when the screen
// shows the opposite (the switch in the other state, the item shown
// again); a check whose subject the screen does not show says nothing and
// is left out. Other kinds are not rechecked: a created item or a sent
// message stays made whatever the screen shows now.
func Recheck(cs []Check, s Screen) []Result {
	var out []Result
	o := Observed{Final: s}
	for _, c := range cs {
		var opposite Check
		switch c.Kind {
		case Switch:
			if c.On == nil {
				continue
			}
			off := !*c.On
			opposite = Check{Kind: Switch, Label: c.Label, On: &off}
		case ElementAbsent:
			opposite = Check{Kind: ElementExists, Text: c.Text}
		default:
			continue
		}
		if held, ev, _ := evalOne(c, o); held && c.Kind == Switch {
			out = append(out, Result{Check: c, Held: true, Evidence: ev})
			continue
		}
		if held, ev, _ := evalOne(opposite, o); held {
			out = append(out, Result{Check: c, Held: false, Evidence: fmt.Sprintf("no longer: %s", ev)})
		}
	}
	return out
}
