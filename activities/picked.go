package activities

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The framework's time picker (TimePickerDialog) shows one time in two
// ways: its dial, with the time in header TextViews (hours, minutes, and
// am_label or pm_label checked), and its keyboard, with the time in two
// EditTexts (input_hour, input_minute, and am_pm_spinner), following
// frameworks/base core/res/res/layout/time_picker_header_material.xml and
// time_picker_text_input_material.xml; Google Clock's Material picker
// (postcond.PickerTime reads it) shows it in chips or in EditTexts inside
// material_hour_text_input and material_minute_text_input. A commit
// tapped on it (OK) commits
// the time, whichever way it was shown, so its name (commitTap.Key) holds
// the time, "time 08:30", not the fields' text: the same alarm is the same
// commit across a todo's runs (docs/design.md §9, Looking before
// committing).

// Framework ids of the time picker's parts.
const (
	pickerHours       = "android:id/hours"
	pickerMinutes     = "android:id/minutes"
	pickerAM          = "android:id/am_label"
	pickerPM          = "android:id/pm_label"
	pickerInputHour   = "android:id/input_hour"
	pickerInputMinute = "android:id/input_minute"
	pickerAMPMSpinner = "android:id/am_pm_spinner"
)

// commitContent is what a commit on elems commits, for its name: the time
// a time picker shows, and the texts of the other text fields, sorted.
func commitContent(elems []uitree.Element) []string {
	t, ok := pickedTime(elems)
	if !ok {
		return fieldValues(elems)
	}
	out := []string{"time " + t}
	var rest []string
	parents := uitree.Parents(elems)
	for i, e := range elems {
		if e.ResourceID == pickerInputHour || e.ResourceID == pickerInputMinute || e.ShortID() == "numberpicker_input" || inMaterialInput(elems, parents, i) {
			continue
		}
		if isField(e) && strings.TrimSpace(e.Text) != "" && !e.Password {
			rest = append(rest, strings.TrimSpace(e.Text))
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// inMaterialInput reports whether elems[i] is inside Google Clock's
// Material picker's hour or minute input (material_hour_text_input,
// material_minute_text_input): its field is the time, not typed content.
func inMaterialInput(elems []uitree.Element, parents []int, i int) bool {
	for a := parents[i]; a >= 0; a = parents[a] {
		if id := elems[a].ShortID(); id == "material_hour_text_input" || id == "material_minute_text_input" {
			return true
		}
	}
	return false
}

// pickedTime is the time a time picker on elems shows, "HH:MM" on a
// 24-hour clock, and whether one shows a whole time: the framework's, or
// a vendor's wheels.
func pickedTime(elems []uitree.Element) (string, bool) {
	if t, ok := frameworkPickedTime(elems); ok {
		return t, true
	}
	// A vendor's alarm page of wheels (MIUI's, One UI's) commits the time
	// its wheels show.
	t, _ := postcond.PickerTime(elems)
	return t, t != ""
}

// frameworkPickedTime is the time the framework's time picker shows.
func frameworkPickedTime(elems []uitree.Element) (string, bool) {
	byID := map[string]uitree.Element{}
	for _, e := range elems {
		if _, ok := byID[e.ResourceID]; !ok && e.ResourceID != "" {
			byID[e.ResourceID] = e
		}
	}
	text := func(id string) (string, bool) {
		e, ok := byID[id]
		return strings.TrimSpace(e.Text), ok
	}
	hour, okH := text(pickerHours)
	minute, okM := text(pickerMinutes)
	ampm := ""
	switch {
	case okH && okM:
		if e, ok := byID[pickerAM]; ok && e.Checked {
			ampm = "AM"
		}
		if e, ok := byID[pickerPM]; ok && e.Checked {
			ampm = "PM"
		}
	default:
		if hour, okH = text(pickerInputHour); !okH {
			return "", false
		}
		if minute, okM = text(pickerInputMinute); !okM {
			return "", false
		}
		if sp, ok := byID[pickerAMPMSpinner]; ok {
			ampm = spinnerText(elems, sp)
		}
	}
	h, err1 := strconv.Atoi(hour)
	m, err2 := strconv.Atoi(minute)
	if err1 != nil || err2 != nil || m < 0 || m > 59 || h < 0 || h > 23 {
		return "", false
	}
	switch strings.ToUpper(ampm) {
	case "AM":
		if h < 1 || h > 12 {
			return "", false
		}
		h %= 12
	case "PM":
		if h < 1 || h > 12 {
			return "", false
		}
		h = h%12 + 12
	}
	return fmt.Sprintf("%02d:%02d", h, m), true
}

// spinnerText is the text a spinner shows: its own, else that of the
// first element inside its bounds with text.
func spinnerText(elems []uitree.Element, sp uitree.Element) string {
	if t := strings.TrimSpace(sp.Text); t != "" {
		return t
	}
	for _, e := range elems {
		b := e.Bounds
		if e.ResourceID != sp.ResourceID && !isField(e) && strings.TrimSpace(e.Text) != "" &&
			b.X1 >= sp.Bounds.X1 && b.X2 <= sp.Bounds.X2 && b.Y1 >= sp.Bounds.Y1 && b.Y2 <= sp.Bounds.Y2 {
			return strings.TrimSpace(e.Text)
		}
	}
	return ""
}
