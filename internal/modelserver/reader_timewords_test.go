package modelserver

import (
	"strings"
	"testing"
)

// Times in words, English and Chinese, plan to the same HH:MM a digital
// time does; a word for "a little" is never a time.
func TestWordTimes(t *testing.T) {
	for _, c := range []struct{ goal, want string }{
		{"Set an alarm for quarter past seven", "07:15"},
		{"Wake me at half past six", "06:30"},
		{"alarm at quarter to eight pm", "19:45"},
		{"Set an alarm for ten to nine in the evening", "20:50"},
		{"Set an alarm for seven thirty", "07:30"},
		{"Create an alarm at seven o'clock labelled Run", "07:00"},
		{"设一个七点一刻的闹钟", "07:15"},
		{"设置晚上九点三刻的闹钟", "21:45"},
		{"设一个八点半的闹钟", "08:30"},
		{"Turn off the half past eight alarm", "08:30"},
	} {
		ps := readGoal(c.goal)
		if len(ps) != 1 || ps[0].Ask != "" || !strings.Contains(ps[0].Todo, c.want) || len(ps[0].Expect) == 0 || !strings.Contains(ps[0].Expect[0].String(), c.want) {
			t.Errorf("%q: planned %+v, want a todo and a check at %s", c.goal, ps, c.want)
		}
	}
	if got := hhmm("把亮度调高一点"); got != "" {
		t.Errorf("\"调高一点\" read as the time %s", got)
	}
}

// A question whether an alarm is on plans a read checked on that alarm's
// own switch, however the alarm is named; the todo read again (as a replan
// does) gives the same check.
func TestAlarmStateReads(t *testing.T) {
	for _, c := range []struct{ goal, want string }{
		{"Is my Gym alarm on?", `"Gym"`},
		{"Check whether my Wake up alarm is enabled", `"Wake up"`},
		{"Tell me if the 7:00 alarm is on", `"07:00"`},
		{"Is the last alarm active?", "the last switch"},
		{"第二个闹钟开着吗", "switch #2"},
	} {
		ps := readGoal(c.goal)
		if len(ps) != 1 || len(ps[0].Expect) != 1 || !strings.Contains(ps[0].Expect[0].String(), c.want) {
			t.Fatalf("%q: planned %+v, want a state check on %s", c.goal, ps, c.want)
		}
		again := readOne(ps[0].Todo)
		if len(again.Expect) != 1 || again.Expect[0] != ps[0].Expect[0] {
			t.Errorf("%q read again: %+v, want %v", ps[0].Todo, again, ps[0].Expect)
		}
		if in := parseIntent(ps[0].Todo); in.What != "alarm state" {
			t.Errorf("%q: the executor reads %q, want the alarm's state", ps[0].Todo, in.What)
		}
	}
}

// The todo that opens a note to check an addition keeps its checks when a
// replan reads it again, and a send after a read in Chinese sends the value
// read.
func TestNoteOpenReadAgainAndSendRead(t *testing.T) {
	ps := readGoal("在Shopping list笔记里加上牛奶")
	if len(ps) != 2 {
		t.Fatalf("planned %+v", ps)
	}
	again := readOne(ps[1].Todo)
	if again.Ask != "" || len(again.Expect) != len(ps[1].Expect) || again.Expect[2] != ps[1].Expect[2] {
		t.Errorf("%q read again: %+v, want %v", ps[1].Todo, again, ps[1].Expect)
	}
	if in := parseIntent(ps[1].Todo); in.Kind != kindNoteOpen || in.Title != "Shopping list" {
		t.Errorf("%q: the executor reads %+v", ps[1].Todo, in)
	}
	ps = readGoal("查看第一个闹钟的时间并发给妈妈")
	if len(ps) != 2 || ps[1].Todo != "Send Mom a message with what was read" {
		t.Errorf("planned %+v, want the time read, then sent to Mom", ps)
	}
}
