package modelserver

import (
	"reflect"
	"testing"
)

// TestPlaceholderIsWhatWasRead: a pronoun after a read ("send it", "that",
// "the result", "它", "这个") names the value the read produced, never the
// result of a todo before the read: while the read is still to run, the
// todo that sends it keeps its placeholder, and a goal whose read never
// succeeded sends nothing.
func TestPlaceholderIsWhatWasRead(t *testing.T) {
	send := "Send 李四 a message with what was read"
	read := "Read the time of the first alarm in Clock"
	for _, c := range []struct {
		name string
		pc   planContext
		want wantAnswer
	}{
		{"read still to run", planContext{Goal: "x",
			Done:      []doneTodo{{Todo: "Turn off Bluetooth", Status: "done", Result: "Bluetooth is off"}},
			Remaining: []string{read, send}},
			wantAnswer{Status: "replanned", Plan: []string{read, send}}},
		{"read retried", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn off Bluetooth", Status: "done", Result: "Bluetooth is off"},
				{Todo: read, Status: "failed", Result: "stuck"}},
			Remaining: []string{send}},
			wantAnswer{Status: "replanned", Plan: []string{read, send}}},
		{"read done after a switch", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn off Bluetooth", Status: "done", Result: "Bluetooth is off"},
				{Todo: read, Status: "done", Result: "07:00"}},
			Remaining: []string{send}},
			wantAnswer{Status: "replanned", Plan: []string{"Send 李四 a message: 07:00"}}},
		{"number read after a switch", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn on Wi-Fi", Status: "done", Result: "Wi-Fi is on"},
				{Todo: "Read the phone number of Bob in Contacts", Status: "done", Result: "+1 555 0102"}},
			Remaining: []string{"Send Alice a message with what was read"}},
			wantAnswer{Status: "replanned", Plan: []string{"Send Alice a message: +1 555 0102"}}},
		{"read skipped: nothing sent", planContext{Goal: "x",
			Done: []doneTodo{{Todo: "Turn off Bluetooth", Status: "done", Result: "Bluetooth is off"},
				{Todo: read, Status: "failed", Result: "stuck"},
				{Todo: read, Status: "failed", Result: "stuck again"},
				{Todo: read, Status: "failed", Result: "stuck once more"}},
			Remaining: []string{send}}, wantAnswer{Status: "done"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := asWant(replanGoal(c.pc))
			if c.want.Status == "done" {
				if got.Status != "done" || len(got.Plan) > 0 {
					t.Errorf("replanGoal = %+v, want done with nothing sent", got)
				}
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("replanGoal = %+v\nwant     %+v", got, c.want)
			}
		})
	}
}

// TestPronounAfterLaterRead: the goals whose read is not first plan the
// read before the send, and the send carries the placeholder (en and zh).
func TestPronounAfterLaterRead(t *testing.T) {
	for _, c := range []struct{ goal, read, send string }{
		{"turn off Bluetooth, then read the first alarm and send it to 李四", "Read the time of the first alarm in Clock", "Send 李四 a message with what was read"},
		{"Turn off Wi-Fi and then check the second alarm's time and text that to Bob", "Read the time of the second alarm in Clock", "Send Bob a message with what was read"},
		{"Turn on Bluetooth, then read Bob's phone number and send the result to Alice", "", "Send Alice a message with what was read"},
		{"Turn on airplane mode, read the time of my first alarm, then send the time to Mom", "Read the time of the first alarm in Clock", "Send Mom a message with what was read"},
		{"关闭蓝牙，然后查看第一个闹钟的时间，再把它发给张三", "Read the time of the first alarm in Clock", "Send Zhang San a message with what was read"},
		{"关闭无线网络，然后查看Bob的电话号码并把这个发给李四", "", "Send 李四 a message with what was read"},
	} {
		a := planGoal(planContext{Goal: c.goal})
		ts := texts(a.Plan)
		if a.Status != "planned" || len(ts) != 3 {
			t.Errorf("%q: %s %q %q, want three todos", c.goal, a.Status, a.Question, ts)
			continue
		}
		if !readOne(ts[1]).Reads || c.read != "" && ts[1] != c.read || ts[2] != c.send {
			t.Errorf("%q: plan %q, want a read then %q", c.goal, ts, c.send)
		}
	}
}
