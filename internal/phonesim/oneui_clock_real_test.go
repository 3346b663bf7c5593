package phonesim

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// oneUICard is what a Samsung Clock alarm card holds, as checks and a
// model read it: the card, the item inside it, the time and the switch
// inside the item, the switch without text at the card's right.
type oneUICard struct {
	CardClass, ItemClass, TimeClass, SwitchClass string
	TimeInItem, SwitchInItem, SwitchRight        bool
	SwitchText                                   string
}

func oneUICardOf(t *testing.T, es []uitree.Element, time string) oneUICard {
	t.Helper()
	ti := find(t, es, "the time "+time, func(e uitree.Element) bool { return e.ShortID() == "alarm_item_time" && e.Text == time })
	parent := uitree.Parents(es)
	item := parent[ti]
	if item < 0 || es[item].ShortID() != "alarm_list_item" {
		t.Fatalf("the time %s is not inside alarm_list_item", time)
	}
	card := parent[item]
	if card < 0 || es[card].ShortID() != "alarm_list_cardView" {
		t.Fatalf("alarm_list_item of %s is not inside alarm_list_cardView", time)
	}
	sw := -1
	for j := item + 1; j < uitree.SubtreeEnd(es, item); j++ {
		if es[j].ShortID() == "alarm_onoff_switch" {
			sw = j
		}
	}
	if sw < 0 {
		t.Fatalf("the card of %s has no alarm_onoff_switch", time)
	}
	return oneUICard{
		CardClass: es[card].Class, ItemClass: es[item].Class, TimeClass: es[ti].Class, SwitchClass: es[sw].Class,
		TimeInItem: true, SwitchInItem: parent[sw] == item, SwitchRight: es[sw].Bounds.X1 > es[ti].Bounds.X2,
		SwitchText: es[sw].Text,
	}
}

// Samsung Clock's alarm list as a recorded One UI phone shows it
// (testdata/real/hrxagent-samsung-clock-alarm-list-zh-transcribed.xml):
// the simulator's cards hold the same nodes in the same places, and the
// add button is described, not written.
func TestOneUIAlarmListIsTheRealOne(t *testing.T) {
	real := realDump(t, "hrxagent-samsung-clock-alarm-list-zh-transcribed.xml")
	want := oneUICardOf(t, real, "06:00")
	if want.SwitchText != "" || !want.SwitchRight || !want.SwitchInItem {
		t.Fatalf("the real card reads %+v; the comparison is off", want)
	}
	add := real[find(t, real, "the real add button", func(e uitree.Element) bool { return e.ShortID() == "menu_alarm_add" })]
	p := New(Config{Skin: SkinOneUI})
	launch(t, p, p.pkg(pkgClock))
	es := simDump(t, p)
	if got := oneUICardOf(t, es, "7:00"); got != want {
		t.Errorf("the simulator's card reads\n%+v\nthe real one\n%+v", got, want)
	}
	sa := es[find(t, es, "the add button", func(e uitree.Element) bool { return e.ShortID() == "menu_alarm_add" })]
	if sa.Class != add.Class || sa.Text != "" || sa.Desc == "" || add.Text != "" {
		t.Errorf("the add button reads %q/%q (%s); the real one %q/%q (%s)", sa.Text, sa.Desc, sa.Class, add.Text, add.Desc, add.Class)
	}
}

// Samsung Clock's alarm page: Cancel and Save are Buttons without text,
// described by their word, the word in a TextView inside; the hour and
// the minute are numberpicker_input EditTexts reading the value, a comma
// and the unit (testdata/real/hrxagent-samsung-clock-add-alarm-zh-transcribed.xml).
func TestOneUIAlarmPageIsTheRealOne(t *testing.T) {
	real := realDump(t, "hrxagent-samsung-clock-add-alarm-zh-transcribed.xml")
	p := New(Config{Skin: SkinOneUI})
	launch(t, p, p.pkg(pkgClock))
	tapWhere(t, p, "Add alarm", byDesc("Add alarm"))
	es := simDump(t, p)
	for _, c := range []struct{ real, sim string }{{"保存", "Save"}, {"取消", "Cancel"}} {
		for _, side := range []struct {
			es   []uitree.Element
			word string
		}{{real, c.real}, {es, c.sim}} {
			i := find(t, side.es, side.word, func(e uitree.Element) bool { return e.Desc == side.word && e.ShortClass() == "Button" })
			b := side.es[i]
			if b.Text != "" || !b.Clickable {
				t.Errorf("%s: the Button reads %q, clickable %v; the real one has no text", side.word, b.Text, b.Clickable)
			}
			label := false
			for j := i + 1; j < uitree.SubtreeEnd(side.es, i); j++ {
				label = label || side.es[j].Text == side.word && side.es[j].ShortClass() == "TextView"
			}
			if !label {
				t.Errorf("%s: the Button holds no TextView showing its word", side.word)
			}
		}
	}
	var inputs [2][]string
	for k, side := range [][]uitree.Element{real, es} {
		for _, e := range side {
			if e.ShortID() == "numberpicker_input" && e.ShortClass() == "EditText" {
				inputs[k] = append(inputs[k], e.Text)
			}
		}
	}
	if len(inputs[0]) != 2 || inputs[0][0] != "07, 小时" || inputs[0][1] != "00, 分钟" {
		t.Fatalf("the real page's inputs read %q; the comparison is off", inputs[0])
	}
	if len(inputs[1]) != 2 || !strings.HasSuffix(inputs[1][0], ", Hour") || inputs[1][1] != "00, Minute" {
		t.Errorf("the simulator's inputs read %q; the real ones read the value, a comma and the unit (%q)", inputs[1], inputs[0])
	}
}
