package modelserver

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The persona deletes an alarm as each Clock does (a DeskClock row's
// Delete, MIUI's 删除闹钟, Samsung's select mode), by its time, its label or
// its place, also when the alarm sits below the list's edge; it deletes
// no other alarm, and an alarm that is nowhere does not end as deleted.
func TestPersonaDeletesAlarmsOnEveryLook(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinPixel, phonesim.SkinMIUI, phonesim.SkinOneUI} {
		t.Run(string(skin), func(t *testing.T) {
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			p.Fill(phonesim.Fill{Alarms: 9})
			before := p.State().Alarms
			i := slices.IndexFunc(before, func(a phonesim.Alarm) bool { return a.Label == "Alarm 1" })
			if i < 0 {
				t.Fatalf("no filled alarm in %+v", before)
			}
			last := before[i]
			for _, c := range []struct {
				task string
				gone phonesim.Alarm
			}{
				{"Delete the 08:30 alarm in Clock", phonesim.Alarm{Time: "08:30", Label: "Gym"}},
				{"Delete the alarm labelled Wake up in Clock", phonesim.Alarm{Time: "07:00", Label: "Wake up"}},
				{"Delete the " + last.Time + " alarm in Clock", last},
			} {
				n := len(p.State().Alarms)
				got, steps := runGoal(t, srv.URL, a, c.task, 40)
				if !strings.HasPrefix(got, "Deleted") {
					t.Fatalf("%q finished %q in %d steps", c.task, got, steps)
				}
				st := p.State()
				if len(st.Alarms) != n-1 {
					t.Fatalf("%q: %d alarms left of %d: %+v", c.task, len(st.Alarms), n, st.Alarms)
				}
				for _, al := range st.Alarms {
					if al.Time == c.gone.Time && al.Label == c.gone.Label {
						t.Fatalf("%q said deleted, but the phone holds %+v", c.task, st.Alarms)
					}
				}
			}
			got, _ := runGoal(t, srv.URL, a, "Delete the 05:55 alarm in Clock", 40)
			if strings.HasPrefix(got, "Deleted") {
				t.Fatalf("an alarm that is not there finished %q", got)
			}
			if n := len(p.State().Alarms); n != len(before)-3 {
				t.Fatalf("%d alarms left, want %d", n, len(before)-3)
			}
		})
	}
	t.Run("classic", func(t *testing.T) {
		p, a := startPhoneWith(t, phonesim.Config{})
		got, _ := runGoal(t, srv.URL, a, "Delete the 08:30 alarm in Clock", 40)
		if strings.HasPrefix(got, "Deleted") || len(p.State().Alarms) != len(phonesim.Initial().Alarms) {
			t.Fatalf("the classic Clock finished %q with %+v", got, p.State().Alarms)
		}
	})
}

// An alarm's own page names it by the time its picker is set to: the
// look before committing lets 删除闹钟 through on the 07:00 alarm's page
// whatever its label field says, refuses it for another alarm, and the
// 07:00 alarm is not absent while its page is open.
func TestAnAlarmsPageIsThatAlarm(t *testing.T) {
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinMIUI})
	a.shell("monkey -p " + phonesim.SkinMIUI.Package("Clock") + " -c android.intent.category.LAUNCHER 1")
	var row uitree.Element
	for _, e := range p.UITree() {
		if e.Text == "7:00" {
			row = e
		}
	}
	if row.Text == "" {
		t.Fatal("no 7:00 row on the alarm list")
	}
	x, y := (row.Bounds.X1+row.Bounds.X2)/2, (row.Bounds.Y1+row.Bounds.Y2)/2
	a.shell(fmt.Sprintf("input tap %d %d", x, y))
	es := p.UITree()
	var del uitree.Element
	for _, e := range es {
		if e.Text == "删除闹钟" {
			del = e
		}
	}
	if del.Text == "" {
		t.Fatalf("the tap did not open the alarm's page: %+v", p.State().Screen)
	}
	absent := func(text string) []postcond.Check {
		return []postcond.Check{{Kind: postcond.AppInFront, App: "Clock"}, {Kind: postcond.ElementAbsent, Text: text}}
	}
	if why := postcond.WrongTarget(postcond.Target{Task: "Delete the 07:00 alarm in Clock", Expect: absent("07:00"), Control: del, Elements: es}); why != "" {
		t.Errorf("删除闹钟 on the 07:00 alarm's page is refused: %s", why)
	}
	if why := postcond.WrongTarget(postcond.Target{Task: "Delete the 08:30 alarm in Clock", Expect: absent("08:30"), Control: del, Elements: es}); why == "" {
		t.Error("删除闹钟 on the 07:00 alarm's page is let through for the 08:30 alarm")
	}
	final := postcond.Observed{Final: postcond.Screen{App: "Clock", AppPackage: phonesim.SkinMIUI.Package("Clock"), Elements: es}}
	if rs := postcond.Eval(absent("07:00"), final); postcond.AllHeld(rs) {
		t.Errorf("the 07:00 alarm is taken for absent on its own page: %s", postcond.Summary(rs))
	}
	if rs := postcond.Eval(absent("08:30"), final); !postcond.AllHeld(rs) {
		t.Errorf("the 08:30 alarm is taken for present on the 07:00 alarm's page: %s", postcond.Summary(rs))
	}
}
