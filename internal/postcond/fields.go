package postcond

import (
	"fmt"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

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
	var keys []string
	for _, s := range screens {
		n := 0
		for _, e := range s.Elements {
			if !e.IsField() {
				continue
			}
			n++
			if e.Password {
				continue
			}
			// A field is known by its id, or where it has none (Samsung
			// Notes') by its app and its place among the screen's fields.
			key := e.ResourceID
			if key == "" {
				key = fmt.Sprintf("%s field %d", e.Package, n)
			}
			v, ok := first[key]
			switch {
			case !ok:
				first[key] = fieldText(e)
				order, keys = append(order, e), append(keys, key)
			case v != fieldText(e):
				changed[key] = true
			}
		}
	}
	var out []uitree.Element
	for i, e := range order {
		if !changed[keys[i]] && len([]rune(norm(fieldText(e)))) >= 2 {
			out = append(out, e)
		}
	}
	return out
}
