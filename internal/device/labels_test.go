package device

import (
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/device/apk"
)

// TestCurrentAppNamesAnyAppByItsLabel: an app the built-in table does not
// know is named in front by the label its APK gives it, in the phone's
// language, read once and kept; an app the phone cannot tell the label of
// keeps the table's name.
func TestCurrentAppNamesAnyAppByItsLabel(t *testing.T) {
	podcasts, err := apk.Build(apk.App{Package: "org.example.podcasts", Activity: "org.example.podcasts.Main",
		Labels: map[string]string{"": "Podcast Player", "zh": "播客"}})
	if err != nil {
		t.Fatal(err)
	}
	f, _, d := setup(t, Options{})
	f.set(func(f *fakePhone) {
		f.apks = map[string][]byte{"org.example.podcasts": podcasts}
		f.props = map[string]string{"persist.sys.locale": "en-US"}
		f.focus = "org.example.podcasts/.Main"
	})
	app, err := d.CurrentApp(tctx(t))
	if err != nil || app.Name != "Podcast Player" || app.Package != "org.example.podcasts" {
		t.Fatalf("CurrentApp = %+v, %v; want Podcast Player", app, err)
	}
	f.set(func(f *fakePhone) { f.commands = nil })
	if app, _ = d.CurrentApp(tctx(t)); app.Name != "Podcast Player" {
		t.Errorf("second CurrentApp = %+v", app)
	}
	if _, cmds, _, _, _ := f.snapshot(); !slices.Equal(cmds, []string{"dumpsys window"}) {
		t.Errorf("second CurrentApp ran %q; want the label kept", cmds)
	}

	// A phone in Chinese shows the Chinese label.
	f, _, d = setup(t, Options{})
	f.set(func(f *fakePhone) {
		f.apks = map[string][]byte{"org.example.podcasts": podcasts}
		f.props = map[string]string{"persist.sys.locale": "zh-Hans-CN"}
		f.focus = "org.example.podcasts/.Main"
	})
	if app, err = d.CurrentApp(tctx(t)); err != nil || app.Name != "播客" {
		t.Errorf("CurrentApp in Chinese = %+v, %v; want 播客", app, err)
	}

	// No APK to read: the table's name, else the package.
	f, _, d = setup(t, Options{})
	f.set(func(f *fakePhone) { f.focus = "com.tencent.mm/.ui.LauncherUI" })
	if app, _ = d.CurrentApp(tctx(t)); app.Name != "WeChat" {
		t.Errorf("CurrentApp without a readable APK = %+v; want the table's WeChat", app)
	}
	f.set(func(f *fakePhone) { f.focus = "org.example.unknown/.Main" })
	if app, _ = d.CurrentApp(tctx(t)); app.Name != "org.example.unknown" {
		t.Errorf("CurrentApp of an unknown app without an APK = %+v; want its package", app)
	}
	// A phone that lists no APK is not asked again at every look.
	f.set(func(f *fakePhone) { f.commands = nil })
	_, _ = d.CurrentApp(tctx(t))
	if _, cmds, _, _, _ := f.snapshot(); slices.ContainsFunc(cmds, func(c string) bool { return strings.HasPrefix(c, "pm path") }) {
		t.Errorf("label asked again: %q", cmds)
	}
}
