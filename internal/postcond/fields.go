package postcond

import "github.com/phoneflow/phoneflow/internal/uitree"

// savedFields are the input fields of a todo's screens whose text is what
// the phone had saved, not what the todo typed (docs/design.md §9): a
// field that shows the same text on every screen of the todo where it
// appears, from the first. A note's body is shown only in its editor's
// field, so a read of it is answered from there; a field the todo typed
// into changed after it first appeared, and is never an answer.
func savedFields(screens []Screen) []uitree.Element {
	first := map[string]string{}
	changed := map[string]bool{}
	var order []uitree.Element
	for _, s := range screens {
		for _, e := range s.Elements {
			if !e.IsField() || e.ResourceID == "" || e.Password {
				continue
			}
			v, ok := first[e.ResourceID]
			switch {
			case !ok:
				first[e.ResourceID] = fieldText(e)
				order = append(order, e)
			case v != fieldText(e):
				changed[e.ResourceID] = true
			}
		}
	}
	var out []uitree.Element
	for _, e := range order {
		if !changed[e.ResourceID] && len([]rune(norm(fieldText(e)))) >= 2 {
			out = append(out, e)
		}
	}
	return out
}
