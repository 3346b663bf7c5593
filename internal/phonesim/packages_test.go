package phonesim

import (
	"strings"
	"testing"
)

// launcherApps are the apps with an icon whose package a look may rename.
var launcherApps = []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"}

// TestEachLookReportsItsOwnPackages launches every app on every look by
// the look's package through the shell and reads back what a client sees:
// the focus lines of dumpsys window and activity, the dump's package
// attribute and resource-id prefix, pm list packages and CurrentApp.
func TestEachLookReportsItsOwnPackages(t *testing.T) {
	for _, skin := range Skins {
		for _, name := range launcherApps {
			t.Run(string(skin)+"/"+name, func(t *testing.T) {
				p := New(Config{Skin: skin})
				pkg := skin.Package(name)
				if pkg == "" {
					t.Fatalf("%s has no package for %s", skin, name)
				}
				if out := sh(t, p, "monkey -p "+pkg+" -c android.intent.category.LAUNCHER 1"); !strings.Contains(out, "Events injected: 1") {
					t.Fatalf("monkey -p %s: %q", pkg, out)
				}
				if st := p.State(); st.CurrentApp != pkg || st.Screen.App != name {
					t.Fatalf("CurrentApp %q on %+v, want %q", st.CurrentApp, st.Screen, pkg)
				}
				win := sh(t, p, "dumpsys window")
				comp := skin.Component(name)
				act, _ := skin.info(apps[appIndex(name)].Package)
				if !strings.Contains(win, "mCurrentFocus=Window{") || !strings.Contains(win, " u0 "+pkg+"/"+act.Activity+"}") {
					t.Fatalf("dumpsys window does not focus %s/%s:\n%s", pkg, act.Activity, win)
				}
				if !strings.Contains(win, " u0 "+comp+" t") {
					t.Fatalf("mFocusedApp is not %s:\n%s", comp, win)
				}
				if a := sh(t, p, "dumpsys activity"); !strings.Contains(a, " u0 "+comp+" t10}") {
					t.Fatalf("dumpsys activity: %q, want %s", a, comp)
				}
				es := simDump(t, p)
				ids := 0
				for _, e := range es {
					if e.Package != pkg && e.Package != pkgSystemUI {
						t.Fatalf("%s's dump holds package %q (%+v)", pkg, e.Package, e)
					}
					if id, _, ok := strings.Cut(e.ResourceID, ":id/"); ok && id != "android" && id != pkgSystemUI {
						if id != pkg {
							t.Fatalf("resource id %q is not under %s", e.ResourceID, pkg)
						}
						ids++
					}
				}
				// The vendors' Contacts carry no ids: no public source names
				// them (layout_vendor_contacts.go).
				noIDs := name == "Bank" || name == "Contacts" && (skin == SkinMIUI || skin == SkinOneUI)
				if ids == 0 && !noIDs {
					t.Fatalf("%s's screen has no id of its own", pkg)
				}
				if list := sh(t, p, "pm list packages"); !strings.Contains(list, "package:"+pkg+"\n") {
					t.Fatalf("pm list packages lacks %s:\n%s", pkg, list)
				}
				sh(t, p, "am force-stop "+pkg)
				if st := p.State(); st.CurrentApp != skin.Package("Launcher") {
					t.Fatalf("after force-stop %s the phone shows %q", pkg, st.CurrentApp)
				}
				if out := sh(t, p, "am start -n "+comp); !strings.Contains(out, "Starting: Intent { cmp="+comp+" }") || p.State().CurrentApp != pkg {
					t.Fatalf("am start -n %s: %q, in front %q", comp, out, p.State().CurrentApp)
				}
			})
		}
	}
}

// TestLooksRefuseOtherLooksPackages: a Xiaomi phone has no Google Messages
// and a Pixel no com.example.notes, so monkey finds nothing to run and pm
// does not list them; the classic look keeps the simulator's own.
func TestLooksRefuseOtherLooksPackages(t *testing.T) {
	for _, tc := range []struct {
		skin Skin
		pkg  string
	}{
		{SkinMIUI, pkgMessages}, {SkinMIUI, pkgNotes}, {SkinMIUI, pkgLauncher},
		{SkinOneUI, pkgClock}, {SkinOneUI, pkgContacts},
		{SkinPixel, pkgNotes}, {SkinPixel, pkgLauncher},
		{SkinMIUI, "com.samsung.android.messaging"}, {SkinOneUI, "com.miui.notes"},
	} {
		p := New(Config{Skin: tc.skin})
		if out := sh(t, p, "monkey -p "+tc.pkg+" -c android.intent.category.LAUNCHER 1"); !strings.Contains(out, "No activities found") {
			t.Errorf("%s: monkey -p %s ran: %q", tc.skin, tc.pkg, out)
		}
		if list := sh(t, p, "pm list packages"); strings.Contains(list, "package:"+tc.pkg+"\n") {
			t.Errorf("%s lists %s", tc.skin, tc.pkg)
		}
	}
	for _, name := range append([]string{"Launcher"}, launcherApps...) {
		if got, want := SkinClassic.Package(name), apps[appIndex(name)].Package; got != want {
			t.Errorf("classic %s is %s, want the simulator's own %s", name, got, want)
		}
	}
}

// TestVendorPackages pins the vendor packages docs/phones.md#skins names.
func TestVendorPackages(t *testing.T) {
	want := map[Skin]map[string]string{
		SkinPixel: {"Messages": "com.google.android.apps.messaging", "Clock": "com.google.android.deskclock",
			"Contacts": "com.google.android.contacts", "Notes": "com.google.android.keep", "Launcher": "com.google.android.apps.nexuslauncher"},
		SkinMIUI: {"Messages": "com.android.mms", "Clock": "com.android.deskclock", "Contacts": "com.android.contacts",
			"Notes": "com.miui.notes", "Launcher": "com.miui.home"},
		SkinOneUI: {"Messages": "com.samsung.android.messaging", "Clock": "com.sec.android.app.clockpackage",
			"Contacts": "com.samsung.android.app.contacts", "Notes": "com.samsung.android.app.notes", "Launcher": "com.sec.android.app.launcher"},
	}
	for skin, names := range want {
		for name, pkg := range names {
			if got := skin.Package(name); got != pkg {
				t.Errorf("%s %s: %s, want %s", skin, name, got, pkg)
			}
		}
		if got := skin.Package("Settings"); got != pkgSettings {
			t.Errorf("%s Settings: %s", skin, got)
		}
	}
	if got := SkinOneUI.Component("Clock"); got != "com.sec.android.app.clockpackage/.ClockPackage" {
		t.Errorf("One UI Clock component %s", got)
	}
}

// TestNotificationsComeFromTheLooksMessages: dumpsys notification names
// the look's Messages as the poster.
func TestNotificationsComeFromTheLooksMessages(t *testing.T) {
	p := New(Config{Skin: SkinOneUI})
	p.Receive("Mom", "Call me")
	out := sh(t, p, "dumpsys notification --noredact")
	if !strings.Contains(out, "pkg=com.samsung.android.messaging ") || strings.Contains(out, pkgMessages) {
		t.Fatalf("dumpsys notification:\n%s", out)
	}
}

func appIndex(name string) int {
	for i, a := range apps {
		if a.Name == name {
			return i
		}
	}
	return -1
}
