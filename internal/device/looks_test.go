package device_test

import (
	"context"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// TestLaunchByNameOnEachLook launches the simulator's apps by the names a
// person uses on every look, over ADB: the name resolves to the package the
// look installs (com.android.mms on a Xiaomi phone, Samsung's
// com.sec.android.app.clockpackage), monkey starts it and CurrentApp reads
// it back from dumpsys window.
func TestLaunchByNameOnEachLook(t *testing.T) {
	ctx := context.Background()
	for _, skin := range phonesim.Skins {
		t.Run(string(skin), func(t *testing.T) {
			d, _ := hostWith(t, phonesim.Config{Skin: skin})
			r, ok := d.(interface {
				ResolveApp(context.Context, string) (string, error)
			})
			if !ok {
				t.Fatal("an ADB phone does not resolve app names")
			}
			for _, name := range []string{"Clock", "Notes", "Contacts", "Messages", "Settings"} {
				want := skin.Package(name)
				pkg, err := r.ResolveApp(ctx, name)
				if err != nil || pkg != want {
					t.Fatalf("%s: ResolveApp(%q) = %q, %v; want %s", skin, name, pkg, err, want)
				}
				if err := d.Launch(ctx, name); err != nil {
					t.Fatalf("%s: Launch(%q): %v", skin, name, err)
				}
				app, err := d.CurrentApp(ctx)
				if err != nil || app.Package != want || app.Name != name {
					t.Fatalf("%s: after Launch(%q) CurrentApp = %+v, %v; want %s", skin, name, app, err, want)
				}
				if err := d.Home(ctx); err != nil {
					t.Fatal(err)
				}
				if app, err := d.CurrentApp(ctx); err != nil || app.Package != skin.Package("Launcher") {
					t.Fatalf("%s: Home shows %+v, %v; want %s", skin, app, err, skin.Package("Launcher"))
				}
			}
		})
	}
}
