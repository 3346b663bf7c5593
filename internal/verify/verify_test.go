package verify

import (
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

func TestAdmits(t *testing.T) {
	for msg, want := range map[string]bool{
		`I do not know how to do "book a train" on this phone`: true,
		"Could not find Carol on the screen":                   true,
		"Cannot send: there is no contact named Carol":         true,
		"App not found: WeChat":                                true,
		"无法打开淘宝":                                               true,
		"找不到联系人王五":                                             true,
		`Sent "I can't come, sorry" to Bob`:                    false,
		"Brightness is 100%":                                   false,
		"Wi-Fi is off":                                         false,
		"Saved the note \"Trip\"":                              false,
		"+86 138 0000 0003":                                    false,
	} {
		if _, got := Admits(msg); got != want {
			t.Errorf("Admits(%q) = %v, want %v", msg, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	settings := Screen{App: "Settings", AppPackage: "com.android.settings", Width: 1080, Height: 2400,
		Elements: []uitree.Element{{Text: "Bluetooth", Checkable: true, Checked: true}, {Text: "Wi-Fi", Checkable: true}}}
	home := Screen{App: "Launcher", AppPackage: "com.android.launcher3"}
	for _, tc := range []struct {
		task, msg string
		s         Screen
		want      string // "" = no deterministic verdict
	}{
		{"Turn on Bluetooth", "Bluetooth is on", settings, Done},
		{"Turn on Wi-Fi", "Wi-Fi is on", settings, Failed},
		{"Turn Wi-Fi off", "ok", settings, Done},
		{"Open Settings", "Settings is open", settings, Done},
		{"打开设置", "设置已打开", settings, Done},
		{"Open Clock", "Clock is open", settings, Failed},
		{"Go back to the home screen", "home", home, Done},
		{"Return to the home screen", "home", settings, Failed},
		{"Book a flight", "I do not know how", home, Failed},
		{"Set brightness to 80%", "Brightness is 80%", settings, ""},
		// Every vendor's home screen and apps (docs/phones.md#skins).
		{"Go back to the home screen", "home", Screen{App: "Launcher", AppPackage: "com.miui.home"}, Done},
		{"Go back to the home screen", "home", Screen{App: "Launcher", AppPackage: "com.sec.android.app.launcher"}, Done},
		{"Open Clock", "Clock is open", Screen{App: "Clock", AppPackage: "com.sec.android.app.clockpackage"}, Done},
		{"Open Messages", "Messages is open", Screen{App: "Messages", AppPackage: "com.android.mms"}, Done},
		{"Open Notes", "Notes is open", Screen{App: "Notes", AppPackage: "com.google.android.keep"}, Done},
		// vivo's Settings Switch: checked without being checkable, its
		// state in its description; one whose words say otherwise, or
		// that says nothing, gives no verdict here.
		{"Turn on 竖屏锁定", "on", vivo("竖屏锁定", "开启", true), Done},
		{"Turn off 竖屏锁定", "off", vivo("竖屏锁定", "开启", true), Failed},
		{"Turn off 自动调节屏幕亮度", "off", vivo("自动调节屏幕亮度", "关闭", false), Done},
		{"Turn on 竖屏锁定", "on", vivo("竖屏锁定", "关闭", true), ""},
		{"Turn off 竖屏锁定", "off", vivo("竖屏锁定", "", false), ""},
		// A summary row's title is not a switch (MIUI's main list).
		{"Turn on Bluetooth", "on", Screen{App: "Settings", AppPackage: "com.android.settings",
			Elements: []uitree.Element{{Class: "android.widget.TextView", Text: "Bluetooth"}, {Class: "android.widget.TextView", Text: "On"}}}, ""},
	} {
		v, ok := Check(tc.task, tc.msg, tc.s)
		if got := map[bool]string{true: v.Status}[ok]; got != tc.want {
			t.Errorf("Check(%q, %q) = %+v (%v), want %q", tc.task, tc.msg, v, ok, tc.want)
		}
		if ok && v.Evidence == "" {
			t.Errorf("Check(%q): no evidence", tc.task)
		}
	}
}

func TestParse(t *testing.T) {
	good := map[string]Verdict{
		`{"status":"done","evidence":"the switch is on"}`:                                    {Done, "the switch is on", ByModel},
		"<think>look</think>```json\n{\"status\":\"failed\",\"evidence\":\"no alarm\"}\n```": {Failed, "no alarm", ByModel},
	}
	for in, want := range good {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{
		`done`:                                 "no JSON object",
		`{"status":"probably","evidence":"x"}`: `"status" must be`,
		`{"status":"done"}`:                    `"evidence"`,
		`{"status":"done","evidence":"  "}`:    `"evidence"`,
		`{"status":"done","evidence":"x","confidence":0.9}`: `unknown field "confidence"`,
		`{"status":"done",}`: "not valid JSON",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) err = %v, want it to contain %q", in, err, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(`{"status":"done","evidence":"x"}`)
	f.Add(`<think></think>{"status":"failed","evidence":"none"}`)
	f.Fuzz(func(t *testing.T, s string) {
		v, err := Parse(s)
		if err == nil && (v.Status != Done && v.Status != Failed || strings.TrimSpace(v.Evidence) == "") {
			t.Fatalf("Parse(%q) accepted %+v", s, v)
		}
	})
}

func TestRequestText(t *testing.T) {
	r := Request{Task: "Turn on\nBluetooth", Message: "on", Screen: Screen{App: "Settings", AppPackage: "com.android.settings", Width: 1000, Height: 1000,
		Elements: []uitree.Element{{Text: "Bluetooth", Checkable: true, Bounds: uitree.Bounds{X1: 0, Y1: 0, X2: 100, Y2: 100}}}}}
	text := r.Text()
	for _, want := range []string{"Task: Turn on Bluetooth\n", "Executor message: on\n", "Current app: Settings (com.android.settings)", uitree.ListHeader, `"Bluetooth"`} {
		if !strings.Contains(text, want) {
			t.Errorf("request text lacks %q:\n%s", want, text)
		}
	}
	if m := r.Messages(); len(m) != 2 || !strings.HasPrefix(m[0].Text, "You are the verifier") || len(m[1].Images) != 0 {
		t.Errorf("messages = %+v", m)
	}
}

// vivo is vivo's display page holding one Switch whose text is its row's
// title and whose description is its state, checkable=false.
func vivo(title, desc string, checked bool) Screen {
	return Screen{App: "Settings", AppPackage: "com.android.settings", Elements: []uitree.Element{
		{Class: "android.widget.LinearLayout", Bounds: uitree.Bounds{X2: 1080, Y1: 600, Y2: 750}},
		{Class: "android.widget.TextView", Text: title, Depth: 1, Bounds: uitree.Bounds{X2: 480, Y1: 640, Y2: 705}},
		{Class: "android.widget.Switch", Text: title, Desc: desc, Checked: checked, Clickable: true, Depth: 1, Bounds: uitree.Bounds{X1: 876, X2: 1020, Y1: 620, Y2: 730}},
	}}
}
