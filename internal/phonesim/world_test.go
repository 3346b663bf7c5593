package phonesim

import (
	"reflect"
	"strings"
	"testing"
)

// The read-only facts match what a new phone holds and shows.
func TestWorldMatchesAFreshPhone(t *testing.T) {
	p := New(Config{Serial: DefaultSerial})
	got, want := p.State(), Initial()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Initial() = %+v\nfresh phone = %+v", want, got)
	}
	var out strings.Builder
	p.runShell("getprop ro.build.id; getprop ro.build.version.release", nil, &out)
	if !strings.Contains(out.String(), BuildNumber) || !strings.Contains(out.String(), AndroidVersion) {
		t.Errorf("getprop says %q, want %s and %s", out.String(), BuildNumber, AndroidVersion)
	}
	cs := Contacts()
	if len(cs) != len(contacts) || cs[2].Alias != "张三" || len(cs[0].Received) == 0 {
		t.Errorf("Contacts() = %+v", cs)
	}
	cs[0].Received[0] = "changed"
	if Contacts()[0].Received[0] == "changed" {
		t.Error("Contacts() shares the phone's own slices")
	}
	if apps := LauncherApps(); len(apps) != 6 || apps[0] != "Settings" {
		t.Errorf("LauncherApps() = %v", apps)
	}
}

// A phone given another Android release reports it in getprop, as the
// fleet's facts read it, and on the About phone page.
func TestAnotherAndroidRelease(t *testing.T) {
	p := New(Config{Serial: DefaultSerial, Android: "13"})
	p.SetAndroidVersion("15")
	var out strings.Builder
	p.runShell("getprop ro.build.version.release", nil, &out)
	if strings.TrimSpace(out.String()) != "15" {
		t.Errorf("getprop ro.build.version.release = %q, want 15", out.String())
	}
	p.mu.Lock()
	p.push(newView(pkgSettings, pageAbout, ""))
	s := p.layout()
	p.mu.Unlock()
	found := false
	for _, w := range s.widgets {
		found = found || w.text == "Android version: 15"
	}
	if !found {
		t.Error("About phone does not show Android version: 15")
	}
}
