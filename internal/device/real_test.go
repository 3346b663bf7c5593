package device

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/uitree"
)

// The tests in this file read output recorded on real phones
// (testdata/real, SOURCES.md says where each file comes from) the way a
// person reads it.

func realFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// realBlock is the block of a fixture file whose "=== " header contains
// name: the lines up to the next header.
func realBlock(t *testing.T, file, name string) string {
	t.Helper()
	var b strings.Builder
	in := false
	for line := range strings.Lines(realFile(t, file)) {
		if strings.HasPrefix(line, "===") {
			if in {
				break
			}
			in = strings.Contains(line, name)
			continue
		}
		if in {
			b.WriteString(line)
		}
	}
	if b.Len() == 0 {
		t.Fatalf("%s has no block %q", file, name)
	}
	return b.String()
}

// realLine is the first line of file that contains s, trimmed.
func realLine(t *testing.T, file, s string) string {
	t.Helper()
	for line := range strings.Lines(realFile(t, file)) {
		if strings.Contains(line, s) {
			return strings.TrimSpace(line)
		}
	}
	t.Fatalf("%s has no line with %q", file, s)
	return ""
}

func TestCurrentAppOnRealPhones(t *testing.T) {
	const appium, issues = "appiumadb-focus-fixtures.txt", "issues-transcribed-dumpsys.txt"
	vivo := "cryptoloot-vivo-dumpsys-window-windows.txt"
	for _, c := range []struct {
		name, out, pkg, act, window string
	}{
		{"Samsung Flip, two displays", realBlock(t, appium, "multiple displays"),
			"eu.niko.smart.universal", "crc648a3abc16689e594e.MainActivity", ""},
		{"activity name holding its package", realBlock(t, appium, "activity name holds the package"),
			"com.example.android", "com.example.android.activity.main.MainActivity", ""},
		{"isShadow comma", realBlock(t, appium, "comma after the activity"),
			"com.example.android.contactmanager", "com.example.android.contactmanager.ContactManager", ""},
		{"Android 4 window without a user id", realBlock(t, appium, "Android 4.x window"),
			"com.android.settings", "com.android.settings.SubSettings", ""},
		{"Android 4 activity record with a bare u", realLine(t, appium, "ActivityRecord{2 u "),
			"com.example.android.contactmanager", "com.example.android.contactmanager.ContactManager", ""},
		{"Galaxy Flip 4, Android 12", realBlock(t, issues, "appium/appium-adb#797"),
			"jp.naver.line.android", "jp.naver.line.android.activity.main.MainActivity", ""},
		{"Photos, AppWindowToken", realBlock(t, issues, "ashishb/adb-enhanced#4"),
			"com.google.android.apps.photos", "com.google.android.apps.photos.home.HomeActivity", ""},
		{"package-only window", realBlock(t, issues, "appium/appium#5181"), "com.lookout.enterprise", "", ""},
		{"notification shade over Settings search", realBlock(t, issues, "kaeawc/auto-mobile#6078"),
			SystemUIPackage, "", "NotificationShade"},
		{"Android 4.0/4.1 dumpsys window windows", realFile(t, "avc-dumpsys-window-windows-api16.txt"),
			"com.dtmilano.android.sampleui", "com.dtmilano.android.sampleui.MainActivity", ""},
		// vivo prints no focus line: nothing to read from focus lines.
		{"vivo, no focus line", realFile(t, vivo), "", "", ""},
		// A logcat focus change is not a focus line.
		{"logcat", realBlock(t, issues, "jellyfin/jellyfin-android#1284"), "", "", ""},
		// vivo's window tokens, as a focus line would carry them.
		{"vivo type=1 token", "mCurrentFocus=" + strings.TrimSuffix(strings.TrimPrefix(realLine(t, vivo, "Window #12 "), "Window #12 "), ":"),
			"com.kryptoloot.app", "com.example.MainActivity", ""},
		{"vivo shade token with its owner", "mCurrentFocus=" + strings.TrimSuffix(strings.TrimPrefix(realLine(t, vivo, "Window #7 "), "Window #7 "), ":"),
			SystemUIPackage, "", "NotificationShade"},
	} {
		f, ok := parseFocus(c.out)
		if f.pkg != c.pkg || f.activity != c.act || f.window != c.window || ok != (c.pkg != "") {
			t.Errorf("%s: read %+v (ok %t), want %s %s %s", c.name, f, ok, c.pkg, c.act, c.window)
		}
	}
}

func TestLockStateOnRealPhones(t *testing.T) {
	const kg = "appiumadb-keyguard-fixtures.txt"
	for _, c := range []struct {
		name, out           string
		showing, secure, ok bool
	}{
		{"delegate, screen off", realBlock(t, kg, "KeyguardServiceDelegate, screen off"), false, false, true},
		{"mShowingLockscreen=true", realBlock(t, kg, "lock screen showing"), true, false, true},
		{"dreaming lock screen", realBlock(t, kg, "dreaming lock screen"), true, false, true},
		{"unlocked", realBlock(t, kg, "unlocked"), false, false, true},
		{"Fire OS 7", realBlock(t, "issues-transcribed-dumpsys.txt", "jxlarrea/kiosk-satellite#372"), true, false, true},
		{"Android 4 policy without keyguard fields", realFile(t, "avc-dumpsys-window-policy-api16.txt"), false, false, false},
	} {
		showing, secure, ok := parseKeyguard(c.out)
		if showing != c.showing || secure != c.secure || ok != c.ok {
			t.Errorf("%s: showing %t secure %t ok %t, want %t %t %t", c.name, showing, secure, ok, c.showing, c.secure, c.ok)
		}
	}
	if on, ok := parseScreenOn(realFile(t, "cryptoloot-vivo-dumpsys-power.txt")); !on || !ok {
		t.Errorf("vivo dumpsys power: on %t ok %t, want the screen on", on, ok)
	}
	// PIN bouncer, slide-to-unlock and an app's PIN pad: none is a pattern.
	for _, name := range []string{"das-systemui-pin-bouncer.xml", "avc-lockscreen-api17-zh.xml", "automate-kbank-pin-pad-th.xml"} {
		elems, err := uitree.ParseXML([]byte(realFile(t, name)))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if hasPatternView(elems) {
			t.Errorf("%s read as a pattern lock", name)
		}
	}
}

func TestIMERefusalsOfRealPhones(t *testing.T) {
	const issues = "issues-transcribed-dumpsys.txt"
	colorOS := realBlock(t, issues, "zai-org/Open-AutoGLM#106")
	if !imeBlocked(colorOS) {
		t.Errorf("ColorOS SecurityException not read as blocked:\n%s", colorOS)
	}
	for _, name := range []string{"senzhk/ADBKeyBoard#66", "suyiiyii/AutoGLM-GUI#479"} {
		if out := realBlock(t, issues, name); imeBlocked(out) {
			t.Errorf("%s read as blocked", name)
		}
	}

	// Over the driver: ColorOS answers every ime command with its trace.
	f, _, d := setup(t, Options{})
	f.set(func(f *fakePhone) { f.imeReply = colorOS })
	err := d.Type(tctx(t), "hi")
	if !errors.Is(err, ErrIMEBlocked) || !NeedsPerson(err) || !strings.Contains(err.Error(), `"USB debugging (security settings)"`) ||
		strings.Contains(err.Error(), "ContextImpl") {
		t.Errorf("ColorOS: err = %v; want ErrIMEBlocked naming the setting, without the trace", err)
	}
	if _, _, text, _, _ := f.snapshot(); text != "" {
		t.Errorf("ColorOS: typed %q", text)
	}

	// Installed but not registered: `ime list -s` lacks it and `ime set`
	// refuses it (Android 14).
	block := realBlock(t, issues, "senzhk/ADBKeyBoard#66")
	lines := strings.SplitAfter(block, "\n")
	f, _, d = setup(t, Options{})
	f.set(func(f *fakePhone) {
		f.imeReplies = map[string]string{"ime list -s": lines[0] + lines[1], "ime set": lines[2]}
	})
	err = d.Type(tctx(t), "hi")
	if !errors.Is(err, ErrIMENotInstalled) || !strings.Contains(err.Error(), "ime enable com.android.adbkeyboard/.AdbIME") {
		t.Errorf("not registered: err = %v; want ErrIMENotInstalled with the steps to enable it", err)
	}
}

func TestIdentityFromRealGetprop(t *testing.T) {
	props := parseGetprop(realFile(t, "peridot-poco-getprop.txt"))
	if props["ro.serialno"] != "f89a5ec6" || props["ro.build.version.sdk"] != "35" {
		t.Errorf("ro.serialno %q sdk %q, want f89a5ec6 35", props["ro.serialno"], props["ro.build.version.sdk"])
	}
}

// TestOldAndroidIsRefused: a phone below MinSDK is refused where its
// identity is first read, with a message naming the release it runs and
// the one needed; a supported one (the POCO F6's Android 15) passes.
func TestOldAndroidIsRefused(t *testing.T) {
	real := parseGetprop(realFile(t, "peridot-poco-getprop.txt"))
	for _, c := range []struct {
		name, sdk, release string
		refused            bool
	}{
		{"Android 15 (POCO F6)", real["ro.build.version.sdk"], real["ro.build.version.release"], false},
		{"Android 5.0", "21", "5.0", false},
		{"Android 4.4", "19", "4.4.2", true},
		{"Android 4.1", "16", "4.1.2", true},
		{"SDK not told", "", "", false},
	} {
		f, _, d := setup(t, Options{})
		f.set(func(f *fakePhone) {
			f.props = map[string]string{"ro.serialno": real["ro.serialno"], "ro.build.version.sdk": c.sdk, "ro.build.version.release": c.release}
		})
		id, err := IdentityOf(tctx(t), d)
		var ua *UnsupportedAndroidError
		switch {
		case c.refused && (!errors.As(err, &ua) || !strings.Contains(err.Error(), "Android "+c.release) || !strings.Contains(err.Error(), "Android 5.0 (API 21) or newer")):
			t.Errorf("%s: id %q err %v; want it refused, naming its release and the oldest supported", c.name, id, err)
		case !c.refused && (err != nil || id != "f89a5ec6"):
			t.Errorf("%s: id %q err %v; want f89a5ec6", c.name, id, err)
		}
	}
}
