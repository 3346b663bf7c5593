package modelserver

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
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
