package verify

import (
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func TestExpectReadsTheItemATodoCreates(t *testing.T) {
	row := func(s string) uitree.Element { return uitree.Element{Text: s, Bounds: uitree.Bounds{Y1: 1, Y2: 2}} }
	for _, tc := range []struct {
		task, kind, hit, miss string
	}{
		{"Create a note titled n11 with the text x", EffectNote, "n11", "n1"},
		{"Create a note titled Trip with pack passport, charger", EffectNote, "Trip", "Trip 2"},
		{`Write a new note called "Groceries, week 3" saying milk`, EffectNote, "Groceries, week 3", "Groceries"},
		{"Make a note named Ideas", EffectNote, "ideas", "Idea"},
		{"新建笔记：周五交报告", EffectNote, "周五交报告", "周五"},
		{"Create an alarm at 07:30 labelled Gym", EffectAlarm, "07:30 Gym", "07:30 Run"},
		{"Set an alarm for 6:45pm called Run", EffectAlarm, "18:45 Run", "06:45 Run"},
		{"Add an alarm at 12am", EffectAlarm, "00:00", "12:00"},
		{"设置一个早上6:30的闹钟", EffectAlarm, "06:30", "16:30"},
		{"Send Alice a message saying m5", EffectMessage, "m5", "m50"},
		{`Text Bob "Hi, I'm late"`, "", "", ""},
		{`Tell Zhang San: the meeting moved`, EffectMessage, "the meeting moved", "the meeting"},
		{"Add butter to the note Shopping list", "", "", ""},
		{"Delete the alarm at 07:00", "", "", ""},
		{"Read the time of the first alarm in Clock", "", "", ""},
		{"Turn on Bluetooth", "", "", ""},
		{"Create a note", "", "", ""},
	} {
		e, ok := Expect(tc.task)
		if tc.kind == "" {
			if ok && e.Kind != EffectMessage {
				t.Errorf("%q: expected no item, got %s %s", tc.task, e.Kind, e.Describe)
			}
			continue
		}
		if !ok || e.Kind != tc.kind {
			t.Errorf("%q: got %v %+v, want %s", tc.task, ok, e.Kind, tc.kind)
			continue
		}
		hit, miss := row(tc.hit), row(tc.miss)
		if tc.kind == EffectAlarm {
			// An alarm is its row's switch, labelled with its time, on.
			hit, miss = alarmSwitch(tc.hit, true), alarmSwitch(tc.miss, true)
			if e.Match(alarmSwitch(tc.hit, false)) || e.Match(row(tc.hit)) {
				t.Errorf("%q: an alarm switched off, or a row's text alone, passes for one that rings", tc.task)
			}
		}
		if !e.Match(hit) || e.Match(miss) {
			t.Errorf("%q (%s): matches %q %t, %q %t", tc.task, e.Describe, tc.hit, e.Match(hit), tc.miss, e.Match(miss))
		}
	}
}

func alarmSwitch(label string, on bool) uitree.Element {
	return uitree.Element{Class: "android.widget.Switch", Desc: label, Checkable: true, Checked: on, Bounds: uitree.Bounds{Y1: 1, Y2: 2}}
}

func TestEffectShowsOnlyOnItsAppsScreens(t *testing.T) {
	e, _ := Expect("Create a note titled n1 with the text x")
	if !e.Shows("Notes", "com.example.notes", nil) || !e.Shows("Keep Notes", "com.google.android.keep", nil) || e.Shows("Messages", "com.google.android.apps.messaging", nil) {
		t.Fatal("note screens")
	}
	m, _ := Expect("Send Alice a message saying hi")
	alice := []uitree.Element{{Text: "Alice Chen"}}
	if !m.Shows("Messages", "com.google.android.apps.messaging", alice) || m.Shows("Messages", "com.google.android.apps.messaging", []uitree.Element{{Text: "Bob Li"}}) {
		t.Fatal("a message shows in its contact's conversation only")
	}
	if !m.Repeatable || e.Repeatable {
		t.Fatal("repeatable")
	}
}
