package modelserver

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// lookSwitch is a look todo's task for a switch, as the goal writes it.
func lookSwitchTask(label string, on bool) string {
	return fmt.Sprintf("Look again, changing nothing, whether the %q switch is %s: open the screen that shows it, then finish.", label, onOff(on))
}

// lookGoneTask is a look todo's task for an item gone from app.
func lookGoneTask(item, app string) string {
	return fmt.Sprintf("Look again, changing nothing, whether %q is gone from %s: open the screen that lists it, then finish.", item, app)
}

// lookAlarmTask is a look todo's task for an alarm's switch in app.
func lookAlarmTask(at, app string) string {
	return fmt.Sprintf("Look again, changing nothing, whether a %q switch is on in %s: open the screen that shows it, then finish.", at, app)
}

// quotingLookTask is a look todo's task for an item gone as goals wrote
// it before they named the app: quoting the todo that did it.
func quotingLookTask(item string, by int, did string) string {
	return fmt.Sprintf("Look again, changing nothing, whether %q is gone (todo %d did: %s): open the screen that lists it, then finish.", item, by, did)
}

// untouched is what a look must leave as it was: the toggles, the
// brightness, the notes, the alarms, the messages sent.
func untouched(p *phonesim.Phone) string {
	st := p.State()
	b, _ := json.Marshal([]any{st.Toggles, st.Brightness, st.Notes, st.Alarms, st.MessagesSent})
	return string(b)
}

// looks runs a look todo and checks that it finished with want, typed
// nothing and changed nothing.
func looks(t *testing.T, url string, p *phonesim.Phone, a *adbShell, where, task, want string) {
	t.Helper()
	before, inputs := untouched(p), len(p.State().InputLog)
	got, steps := runGoal(t, url, a, task, 14)
	if got != want {
		t.Errorf("%s: %q finished %q in %d steps, want %q", where, task, got, steps, want)
	}
	if after := untouched(p); after != before {
		t.Errorf("%s: %q changed the phone:\n before %s\n after  %s", where, task, before, after)
	}
	for _, in := range p.State().InputLog[inputs:] {
		if in.Kind == "text" || in.Kind == "ime_text" {
			t.Errorf("%s: %q typed %v", where, task, in.Args)
		}
	}
}

// The persona does a todo that only looks at a switch on every skin: it
// opens the page that shows the switch, from the home screen or from
// another app, and finishes saying the state it shows, whichever it is,
// without tapping the switch; it reads labels in English and Chinese.
func TestPersonaLookReachesTheSwitchAndChangesNothing(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()

	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	if got, _ := runGoal(t, srv.URL, a, "Turn on Bluetooth", 12); got != "Bluetooth is on" || !p.State().Toggles.Bluetooth {
		t.Fatalf("Turn on Bluetooth finished %q", got)
	}
	a.shell("input keyevent 3")
	looks(t, srv.URL, p, a, "pixel, from the home screen", lookSwitchTask("Bluetooth", true), "Bluetooth is on")
	if pg := p.State().Screen.Page; pg != "bluetooth" {
		t.Errorf("pixel: the look ended on page %q, not Bluetooth's", pg)
	}
	a.shell("monkey -p com.google.android.apps.messaging -c android.intent.category.LAUNCHER 1")
	looks(t, srv.URL, p, a, "pixel, from Messages", lookSwitchTask("Bluetooth", true), "Bluetooth is on")
	a.shell("input keyevent 3")
	// The state named is not the one shown: the persona says what it
	// sees, and leaves it so.
	looks(t, srv.URL, p, a, "pixel, the other state", lookSwitchTask("蓝牙", false), "Bluetooth is on")
	looks(t, srv.URL, p, a, "pixel, Wi‑Fi", lookSwitchTask("Wi\u2011Fi", true), "Wi-Fi is on")

	for _, c := range []struct {
		skin  phonesim.Skin
		label string
	}{
		{phonesim.SkinClassic, "Wi-Fi"},
		{phonesim.SkinMIUI, "WLAN"},
		{phonesim.SkinOneUI, "Wi-Fi"},
		{phonesim.SkinMIUI, "蓝牙"},
	} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: c.skin})
		want := "Wi-Fi is on"
		if c.label == "蓝牙" {
			want = "Bluetooth is off"
		}
		looks(t, srv.URL, p, a, fmt.Sprintf("%s, from the home screen", c.skin), lookSwitchTask(c.label, true), want)
		a.shell("monkey -p " + c.skin.Package("Messages") + " -c android.intent.category.LAUNCHER 1")
		looks(t, srv.URL, p, a, fmt.Sprintf("%s, from Messages", c.skin), lookSwitchTask(c.label, true), want)
	}
}

// The persona does a todo that only looks for an item gone in the app its
// task names (or, in a task from before it named one, the app the quoted
// todo worked in) on every skin: it opens the notes list (Keep on a
// Pixel), leaving an editor it finds open, and says whether the note is
// listed, after the whole list; it types nothing and deletes nothing.
func TestPersonaLookForANoteGone(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinPixel, phonesim.SkinClassic, phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		p.Fill(phonesim.Fill{Notes: 12})
		task := lookGoneTask("Trip", "Notes")
		looks(t, srv.URL, p, a, fmt.Sprintf("%s, no such note", skin), task, `"Trip" is gone: Notes does not list it`)
		if skin == phonesim.SkinPixel {
			// As goals wrote it before they named the app.
			looks(t, srv.URL, p, a, "pixel, the todo quoted", quotingLookTask("Trip", 2, "Delete the note called Trip"), `"Trip" is gone: Notes does not list it`)
		}
		if got, _ := runGoal(t, srv.URL, a, "Create a note titled Trip saying pack the tent", 16); !strings.Contains(got, "Trip") {
			t.Fatalf("%s: creating the note finished %q", skin, got)
		}
		a.shell("input keyevent 3")
		looks(t, srv.URL, p, a, fmt.Sprintf("%s, the note listed", skin), task, `"Trip" is still listed in Notes`)
	}
}

// The verifier judges a look todo at a switch as the switch's state on
// the screen: done where the switch the todo names shows the state it
// names, under the skin's name for it (蓝牙, WLAN), and not done where it
// shows the other, or where no such switch shows.
func TestPersonaLookJudgedByTheSwitchShown(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinPixel, phonesim.SkinMIUI, phonesim.SkinClassic} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		obs := func() observation {
			return observation{App: "Settings", Package: "com.android.settings", Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
		}
		a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
		for _, label := range []string{"Bluetooth", "蓝牙"} {
			if v := judgeClaim(obs(), lookSwitchTask(label, false), "Bluetooth is off"); skin != phonesim.SkinClassic && v.Status != verify.Failed {
				t.Errorf("%s: %q on the main list, which shows no Bluetooth switch: %s (%s)", skin, label, v.Status, v.Evidence)
			}
		}
		if got, _ := runGoal(t, srv.URL, a, "Read whether Bluetooth is on", 12); got != "Bluetooth is off" {
			t.Fatalf("%s: reading Bluetooth finished %q", skin, got)
		}
		for _, label := range []string{"Bluetooth", "蓝牙"} {
			if v := judgeClaim(obs(), lookSwitchTask(label, false), "Bluetooth is off"); v.Status != verify.Done {
				t.Errorf("%s: %q off on the page showing it off: %s (%s)", skin, label, v.Status, v.Evidence)
			}
			if v := judgeClaim(obs(), lookSwitchTask(label, true), "Bluetooth is on"); v.Status != verify.Failed {
				t.Errorf("%s: %q on, on the page showing it off: %s (%s)", skin, label, v.Status, v.Evidence)
			}
		}
		if v := judgeClaim(obs(), lookSwitchTask("WLAN", true), "Wi-Fi is on"); v.Status == verify.Done && skin != phonesim.SkinClassic {
			t.Errorf("%s: Wi-Fi judged on the Bluetooth page: %s (%s)", skin, v.Status, v.Evidence)
		}
	}
}

// A look at an alarm's switch, labelled by its time, opens the alarm list
// on every skin and says whether that alarm is on, without tapping its
// switch.
func TestPersonaLookAtAnAlarmSwitch(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinPixel, phonesim.SkinClassic, phonesim.SkinMIUI, phonesim.SkinOneUI} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		if got, _ := runGoal(t, srv.URL, a, "Create an alarm at 07:30", 16); !strings.Contains(got, "07:30") {
			t.Fatalf("%s: creating the alarm finished %q", skin, got)
		}
		a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
		looks(t, srv.URL, p, a, string(skin), lookAlarmTask("07:30", "Clock"), "The 07:30 alarm is on")
		if skin == phonesim.SkinPixel {
			a.shell("input keyevent 3")
			quoted := `Look again, changing nothing, whether a "07:30" switch is on (todo 1 did: Create an alarm at 07:30): open the screen that shows it, then finish.`
			looks(t, srv.URL, p, a, "pixel, the todo quoted", quoted, "The 07:30 alarm is on")
		}
	}
}

// A look todo's task is read in each form the goal writes it, with the
// label as the goal quoted it (Chinese, a quote inside, a non-breaking
// hyphen) and the earlier todo's text whatever it holds; other tasks are
// not looks.
func TestPersonaLookParsesEachForm(t *testing.T) {
	for _, c := range []struct {
		task string
		want lookTask
	}{
		{lookSwitchTask("Bluetooth", true), lookTask{Label: "Bluetooth", On: true}},
		{lookSwitchTask("Wi\u2011Fi", false), lookTask{Label: "Wi\u2011Fi"}},
		{lookSwitchTask(`The "big" light`, true), lookTask{Label: `The "big" light`, On: true}},
		{fmt.Sprintf("Look again, changing nothing, whether a %q switch is on (todo 1 did: %s): open the screen that shows it, then finish.", "08:30", "Create an alarm at 08:30 (daily)"),
			lookTask{Label: "08:30", On: true, Did: "Create an alarm at 08:30 (daily)"}},
		{quotingLookTask("Trip", 2, "Delete the note called Trip"), lookTask{Label: "Trip", Gone: true, Did: "Delete the note called Trip"}},
		{quotingLookTask("旅行", 3, "删除笔记“旅行”：不要了"), lookTask{Label: "旅行", Gone: true, Did: "删除笔记“旅行”：不要了"}},
		{lookGoneTask("Trip", "Notes"), lookTask{Label: "Trip", Gone: true, App: "Notes"}},
		{lookGoneTask("Meet in the Park app: 5pm", "Google Keep"), lookTask{Label: "Meet in the Park app: 5pm", Gone: true, App: "Google Keep"}},
		{lookGoneTask("旅行", "笔记"), lookTask{Label: "旅行", Gone: true, App: "Notes"}},
		{`Look again, changing nothing, whether "Trip" is gone: open the screen that lists it, then finish.`, lookTask{Label: "Trip", Gone: true}},
		{lookAlarmTask("08:30", "Clock"), lookTask{Label: "08:30", On: true, App: "Clock"}},
		{lookAlarmTask("08:30", "时钟"), lookTask{Label: "08:30", On: true, App: "Clock"}},
	} {
		got, ok := parseLook(c.task)
		if !ok || got != c.want {
			t.Errorf("%q read as %+v (%v), want %+v", c.task, got, ok, c.want)
		}
		if !isLook(c.task) {
			t.Errorf("%q is not taken for a look", c.task)
		}
	}
	for _, task := range []string{"Turn on Bluetooth", "Look at the Bluetooth switch", `Look again whether the "Bluetooth" switch is on`} {
		if _, ok := parseLook(task); ok {
			t.Errorf("%q read as a look", task)
		}
	}
	if got := lookApp(lookTask{Did: "删除笔记“旅行”"}, ""); got != "Notes" {
		t.Errorf("the app of a Chinese note todo: %q", got)
	}
	if got := lookApp(lookTask{App: "Notes", Did: "Open Clock"}, ""); got != "Notes" {
		t.Errorf("the app a task names comes first: %q", got)
	}
}

// After "Turn on Bluetooth, then turn on airplane mode" on a Pixel, whose
// airplane mode turns Bluetooth off on a page that shows no Bluetooth
// switch, the look at Bluetooth goes back to Bluetooth's page and says it
// is off: the look's postcondition, Bluetooth on, then fails there.
func TestPersonaLookSeesWhatALaterTodoUndid(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	for _, task := range []string{"Turn on Bluetooth", "Turn on airplane mode"} {
		if got, _ := runGoal(t, srv.URL, a, task, 12); !strings.HasSuffix(got, " is on") {
			t.Fatalf("%q finished %q", task, got)
		}
	}
	if pg := p.State().Screen.Page; pg != "network" || p.State().Toggles.Bluetooth {
		t.Fatalf("airplane mode on left the phone on %q with %+v", pg, p.State().Toggles)
	}
	looks(t, srv.URL, p, a, "pixel, after airplane mode", lookSwitchTask("Bluetooth", true), "Bluetooth is off")
	if pg := p.State().Screen.Page; pg != "bluetooth" {
		t.Errorf("the look ended on page %q, not Bluetooth's", pg)
	}
}
