package modelserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"

	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// Alarms that exist are switched, read and used as the base of a new one
// whatever the goal names them by: their time, label or place in the list,
// in English or Chinese, terse or polite. What only the phone knows (the
// time of "my Gym alarm") is read first; the todo that uses it is checked
// once it is read.
func TestReaderExistingAlarms(t *testing.T) {
	const readGym = "Read the time of the alarm labelled Gym in Clock ⟨the answer is a time seen on a screen⟩"
	const readSecond = "Read the time of the second alarm in Clock ⟨the answer is time #2 seen on a screen⟩"
	checkReadings(t, []struct{ goal, want string }{
		{"Switch the 07:00 alarm off", `Turn off the existing 07:00 alarm ⟨switch "07:00" is off⟩`},
		{"关掉07:00的闹钟", `Turn off the existing 07:00 alarm ⟨switch "07:00" is off⟩`},
		{"Would you please enable the existing 08:30 alarm?", `Turn on the existing 08:30 alarm ⟨switch "08:30" is on⟩`},
		{"Turn on my Gym alarm", readGym + " | Turn on the existing alarm at the time read (the alarm labelled Gym) ⟨⟩"},
		{"gym alarm on", "Read the time of the alarm labelled gym in Clock ⟨the answer is a time seen on a screen⟩ | Turn on the existing alarm at the time read (the alarm labelled gym) ⟨⟩"},
		{"Disable the second alarm", readSecond + " | Turn off the existing alarm at the time read (the second alarm) ⟨⟩"},
		{"打开第二个闹钟", readSecond + " | Turn on the existing alarm at the time read (the second alarm) ⟨⟩"},
		{"第二个闹钟几点响？", readSecond},
		{"2nd alarm time", readSecond},
		{"What's the label on the 08:30 alarm?", `Read the label of the 08:30 alarm in Clock ⟨the answer is a label seen on a screen⟩`},
		{"第一个闹钟叫什么？", `Read the label of the first alarm in Clock ⟨the answer is label #1 seen on a screen⟩`},
		{"Wake me 20 minutes after the 07:00 alarm", `Create an alarm at 07:20 (20 minutes after 07:00) ⟨"07:20" is shown, a switch "07:20" is on⟩`},
		{"Add an alarm half an hour before my Gym alarm", readGym + " | Create an alarm 30 minutes before the time read (half an hour before the alarm labelled Gym) ⟨⟩"},
		{"比第二个闹钟晚15分钟，再设一个闹钟", readSecond + " | Create an alarm 15 minutes after the time read (15 minutes after the second alarm) ⟨⟩"},
		{"Set an alarm two hours later than the first alarm", "Read the time of the first alarm in Clock ⟨the answer is time #1 seen on a screen⟩ | Create an alarm 120 minutes after the time read (two hours later than the first alarm) ⟨⟩"},
		{"erase the Gym alarm", "Delete the alarm labelled Gym in Clock ⟨Clock is in front, \"Gym\" is not shown⟩"},
		{"please set an alarm at 26:10", `Create an alarm at 26:10, which is no time of day ⟨"26:10" is shown⟩`},
		{"Turn off the alarm", "ask"},
	})
}

// A note that exists is renamed, added to and read; an addition is
// checked on the note's own editor, where its saved text shows.
func TestReaderExistingNotes(t *testing.T) {
	const open = `Open the note "Shopping list" to check it holds "%s" ⟨Notes is in front, field "Title" holds "Shopping list", field "Body" holds "%s"⟩`
	checkReadings(t, []struct{ goal, want string }{
		{"把Shopping list笔记重命名为购物", `Rename the note "Shopping list" to "购物" ⟨Notes is in front, "Notes" is shown, "购物" is shown, "Shopping list" is not shown⟩`},
		{"Please change the title of the Shopping list note to Errands and keep its text", `Rename the note "Shopping list" to "Errands" and keep its text ⟨Notes is in front, "Notes" is shown, "Errands" is shown, "Shopping list" is not shown⟩`},
		{"Append tea to the note Shopping list", `Add "tea" to the note "Shopping list" ⟨Notes is in front, "Shopping list" is shown⟩ | ` + strings.ReplaceAll(open, "%s", "tea")},
		{"put honey in my Shopping list note", `Add "honey" to the note "Shopping list" ⟨Notes is in front, "Shopping list" is shown⟩ | ` + strings.ReplaceAll(open, "%s", "honey")},
		{"把面包加到Shopping list笔记里", `Add "面包" to the note "Shopping list" ⟨Notes is in front, "Shopping list" is shown⟩ | ` + strings.ReplaceAll(open, "%s", "面包")},
		{"first note's title?", `Read the title of the first note in Notes ⟨the answer is label #1 seen on a screen⟩`},
		{"最后一个笔记的标题", `Read the title of the last note in Notes ⟨the answer is the last label seen on a screen⟩`},
		{"erase my Shopping list note", `Delete the note "Shopping list" ⟨Notes is in front, "Shopping list" is not shown⟩`},
	})
}

// A switch flipped or brightness moved by an amount depends on the state
// now: read first, then written with a check on the exact end state.
func TestReaderRelativeSettings(t *testing.T) {
	const readB = "Read the brightness in Settings ⟨the answer is a number seen on a screen⟩"
	checkReadings(t, []struct{ goal, want string }{
		{"flip bluetooth", "Read the state of the Bluetooth switch ⟨⟩ | Turn Bluetooth to the opposite of what was read ⟨⟩"},
		{"Could you invert the airplane mode setting?", "Read the state of the Airplane mode switch ⟨⟩ | Turn Airplane mode to the opposite of what was read ⟨⟩"},
		{"把蓝牙反过来", "Read the state of the Bluetooth switch ⟨⟩ | Turn Bluetooth to the opposite of what was read ⟨⟩"},
		{"raise the brightness by 20 points", readB + " | Set brightness 20 points above what was read (by 20 points) ⟨⟩"},
		{"亮度调高10个百分点", readB + " | Set brightness 10 points above what was read (10个百分点) ⟨⟩"},
		{"make the screen 40 points darker", readB + " | Set brightness 40 points below what was read (40 points darker) ⟨⟩"},
		{"Set brightness to 40%", `Set brightness to 40% ⟨field "Brightness" holds "40%"⟩`},
	})
}

// Once the value is read, the replan writes the todo that uses it in the
// planner's own words, with the check on the end state; a value that
// leaves the phone's range is asked about.
func TestReplanWritesReadValueIn(t *testing.T) {
	for _, c := range []struct {
		read, result, next string
		want               string
		check              postcond.Check
	}{
		{"Read the time of the alarm labelled Gym in Clock", "08:30", "Turn on the existing alarm at the time read (the alarm labelled Gym)",
			"Turn on the existing 08:30 alarm", postcond.Check{Kind: postcond.Switch, Label: "08:30", On: on(true)}},
		{"Read the time of the second alarm in Clock", "08:30", "Create an alarm 45 minutes before the time read (45 minutes before the second alarm)",
			"Create an alarm at 07:45", postcond.Check{Kind: postcond.ElementExists, Text: "07:45"}},
		{"Read the brightness in Settings", "Brightness 50%", "Set brightness 30 points below what was read (by 30 points)",
			"Set brightness to 20%", postcond.Check{Kind: postcond.FieldHolds, Field: "Brightness", Value: "20%"}},
		{"Read the state of the Wi-Fi switch", "Wi-Fi is on", "Turn Wi-Fi to the opposite of what was read",
			"Turn off Wi-Fi", postcond.Check{Kind: postcond.Switch, Label: "Wi-Fi", On: on(false)}},
		{"Read the state of the Bluetooth switch", "Bluetooth is off", "Turn Bluetooth to the opposite of what was read",
			"Turn on Bluetooth", postcond.Check{Kind: postcond.Switch, Label: "Bluetooth", On: on(true)}},
	} {
		a := replanGoal(planContext{Goal: "g", Done: []doneTodo{{Todo: c.read, Status: "done", Result: c.result}}, Remaining: []string{c.next}, replan: true})
		if a.Status != "replanned" || len(a.Plan) != 1 || a.Plan[0].Todo != c.want || len(a.Plan[0].Expect) == 0 || a.Plan[0].Expect[0].String() != c.check.String() {
			t.Errorf("after %q read %q, %q replanned as %+v, want %q ⟨%s⟩", c.read, c.result, c.next, a, c.want, c.check.String())
		}
	}
	a := replanGoal(planContext{Goal: "g", Done: []doneTodo{{Todo: "Read the brightness in Settings", Status: "done", Result: "Brightness 90%"}},
		Remaining: []string{"Set brightness 20 points above what was read (by 20 points)"}, replan: true})
	if a.Status != "ask_user" {
		t.Errorf("brightness 90%% + 20 points replanned as %+v, want a question", a)
	}
}

var alarmList = []uitree.Listed{
	el("TextView", "Alarm", 500, 60, "id=title"),
	el("TextView", "07:00 Wake up", 300, 142),
	el("Switch", "", 850, 142, "clickable", "on", "desc=07:00 Wake up"),
	el("TextView", "08:30 Gym", 300, 217),
	el("Switch", "", 850, 217, "clickable", "off", "desc=08:30 Gym"),
	el("Button", "Add alarm", 500, 900, "clickable", "id=add_alarm"),
}

var notesList = []uitree.Listed{
	el("TextView", "Notes", 500, 60, "id=title"),
	el("TextView", "Shopping list", 500, 142, "clickable"),
	el("TextView", "Trip", 500, 217, "clickable"),
	el("Button", "New note", 500, 900, "clickable", "id=new_note"),
}

// The executor persona finds the alarm or note a todo names by its place,
// time or label, reads it, and switches an alarm without creating one.
func TestExecutorExistingAlarmsAndNotes(t *testing.T) {
	for _, c := range []struct{ task, want string }{
		{"Read the time of the second alarm in Clock", "finish: 08:30"},
		{"Read the time of the last alarm in Clock", "finish: 08:30"},
		{"Read the time of the alarm labelled Gym in Clock", "finish: 08:30"},
		{"Read the label of the first alarm in Clock", "finish: Wake up"},
		{"Read the label of the 08:30 alarm in Clock", "finish: Gym"},
		{"Turn on the existing 08:30 alarm", "Tap 850,217"},
		{"Turn off the existing 07:00 alarm", "Tap 850,142"},
		{"Turn on the existing 07:00 alarm", "finish: The 07:00 Wake up alarm is on"},
		{"Turn on the existing 09:15 alarm", "finish: Cannot do it: there is no the 09:15 alarm on this phone"},
	} {
		if got := answer(t, screen(c.task, "Clock", "", "", alarmList...)); shortAct(got) != c.want {
			t.Errorf("%q on the alarm list: %s, want %s", c.task, shortAct(got), c.want)
		}
	}
	for _, c := range []struct{ task, want string }{
		{"Read the title of the second note in Notes", "finish: Trip"},
		{"Read the title of the last note in Notes", "finish: Trip"},
		{`Read the body of the note "Trip" in Notes`, "Tap 500,217"},
		{`Rename the note "Shopping list" to "Errands"`, "Tap 500,142"},
		{`Open the note "Trip"`, "Tap 500,217"},
	} {
		if got := answer(t, screen(c.task, "Notes", "", "", notesList...)); shortAct(got) != c.want {
			t.Errorf("%q on the notes list: %s, want %s", c.task, shortAct(got), c.want)
		}
	}
	editor := []uitree.Listed{
		el("TextView", "Edit note", 500, 60, "id=title"),
		el("EditText", "Shopping list", 500, 142, "clickable", "id=note_title"),
		el("EditText", "Milk, eggs, bread", 500, 300, "clickable", "id=note_body"),
		el("Button", "Save", 500, 500, "clickable", "id=save_button"),
	}
	if got := answer(t, screen(`Read the body of the note "Shopping list" in Notes`, "Notes", "Tap 500,142", "ok", editor...)); shortAct(got) != "finish: Milk, eggs, bread" {
		t.Errorf("reading the open note: %s", shortAct(got))
	}
}

// shortAct writes an action short: "finish: msg", "Tap x,y", "Type text".
func shortAct(a autoglm.Action) string {
	switch {
	case a.Element != nil:
		return fmt.Sprintf("%s %d,%d", a.Name, a.Element[0], a.Element[1])
	case a.Name == "finish":
		return "finish: " + a.Message
	case a.Text != "":
		return a.Name + " " + a.Text
	}
	return a.Name
}
