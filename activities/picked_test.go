package activities

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// tapWhere taps the first element on the screen that ok matches.
func (p *lookPhone) tapWhere(what string, ok func(uitree.Element) bool) {
	p.t.Helper()
	es, err := p.d.UITree(context.Background())
	if err != nil {
		p.t.Fatal(err)
	}
	for _, e := range es {
		if ok(e) {
			x, y := e.Bounds.Center()
			if err := p.d.Tap(context.Background(), x, y); err != nil {
				p.t.Fatal(err)
			}
			return
		}
	}
	p.t.Fatalf("no %s on the screen", what)
}

// stepOn runs a Step of task with act, decided on the screen now, the
// todo having made commits already.
func (p *lookPhone) stepOn(task string, act autoglm.Action, commits []string) StepResult {
	p.t.Helper()
	ctx := context.Background()
	es, err := p.d.UITree(ctx)
	if err != nil {
		p.t.Fatal(err)
	}
	b, _ := json.Marshal(es)
	ref, err := p.a.put(ctx, b, "application/json")
	if err != nil {
		p.t.Fatal(err)
	}
	res, err := p.a.Step(ctx, StepInput{Serial: p.sim.Serial(), Task: task, UITree: true, Act: &act,
		Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight, ScreenTreeRef: ref, Commits: commits})
	if err != nil {
		p.t.Fatal(err)
	}
	return res
}

// TestAnAlarmCommittedOnceIsNotCommittedAgainByALaterRun: a todo's run
// picks 8:30 AM on the time picker's clock face and taps OK; its verification
// does not see the alarm (its row past the list's edge), and the todo runs
// again with the first run's commits (TodoInput.Prior). The second run
// types the same time in the picker's text mode: its OK is the same commit
// and is refused, so the phone keeps one alarm at 08:30. The time picker's
// OK is named by the time it commits, whichever way the picker showed it.
func TestAnAlarmCommittedOnceIsNotCommittedAgainByALaterRun(t *testing.T) {
	p := newLookPhone(t, phonesim.SkinPixel)
	ctx := context.Background()
	task := "Create an alarm at 08:30"
	at := func() int {
		n := 0
		for _, a := range p.sim.State().Alarms {
			if a.Time == "08:30" {
				n++
			}
		}
		return n
	}
	if err := p.d.Launch(ctx, "Clock"); err != nil {
		t.Fatal(err)
	}
	had := at() // the phone's own alarms
	onDial := func(desc string) func(uitree.Element) bool {
		return func(e uitree.Element) bool { return e.Desc == desc && e.Clickable && !e.Checkable }
	}
	ok := func() autoglm.Action { return tapOn(p.find("material_timepicker_ok_button")) }
	period := func(ap string) func(uitree.Element) bool {
		return func(e uitree.Element) bool { return e.Class == "android.widget.CompoundButton" && e.Text == ap }
	}
	// The typed minute: the field or chip over the caption Minute.
	minute := func(e uitree.Element) bool {
		c := p.find("Minute")
		return e.Clickable && e.Bounds.X1 == c.Bounds.X1 && e.Bounds.Y2 == c.Bounds.Y1
	}

	// The first run, on the clock face.
	p.tapWhere("Add alarm", func(e uitree.Element) bool { return e.Desc == "Add alarm" })
	p.tapWhere("8 on the face", onDial("8 o'clock"))
	p.tapWhere("30 on the face", onDial("30 minutes"))
	p.tapWhere("AM", period("AM"))
	first := p.stepOn(task, ok(), nil)
	if first.Act == nil || first.Act.Result != "ok" || at() != had+1 {
		t.Fatalf("the first run's OK = %+v, %d alarms at 08:30 (%d before)", first.Act, at(), had)
	}
	if !strings.Contains(first.Act.Commit, "time 08:30") {
		t.Fatalf("the OK of the time picker is named %q, want the time it commits", first.Act.Commit)
	}

	// The second run, in text mode, with the first run's commits.
	p.tapWhere("Add alarm", func(e uitree.Element) bool { return e.Desc == "Add alarm" })
	p.tapWhere("text mode", func(e uitree.Element) bool { return e.Desc == "Switch to text input mode for the time input." })
	if err := p.d.Type(ctx, "8"); err != nil {
		t.Fatal(err)
	}
	p.tapWhere("minute", minute)
	if err := p.d.Type(ctx, "30"); err != nil {
		t.Fatal(err)
	}
	if !p.find("material_clock_period_am_button").Checked {
		p.tapWhere("AM", period("AM"))
	}
	second := p.stepOn(task, ok(), []string{first.Act.Commit})
	if second.Act == nil || second.Act.Refused == "" || at() != had+1 {
		t.Fatalf("the second run's OK = %+v, %d alarms at 08:30 (%d before); want it refused, one alarm more", second.Act, at(), had)
	}
	// Another time is another alarm.
	p.tapWhere("minute", minute)
	if err := p.d.Type(ctx, "45"); err != nil {
		t.Fatal(err)
	}
	if r := p.stepOn(task, ok(), []string{first.Act.Commit}); r.Act == nil || r.Act.Refused != "" || r.Act.Result != "ok" {
		t.Fatalf("an OK on 8:45 = %+v, want it sent", r.Act)
	}
}

func TestPickedTimeReadsBothWaysOfThePicker(t *testing.T) {
	el := func(id, text string, checked bool) uitree.Element {
		return uitree.Element{ResourceID: id, Text: text, Checked: checked, Class: "android.widget.TextView"}
	}
	field := func(id, text string) uitree.Element {
		return uitree.Element{ResourceID: id, Text: text, Class: "android.widget.EditText", Bounds: uitree.Bounds{X1: 200, Y1: 0, X2: 300, Y2: 100}}
	}
	spinner := uitree.Element{ResourceID: pickerAMPMSpinner, Class: "android.widget.Spinner", Bounds: uitree.Bounds{X1: 0, Y1: 0, X2: 100, Y2: 100}}
	spinText := uitree.Element{ResourceID: "android:id/text1", Text: "PM", Bounds: uitree.Bounds{X1: 10, Y1: 10, X2: 90, Y2: 90}}
	for _, c := range []struct {
		name  string
		elems []uitree.Element
		want  string
	}{
		{"dial, AM", []uitree.Element{el(pickerHours, "8", false), el(pickerMinutes, "30", false), el(pickerAM, "AM", true), el(pickerPM, "PM", false)}, "08:30"},
		{"dial, 12 AM", []uitree.Element{el(pickerHours, "12", false), el(pickerMinutes, "05", false), el(pickerAM, "AM", true)}, "00:05"},
		{"dial, PM", []uitree.Element{el(pickerHours, "8", false), el(pickerMinutes, "30", false), el(pickerAM, "AM", false), el(pickerPM, "PM", true)}, "20:30"},
		{"dial, 24-hour", []uitree.Element{el(pickerHours, "20", false), el(pickerMinutes, "30", false)}, "20:30"},
		{"keyboard, PM", []uitree.Element{field(pickerInputHour, "8"), field(pickerInputMinute, "30"), spinner, spinText}, "20:30"},
		{"keyboard, no minutes yet", []uitree.Element{field(pickerInputHour, "8"), field(pickerInputMinute, ""), spinner, spinText}, ""},
		{"no picker", []uitree.Element{field("com.example:id/title", "8")}, ""},
	} {
		got, _ := pickedTime(c.elems)
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// A vendor's wheels (One UI's alarm page): the value of each wheel in
	// its numberpicker_input, the hour's and minute's named after it.
	wheel := func(text string) []uitree.Element {
		return []uitree.Element{
			{Class: "android.widget.NumberPicker", Depth: 3},
			{ResourceID: "com.sec.android.app.clockpackage:id/numberpicker_input", Class: "android.widget.EditText", Text: text, Depth: 4},
		}
	}
	wheels := slices.Concat(wheel("PM"), wheel("7, Hour"), wheel("05, Minute"), []uitree.Element{field("com.sec.android.app.clockpackage:id/alarm_name", "Gym")})
	if got, _ := pickedTime(wheels); got != "19:05" {
		t.Errorf("wheels: %q, want 19:05", got)
	}
	if got := commitContent(wheels); strings.Join(got, "|") != "time 19:05|Gym" {
		t.Errorf("wheels' content = %q", got)
	}
	// The keyboard's fields are the time, not typed content of their own.
	if got := commitContent([]uitree.Element{field(pickerInputHour, "8"), field(pickerInputMinute, "30"), spinner, spinText, field("x:id/label", "Gym")}); strings.Join(got, "|") != "time 20:30|Gym" {
		t.Errorf("content = %q", got)
	}
}

// Google Clock's Material picker, as its real dumps show it: OK commits
// the time the chips or the typed field and chip show, the same name on
// the face and typed.
func TestCommitContentOfGoogleClocksPicker(t *testing.T) {
	for name, want := range map[string]string{
		"naviagent-google-clock-timepicker-dial-hours.xml": "time 19:30",
		"naviagent-google-clock-timepicker-keyboard.xml":   "time 13:00",
	} {
		b, err := os.ReadFile(filepath.Join("..", "internal", "realscreens", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		es, err := uitree.ParseXML(b)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(commitContent(es), "|"); got != want {
			t.Errorf("%s: content %q, want %q", name, got, want)
		}
	}
}
