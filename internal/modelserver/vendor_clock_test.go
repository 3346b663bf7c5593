package modelserver

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// On a Xiaomi's 时钟 and a Galaxy's Clock the persona creates an alarm on
// the wheels (swiped on MIUI, typed on One UI's hour and minute), labels
// it, and switches an alarm by the time beside its text-less switch; it
// says done only when the row shows what was asked, and the phone holds
// it.
func TestPersonaDrivesVendorClocks(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		for _, c := range []struct {
			task string
			want string
			has  phonesim.Alarm
		}{
			{"Create an alarm at 06:45 labelled Gym class", "Alarm set for 06:45 (Gym class)", phonesim.Alarm{Time: "06:45", Label: "Gym class", Enabled: true}},
			{"Set an alarm for 21:37", "Alarm set for 21:37", phonesim.Alarm{Time: "21:37", Enabled: true}},
			{"alarm 3:10pm", "Alarm set for 15:10", phonesim.Alarm{Time: "15:10", Enabled: true}},
			{"Switch the 07:00 alarm off", "The 07:00 Wake up alarm is off", phonesim.Alarm{Time: "07:00", Label: "Wake up"}},
			{"Turn on the alarm labelled Gym", "The 08:30 Gym alarm is on", phonesim.Alarm{Time: "08:30", Label: "Gym", Enabled: true}},
		} {
			got, steps := runGoal(t, srv.URL, a, c.task, 40)
			if got != c.want {
				t.Errorf("%s: %q finished %q, want %q", skin, c.task, got, c.want)
			}
			if st := p.State(); !slices.Contains(st.Alarms, c.has) {
				t.Errorf("%s: %q finished %q in %d steps but the phone holds %+v", skin, c.task, got, steps, st.Alarms)
			}
		}
	}
}

// The checks read a vendor row's switch by the time and mark beside it:
// the verifier takes the 08:30 alarm's switch for off, never for on, and
// a 9:30 PM alarm's for 21:30, not 09:30.
func TestChecksReadVendorAlarmRows(t *testing.T) {
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		a.shell("monkey -p " + skin.Package("Clock") + " -c android.intent.category.LAUNCHER 1")
		srv := httptest.NewServer(New(Config{}))
		runGoal(t, srv.URL, a, "Set an alarm for 21:30", 40)
		srv.Close()
		es := p.UITree()
		obs := observation{App: "Clock", Package: skin.Package("Clock"), Elems: uitree.List(es, phonesim.DefaultWidth, phonesim.DefaultHeight)}
		for _, c := range []struct {
			task string
			want string
		}{
			{"Turn off the 08:30 alarm", verify.Done},
			{"Turn on the 08:30 alarm", verify.Failed},
			{"Turn on the 07:00 alarm", verify.Done},
			{"Turn off my Wake up alarm", verify.Failed},
			{"Turn on the 21:30 alarm", verify.Done},
			{"Turn on the 09:30 alarm", verify.Failed},
		} {
			if v := judgeClaim(obs, c.task, "done"); v.Status != c.want {
				t.Errorf("%s: %q: %s (%s), want %s", skin, c.task, v.Status, v.Evidence, c.want)
			}
		}
		on, off := true, false
		screen := postcond.Observed{Final: postcond.Screen{App: "Clock", AppPackage: skin.Package("Clock"), Elements: es}}
		for _, c := range []struct {
			check postcond.Check
			held  bool
		}{
			{postcond.Check{Kind: postcond.Switch, Label: "08:30", On: &off}, true},
			{postcond.Check{Kind: postcond.Switch, Label: "Gym", On: &on}, false},
			{postcond.Check{Kind: postcond.Switch, Label: "21:30", On: &on, Any: true}, true},
			{postcond.Check{Kind: postcond.ElementExists, Text: "21:30"}, true},
			{postcond.Check{Kind: postcond.ElementExists, Text: "09:30"}, false},
			{postcond.Check{Kind: postcond.RowShows, Row: "07:00", Shows: "Wake up"}, true},
			{postcond.Check{Kind: postcond.RowShows, Row: "08:30", Shows: "Wake up"}, false},
		} {
			if r := postcond.Eval([]postcond.Check{c.check}, screen)[0]; r.Held != c.held {
				t.Errorf("%s: %s: held=%t (%s), want %t", skin, c.check, r.Held, r.Evidence, c.held)
			}
		}
	}
}

// A claim that a 09:30 alarm was set is not borne out by a row reading
// "9:30" and "下午" (or "PM"): that alarm rings at 21:30.
func TestVerifierReadsAVendorRowsMark(t *testing.T) {
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		a.shell("monkey -p " + skin.Package("Clock") + " -c android.intent.category.LAUNCHER 1")
		srv := httptest.NewServer(New(Config{}))
		runGoal(t, srv.URL, a, "Set an alarm for 21:30", 40)
		srv.Close()
		obs := observation{App: "Clock", Package: skin.Package("Clock"), Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
		for task, want := range map[string]string{"Set an alarm for 09:30": verify.Failed, "Set an alarm for 21:30": verify.Done} {
			if v := judgeClaim(obs, task, "done"); v.Status != want {
				t.Errorf("%s: %q: %s (%s), want %s", skin, task, v.Status, v.Evidence, want)
			}
		}
	}
}

// A saved alarm's page (编辑闹钟, opened by a stray tap on its row) is left
// unchanged: the new alarm is made from 添加闹钟, and the old one keeps
// its time.
func TestPersonaLeavesASavedAlarmsPage(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinMIUI})
	a.shell("monkey -p " + phonesim.SkinMIUI.Package("Clock") + " -c android.intent.category.LAUNCHER 1")
	for _, e := range p.UITree() {
		if e.Text == "7:00" {
			x, y := e.Bounds.Center()
			a.shell(fmt.Sprintf("input tap %d %d", x, y))
			break
		}
	}
	if st := p.State(); st.Screen.Page != "new_alarm" {
		t.Fatalf("the 7:00 row tapped: on %q", st.Screen.Page)
	}
	got, _ := runGoal(t, srv.URL, a, "Set an alarm for 21:35", 40)
	st := p.State()
	if got != "Alarm set for 21:35" || !slices.Contains(st.Alarms, phonesim.Alarm{Time: "21:35", Enabled: true}) ||
		!slices.Contains(st.Alarms, phonesim.Alarm{Time: "07:00", Label: "Wake up", Enabled: true}) {
		t.Errorf("finished %q; the phone holds %+v", got, st.Alarms)
	}
}
