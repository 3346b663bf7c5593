package device

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestParseWmSize(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		ok   bool
	}{
		{"Physical size: 1080x2400\n", 1080, 2400, true},
		{"Physical size: 1440x3120\nOverride size: 1080x2340\n", 1080, 2340, true},
		{"Override size: 720x1600\r\nPhysical size: 1080x2400\r\n", 720, 1600, true},
		{"", 0, 0, false},
		{"Physical size: 0x0\n", 0, 0, false},
		{"cmd: Can't find service: window\n", 0, 0, false},
	}
	for _, tt := range tests {
		w, h, err := parseWmSize(tt.in)
		if (err == nil) != tt.ok || w != tt.w || h != tt.h {
			t.Errorf("parseWmSize(%q) = %d, %d, %v", tt.in, w, h, err)
		}
	}
}

func TestParseFocus(t *testing.T) {
	tests := []struct {
		in, pkg, act, window string
	}{
		{"  mCurrentFocus=Window{a1b2c3 u0 com.android.settings/com.android.settings.Settings}\n", "com.android.settings", "com.android.settings.Settings", ""},
		{"  mCurrentFocus=Window{a1 u0 com.tencent.mm/com.tencent.mm.ui.LauncherUI}\n  mFocusedApp=ActivityRecord{x u0 com.tencent.mm/.ui.LauncherUI t5}", "com.tencent.mm", "com.tencent.mm.ui.LauncherUI", ""},
		// The keyboard has the focus: the focused app is in front.
		{"  mCurrentFocus=Window{ff u0 InputMethod}\n  mFocusedApp=ActivityRecord{9 u0 com.example.notes/.Editor t7}\n", "com.example.notes", "com.example.notes.Editor", ""},
		// The status bar takes the focus only pulled down or as the
		// keyguard (Android 5-9): it covers the app.
		{"  mCurrentFocus=Window{ff u0 StatusBar}\n  mFocusedApp=ActivityRecord{9 u0 com.example.notes/.Editor t7}\n", SystemUIPackage, "", "StatusBar"},
		{"  mCurrentFocus=null\n  mFocusedApp=AppWindowToken{1 token=Token{2 ActivityRecord{3 u0 com.android.launcher3/.Launcher t1}}}\n", "com.android.launcher3", "com.android.launcher3.Launcher", ""},
		{"  mCurrentFocus=Window{b u0 com.example.bank}\n", "com.example.bank", "", ""},
		// Android 12+ launch: the splash window is titled with spaces.
		{"  mCurrentFocus=Window{c u0 Splash Screen com.example.notes}\n  mFocusedApp=ActivityRecord{9 u0 com.example.notes/.Editor t7}\n", "com.example.notes", "com.example.notes.Editor", ""},
		{"  mCurrentFocus=Window{c u0 /}\n", "", "", ""},
		{"nothing here", "", "", ""},
	}
	for _, tt := range tests {
		f, ok := parseFocus(tt.in)
		if f.pkg != tt.pkg || f.activity != tt.act || f.window != tt.window || ok != (tt.pkg != "") {
			t.Errorf("parseFocus(%q) = %+v, %v; want %q, %q, %q", tt.in, f, ok, tt.pkg, tt.act, tt.window)
		}
	}
}

func TestParsePackages(t *testing.T) {
	got := parsePackages("package:com.a\r\npackage:/data/app/b/base.apk=com.b\njunk\npackage:\n")
	if !slices.Equal(got, []string{"com.a", "com.b"}) {
		t.Errorf("parsePackages = %q", got)
	}
}

func TestParseScreenOn(t *testing.T) {
	tests := []struct {
		in     string
		on, ok bool
	}{
		{"mWakefulness=Awake\n", true, true},
		{"mWakefulness=Dozing\n", false, true},
		{"Display Power: state=OFF\n", false, true},
		{"Display Power: state=ON\n", true, true},
		{"mScreenOn=true", true, true},
		{"", false, false},
	}
	for _, tt := range tests {
		if on, ok := parseScreenOn(tt.in); on != tt.on || ok != tt.ok {
			t.Errorf("parseScreenOn(%q) = %v, %v", tt.in, on, ok)
		}
	}
}

func FuzzParseWmSize(f *testing.F) {
	f.Add("Physical size: 1080x2400\nOverride size: 720x1600\n")
	f.Add("Physical size: 99999999999999999999x1\n")
	f.Fuzz(func(t *testing.T, s string) {
		w, h, err := parseWmSize(s)
		if err == nil && (w <= 0 || h <= 0) {
			t.Fatalf("parseWmSize(%q) = %d x %d without error", s, w, h)
		}
	})
}

func FuzzParseFocus(f *testing.F) {
	f.Add("mCurrentFocus=Window{a u0 com.x/.Y}\nmFocusedApp=ActivityRecord{b u0 com.z/.W t1}")
	f.Add("mCurrentFocus=Window{a u0 }")
	f.Add("mCurrentFocus=Window{com.android.systemui:b3 u0 NotificationShade type=2040 }")
	f.Add("mFocusedApp=AppWindowToken{2 token=Token{9 ActivityRecord{2 u com.x/.Y, isShadow:false t1}}}")
	f.Add("mCurrentFocus=Window{4330b6c0 com.x/com.x.Y paused=false}")
	f.Fuzz(func(t *testing.T, s string) {
		f, ok := parseFocus(s)
		if ok && !looksLikePackage(f.pkg) {
			t.Fatalf("parseFocus(%q) returned non-package %q", s, f.pkg)
		}
		if ok && f.window != "" && f.activity != "" {
			t.Fatalf("parseFocus(%q) = %+v: a system UI window has no activity", s, f)
		}
	})
}

func FuzzCheckPNG(f *testing.F) {
	f.Add([]byte("\x89PNG\r\n\x1a\n"))
	f.Add([]byte("Status: -1"))
	f.Add(encodePNG(newFakePhone().image(4, 4)))
	f.Fuzz(func(t *testing.T, b []byte) {
		shot, reason := checkPNG(b)
		if reason == "" && (shot.Width <= 0 || shot.Height <= 0 || len(shot.PNG) == 0) {
			t.Fatalf("accepted %q as %+v", b, shot)
		}
	})
}

func FuzzParseGetprop(f *testing.F) {
	f.Add("[ro.serialno]: [f89a5ec6]\n[ro.build.version.sdk]: [35]\n")
	f.Add("[]: []\n[a]: [b]: [c]\n")
	f.Fuzz(func(t *testing.T, s string) {
		for k, v := range parseGetprop(s) {
			if !strings.Contains(s, "["+k+"]: ["+v+"]") {
				t.Fatalf("parseGetprop(%q) read %q = %q, which the input does not hold", s, k, v)
			}
		}
	})
}

func FuzzCheckSDK(f *testing.F) {
	f.Add("19", "4.4.2")
	f.Add("35", "15")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, sdk, release string) {
		err := checkSDK("x", sdk, release)
		n, perr := strconv.Atoi(strings.TrimSpace(sdk))
		if (err != nil) != (perr == nil && n > 0 && n < MinSDK) {
			t.Fatalf("checkSDK(%q) = %v", sdk, err)
		}
	})
}
