package device

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
)

func TestInputCommands(t *testing.T) {
	tests := []struct {
		name string
		do   func(d *adbDevice) error
		want []string
	}{
		{"tap", func(d *adbDevice) error { return d.Tap(tctx(t), 540, 1200) }, []string{"input tap 540 1200"}},
		{"double tap", func(d *adbDevice) error { return d.DoubleTap(tctx(t), 10, 20) }, []string{"input tap 10 20", "input tap 10 20"}},
		{"long press", func(d *adbDevice) error { return d.LongPress(tctx(t), 5, 6) }, []string{"input swipe 5 6 5 6 3000"}},
		{"swipe given", func(d *adbDevice) error { return d.Swipe(tctx(t), 500, 1800, 500, 600, 300*time.Millisecond) },
			[]string{"input swipe 500 1800 500 600 300"}},
		{"swipe by distance", func(d *adbDevice) error { return d.Swipe(tctx(t), 500, 2000, 500, 500, 0) },
			[]string{"input swipe 500 2000 500 500 1500"}},
		{"back", func(d *adbDevice) error { return d.Back(tctx(t)) }, []string{"input keyevent 4"}},
		{"home", func(d *adbDevice) error { return d.Home(tctx(t)) }, []string{"input keyevent KEYCODE_HOME"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _, d := setup(t, Options{})
			if err := tt.do(d); err != nil {
				t.Fatal(err)
			}
			inputs, _, _, _, _ := f.snapshot()
			if !slices.Equal(inputs, tt.want) {
				t.Errorf("inputs %q, want %q", inputs, tt.want)
			}
			if st := d.LastSettle(); !st.Settled || st.Captures < 2 {
				t.Errorf("settle after %s: %+v; want settled after >= 2 captures", tt.name, st)
			}
		})
	}
}

func TestInputError(t *testing.T) {
	_, _, d := setup(t, Options{})
	err := d.send(tctx(t), "input bogus")
	if err == nil || !strings.Contains(err.Error(), "Unknown command") {
		t.Fatalf("err = %v; want the phone's error text", err)
	}
}

func TestCommandFailed(t *testing.T) {
	for out, want := range map[string]bool{
		"": false,
		"Input method com.android.adbkeyboard/.AdbIME selected for user #0\n":                  false,
		"Broadcasting: Intent { act=ADB_CLEAR_TEXT }\nBroadcast completed: result=0\n":         false,
		"Unknown input method com.android.adbkeyboard/.AdbIME cannot be selected for user #0":  true,
		"Error: Unknown command: tapp\n":                                                       true,
		"java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS": true,
		"/system/bin/sh: inputt: inaccessible or not found\n":                                  true,
	} {
		if got := commandFailed(out); got != want {
			t.Errorf("commandFailed(%q) = %v, want %v", out, got, want)
		}
	}
}

func TestSwipeDuration(t *testing.T) {
	tests := []struct {
		x1, y1, x2, y2 int
		want           time.Duration
	}{
		{0, 0, 0, 0, time.Second},
		{500, 1500, 500, 1000, time.Second},
		{500, 2000, 500, 500, 1500 * time.Millisecond},
		{0, 0, 1080, 2400, 2 * time.Second},
	}
	for _, tt := range tests {
		if got := SwipeDuration(tt.x1, tt.y1, tt.x2, tt.y2); got != tt.want {
			t.Errorf("SwipeDuration(%d,%d,%d,%d) = %v, want %v", tt.x1, tt.y1, tt.x2, tt.y2, got, tt.want)
		}
	}
}

func TestWake(t *testing.T) {
	f, _, d := setup(t, Options{})
	if err := d.Wake(tctx(t)); err != nil {
		t.Fatal(err)
	}
	if inputs, _, _, _, _ := f.snapshot(); len(inputs) != 0 {
		t.Fatalf("awake phone got inputs %q", inputs)
	}
	f.set(func(f *fakePhone) { f.awake = false })
	if on, err := d.ScreenOn(tctx(t)); err != nil || on {
		t.Fatalf("ScreenOn = %v, %v; want false", on, err)
	}
	if err := d.Wake(tctx(t)); err != nil {
		t.Fatal(err)
	}
	inputs, _, _, _, _ := f.snapshot()
	if !slices.Equal(inputs, []string{"input keyevent KEYCODE_WAKEUP"}) {
		t.Fatalf("inputs %q", inputs)
	}
	if on, err := d.ScreenOn(tctx(t)); err != nil || !on {
		t.Fatalf("after Wake ScreenOn = %v, %v", on, err)
	}
}

func TestScreenshot(t *testing.T) {
	tests := []struct {
		secure    string
		sensitive bool
		reason    string
		calls     int
	}{
		{"", false, "", 1},
		{"empty", true, "returned nothing", 2},
		{"status", true, "Status: -1", 2},
		{"black", true, "all black", 2},
		{"noise-then-ok", false, "", 2},
	}
	for _, tt := range tests {
		t.Run(tt.secure, func(t *testing.T) {
			f, _, d := setup(t, Options{})
			f.set(func(f *fakePhone) { f.secure = tt.secure })
			shot, err := d.Screenshot(tctx(t))
			if err != nil {
				t.Fatal(err)
			}
			if shot.Sensitive != tt.sensitive || !strings.Contains(shot.Reason, tt.reason) {
				t.Fatalf("Sensitive=%v Reason=%q; want %v containing %q", shot.Sensitive, shot.Reason, tt.sensitive, tt.reason)
			}
			if tt.sensitive {
				if shot.PNG != nil || shot.Width != 1080 || shot.Height != 2400 || !strings.HasPrefix(shot.Reason, "screenshot unavailable (secure screen)") {
					t.Errorf("sensitive shot %dx%d png=%d reason %q; want no image, the screen size and the secure-screen reason", shot.Width, shot.Height, len(shot.PNG), shot.Reason)
				}
			} else if shot.Width != 108 || shot.Height != 240 || !strings.HasPrefix(string(shot.PNG), "\x89PNG") {
				t.Errorf("shot %dx%d starts %q", shot.Width, shot.Height, shot.PNG[:8])
			}
			if f.pngCalls != tt.calls {
				t.Errorf("screencap -p ran %d times, want %d", f.pngCalls, tt.calls)
			}
		})
	}
}

func TestScreenshotDeviceGone(t *testing.T) {
	_, s, d := setup(t, Options{})
	s.SetDevices()
	shot, err := d.Screenshot(tctx(t))
	if err == nil || shot.Sensitive || !strings.Contains(err.Error(), "not found") {
		t.Fatalf("shot %+v err %v; want a device-not-found error, not a sensitive screen", shot, err)
	}
}

func TestLaunch(t *testing.T) {
	tests := []struct {
		app, focus string
	}{
		{"Settings", "com.android.settings"},
		{"设置", "com.android.settings"},
		{"微信", "com.tencent.mm"},
		{"wechat", "com.tencent.mm"},
		{"Clock", "com.google.android.deskclock"},
		{"com.example.bank", "com.example.bank"},
		{"notes", "com.example.notes"},
		{" Messages ", "com.google.android.apps.messaging"},
	}
	f, _, d := setup(t, Options{})
	for _, tt := range tests {
		if err := d.Launch(tctx(t), tt.app); err != nil {
			t.Fatalf("Launch(%q): %v", tt.app, err)
		}
		app, err := d.CurrentApp(tctx(t))
		if err != nil || app.Package != tt.focus {
			t.Fatalf("after Launch(%q) CurrentApp = %+v, %v; want %s", tt.app, app, err, tt.focus)
		}
	}
	_, cmds, _, _, _ := f.snapshot()
	if !slices.Contains(cmds, "monkey -p com.android.settings -c android.intent.category.LAUNCHER 1") {
		t.Errorf("no monkey launch in %q", cmds)
	}
}

func TestLaunchNotFound(t *testing.T) {
	_, _, d := setup(t, Options{})
	tests := []struct {
		app, pkg, msg string
		suggests      string
	}{
		{"Notez", "", `app not found: "Notez" (did you mean: Notes`, "Notes"},
		{"Spotify", "com.spotify.music", `app not found: "Spotify" (com.spotify.music is not installed)`, ""},
		{"com.nope.app", "com.nope.app", `app not found: "com.nope.app"`, ""},
		{"ADB Keyboard", "com.android.adbkeyboard", "app not found", ""}, // installed, but monkey finds no activity
		{"", "", `app not found: ""`, ""},
	}
	for _, tt := range tests {
		err := d.Launch(tctx(t), tt.app)
		var nf *AppNotFoundError
		if !errors.As(err, &nf) || nf.Package != tt.pkg || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("Launch(%q) = %v; want AppNotFoundError for %q saying %q", tt.app, err, tt.pkg, tt.msg)
			continue
		}
		if tt.suggests != "" && !slices.Contains(nf.Suggestions, tt.suggests) {
			t.Errorf("Launch(%q) suggestions %q lack %q", tt.app, nf.Suggestions, tt.suggests)
		}
	}
}

func TestAppNotFoundMessage(t *testing.T) {
	err := &AppNotFoundError{App: "Foo", Suggestions: []string{"Notes", "Notion"}}
	if got, want := err.Error(), `app not found: "Foo" (did you mean: Notes, Notion)`; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}

func TestType(t *testing.T) {
	f, _, d := setup(t, Options{})
	f.set(func(f *fakePhone) { f.text = "old" })
	if err := d.Type(tctx(t), "会议改到下午两点 ok"); err != nil {
		t.Fatal(err)
	}
	_, cmds, text, ime, _ := f.snapshot()
	if text != "会议改到下午两点 ok" {
		t.Errorf("typed %q", text)
	}
	if ime != "com.android.inputmethod.latin/.LatinIME" {
		t.Errorf("input method not restored: %q", ime)
	}
	want := []string{"settings get secure default_input_method", "ime list -s", "pm list packages com.android.adbkeyboard",
		"ime enable " + AdbIME, "ime set " + AdbIME, "am broadcast -a ADB_CLEAR_TEXT"}
	if !slices.Equal(cmds[:len(want)], want) {
		t.Errorf("commands %q, want prefix %q", cmds, want)
	}
	restore := slices.IndexFunc(cmds, func(c string) bool { return strings.HasPrefix(c, "ime set ") && strings.Contains(c, "LatinIME") })
	input := slices.IndexFunc(cmds, func(c string) bool { return strings.Contains(c, "ADB_INPUT_B64") })
	capture := slices.IndexFunc(cmds[max(input, 0):], func(c string) bool { return strings.HasPrefix(c, "screencap") })
	if restore < 0 || input < 0 || restore < input || capture < 0 || input+capture < restore {
		t.Errorf("want text input, then the IME restored, then the settle captures; got %q", cmds)
	}
	// Already on the ADB Keyboard: no switching, no restoring.
	f.set(func(f *fakePhone) { f.ime = AdbIME; f.commands = nil })
	if err := d.Type(tctx(t), "second"); err != nil {
		t.Fatal(err)
	}
	_, cmds, text, ime, _ = f.snapshot()
	if text != "second" || ime != AdbIME || slices.ContainsFunc(cmds, func(c string) bool { return strings.HasPrefix(c, "ime ") }) {
		t.Errorf("text %q ime %q commands %q", text, ime, cmds)
	}
}

func TestTypeWithoutIME(t *testing.T) {
	f, _, d := setup(t, Options{})
	f.set(func(f *fakePhone) {
		f.installed = slices.DeleteFunc(f.installed, func(p string) bool { return p == "com.android.adbkeyboard" })
	})
	err := d.Type(tctx(t), "hi")
	if !errors.Is(err, ErrIMENotInstalled) || !strings.Contains(err.Error(), "adb -s SERIAL install ADBKeyboard.apk") {
		t.Fatalf("err = %v; want ErrIMENotInstalled with install steps", err)
	}
	if _, _, text, ime, _ := f.snapshot(); text != "" || ime == AdbIME {
		t.Errorf("text %q ime %q after failed Type", text, ime)
	}
}

func TestScreenSizeAndUITree(t *testing.T) {
	f, s, d := setup(t, Options{})
	w, h, err := d.ScreenSize(tctx(t))
	if err != nil || w != 1080 || h != 2400 {
		t.Fatalf("ScreenSize = %d, %d, %v", w, h, err)
	}
	f.set(func(f *fakePhone) { f.override = "Override size: 720x1600\n" })
	if w, h, _ = d.ScreenSize(tctx(t)); w != 720 || h != 1600 {
		t.Errorf("with override ScreenSize = %d, %d; want 720x1600", w, h)
	}
	elems, err := d.UITree(tctx(t))
	if err != nil || len(elems) != 2 || elems[1].Text != "Wi-Fi" || !elems[1].Clickable || elems[1].ShortID() != "wifi_switch" {
		t.Fatalf("UITree = %+v, %v", elems, err)
	}
	// Fallback: dump to a file and pull it.
	f.set(func(f *fakePhone) { f.noTTY = true })
	s.PutFile(serial, "/sdcard/window_dump.xml", adbtestFile(`<?xml version="1.0"?><hierarchy rotation="0"><node text="About phone" class="android.widget.TextView" bounds="[0,0][10,10]" clickable="true"/></hierarchy>`))
	elems, err = d.UITree(tctx(t))
	if err != nil || len(elems) != 1 || elems[0].Text != "About phone" {
		t.Fatalf("fallback UITree = %+v, %v", elems, err)
	}
	if reqs := s.Requests(); !slices.Contains(reqs, "sync:RECV /sdcard/window_dump.xml") {
		t.Errorf("no pull of the dump in %q", reqs)
	}
	// A screen that never goes idle: the file an earlier dump left is
	// not read as this screen's, and the error says why.
	f.set(func(f *fakePhone) { f.notIdle = true })
	pulls := strings.Count(strings.Join(s.Requests(), "\n"), "sync:RECV /sdcard/window_dump.xml")
	elems, err = d.UITree(tctx(t))
	if !errors.Is(err, ErrNotIdle) || len(elems) != 0 {
		t.Fatalf("UITree on a screen that never goes idle = %+v, %v; want ErrNotIdle", elems, err)
	}
	if n := strings.Count(strings.Join(s.Requests(), "\n"), "sync:RECV /sdcard/window_dump.xml"); n != pulls {
		t.Errorf("the stale dump file was pulled after uiautomator found no idle state")
	}
}

func TestCurrentAppName(t *testing.T) {
	f, _, d := setup(t, Options{})
	app, err := d.CurrentApp(tctx(t))
	if err != nil || app != (App{Package: "com.android.launcher3", Name: "Launcher", Activity: "com.android.launcher3.Launcher"}) {
		t.Fatalf("CurrentApp = %+v, %v", app, err)
	}
	f.set(func(f *fakePhone) { f.focus = "org.unknown.app/org.unknown.app.Main" })
	if app, _ = d.CurrentApp(tctx(t)); app.Name != "org.unknown.app" {
		t.Errorf("unknown package name %q, want the package", app.Name)
	}
}

// TestInputSentOrNot: an input that failed before its command began is
// marked not sent, and one whose settle wait failed after it is marked
// sent (docs/design.md §4).
func TestInputSentOrNot(t *testing.T) {
	f, s, d := setup(t, Options{})
	s.SetDevices()
	if err := d.Tap(tctx(t), 1, 2); !NotSent(err) || Sent(err) {
		t.Errorf("tap on a phone that is gone: %v; want not sent", err)
	}
	if err := d.Type(tctx(t), "hi"); !NotSent(err) {
		t.Errorf("type on a phone that is gone: %v; want not sent", err)
	}
	s.SetDevices(adbtest.Device{Serial: serial, State: "device"})
	s.FailService("shell:input keyevent 4; echo "+inputDone, "device offline")
	if err := d.Back(tctx(t)); !NotSent(err) {
		t.Errorf("back refused by the phone: %v; want not sent", err)
	}
	if inputs, _, _, _, _ := f.snapshot(); len(inputs) != 0 {
		t.Fatalf("inputs %q reached the phone", inputs)
	}
	s.FailService("exec:screencap -p", "closed")
	err := d.Tap(tctx(t), 3, 4)
	if !Sent(err) || NotSent(err) {
		t.Errorf("tap whose settle failed: %v; want sent", err)
	}
	s.FailService("shell:input tap 5 6; echo "+inputDone, "closed")
	if err := d.DoubleTap(tctx(t), 5, 6); !NotSent(err) {
		t.Errorf("double tap refused before its first tap: %v; want not sent", err)
	}
	// A stream that ends without the end marker: the connection was cut
	// before the command was seen to finish. Not sent is not known, nor
	// is sent: a retry decides from the action's own evidence.
	f.set(func(f *fakePhone) { f.cutInputs = 1 })
	n := len(f.inputs)
	if err := d.Tap(tctx(t), 7, 8); err == nil || NotSent(err) || Sent(err) {
		t.Errorf("tap whose stream ended without the end marker: %v; want an error that is neither sent nor not sent", err)
	}
	if inputs, _, _, _, _ := f.snapshot(); len(inputs) != n {
		t.Fatalf("the cut-off tap ran: %q", inputs)
	}
}
