package phonesim

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The Pixel skin's Clock is compared with Google Clock's real dumps
// (testdata/real/SOURCES.md, naviagent-google-clock-*.xml) on what checks
// and a model read: the time's text form, the switch and what describes
// it, the arrow, the label line, Delete, the fab, the time picker's
// header, chips, face, mode button and OK / Cancel, classes and ids.

// cardOf is the CardView holding the digital_clock that shows at (with
// the hair space as Google Clock writes it), and the elements inside it.
func cardOf(t *testing.T, es []uitree.Element, at string) (uitree.Element, []uitree.Element) {
	t.Helper()
	shown := strings.Replace(at, " ", "\u200a", 1)
	ti := find(t, es, at, func(e uitree.Element) bool { return e.ShortID() == "digital_clock" && e.Text == shown })
	c := ti
	for c >= 0 && !strings.HasSuffix(es[c].Class, "CardView") {
		c--
	}
	if c < 0 {
		t.Fatalf("%s: no CardView holds the time", at)
	}
	var in []uitree.Element
	for j := c + 1; j < len(es) && es[j].Depth > es[c].Depth; j++ {
		in = append(in, es[j])
	}
	return es[c], in
}

// cardShape is what a check reads off a collapsed card, its time written
// T (with a plain space) in every string.
type cardShape struct {
	cardClass      string
	cardClickable  bool
	timeClass      string
	timeText       string // "T" written with the hair space
	timeDesc       string
	timeClickable  bool
	arrowClass     string
	arrowDesc      string
	switchClass    string
	switchText     string
	switchDesc     string
	switchBelow    bool // on the line below the time, right of it
	arrowAbove     bool // the arrow sits above the switch, on the time's line
	upcomingInInfo bool // upcoming_instance_label or days_of_week inside alarm_info
}

func cardShapeOf(t *testing.T, es []uitree.Element, at string) cardShape {
	t.Helper()
	card, in := cardOf(t, es, at)
	hair := strings.Replace(at, " ", "\u200a", 1)
	norm := func(s string) string {
		return strings.ReplaceAll(strings.ReplaceAll(s, hair, "T\u200a"), at, "T")
	}
	c := cardShape{cardClass: card.Class, cardClickable: card.Clickable}
	var tm, sw, arrow, info uitree.Element
	for i, e := range in {
		switch e.ShortID() {
		case "digital_clock":
			tm = e
			c.timeClass, c.timeText, c.timeDesc, c.timeClickable = e.Class, norm(e.Text), norm(e.Desc), e.Clickable
		case "arrow":
			arrow = e
			c.arrowClass, c.arrowDesc = e.Class, norm(e.Desc)
		case "onoff":
			sw = e
			c.switchClass, c.switchText, c.switchDesc = e.Class, e.Text, norm(e.Desc)
		case "alarm_info":
			info = e
			for _, f := range in[i+1:] {
				if f.Depth <= e.Depth {
					break
				}
				id := f.ShortID()
				c.upcomingInInfo = c.upcomingInInfo || id == "upcoming_instance_label" || id == "days_of_week"
			}
		}
	}
	c.switchBelow = sw.Bounds.X1 > tm.Bounds.X2 && sw.Bounds.Y1 >= tm.Bounds.Y2 && sw.Bounds.Y1 == info.Bounds.Y1
	c.arrowAbove = arrow.Bounds.Y2 <= sw.Bounds.Y1 && arrow.Bounds.Y1 < tm.Bounds.Y2
	return c
}

func TestPixelAlarmListIsTheRealOne(t *testing.T) {
	real := realDump(t, "naviagent-google-clock-alarm-list.xml")
	p := pixelPhone()
	launch(t, p, pkgClock)
	sim := simDump(t, p)
	want := cardShapeOf(t, real, "5:30 AM") // off, no label, "Not scheduled"
	if got := cardShapeOf(t, sim, "8:30 AM"); got != want {
		t.Errorf("a card:\n got %+v\nwant %+v", got, want)
	}
	for _, es := range [][]uitree.Element{real, sim} {
		fab := es[find(t, es, "fab", func(e uitree.Element) bool { return e.ShortID() == "fab" })]
		if fab.Class != "android.widget.Button" || fab.Desc != "Add alarm" || fab.Text != "" || !fab.Clickable {
			t.Errorf("fab %+v", fab)
		}
		find(t, es, "the list", func(e uitree.Element) bool { return e.ShortID() == "alarm_recycler_view" })
		for _, tab := range []string{"Alarm", "Clock", "Timer", "Stopwatch", "Bedtime"} {
			find(t, es, tab+" tab", func(e uitree.Element) bool { return e.ShortID() == "tab_menu_"+strings.ToLower(tab) && e.Desc == tab })
		}
	}
}

// openCard is an expanded card read as a model reads it: the ids in
// order with their classes, the label line's words, the day buttons'.
type openCard struct {
	ids                  string
	labelText, labelDesc string
	labelAbove           bool
	arrowDesc            string
	deleteText           string
	days                 string
}

func openCardOf(t *testing.T, es []uitree.Element, at string) openCard {
	t.Helper()
	_, in := cardOf(t, es, at)
	var o openCard
	var ids []string
	var label, tm uitree.Element
	for _, e := range in {
		id := e.ShortID()
		if id == "" {
			continue
		}
		ids = append(ids, id+"="+e.Class)
		switch {
		case id == "edit_label":
			label, o.labelText, o.labelDesc = e, e.Text, e.Desc
		case id == "digital_clock":
			tm = e
		case id == "arrow":
			o.arrowDesc = strings.Replace(e.Desc, at, "T", 1)
		case id == "delete":
			o.deleteText = e.Text
		case strings.HasPrefix(id, "day_button_"):
			o.days += e.Text + ":" + e.Desc + " "
		}
	}
	o.ids = strings.Join(ids, " ")
	o.labelAbove = label.Bounds.Y2 <= tm.Bounds.Y1
	return o
}

func TestPixelExpandedAlarmIsTheRealOne(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	tapWhere(t, p, "fab", byDesc("Add alarm"))
	tapWhere(t, p, "toggle", byDesc(toTextMode))
	replaceADB(t, p, "5")
	tapWhere(t, p, "minute", pickerChip(t, p, "Minute"))
	replaceADB(t, p, "30")
	tapWhere(t, p, "PM", byText("PM"))
	tapWhere(t, p, "OK", okButton)
	sim := simDump(t, p)
	for _, name := range []string{"naviagent-google-clock-alarm-expanded.xml", "naviagent-google-clock-alarm-expanded-new.xml"} {
		real := realDump(t, name)
		at := "5:30 PM"
		if strings.HasSuffix(name, "-new.xml") {
			at = "7:30 PM"
		}
		want, got := openCardOf(t, real, at), openCardOf(t, sim, "5:30 PM")
		if got != want {
			t.Errorf("%s: the expanded card:\n got %+v\nwant %+v", name, got, want)
		}
	}
}

// pickerShape is the time picker read as a model reads it.
type pickerShape struct {
	ids        string // the ids in order, with their classes
	header     string
	faceDescs  string // the face's numbers' descriptions, sorted by text
	toggleDesc string
}

func pickerShapeOf(es []uitree.Element) pickerShape {
	var s pickerShape
	var ids, face []string
	for _, e := range es {
		id := e.ShortID()
		if id != "" && id != "circle_center" && id != "content" {
			ids = append(ids, id+"="+e.Class)
		}
		switch {
		case id == "header_title":
			s.header = e.Text
		case id == "material_timepicker_mode_button":
			s.toggleDesc = e.Desc
		case id == "" && e.Clickable && e.Class == "android.widget.TextView":
			face = append(face, e.Text+"="+e.Desc)
		}
	}
	s.ids = strings.Join(ids, " ")
	slices.Sort(face)
	s.faceDescs = strings.Join(face, ",")
	return s
}

func TestPixelTimePickerIsTheRealOne(t *testing.T) {
	p := pixelPhone()
	launch(t, p, pkgClock)
	tapWhere(t, p, "fab", byDesc("Add alarm"))
	want := pickerShapeOf(realDump(t, "naviagent-google-clock-timepicker-dial-hours.xml"))
	if got := pickerShapeOf(simDump(t, p)); got != want {
		t.Errorf("the picker on the hours:\n got %+v\nwant %+v", got, want)
	}
	tapWhere(t, p, "8 on the face", byDesc("8 o'clock"))
	want = pickerShapeOf(realDump(t, "naviagent-google-clock-timepicker-dial-minutes.xml"))
	if got := pickerShapeOf(simDump(t, p)); got != want {
		t.Errorf("the picker on the minutes:\n got %+v\nwant %+v", got, want)
	}
	tapWhere(t, p, "toggle", byDesc(toTextMode))
	want = pickerShapeOf(realDump(t, "naviagent-google-clock-timepicker-keyboard.xml"))
	sim := simDump(t, p)
	if got := pickerShapeOf(sim); got != want {
		t.Errorf("the picker typing the hour:\n got %+v\nwant %+v", got, want)
	}
	// Typing, the hour is an EditText without id with the focus, the
	// minute a chip described by its number, each over its caption.
	for _, es := range [][]uitree.Element{realDump(t, "naviagent-google-clock-timepicker-keyboard.xml"), sim} {
		edit := es[find(t, es, "hour field", func(e uitree.Element) bool { return e.Class == "android.widget.EditText" })]
		hour := es[find(t, es, "Hour", byText("Hour"))]
		chip := es[find(t, es, "minute chip", func(e uitree.Element) bool {
			return e.Class == "android.view.View" && e.Checkable && strings.HasSuffix(e.Desc, " minutes")
		})]
		minute := es[find(t, es, "Minute", byText("Minute"))]
		if edit.ResourceID != "" || !edit.Focused || edit.Bounds.Y2 != hour.Bounds.Y1 || chip.Bounds.Y2 != minute.Bounds.Y1 || chip.Text != "00" || chip.Desc != "0 minutes" {
			t.Errorf("typing: the hour %+v over %+v, the minute %+v over %+v", edit, hour, chip, minute)
		}
	}
	tapWhere(t, p, "minute", pickerChip(t, p, "Minute"))
	want = pickerShapeOf(realDump(t, "naviagent-google-clock-timepicker-keyboard-minute.xml"))
	if got := pickerShapeOf(simDump(t, p)); got != want {
		t.Errorf("the picker typing the minute:\n got %+v\nwant %+v", got, want)
	}
}

// The checks read the time the real pickers show, and the simulator's
// alike.
func TestPickerTimeReadsTheRealPickers(t *testing.T) {
	for name, want := range map[string]string{
		"naviagent-google-clock-timepicker-dial-hours.xml":      "19:30",
		"naviagent-google-clock-timepicker-dial-minutes.xml":    "22:15",
		"naviagent-google-clock-timepicker-keyboard.xml":        "13:00",
		"naviagent-google-clock-timepicker-keyboard-minute.xml": "13:00",
	} {
		if got, shown := postcond.PickerTime(realDump(t, name)); got != want {
			t.Errorf("%s: the picker reads %q (%q), want %s", name, got, shown, want)
		}
	}
}
