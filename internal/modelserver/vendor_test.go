package modelserver

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// The persona reaches and flips Wi-Fi, Bluetooth and airplane mode and
// reads the Android version on a Xiaomi phone's MIUI Settings (in
// Chinese: WLAN, 蓝牙, 连接与共享 > 飞行模式, 我的设备 > 全部参数 >
// Android版本) and on a Samsung phone's One UI (Connections' rows with
// Switches of their own, About phone > Software information), from the
// titles beside the switches; the phone holds what it says.
func TestPersonaTogglesOnVendorSettings(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI} {
		// Each setting from the main list, as a new todo starts: One
		// UI's main list has both Connections and Connected devices, and
		// only the first leads to Bluetooth.
		for _, task := range []string{"Turn on Bluetooth", "Turn off Wi-Fi", "Turn on airplane mode"} {
			p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
			if got, steps := runGoal(t, srv.URL, a, task, 8); !strings.HasSuffix(got, " is on") && !strings.HasSuffix(got, " is off") || p.State().Toggles == phonesim.Initial().Toggles {
				t.Errorf("%s: %q from the main list finished %q in %d steps, the phone holding %+v", skin, task, got, steps, p.State().Toggles)
			}
		}
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
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
			{"Read whether Bluetooth is on", "Bluetooth is off", func(tg phonesim.Toggles) bool { return !tg.Bluetooth }},
			{"Read the Android version", "Android version: " + phonesim.AndroidVersion, func(phonesim.Toggles) bool { return true }},
			{"What is the phone's build number?", "Build number: " + phonesim.BuildNumber, func(phonesim.Toggles) bool { return true }},
			{"Read the phone's model", "Model: " + phonesim.DefaultModel, func(phonesim.Toggles) bool { return true }},
			// MIUI's 显示 > 亮度 and One UI's Display > Brightness are
			// sliders the persona drags.
			{"Set the brightness to 37%", "Brightness is 37%", func(phonesim.Toggles) bool { return p.State().Brightness == 37 }},
		} {
			got, steps := runGoal(t, srv.URL, a, c.task, 14)
			if got != c.want {
				t.Errorf("%s: %q finished %q, want %q", skin, c.task, got, c.want)
			}
			if tg := p.State().Toggles; !c.check(tg) {
				t.Errorf("%s: %q finished %q in %d steps but the phone holds %+v", skin, c.task, got, steps, tg)
			}
		}
	}
}

// The verifier reads a vendor switch from the title beside it, under the
// skin's name for it: MIUI's SlidingButton beside "WLAN", One UI's Switch
// beside "Flight mode"; the other state, or another switch, is failed.
func TestVerifierReadsVendorSwitchesByTheirTitle(t *testing.T) {
	for _, c := range []struct {
		skin phonesim.Skin
		rows []string // the rows to tap, in order, from the main list
		task string
		want string
	}{
		{phonesim.SkinMIUI, []string{"WLAN"}, "Turn on Wi-Fi", verify.Done},
		{phonesim.SkinMIUI, []string{"WLAN"}, "Turn off Wi-Fi", verify.Failed},
		{phonesim.SkinMIUI, []string{"WLAN"}, "Turn off Bluetooth", verify.Failed},
		{phonesim.SkinMIUI, []string{"连接与共享"}, "Turn off airplane mode", verify.Done},
		{phonesim.SkinMIUI, []string{"连接与共享"}, "打开飞行模式", verify.Failed},
		{phonesim.SkinOneUI, []string{"Connections"}, "Turn off flight mode", verify.Done},
		{phonesim.SkinOneUI, []string{"Connections"}, "Turn on Wi-Fi", verify.Done},
		{phonesim.SkinOneUI, []string{"Connections"}, "Turn on Bluetooth", verify.Failed},
		{phonesim.SkinOneUI, []string{"Connections", "Wi-Fi"}, "Turn on Wi-Fi", verify.Done},
		{phonesim.SkinOneUI, []string{"Connections", "Wi-Fi"}, "Turn off Wi-Fi", verify.Failed},
		{phonesim.SkinOneUI, []string{"Connections", "Wi-Fi"}, "Turn off Bluetooth", verify.Failed},
	} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: c.skin})
		a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
		for _, r := range c.rows {
			tapText(t, p, a, r)
		}
		obs := observation{App: "Settings", Package: "com.android.settings",
			Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
		if v := judgeClaim(obs, c.task, "done"); v.Status != c.want {
			t.Errorf("%s %s: %q judged %s (%s), want %s", c.skin, strings.Join(c.rows, " > "), c.task, v.Status, v.Evidence, c.want)
		}
	}
}

// On MIUI's control centre a Chinese tile's text is only its state (关闭):
// the verifier names the tile by its description, so turning Bluetooth off is not
// judged by the WLAN tile that also says 关闭.
func TestVerifierNamesChineseTilesByDescription(t *testing.T) {
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinMIUI})
	a.shell("cmd statusbar expand-settings")
	tapText(t, p, a, "关闭") // the first tile saying 关闭 is Bluetooth's (WLAN is on)
	// Now WLAN is on and Bluetooth on: turn WLAN off through its tile.
	for _, e := range p.UITree() {
		if e.Desc == "WLAN。" {
			x, y := e.Bounds.Center()
			a.shell(fmt.Sprintf("input tap %d %d", x, y))
		}
	}
	obs := observation{App: "Settings", Package: "com.android.systemui",
		Elems: uitree.List(p.UITree(), phonesim.DefaultWidth, phonesim.DefaultHeight)}
	tg := p.State().Toggles
	if tg.WiFi || !tg.Bluetooth {
		t.Fatalf("tiles left %+v, want WLAN off and Bluetooth on", tg)
	}
	if v := judgeClaim(obs, "Turn off Bluetooth", "done"); v.Status == verify.Done {
		t.Errorf("Turn off Bluetooth with Bluetooth on judged done (%s)", v.Evidence)
	}
	if v := judgeClaim(obs, "Turn on Bluetooth", "done"); v.Status != verify.Done {
		t.Errorf("Turn on Bluetooth with Bluetooth on: %s (%s), want done", v.Status, v.Evidence)
	}
}

func tapText(t *testing.T, p *phonesim.Phone, a *adbShell, text string) {
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

// A planner's check names the brightness field "Brightness"; MIUI titles
// the slider's row 亮度 and One UI "Brightness": either row's summary is
// the field's value.
func TestBrightnessFieldOnVendorSettings(t *testing.T) {
	for skin, display := range map[phonesim.Skin]string{phonesim.SkinMIUI: "显示", phonesim.SkinOneUI: "Display"} {
		p, a := startPhoneWith(t, phonesim.Config{Skin: skin})
		a.shell("monkey -p com.android.settings -c android.intent.category.LAUNCHER 1")
		tapText(t, p, a, display)
		want := fmt.Sprintf("%d%%", p.State().Brightness)
		if _, v := postcond.FieldValue(p.UITree(), "Brightness"); v != want {
			t.Errorf("%s: the Brightness field reads %q, want %q", skin, v, want)
		}
	}
}
