package uitree

import "strings"

// Parents returns, for each element of a dump in document order, the index
// of its parent (the nearest preceding element with a smaller depth), or
// -1 for a root.
func Parents(es []Element) []int {
	out := make([]int, len(es))
	var stack []int
	for i, e := range es {
		for len(stack) > 0 && es[stack[len(stack)-1]].Depth >= e.Depth {
			stack = stack[:len(stack)-1]
		}
		out[i] = -1
		if len(stack) > 0 {
			out[i] = stack[len(stack)-1]
		}
		stack = append(stack, i)
	}
	return out
}

// SubtreeEnd returns the index just past the last descendant of es[i]:
// its descendants are es[i+1:end].
func SubtreeEnd(es []Element, i int) int {
	j := i + 1
	for j < len(es) && es[j].Depth > es[i].Depth {
		j++
	}
	return j
}

// IsField reports whether an element is a text input: an EditText or any
// of its subclasses (AutoCompleteTextView, MultiAutoCompleteTextView,
// TextInputEditText, SearchView's SearchAutoComplete), and a Compose text
// field, which reports itself as android.widget.EditText.
func (e Element) IsField() bool {
	c := e.ShortClass()
	if i := strings.LastIndexByte(c, '$'); i >= 0 {
		c = c[i+1:]
	}
	return strings.HasSuffix(c, "EditText") || strings.HasSuffix(c, "AutoCompleteTextView") || c == "SearchAutoComplete"
}

// SaysEnabled reports whether a tree carries the enabled attribute: a
// dump's elements are enabled but for the few a screen disables, so a
// tree in which none is enabled was built without it (a test's, a
// recording's) and says nothing of what is disabled.
func SaysEnabled(es []Element) bool {
	for _, e := range es {
		if e.Enabled {
			return true
		}
	}
	return false
}

// Disabled reports whether the tree es says that its element e is
// disabled (enabled=false): a tap on it does nothing. A container tapped
// for the control inside it (a send button's frame) is disabled when the
// control that gives it its words is: the screen draws it greyed out.
func Disabled(es []Element, e Element) bool {
	if !SaysEnabled(es) {
		return false
	}
	if !e.Enabled {
		return true
	}
	for i := range es {
		// The tree's own element (a caller may have named the control by
		// its child's words).
		o := es[i]
		if o.Bounds != e.Bounds || o.Class != e.Class || o.ResourceID != e.ResourceID || o.Depth != e.Depth || o.Text != "" || o.Desc != "" {
			continue
		}
		for j := i + 1; j < SubtreeEnd(es, i); j++ {
			if es[j].Text != "" || es[j].Desc != "" {
				return !es[j].Enabled
			}
		}
		return false
	}
	return false
}
