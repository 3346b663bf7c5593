package phonesim

import (
	"fmt"
	"testing"
)

func swipeUp(t *testing.T, p *Phone) { sh(t, p, "input swipe 540 1600 540 600 300") }

func TestFillGivesLongLists(t *testing.T) {
	p := New(Config{})
	p.Fill(Fill{Notes: 100, Alarms: 50, Messages: 60})
	st := p.State()
	if len(st.Notes) != 101 || len(st.Alarms) != 52 || len(st.MessagesSent) != 30 {
		t.Fatalf("notes %d, alarms %d, sent %d", len(st.Notes), len(st.Alarms), len(st.MessagesSent))
	}
	for i := 1; i < len(st.Alarms); i++ {
		if st.Alarms[i-1].Time >= st.Alarms[i].Time {
			t.Fatalf("alarms out of order or repeated at %d: %v %v", i, st.Alarms[i-1], st.Alarms[i])
		}
	}
	// The Notes list scrolls: the last note shows only after swipes, and
	// the list keeps its place while a note is open and after it.
	launch(t, p, pkgNotes)
	if _, ok := findElement(p, "Note 100"); ok {
		t.Fatal("the 101st note is on the first screen")
	}
	for range 20 {
		swipeUp(t, p)
	}
	element(t, p, "Note 100")
	tapOn(t, p, "Note 99")
	sh(t, p, "input keyevent 4")
	element(t, p, "Note 100")
}

func TestConversationKeepsTheNewestAtTheBottom(t *testing.T) {
	p := New(Config{})
	p.Fill(Fill{Messages: 40})
	launch(t, p, pkgMessages)
	tapOn(t, p, "Alice Chen")
	element(t, p, "Earlier reply 40")
	if _, ok := findElement(p, "Are we still on for lunch?"); ok {
		t.Fatal("the oldest message is on screen in a long conversation")
	}
	// Scrolling back shows older messages and stays there.
	for range 30 {
		sh(t, p, "input swipe 540 600 540 1600 300")
	}
	element(t, p, "Are we still on for lunch?")
	// Sending jumps back to the newest message.
	tapOn(t, p, "compose_message_text")
	typeADB(t, p, "m1")
	tapOn(t, p, "Send")
	if e := element(t, p, "m1"); e.Desc != "Sent" {
		t.Fatalf("sent bubble %+v", e)
	}
	// The conversation list puts the latest conversation first.
	sh(t, p, "input keyevent 4")
	launch(t, p, pkgMessages)
	tapOn(t, p, "Bob Li")
	tapOn(t, p, "compose_message_text")
	typeADB(t, p, "hello")
	tapOn(t, p, "Send")
	sh(t, p, "input keyevent 4")
	var rows []string
	for _, e := range p.UITree() {
		if e.Clickable && e.Text != "" && e.Text != "Start chat" {
			rows = append(rows, e.Text)
		}
	}
	if fmt.Sprint(rows[:2]) != "[Bob Li Alice Chen]" {
		t.Fatalf("conversation order %v", rows)
	}
}
