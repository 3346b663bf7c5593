package device

import (
	"slices"
	"testing"
)

func TestAppTable(t *testing.T) {
	if n := len(apps); n < 100 {
		t.Errorf("table has %d apps, want at least 100", n)
	}
	// The simulator's apps (contract with internal/phonesim) and common names.
	tests := map[string]string{
		"Launcher": "com.android.launcher3", "Settings": "com.android.settings", "设置": "com.android.settings",
		"Contacts": "com.android.contacts", "Messages": "com.google.android.apps.messaging",
		"Clock": "com.google.android.deskclock", "Notes": "com.example.notes", "Bank": "com.example.bank",
		"微信": "com.tencent.mm", "WeChat": "com.tencent.mm", "we chat": "com.tencent.mm", "支付宝": "com.eg.android.AlipayGphone",
		"抖音": "com.ss.android.ugc.aweme", "google maps": "com.google.android.apps.maps", "12306": "com.MobileTicket",
	}
	for name, pkg := range tests {
		got, ok := LookupApp(name)
		if !ok || got[0] != pkg {
			t.Errorf("LookupApp(%q) = %q, %v; want %s first", name, got, ok, pkg)
		}
	}
	for pkg, name := range map[string]string{"com.android.launcher3": "Launcher", "com.android.settings": "Settings",
		"com.google.android.deskclock": "Clock", "com.example.bank": "Bank", "com.tencent.mm": "WeChat", "x.y": ""} {
		if got := AppName(pkg); got != name {
			t.Errorf("AppName(%s) = %q, want %q", pkg, got, name)
		}
	}
	for _, e := range apps {
		for _, p := range e.packages {
			if !looksLikePackage(p) && p != "me.ele" {
				t.Errorf("%q is not a package name", p)
			}
		}
	}
	if names := AppNames(); !slices.IsSorted(names) || !slices.Contains(names, "Bank") {
		t.Error("AppNames not sorted or incomplete")
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		q    string
		want string
	}{
		{"Notez", "Notes"},
		{"Setings", "Settings"},
		{"wechat app", "WeChat"},
		{"Contact", "Contacts"},
		{"微", "WeChat"},
	}
	for _, tt := range tests {
		got := suggest(tt.q, []string{"com.example.notes"})
		if !slices.Contains(got, tt.want) {
			t.Errorf("suggest(%q) = %q, want it to contain %q", tt.q, got, tt.want)
		}
	}
	if got := suggest("zzzzzzzzxyw", nil); len(got) != 0 {
		t.Errorf("suggest(nonsense) = %q", got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"kitten", "sitting", 3}, {"微信", "微博", 1}, {"abc", "", 3}} {
		if got := editDistance(tt.a, tt.b); got != tt.d {
			t.Errorf("editDistance(%q,%q) = %d, want %d", tt.a, tt.b, got, tt.d)
		}
	}
}
