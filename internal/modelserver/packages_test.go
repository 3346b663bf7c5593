package modelserver

import (
	"slices"
	"testing"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// TestPackagesKnowEveryLook: the persona tells each app in front by the
// package every look installs it under (docs/phones.md#skins), the
// classic look's first.
func TestPackagesKnowEveryLook(t *testing.T) {
	for name, pkgs := range packages {
		if got := phonesim.SkinClassic.Package(name); pkgs[0] != got {
			t.Errorf("%s: the persona's first package is %s, the classic look's %s", name, pkgs[0], got)
		}
		for _, skin := range phonesim.Skins {
			pkg := skin.Package(name)
			if !slices.Contains(pkgs, pkg) {
				t.Errorf("%s on %s is %s, which the persona does not know", name, skin, pkg)
			}
			c := solver{obs: observation{App: "System Home", Package: pkg}}
			if !c.inApp(name) {
				t.Errorf("%s on %s (%s): the persona does not see the app in front", name, skin, pkg)
			}
		}
	}
}
