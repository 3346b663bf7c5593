package activities

import (
	"context"
	"testing"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// TestLaunchByNameOnVendorLooks: the model's Launch of "Clock" or "Notes"
// opens the app a Xiaomi or Samsung phone ships under its own package, and
// Observe reports that package and the app's name (docs/phones.md#skins).
func TestLaunchByNameOnVendorLooks(t *testing.T) {
	ctx := context.Background()
	for _, skin := range []phonesim.Skin{phonesim.SkinMIUI, phonesim.SkinOneUI, phonesim.SkinPixel} {
		p := newLookPhone(t, skin)
		for _, name := range []string{"Clock", "Notes"} {
			res, err := p.a.Act(ctx, ActInput{Serial: p.sim.Serial(), Action: autoglm.Action{Name: autoglm.ActionLaunch, App: name},
				Width: phonesim.DefaultWidth, Height: phonesim.DefaultHeight})
			if err != nil || res.Result != "ok" {
				t.Fatalf("%s: Launch %s: %+v, %v", skin, name, res, err)
			}
			want := skin.Package(name)
			if got := p.sim.State().CurrentApp; got != want {
				t.Fatalf("%s: Launch %s opened %s, want %s", skin, name, got, want)
			}
			obs, err := p.a.Observe(ctx, ObserveInput{Serial: p.sim.Serial(), UITree: true})
			if err != nil || obs.AppPackage != want || obs.App != name {
				t.Fatalf("%s: Observe after Launch %s: app %q (%s), %v; want %s", skin, name, obs.App, obs.AppPackage, err, want)
			}
		}
	}
}
