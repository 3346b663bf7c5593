package postcond

import (
	"strings"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Toggles reports whether a tap on es[i] changes a setting rather than
// moving between screens (docs/design.md §9, A todo that only looks): es[i] is
// a switch (checkable, a switch's or a check box's class, a Quick Settings
// tile whose words say its state), or one row that holds such a switch
// taking no taps of its own, as a switch preference's row and SettingsLib's
// main switch bar do (the row flips the switch). A row whose switch is a
// tap target of its own (One UI's Wi-Fi row, a PrimarySwitchPreference)
// opens a page when tapped beside the switch, as the finger lands on the
// row.
func Toggles(es []uitree.Element, i int) bool {
	if i < 0 || i >= len(es) {
		return false
	}
	l := newLayout(es)
	if l.isSwitch(i) || ToggleClass(es[i]) {
		return true
	}
	if !es[i].Clickable || !l.mayBeRow(i) {
		return false
	}
	for j := i + 1; j < l.end[i]; j++ {
		if (l.isSwitch(j) || ToggleClass(es[j])) && !es[j].Clickable {
			return true
		}
	}
	return false
}

// ToggleClass reports an element whose class draws a control that holds a
// state: a Switch (SwitchCompat, SwitchMaterial), MIUI's SlidingButton, a
// CheckBox, a ToggleButton, a RadioButton. Trees built without the
// checkable attribute (a recording's, a test's) still say the class.
func ToggleClass(e uitree.Element) bool {
	c := e.ShortClass()
	for _, k := range []string{"Switch", "SlidingButton", "CheckBox", "ToggleButton", "RadioButton", "CheckedTextView"} {
		if strings.HasSuffix(c, k) {
			return true
		}
	}
	return false
}

// Slider reports an element that sets a level when tapped or dragged: a
// SeekBar, a Material Slider, a RatingBar.
func Slider(e uitree.Element) bool {
	c := e.ShortClass()
	return strings.HasSuffix(c, "SeekBar") || strings.HasSuffix(c, "Slider") || strings.HasSuffix(c, "RatingBar")
}

// SwitchAt reports whether es[i] is a switch as the switch check reads
// one (checkable; a switch's class that shows its state without saying it
// is checkable, as vivo's Settings does; a tile whose words say its
// state), and the state it shows: sure is false when its checked
// attribute and its words disagree, or nothing says the state.
func SwitchAt(es []uitree.Element, i int) (is, on, sure bool) {
	if i < 0 || i >= len(es) {
		return false, false, false
	}
	l := newLayout(es)
	if !l.isSwitch(i) {
		return false, false, false
	}
	on, sure = l.switchState(i)
	return true, on, sure
}
