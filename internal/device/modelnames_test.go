package device

import (
	"slices"
	"testing"
)

// TestModelNamesResolve: every app name AutoGLM-Phone was trained on
// resolves, to its own package unless the built-in table already gives the
// name to another app.
func TestModelNamesResolve(t *testing.T) {
	names, own := 0, 0
	for _, m := range modelApps {
		for _, n := range m.names {
			names++
			pkgs, ok := LookupApp(n)
			if !ok {
				t.Errorf("%q (%s) does not resolve", n, m.pkg)
				continue
			}
			if slices.Contains(pkgs, m.pkg) {
				own++
			}
		}
	}
	if names < 160 {
		t.Fatalf("%d names, want the model's whole vocabulary", names)
	}
	t.Logf("%d of %d names resolve to the model's own package", own, names)
	for name, pkg := range map[string]string{
		"AndroidSystemSettings": "com.android.settings", "Android  System Settings": "com.android.settings",
		"设置": "com.android.settings", "Settings": "com.android.settings", "微信": "com.tencent.mm", "WeChat": "com.tencent.mm",
		"美团": "com.sankuai.meituan", "Google Clock": "com.google.android.deskclock",
	} {
		if pkgs, ok := LookupApp(name); !ok || !slices.Contains(pkgs, pkg) {
			t.Errorf("LookupApp(%q) = %v, %v; want %s", name, pkgs, ok, pkg)
		}
	}
}

func TestModelLabel(t *testing.T) {
	for pkg, want := range map[string]string{
		"com.android.settings":                  "AndroidSystemSettings",
		"com.tencent.mm":                        "微信",
		"com.sankuai.meituan":                   "美团",
		"com.android.launcher3":                 ModelHome,
		"com.google.android.apps.nexuslauncher": ModelHome,
		"com.example.unknown":                   "",
	} {
		if got := ModelLabel(pkg); got != want {
			t.Errorf("ModelLabel(%s) = %q, want %q", pkg, got, want)
		}
	}
	// The built-in labels stay what phoneflow's own layout shows.
	if AppName("com.android.settings") != "Settings" {
		t.Errorf("AppName(settings) = %q", AppName("com.android.settings"))
	}
}
