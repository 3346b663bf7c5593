package phonesim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Clock follows Google Clock's real dumps
// (testdata/real/SOURCES.md; pixel_clock_real_test.go compares the trees);
// these tests drive it: the time, the label and the switch of a card,
// the time picker's face and typing, Delete.

// tapWhere taps the first element of the dump that matches.
func tapWhere(t *testing.T, p *Phone, where string, match func(uitree.Element) bool) {
	t.Helper()
	es := simDump(t, p)
	x, y := es[find(t, es, where, match)].Bounds.Center()
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
}

// replaceADB types text in place of the focused field's, as the device
// layer types (ADB_CLEAR_TEXT, then the text).
func replaceADB(t *testing.T, p *Phone, text string) {
	t.Helper()
	typeADB(t, p, "")
	sh(t, p, "am broadcast -a ADB_CLEAR_TEXT")
	typeADB(t, p, text)
}

func byDesc(d string) func(uitree.Element) bool {
	return func(e uitree.Element) bool { return e.Desc == d }
}

func byID(id string) func(uitree.Element) bool {
	return func(e uitree.Element) bool { return e.ResourceID == id }
}

// alarmRow is what a check reads off one alarm's card: the switch and the
// texts inside the card around it.
type alarmRow struct {
	time, label    string
	switchClass    string
	switchText     string
	switchDesc     string
	checked        bool
	switchBelow    bool // the switch is on the line below the time, right of it
	labelAbove     bool
	arrow          string
	rowHoldsSwitch bool
}

// alarmRowOf reads the card whose digital_clock shows at ("7:00 AM",
// written with a hair space).
func alarmRowOf(t *testing.T, es []uitree.Element, at string) alarmRow {
	t.Helper()
	shown := strings.Replace(at, " ", hairSpace, 1)
	ti := find(t, es, at, func(e uitree.Element) bool {
		return e.ResourceID == SkinPixel.pkg(pkgClock)+":id/digital_clock" && e.Text == shown
	})
	card := ti
	for card >= 0 && es[card].Class != "androidx.cardview.widget.CardView" {
		card--
	}
	if card < 0 {
		t.Fatalf("%s: no CardView holds the time", at)
	}
	r := alarmRow{time: strings.Replace(es[ti].Text, hairSpace, " ", 1)}
	for j := card + 1; j < len(es) && es[j].Depth > es[card].Depth; j++ {
		e := es[j]
		switch e.ShortID() {
		case "onoff":
			r.switchClass, r.switchText, r.switchDesc, r.checked = e.Class, e.Text, e.Desc, e.Checked
			r.switchBelow = e.Bounds.X1 > es[ti].Bounds.X2 && e.Bounds.Y1 >= es[ti].Bounds.Y2
			r.rowHoldsSwitch = true
		case "label":
			r.label = e.Text
			r.labelAbove = e.Bounds.Y2 <= es[ti].Bounds.Y1
		case "arrow":
			r.arrow = e.Desc
		}
	}
	return r
}

func TestPixelAlarmCardsFollowGoogleClock(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	es := simDump(t, p)
	for _, c := range []struct {
		at, label string
		on        bool
	}{{"7:00 AM", "Wake up", true}, {"8:30 AM", "Gym", false}} {
		r := alarmRowOf(t, es, c.at)
		want := alarmRow{time: c.at, label: c.label, switchClass: "android.widget.Switch", switchDesc: c.at + " alarm", checked: c.on,
			switchBelow: true, labelAbove: true, arrow: "Expand " + c.at + " alarm", rowHoldsSwitch: true}
		if r != want {
			t.Errorf("card of %s:\n got %+v\nwant %+v", c.at, r, want)
		}
	}
	fab := es[find(t, es, "fab", byID(p.pkg(pkgClock)+":id/fab"))]
	if fab.Desc != "Add alarm" || fab.Class != "android.widget.Button" || fab.Text != "" || !fab.Clickable {
		t.Errorf("fab: %+v", fab)
	}
	find(t, es, "Alarm tab", byDesc("Alarm"))

	// Expanded, a card shows its label to edit, the days and Delete.
	tapWhere(t, p, "arrow", byDesc("Expand 7:00 AM alarm"))
	es = simDump(t, p)
	for _, id := range []string{"edit_label", "repeat_days", "day_button_0", "vibrate_onoff", "delete"} {
		find(t, es, id, byID(p.pkg(pkgClock)+":id/"+id))
	}
	if e := es[find(t, es, "edit_label", byID(p.pkg(pkgClock)+":id/edit_label"))]; e.Text != "Wake up" {
		t.Errorf("edit_label of the first alarm reads %q", e.Text)
	}
	find(t, es, "collapse", byDesc("Collapse 7:00 AM alarm"))
}

// A card's switch turns its own alarm on or off; Delete removes the
// expanded alarm.
func TestPixelAlarmSwitchAndDelete(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	tapWhere(t, p, "8:30 AM switch", byDesc("8:30 AM alarm"))
	if a := p.State().Alarms; !a[1].Enabled || !a[0].Enabled {
		t.Fatalf("after tapping the 8:30 AM switch: %+v", a)
	}
	if r := alarmRowOf(t, simDump(t, p), "8:30 AM"); !r.checked {
		t.Errorf("the 8:30 AM switch shows off after turning on")
	}
	tapWhere(t, p, "first arrow", byDesc("Expand 7:00 AM alarm"))
	tapOn(t, p, "Delete")
	if a := p.State().Alarms; len(a) != 1 || a[0].Time != "08:30" {
		t.Errorf("after Delete on the first alarm: %+v", a)
	}
}

// okButton finds the picker's OK.
func okButton(e uitree.Element) bool { return e.Class == "android.widget.Button" && e.Text == "OK" }

// pickerChip is the text-input picker's hour or minute, EditText or chip,
// by the caption below it.
func pickerChip(t *testing.T, p *Phone, caption string) func(uitree.Element) bool {
	es := simDump(t, p)
	c := es[find(t, es, caption, byText(caption))]
	return func(e uitree.Element) bool {
		return e.Clickable && e.Bounds.Y2 == c.Bounds.Y1 && e.Bounds.X1 == c.Bounds.X1
	}
}

// On the face a tap on an hour sets it and turns to the minutes; OK adds
// the alarm, expanded, and its label is typed in the label dialog.
func TestPixelNewAlarmOnTheDial(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	tapWhere(t, p, "fab", byDesc("Add alarm"))
	es := simDump(t, p)
	find(t, es, "clock face", byID(p.pkg(pkgClock)+":id/material_clock_face"))
	find(t, es, "toggle", byDesc(toTextMode))
	find(t, es, "Select time", byText("Select time"))
	if p.State().Screen.Page != pageTimePicker {
		t.Errorf("picker page %q", p.State().Screen.Page)
	}
	tapWhere(t, p, "8 on the face", byDesc("8 o'clock"))
	tapWhere(t, p, "15 on the face", byDesc("15 minutes"))
	tapWhere(t, p, "PM", byText("PM"))
	es = simDump(t, p)
	h := es[find(t, es, "hour chip", byID(p.pkg(pkgClock)+":id/material_hour_tv"))]
	m := es[find(t, es, "minute chip", byID(p.pkg(pkgClock)+":id/material_minute_tv"))]
	if h.Text != "08" || h.Desc != "8 o'clock" || m.Text != "15" || m.Desc != "15 minutes" {
		t.Errorf("header shows %q (%q) : %q (%q)", h.Text, h.Desc, m.Text, m.Desc)
	}
	tapWhere(t, p, "OK", okButton)
	want := Alarm{Time: "20:15", Enabled: true}
	if a := p.State().Alarms; len(a) != 3 || a[2] != want {
		t.Fatalf("alarms after OK: %+v", a)
	}
	tapWhere(t, p, "edit_label", func(e uitree.Element) bool {
		return e.ShortID() == "edit_label" && e.Text == "Add label" && e.Desc == "No label specified"
	})
	es = simDump(t, p)
	if e := es[find(t, es, "title", byID("android:id/alertTitle"))]; e.Text != "Label" {
		t.Errorf("label dialog title %q", e.Text)
	}
	if f := es[find(t, es, "field", func(e uitree.Element) bool { return e.Class == "android.widget.EditText" })]; !f.Focused {
		t.Errorf("the label field has no focus: %+v", f)
	}
	typeADB(t, p, "Gym class")
	tapWhere(t, p, "OK", byID("android:id/button1"))
	want.Label = "Gym class"
	if a := p.State().Alarms; a[2] != want {
		t.Errorf("alarm after the label: %+v", a[2])
	}
	if r := alarmRowOf(t, simDump(t, p), "8:15 PM"); r.time != "8:15 PM" || !r.checked {
		t.Errorf("new card: %+v", r)
	}
}

// In text input mode the hour and minute are typed; OK with no valid
// time keeps the dialog.
func TestPixelNewAlarmTypedInTextMode(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	tapWhere(t, p, "fab", byDesc("Add alarm"))
	tapWhere(t, p, "toggle", byDesc(toTextMode))
	es := simDump(t, p)
	if h := es[find(t, es, "hour", pickerChip(t, p, "Hour"))]; !h.Focused || h.Class != "android.widget.EditText" || h.ResourceID != "" {
		t.Errorf("the hour field: %+v", h)
	}
	if m := es[find(t, es, "minute", pickerChip(t, p, "Minute"))]; m.Class != "android.view.View" || !strings.HasSuffix(m.Desc, " minutes") {
		t.Errorf("the minute chip: %+v", m)
	}
	find(t, es, "back to the face", byDesc(toClockMode))
	replaceADB(t, p, "13")
	tapWhere(t, p, "OK", okButton)
	if n := len(p.State().Alarms); n != 2 || p.top().page != pageTimePicker {
		t.Fatalf("an invalid time added an alarm or closed the picker: %d alarms", n)
	}
	replaceADB(t, p, "6")
	tapWhere(t, p, "minute", pickerChip(t, p, "Minute"))
	replaceADB(t, p, "45")
	tapWhere(t, p, "AM", byText("AM"))
	tapWhere(t, p, "OK", okButton)
	if a := p.State().Alarms; len(a) != 3 || a[0] != (Alarm{Time: "06:45", Enabled: true}) {
		t.Errorf("alarms: %+v", a)
	}
}

func TestPixelClockDraws(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	shot := func(what string) {
		if b, ok, err := p.Screenshot(); err != nil || !ok || len(b) == 0 {
			t.Fatalf("%s: screenshot %v %v", what, ok, err)
		}
	}
	shot("alarms")
	tapWhere(t, p, "fab", byDesc("Add alarm"))
	shot("face")
	tapWhere(t, p, "toggle", byDesc(toTextMode))
	shot("text input")
}

// The time picker shows the hour and the minute apart, so the commit
// check reads them together: OK on "11:15 AM" is refused for a todo that
// wants 10:15 and let through for one that wants 11:15, in the text-input
// mode and on the dial alike.
func TestPixelTimePickerIsReadAsOneTime(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	tapWhere(t, p, "fab", byDesc("Add alarm"))
	tapWhere(t, p, "toggle", byDesc(toTextMode))
	replaceADB(t, p, "11")
	tapWhere(t, p, "minute", pickerChip(t, p, "Minute"))
	replaceADB(t, p, "15")
	tapWhere(t, p, "AM", byText("AM"))
	judge := func(mode, want string) string {
		t.Helper()
		es := simDump(t, p)
		ok := es[find(t, es, "OK", okButton)]
		if got, _ := postcond.PickerTime(es); got != "11:15" {
			t.Errorf("%s: the picker reads %q, want 11:15", mode, got)
		}
		return postcond.WrongTarget(postcond.Target{Task: "Create an alarm at " + want, Control: ok, Elements: es,
			Expect: []postcond.Check{{Kind: postcond.ElementExists, Text: want}}})
	}
	if why := judge("text input", "10:15"); !strings.Contains(why, "time picker") {
		t.Errorf("text input: OK on 11:15 for a 10:15 alarm: %q, want a refusal", why)
	}
	if why := judge("text input", "11:15"); why != "" {
		t.Errorf("text input: OK on 11:15 for an 11:15 alarm refused: %s", why)
	}
	tapWhere(t, p, "back to the face", byDesc(toClockMode))
	if why := judge("dial", "10:15"); !strings.Contains(why, "time picker") {
		t.Errorf("dial: OK on 11:15 for a 10:15 alarm: %q, want a refusal", why)
	}
}

// A new alarm's checks hold only on an alarm at its time that rings: on
// every skin the Alarm list shows the 08:30 Gym alarm switched off, which
// is not an 08:30 alarm the todo made; once one at 08:30 rings beside it,
// they hold.
func TestAnAlarmThatIsOffIsNotANewOne(t *testing.T) {
	on := true
	checks := []postcond.Check{{Kind: postcond.ElementExists, Text: "08:30"},
		{Kind: postcond.Switch, Label: "08:30", On: &on, Any: true}}
	for _, skin := range []Skin{SkinClassic, SkinPixel, SkinMIUI, SkinOneUI} {
		p := New(Config{Skin: skin})
		launch(t, p, pkgClock)
		rs := postcond.Eval(checks, postcond.Observed{Final: postcond.Screen{App: "Clock", Elements: simDump(t, p)}})
		if !rs[0].Held || rs[1].Held {
			t.Errorf("%s: the 08:30 alarm that is off: %+v, want the time shown and no 08:30 alarm that rings", skin, rs)
		}
		p.mu.Lock()
		p.st.Alarms = append(p.st.Alarms, Alarm{Time: "08:30", Enabled: true})
		p.mu.Unlock()
		rs = postcond.Eval(checks, postcond.Observed{Final: postcond.Screen{App: "Clock", Elements: simDump(t, p)}})
		if !rs[0].Held || !rs[1].Held {
			t.Errorf("%s: a new 08:30 alarm that rings beside the old one: %+v, want both held", skin, rs)
		}
	}
}

// A new alarm whose row falls past the list's edge is scrolled into sight
// and expanded, as the app scrolls to the alarm it added: its time and
// its label line are on the screen, wherever in a long list it sorts.
func TestPixelNewAlarmIsScrolledIntoSight(t *testing.T) {
	for _, at := range []struct{ typed, hour, minute, ampm, shown string }{
		{"05:37", "5", "37", "AM", "5:37 AM"},
		{"23:30", "11", "30", "PM", "11:30 PM"},
		{"00:03", "12", "03", "AM", "12:03 AM"},
	} {
		t.Run(at.typed, func(t *testing.T) {
			p := pixelPhone()
			p.Fill(Fill{Alarms: 12})
			launch(t, p, pkgClock)
			tapWhere(t, p, "fab", byDesc("Add alarm"))
			tapWhere(t, p, "toggle", byDesc(toTextMode))
			replaceADB(t, p, at.hour)
			tapWhere(t, p, "minute", pickerChip(t, p, "Minute"))
			replaceADB(t, p, at.minute)
			tapWhere(t, p, at.ampm, byText(at.ampm))
			tapWhere(t, p, "OK", okButton)
			es := simDump(t, p)
			ti := find(t, es, at.shown, func(e uitree.Element) bool {
				return e.ResourceID == p.pkg(pkgClock)+":id/digital_clock" && e.Text == strings.Replace(at.shown, " ", hairSpace, 1)
			})
			li := find(t, es, "edit_label", byID(p.pkg(pkgClock)+":id/edit_label"))
			if es[li].Bounds.Y2 > es[ti].Bounds.Y1 {
				t.Errorf("the label line %+v is not above the new alarm's time %+v", es[li].Bounds, es[ti].Bounds)
			}
			list := find(t, es, "list", byID(p.pkg(pkgClock)+":id/alarm_recycler_view"))
			if es[ti].Bounds.Y1 < es[list].Bounds.Y1 || es[li].Bounds.Y2 > es[list].Bounds.Y2 {
				t.Errorf("the new alarm %+v and its Label row %+v are not wholly in the list %+v", es[ti].Bounds, es[li].Bounds, es[list].Bounds)
			}
			// The label line is clear of the fab, so a tap on it opens the
			// label dialog rather than a second time picker.
			x, y := es[li].Bounds.Center()
			sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
			if v := p.top(); v.page != pageAlarmLabel {
				t.Fatalf("a tap on the new alarm's label line opened %q, not the label dialog", v.page)
			}
		})
	}
}
