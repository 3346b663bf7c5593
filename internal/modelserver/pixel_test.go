package modelserver

import (
	"encoding/base64"
	"fmt"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// The persona finds a switch on a Pixel's Settings from what the screen
// shows: the rows that lead to it, the main switch bar's text or the title
// beside a text-less Switch; it says done only when that switch shows the
// state asked for, and the phone holds it.
func TestPersonaTogglesOnPixelSettings(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	for _, c := range []struct {
		task  string
		want  string
		check func(phonesim.Toggles) bool
	}{
		{"Turn off Wi-Fi", "Wi-Fi is off", func(tg phonesim.Toggles) bool { return !tg.WiFi }},
		{"Turn on Bluetooth", "Bluetooth is on", func(tg phonesim.Toggles) bool { return tg.Bluetooth }},
		{"Turn on Wi-Fi", "Wi-Fi is on", func(tg phonesim.Toggles) bool { return tg.WiFi }},
		{"Turn on airplane mode", "Airplane mode is on", func(tg phonesim.Toggles) bool { return tg.Airplane && !tg.WiFi }},
		{"Turn off airplane mode", "Airplane mode is off", func(tg phonesim.Toggles) bool { return !tg.Airplane }},
		// Airplane mode turned the radios off, and turning it off left them so.
		{"Read whether Bluetooth is on", "Bluetooth is off", func(tg phonesim.Toggles) bool { return !tg.Bluetooth }},
	} {
		got, steps := runGoal(t, srv.URL, a, c.task, 12)
		if got != c.want {
			t.Errorf("%q finished %q, want %q", c.task, got, c.want)
		}
		if tg := p.State().Toggles; !c.check(tg) {
			t.Errorf("%q finished %q in %d steps but the phone holds %+v", c.task, got, steps, tg)
		}
	}
}

// The verifier reads a Pixel switch from the words beside it: done when
// the switch the task names shows the state, failed when it shows the
// other or when the switch on screen is another setting's.
func TestVerifierReadsPixelSwitchesByTheirTitle(t *testing.T) {
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	obs := func() observation {
		return observation{App: "Settings", Package: "com.android.settings",
			Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
	}
	tap := func(text string) {
		t.Helper()
		for _, e := range p.UITree() {
			if e.Text == text {
				x, y := e.Bounds.Center()
				a.shell(fmt.Sprintf("input tap %d %d", x, y))
				return
			}
		}
		t.Fatalf("no %q on screen", text)
	}
	a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
	tap("Network & internet")
	tap("Internet")
	tap("Use Wi\u2011Fi")
	for _, c := range []struct {
		task string
		want string
	}{
		{"Turn off Wi-Fi", verify.Done},
		{"Turn on Wi-Fi", verify.Failed},
		{"Turn on Bluetooth", verify.Failed}, // the switch shown is Wi‑Fi's
	} {
		if v := judgeClaim(obs(), c.task, "done"); v.Status != c.want {
			t.Errorf("%q on the Internet page with Wi‑Fi off: %s (%s), want %s", c.task, v.Status, v.Evidence, c.want)
		}
	}
	a.shell("input keyevent 4")
	if v := judgeClaim(obs(), "Turn off airplane mode", "done"); v.Status != verify.Done {
		t.Errorf("airplane mode off on Network & internet: %s (%s)", v.Status, v.Evidence)
	}
	if v := judgeClaim(obs(), "Turn off Wi-Fi", "done"); v.Status != verify.Failed {
		t.Errorf("Wi‑Fi off judged on Network & internet, where no Wi‑Fi switch shows: %s (%s)", v.Status, v.Evidence)
	}
}

// On a Pixel's Display page the brightness is a slider: the persona drags
// it from the thumb to any level, exact ones between the classic steps of
// 10 included, and a step of the "one step" todo is 10 points; it says
// done only when the slider's level is the one asked for.
func TestPersonaDragsThePixelBrightnessSlider(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	for _, c := range []struct {
		task  string
		want  string
		level int
	}{
		{"Set the brightness to 37%", "Brightness is 37%", 37},
		{"Set the brightness to exactly 15%", "Brightness is 15%", 15},
		{"Set the brightness to its maximum", "Brightness is 100%", 100},
		{"Turn the brightness down", "Brightness is 90%", 90},
		{"Set brightness 10 points above what was read (one step)", "Brightness is 100%", 100},
		{"把亮度调到0%", "Brightness is 0%", 0},
		{"Read the brightness in Settings", "Brightness 0%", 0},
		{"Set brightness to 20%", "Brightness is 20%", 20},
	} {
		got, steps := runGoal(t, srv.URL, a, c.task, 12)
		if got != c.want {
			t.Errorf("%q finished %q in %d steps, want %q", c.task, got, steps, c.want)
		}
		if b := p.State().Brightness; b != c.level {
			t.Errorf("%q: the phone's brightness is %d%%, want %d%%", c.task, b, c.level)
		}
	}
}

// A Pixel's About phone shows the Android version, the model and the
// build number as titles with their values below; the persona reads each
// from there after scrolling the main list to About phone.
func TestPersonaReadsPixelAboutPhone(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	_, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	for _, c := range []struct{ task, want string }{
		{"Read the Android version", "Android version: " + phonesim.AndroidVersion},
		{"Read the Model in Settings", "Model: " + phonesim.DefaultModel},
		{"Read the Build number in Settings", "Build number: " + phonesim.BuildNumber},
	} {
		a.shell("input keyevent 3")
		if got, steps := runGoal(t, srv.URL, a, c.task, 12); got != c.want {
			t.Errorf("%q finished %q in %d steps, want %q", c.task, got, steps, c.want)
		}
	}
}

// On a Pixel's Clock the persona creates an alarm through the time
// picker's text input and the label dialog, and switches an alarm by the
// time beside its text-less switch; it says done only when the row shows
// what was asked, and the phone holds it.
func TestPersonaDrivesPixelClock(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	has := func(st phonesim.State, al phonesim.Alarm) bool {
		for _, x := range st.Alarms {
			if x == al {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		task  string
		want  string
		check func(phonesim.State) bool
	}{
		{"Create an alarm at 06:45 labelled Gym class", "Alarm set for 06:45 (Gym class)",
			func(st phonesim.State) bool {
				return has(st, phonesim.Alarm{Time: "06:45", Label: "Gym class", Enabled: true})
			}},
		{"Set an alarm for 21:30", "Alarm set for 21:30",
			func(st phonesim.State) bool { return has(st, phonesim.Alarm{Time: "21:30", Enabled: true}) }},
		{"Switch the 07:00 alarm off", "The 07:00 Wake up alarm is off",
			func(st phonesim.State) bool { return has(st, phonesim.Alarm{Time: "07:00", Label: "Wake up"}) }},
		{"Turn on the alarm labelled Gym", "The 08:30 Gym alarm is on",
			func(st phonesim.State) bool {
				return has(st, phonesim.Alarm{Time: "08:30", Label: "Gym", Enabled: true})
			}},
	} {
		got, steps := runGoal(t, srv.URL, a, c.task, 30)
		if got != c.want {
			t.Errorf("%q finished %q, want %q", c.task, got, c.want)
		}
		if st := p.State(); !c.check(st) {
			t.Errorf("%q finished %q in %d steps but the phone holds %+v", c.task, got, steps, st.Alarms)
		}
	}
}

// The persona sets most times whose minutes the dial's ring shows by
// tapping the dial's numbers, as a model looking at the picker does, and
// types the others in the picker's text input mode: either way the alarm is
// the one asked for. The picker's input log says which way it went.
func TestPersonaSetsTheTimeOnTheDial(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, c := range []struct {
		task, at string
		dial     bool
	}{
		{"Set an alarm for 21:35", "21:35", true},
		{"Set an alarm for 05:00", "05:00", true},
		{"Set an alarm for 19:20", "19:20", true},
		{"Set an alarm for 12:10", "12:10", false}, // on the ring, drawn to be typed
		{"Set an alarm for 06:07", "06:07", false}, // off the ring
	} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
		got, steps := runGoal(t, srv.URL, a, c.task, 30)
		if want := "Alarm set for " + c.at; got != want {
			t.Errorf("%q finished %q in %d steps, want %q", c.task, got, steps, want)
		}
		st := p.State()
		if n := len(st.Alarms); n != 3 || !slices.Contains(st.Alarms, phonesim.Alarm{Time: c.at, Enabled: true}) {
			t.Errorf("%q: the phone holds %+v, want one new alarm at %s", c.task, st.Alarms, c.at)
		}
		typed, dialled := 0, 0
		for _, e := range st.InputLog {
			if e.Page != "time_picker" {
				continue
			}
			switch e.Kind {
			case "text", "ime_text":
				typed++
			case "tap":
				dialled++
			}
		}
		if c.dial && (typed != 0 || dialled < 3) || !c.dial && typed == 0 {
			t.Errorf("%q: %d inputs typed and %d taps on the picker, want the time %s", c.task, typed, dialled, map[bool]string{true: "tapped on the dial", false: "typed"}[c.dial])
		}
	}
}

// The checks read a DeskClock switch by its row: the verifier and the
// planner's postconditions take the 08:30 alarm's switch for off, never
// for on, and find a new alarm's "7:00 AM" for "07:00".
func TestChecksReadPixelAlarmRows(t *testing.T) {
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	a.shell("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
	es := p.UITree()
	obs := observation{App: "Clock", Package: "com.google.android.deskclock", Elems: uitree.List(es, phonesim.DefaultWidth, phonesim.DefaultHeight)}
	for _, c := range []struct {
		task string
		want string
	}{
		{"Turn off the 08:30 alarm", verify.Done},
		{"Turn on the 08:30 alarm", verify.Failed},
		{"Turn on the 07:00 alarm", verify.Done},
		{"Turn off my Wake up alarm", verify.Failed},
	} {
		if v := judgeClaim(obs, c.task, "done"); v.Status != c.want {
			t.Errorf("%q: %s (%s), want %s", c.task, v.Status, v.Evidence, c.want)
		}
	}
	if v := judgeClaim(obs, "Is the 08:30 alarm on or off?", "The 08:30 alarm is on"); v.Status != verify.Failed {
		t.Errorf("a read calling the disabled 08:30 alarm on: %s (%s)", v.Status, v.Evidence)
	}
	on, off := true, false
	screen := postcond.Observed{Final: postcond.Screen{App: "Clock", AppPackage: "com.google.android.deskclock", Elements: es}}
	for _, c := range []struct {
		check postcond.Check
		held  bool
	}{
		{postcond.Check{Kind: postcond.Switch, Label: "08:30", On: &off}, true},
		{postcond.Check{Kind: postcond.Switch, Label: "08:30", On: &on}, false},
		{postcond.Check{Kind: postcond.Switch, Label: "Gym", On: &on}, false},
		{postcond.Check{Kind: postcond.Switch, Label: "07:00", On: &on}, true},
		{postcond.Check{Kind: postcond.ElementExists, Text: "07:00"}, true},
		{postcond.Check{Kind: postcond.ElementExists, Text: "19:00"}, false},
		{postcond.Check{Kind: postcond.RowShows, Row: "07:00", Shows: "Wake up"}, true},
		{postcond.Check{Kind: postcond.RowShows, Row: "08:30", Shows: "Wake up"}, false},
	} {
		if r := postcond.Eval([]postcond.Check{c.check}, screen)[0]; r.Held != c.held {
			t.Errorf("%s: held=%t (%s), want %t", c.check, r.Held, r.Evidence, c.held)
		}
	}
	// A row's switch and arrow are its own controls, not rows: the second
	// alarm's label is Gym's.
	screen.Seen = []postcond.Screen{screen.Final}
	screen.Question = "What is the second alarm called?"
	second := postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel, Ordinal: 2}
	last := postcond.Check{Kind: postcond.AnswerSeen, Type: postcond.TypeLabel, Ordinal: postcond.Last}
	for ans, held := range map[string]bool{"Gym": true, "Wake up": false} {
		screen.Answer = ans
		if r := postcond.Eval([]postcond.Check{second}, screen)[0]; r.Held != held {
			t.Errorf("the second alarm's label answered %q: held=%t (%s), want %t", ans, r.Held, r.Evidence, held)
		}
		// The last row is the last alarm's, not the fab or a tab.
		if r := postcond.Eval([]postcond.Check{last}, screen)[0]; r.Held != held {
			t.Errorf("the last alarm's label answered %q: held=%t (%s), want %t", ans, r.Held, r.Evidence, held)
		}
	}

	// The label dialog sets the label of the row it was opened from: its
	// OK commits the label the row must show, and no other.
	tap := func(match func(uitree.Element) bool) {
		t.Helper()
		for _, e := range p.UITree() {
			if match(e) {
				x, y := e.Bounds.Center()
				a.shell(fmt.Sprintf("input tap %d %d", x, y))
				return
			}
		}
		t.Fatal("not on screen")
	}
	tap(func(e uitree.Element) bool { return e.Desc == "Expand 7:00 AM alarm" })
	tap(func(e uitree.Element) bool { return e.ShortID() == "edit_label" })
	a.shell("ime enable com.android.adbkeyboard/.AdbIME")
	a.shell("ime set com.android.adbkeyboard/.AdbIME")
	a.shell("am broadcast -a ADB_CLEAR_TEXT")
	a.shell("am broadcast -a ADB_INPUT_B64 --es msg " + base64.StdEncoding.EncodeToString([]byte("Morning run")))
	es = p.UITree()
	var ok uitree.Element
	for _, e := range es {
		if e.ShortID() == "button1" {
			ok = e
		}
	}
	for shows, refused := range map[string]bool{"Morning run": false, "Gym": true} {
		tg := postcond.Target{Task: "Label the 07:00 alarm " + shows, Control: ok, Elements: es,
			Expect: []postcond.Check{{Kind: postcond.RowShows, Row: "07:00", Shows: shows}}}
		if why := postcond.WrongTarget(tg); (why != "") != refused {
			t.Errorf("OK in the label dialog holding %q for a row that must show %q: refused %q", "Morning run", shows, why)
		}
	}
}

// A layout without an app line leaves the app to the screen: every page
// of a Pixel's Settings on the way to Bluetooth, the main list and the
// subpages, is told as Settings by what it shows.
func TestInferAppOnPixelSettings(t *testing.T) {
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
	for _, row := range []string{"Connected devices", "Connection preferences", "Bluetooth", ""} {
		es := p.UITree()
		if got := inferApp(uitree.List(es, phonesim.DefaultWidth, phonesim.DefaultHeight)); got != "Settings" {
			t.Fatalf("before tapping %q: inferApp = %q, want Settings", row, got)
		}
		for _, e := range es {
			if row != "" && e.Text == row {
				x, y := e.Bounds.Center()
				a.shell(fmt.Sprintf("input tap %d %d", x, y))
				break
			}
		}
	}
	if pg := p.State().Screen.Page; pg != "bluetooth" {
		t.Fatalf("ended on page %q, want bluetooth", pg)
	}
}

// DeskClock writes an alarm's time on 12 hours: the verifier takes
// "7:00 AM" on the Pixel's Alarm list for the read answer "07:00", and
// not for another time.
func TestVerifierReadsATwelveHourTime(t *testing.T) {
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinPixel})
	a.shell("monkey -p com.google.android.deskclock -c android.intent.category.LAUNCHER 1")
	obs := observation{App: "Clock", Package: "com.google.android.deskclock",
		Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
	for _, c := range []struct{ answer, want string }{{"07:00", verify.Done}, {"7:00 AM", verify.Done}, {"09:00", verify.Failed}} {
		if v := judgeClaim(obs, "Read the time of the first alarm in Clock", c.answer); v.Status != c.want {
			t.Errorf("answer %q on the Alarm list: %s (%s), want %s", c.answer, v.Status, v.Evidence, c.want)
		}
	}
}
