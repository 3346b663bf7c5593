package phonesim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The vendor skins' Clock (layout_vendor_clock.go) on what checks read:
// a row's time, its 上午/下午 or AM/PM, its label and its switch; the add
// and save controls by their words; the wheels of the edit page, turned by
// a swipe or a tap on a neighbouring value, and typed on One UI.

// wheelValue is what the n-th NumberPicker of the screen shows.
func wheelValue(t *testing.T, es []uitree.Element, n int) (uitree.Element, string) {
	t.Helper()
	k := 0
	for i, e := range es {
		if e.Class != numberPicker {
			continue
		}
		if k++; k < n {
			continue
		}
		for _, c := range es[i+1:] {
			if strings.HasSuffix(c.ResourceID, "numberpicker_input") {
				v, _, _ := strings.Cut(c.Text, ",")
				return e, v
			}
		}
	}
	t.Fatalf("no wheel %d", n)
	return uitree.Element{}, ""
}

// turnTo swipes the n-th wheel until it shows want.
func turnTo(t *testing.T, p *Phone, n int, want string) {
	t.Helper()
	for range 70 {
		w, got := wheelValue(t, simDump(t, p), n)
		if got == want {
			return
		}
		x, y := w.Bounds.Center()
		sh(t, p, fmt.Sprintf("input swipe %d %d %d %d", x, y+80, x, y-80)) // one value on
	}
	t.Fatalf("wheel %d never showed %s", n, want)
}

func TestVendorAlarmRows(t *testing.T) {
	for _, c := range []struct {
		skin        Skin
		app, mark   string
		switchClass string
		addText     string
	}{
		{SkinMIUI, "时钟", "上午", miuiSlidingButton, miuiAddAlarm},
		{SkinOneUI, "Clock", "AM", "android.widget.Switch", oneuiAlarmAdd},
	} {
		p := New(Config{Skin: c.skin})
		tapOn(t, p, c.app)
		es := simDump(t, p)
		ti := find(t, es, "the 8:30 row", func(e uitree.Element) bool { return e.Text == "8:30" })
		row := ti
		for es[row].Depth >= es[ti].Depth {
			row--
		}
		var texts []string
		sw := -1
		for j := row + 1; j < len(es) && es[j].Depth > es[row].Depth; j++ {
			if es[j].Checkable {
				sw = j
			} else if es[j].Text != "" {
				texts = append(texts, es[j].Text)
			}
		}
		if got := strings.Join(texts, " "); !strings.Contains(got, c.mark) || !strings.Contains(got, "Gym") {
			t.Errorf("%s: the 8:30 row reads %q, want its %s and the label Gym", c.skin, got, c.mark)
		}
		if sw < 0 || es[sw].Class != c.switchClass || es[sw].Checked || es[sw].Text != "" {
			t.Fatalf("%s: the 8:30 row's switch: %+v, want a text-less %s that is off", c.skin, sw, c.switchClass)
		}
		x, y := es[sw].Bounds.Center()
		sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
		if a := p.State().Alarms[1]; !a.Enabled || a.Time != "08:30" {
			t.Errorf("%s: the switch tapped, the alarm is %+v", c.skin, a)
		}
		find(t, simDump(t, p), "the add button", func(e uitree.Element) bool { return e.Clickable && e.Desc == c.addText })
		// The checks name a row's switch by its time, read with its mark, or
		// by its label: the 08:30 alarm is on now, and a 21:30 one that is
		// off is not at 09:30.
		p.mu.Lock()
		p.st.Alarms = append(p.st.Alarms, Alarm{Time: "21:30", Label: "Late"})
		p.mu.Unlock()
		on, off := true, false
		screen := postcond.Observed{Final: postcond.Screen{App: "Clock", Elements: simDump(t, p)}}
		for _, k := range []struct {
			check postcond.Check
			held  bool
		}{
			{postcond.Check{Kind: postcond.Switch, Label: "08:30", On: &on}, true},
			{postcond.Check{Kind: postcond.Switch, Label: "Gym", On: &on}, true},
			{postcond.Check{Kind: postcond.Switch, Label: "07:00", On: &off}, false},
			{postcond.Check{Kind: postcond.Switch, Label: "21:30", On: &off}, true},
			{postcond.Check{Kind: postcond.Switch, Label: "09:30", On: &off}, false},
			{postcond.Check{Kind: postcond.Switch, Label: "Late", On: &on}, false},
			{postcond.Check{Kind: postcond.ElementExists, Text: "21:30"}, true},
			{postcond.Check{Kind: postcond.ElementExists, Text: "09:30"}, false},
		} {
			if r := postcond.Eval([]postcond.Check{k.check}, screen)[0]; r.Held != k.held {
				t.Errorf("%s: %s: held=%t (%s), want %t", c.skin, k.check, r.Held, r.Evidence, k.held)
			}
		}
	}
}

// On MIUI a new alarm is set on the wheels: swiped, or stepped by a tap on
// the value after; 备注 takes the label and ✓ saves it. 删除闹钟 on a saved
// alarm's page deletes it.
func TestMIUINewAlarmOnTheWheels(t *testing.T) {
	p := New(Config{Skin: SkinMIUI})
	tapOn(t, p, "时钟")
	tapWhere(t, p, "add", byDesc(miuiAddAlarm))
	turnTo(t, p, 1, "下午")
	turnTo(t, p, 2, "9")
	turnTo(t, p, 3, "45")
	// A long swipe turns the minute wheel by several values.
	es := simDump(t, p)
	w, _ := wheelValue(t, es, 3)
	x, y := w.Bounds.Center()
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d", x, y+200, x, y-400))
	if _, got := wheelValue(t, simDump(t, p), 3); got != "49" {
		t.Errorf("a 600-unit swipe on 45 shows %s, want 49", got)
	}
	tapWhere(t, p, "the value before", func(e uitree.Element) bool { return e.Class == "android.widget.Button" && e.Text == "48" })
	tapWhere(t, p, "the value before", func(e uitree.Element) bool { return e.Class == "android.widget.Button" && e.Text == "47" })
	tapWhere(t, p, "the value before", func(e uitree.Element) bool { return e.Class == "android.widget.Button" && e.Text == "46" })
	tapWhere(t, p, "the value before", func(e uitree.Element) bool { return e.Class == "android.widget.Button" && e.Text == "45" })
	tapWhere(t, p, "备注", func(e uitree.Element) bool { return e.Hint == miuiNoteTitle })
	typeADB(t, p, "Piano")
	es = simDump(t, p)
	if got, shown := postcond.PickerTime(es); got != "21:45" {
		t.Errorf("the wheels read %q (%q), want 21:45", got, shown)
	}
	tapWhere(t, p, "✓", byDesc("确定"))
	st := p.State()
	if len(st.Alarms) != 3 || st.Alarms[2] != (Alarm{Time: "21:45", Label: "Piano", Enabled: true}) || st.Screen.Page != pageAlarms {
		t.Fatalf("after ✓: %+v on %s", st.Alarms, st.Screen.Page)
	}
	tapWhere(t, p, "the 9:45 row", func(e uitree.Element) bool { return e.Text == "9:45" })
	tapWhere(t, p, "删除闹钟", func(e uitree.Element) bool { return e.Text == miuiDeleteAlarm })
	if st := p.State(); len(st.Alarms) != 2 {
		t.Errorf("after 删除闹钟: %+v", st.Alarms)
	}
}

// On One UI the hour and minute are typed after a tap on their value, AM/PM
// is turned, Alarm name takes the label and Save saves it.
func TestOneUINewAlarmTyped(t *testing.T) {
	p := New(Config{Skin: SkinOneUI})
	tapOn(t, p, "Clock")
	tapWhere(t, p, "add", byDesc(oneuiAlarmAdd))
	tapWhere(t, p, "hour", func(e uitree.Element) bool { return strings.HasSuffix(e.Text, ", Hour") })
	typeADB(t, p, "6")
	tapWhere(t, p, "minute", func(e uitree.Element) bool { return strings.HasSuffix(e.Text, ", Minute") })
	typeADB(t, p, "05")
	turnTo(t, p, 1, "PM")
	es := simDump(t, p)
	if _, h := wheelValue(t, es, 2); h != "6" {
		t.Errorf("the hour typed 6 shows %q", h)
	}
	if got, _ := postcond.PickerTime(es); got != "18:05" {
		t.Errorf("the picker reads %q, want 18:05", got)
	}
	tapWhere(t, p, "name", byID(SkinOneUI.Package("Clock")+":id/alarm_name"))
	typeADB(t, p, "Tea")
	tapWhere(t, p, "Save", byID(SkinOneUI.Package("Clock")+":id/menu_done"))
	st := p.State()
	if len(st.Alarms) != 3 || st.Alarms[2] != (Alarm{Time: "18:05", Label: "Tea", Enabled: true}) {
		t.Fatalf("after Save: %+v", st.Alarms)
	}
	// A time typed that is no hour leaves the wheel as it was.
	tapWhere(t, p, "add", byDesc(oneuiAlarmAdd))
	_, before := wheelValue(t, simDump(t, p), 2)
	tapWhere(t, p, "hour", func(e uitree.Element) bool { return strings.HasSuffix(e.Text, ", Hour") })
	typeADB(t, p, "21")
	tapWhere(t, p, "minute", func(e uitree.Element) bool { return strings.HasSuffix(e.Text, ", Minute") })
	if _, h := wheelValue(t, simDump(t, p), 2); h != before {
		t.Errorf("21 typed into the hour: it shows %q, want %q kept", h, before)
	}
}

// The commit check reads the wheels as one time: ✓ or Save on 9:45 PM is
// refused for a todo that wants 09:45 and let through for 21:45.
func TestVendorWheelsAreReadAsOneTime(t *testing.T) {
	for _, c := range []struct {
		skin     Skin
		app, add string
		ampm     string
		commit   func(uitree.Element) bool
	}{
		{SkinMIUI, "时钟", miuiAddAlarm, "下午", byDesc("确定")},
		{SkinOneUI, "Clock", oneuiAlarmAdd, "PM", byID(SkinOneUI.Package("Clock") + ":id/menu_done")},
	} {
		p := New(Config{Skin: c.skin})
		tapOn(t, p, c.app)
		tapWhere(t, p, "add", byDesc(c.add))
		turnTo(t, p, 1, c.ampm)
		turnTo(t, p, 2, "9")
		turnTo(t, p, 3, "45")
		tapWhere(t, p, "the label field", func(e uitree.Element) bool { return e.IsField() && e.Hint != "" })
		typeADB(t, p, "Run")
		es := simDump(t, p)
		ok := es[find(t, es, "commit", c.commit)]
		on := true
		for want, refused := range map[string]bool{"09:45": true, "21:45": false} {
			why := postcond.WrongTarget(postcond.Target{Task: "Set an alarm for " + want, Control: ok, Elements: es,
				Expect: []postcond.Check{{Kind: postcond.ElementExists, Text: want}}})
			if (why != "") != refused {
				t.Errorf("%s: commit on 9:45 %s for a %s alarm: %q", c.skin, c.ampm, want, why)
			}
			// The wheels' values name no record: a labelled alarm's row
			// check is judged by the time and the label alone.
			why = postcond.WrongTarget(postcond.Target{Task: "Create an alarm at " + want + " labelled Run", Control: ok, Elements: es,
				Expect: []postcond.Check{{Kind: postcond.RowShows, Row: want, Shows: "Run"}, {Kind: postcond.Switch, Label: want, On: &on}}})
			if (why != "") != refused {
				t.Errorf("%s: commit on 9:45 %s labelled Run for a %s alarm labelled Run: %q", c.skin, c.ampm, want, why)
			}
		}
	}
}

// One UI deletes from the list's select mode: a long press on a card ticks
// it, a tap ticks another, Delete removes the ticked alarms; Back leaves
// select mode with every alarm kept. A press that is not held does nothing.
func TestOneUIDeletesFromSelectMode(t *testing.T) {
	p := New(Config{Skin: SkinOneUI})
	tapOn(t, p, "Clock")
	card := func(at string) (int, int) {
		es := simDump(t, p)
		return es[find(t, es, at, func(e uitree.Element) bool { return e.Text == at })].Bounds.Center()
	}
	x, y := card("7:00")
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 100", x, y, x, y))
	if st := p.State(); st.Screen.Page != pageAlarms {
		t.Fatalf("a short press opened %q", st.Screen.Page)
	}
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 800", x, y, x, y))
	es := simDump(t, p)
	find(t, es, "the count", func(e uitree.Element) bool { return e.Text == "1 selected" })
	sh(t, p, "input keyevent 4")
	if st := p.State(); st.Screen.Page != pageAlarms || len(st.Alarms) != 2 {
		t.Fatalf("Back from select mode: %q, %+v", st.Screen.Page, st.Alarms)
	}
	sh(t, p, fmt.Sprintf("input swipe %d %d %d %d 800", x, y, x, y))
	x, y = card("8:30")
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	find(t, simDump(t, p), "the count", func(e uitree.Element) bool { return e.Text == "2 selected" })
	sh(t, p, fmt.Sprintf("input tap %d %d", x, y))
	tapWhere(t, p, "Delete", func(e uitree.Element) bool { return e.Text == "Delete" && e.Clickable })
	if st := p.State(); len(st.Alarms) != 1 || st.Alarms[0].Time != "08:30" || st.Screen.Page != pageAlarms {
		t.Errorf("after Delete: %+v on %q", st.Alarms, st.Screen.Page)
	}
}
