package modelserver

import (
	"net/http/httptest"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// MIUI's home screen as the real com.miui.home dumps show it
// (phonesim/layout_vendor_launcher.go): the clock widget writes no text
// but is described by the time as it is spoken, an icon is a described
// frame whose name a TextView inside writes, and the dock's icons are
// only described. The persona reads the time off the description and
// finds an icon by its name or description, the clickable frame.
func TestPersonaOnMIUIHome(t *testing.T) {
	srv := httptest.NewServer(New(Config{}))
	defer srv.Close()
	p, a := startPhoneWith(t, phonesim.Config{Skin: phonesim.SkinMIUI})
	const todo = "Read the time shown on the phone's home screen"
	got, steps := runGoal(t, srv.URL, a, todo, 16)
	if got != "12:00" {
		t.Fatalf("%q finished %q in %d steps, want 12:00", todo, got, steps)
	}
	final := postcond.Screen{App: "Launcher", AppPackage: "com.miui.home", Elements: p.UITree()}
	o := postcond.Observed{Final: final, Seen: []postcond.Screen{final}, Answer: got, Question: todo}
	if rs := postcond.Eval([]postcond.Check{{Kind: postcond.AnswerSeen, Type: postcond.TypeTime}}, o); !postcond.AllHeld(rs) {
		t.Errorf("the answer is not seen on the MIUI home screen: %s", postcond.Summary(rs))
	}
	elems := uitree.List(p.UITree(), 1080, 2400)
	if app := inferApp(elems); app != "Launcher" {
		t.Errorf("inferApp on MIUI's home = %q, want Launcher", app)
	}
	c := &solver{obs: observation{Elems: elems}}
	for app, name := range map[string]string{"Messages": "短信", "Notes": "便签", "Settings": "设置"} {
		icon := c.appIcon(app)
		if icon == nil || !icon.Clickable || icon.Desc != name || icon.Class != "RelativeLayout" {
			t.Errorf("the %s icon is %+v, want the clickable RelativeLayout described %s", app, icon, name)
		}
	}
	if icon := c.appIcon("Camera"); icon != nil {
		t.Errorf("an icon for an app the phone lacks: %+v", icon)
	}
}
