package device

import (
	"slices"
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
		in, pkg, act string
	}{
		{"  mCurrentFocus=Window{a1b2c3 u0 com.android.settings/com.android.settings.Settings}\n", "com.android.settings", "com.android.settings.Settings"},
		{"  mCurrentFocus=Window{a1 u0 com.tencent.mm/com.tencent.mm.ui.LauncherUI}\n  mFocusedApp=ActivityRecord{x u0 com.tencent.mm/.ui.LauncherUI t5}", "com.tencent.mm", "com.tencent.mm.ui.LauncherUI"},
		// A system window has focus: fall back to the focused app.
		{"  mCurrentFocus=Window{ff u0 StatusBar}\n  mFocusedApp=ActivityRecord{9 u0 com.example.notes/.Editor t7}\n", "com.example.notes", "com.example.notes.Editor"},
		{"  mCurrentFocus=null\n  mFocusedApp=AppWindowToken{1 token=Token{2 ActivityRecord{3 u0 com.android.launcher3/.Launcher t1}}}\n", "com.android.launcher3", "com.android.launcher3.Launcher"},
		{"  mCurrentFocus=Window{b u0 com.example.bank}\n", "com.example.bank", ""},
		{"nothing here", "", ""},
	}
	for _, tt := range tests {
		pkg, act, ok := parseFocus(tt.in)
		if pkg != tt.pkg || act != tt.act || ok != (tt.pkg != "") {
			t.Errorf("parseFocus(%q) = %q, %q, %v; want %q, %q", tt.in, pkg, act, ok, tt.pkg, tt.act)
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
	f.Fuzz(func(t *testing.T, s string) {
		pkg, _, ok := parseFocus(s)
		if ok && !looksLikePackage(pkg) {
			t.Fatalf("parseFocus(%q) returned non-package %q", s, pkg)
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
