package config

import (
	"strings"
	"testing"
)

// TestSimScreen: the default screen and 720×1600 at 320 dpi are fine; a
// negative value, a density out of range or a screen the apps do not fit
// is refused naming the keys and a size that works.
func TestSimScreen(t *testing.T) {
	for _, ok := range [][3]int{{0, 0, 0}, {720, 1600, 320}, {1080, 2340, 440}, {1440, 3120, 560}} {
		if err := SimScreenError(ok[0], ok[1], ok[2]); err != "" {
			t.Errorf("%v: %s", ok, err)
		}
	}
	for _, bad := range []struct {
		screen [3]int
		want   string
	}{
		{[3]int{-1, 0, 0}, "0 (the default"},
		{[3]int{720, 1600, 1000}, "from 120 to 640"},
		{[3]int{720, 1600, 420}, "720x1600 at 320"},
	} {
		c := Default()
		c.Sim.Width, c.Sim.Height, c.Sim.Density = bad.screen[0], bad.screen[1], bad.screen[2]
		err := c.Validate()
		if err == nil || !strings.Contains(err.Error(), "sim.density") || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want an error naming sim.density and %q", bad.screen, err, bad.want)
		}
	}
}

// TestSimCosts: none and phone are the profiles; anything else is refused
// with both named.
func TestSimCosts(t *testing.T) {
	for _, ok := range []string{"none", "phone"} {
		c := Default()
		c.Sim.Costs = ok
		if err := c.Validate(); err != nil && strings.Contains(err.Error(), "sim.costs") {
			t.Errorf("sim.costs %s: %v", ok, err)
		}
	}
	c := Default()
	c.Sim.Costs = "slow"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "sim.costs") || !strings.Contains(err.Error(), "phone") {
		t.Errorf("sim.costs slow: %v, want an error naming sim.costs and the profiles", err)
	}
}

// TestSimSkin: pixel (the default), classic, miui and oneui are the skins; anything
// else is refused with both named.
func TestSimSkin(t *testing.T) {
	if got := Default().Sim.Skin; got != "pixel" {
		t.Errorf("default sim.skin = %q, want pixel", got)
	}
	for _, ok := range []string{"classic", "pixel", "miui", "oneui"} {
		c := Default()
		c.Sim.Skin = ok
		if err := c.Validate(); err != nil && strings.Contains(err.Error(), "sim.skin") {
			t.Errorf("sim.skin %s: %v", ok, err)
		}
	}
	c := Default()
	c.Sim.Skin = "material"
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "sim.skin") || !strings.Contains(err.Error(), "pixel") {
		t.Errorf("sim.skin material: %v, want an error naming sim.skin and the skins", err)
	}
}
