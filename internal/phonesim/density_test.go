package phonesim

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

// TestSecondScreenSize: a 720×1600 phone at 320 dpi says so through wm
// and getprop, draws 720×1600 screenshots and reports element bounds in
// its own pixels, inside the screen; taps and swipes in those pixels hit
// what the tree says is there.
func TestSecondScreenSize(t *testing.T) {
	p := New(Config{Width: 720, Height: 1600, Density: 320})
	for cmd, want := range map[string]string{
		"wm size":                   "Physical size: 720x1600\n",
		"wm density":                "Physical density: 320\n",
		"getprop ro.sf.lcd_density": "320\n",
	} {
		if got := sh(t, p, cmd); got != want {
			t.Errorf("%s = %q, want %q", cmd, got, want)
		}
	}
	shot, _, err := p.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 720 || b.Dy() != 1600 {
		t.Fatalf("screenshot %v, want 720×1600", b)
	}
	raw := sh(t, p, "screencap")
	if len(raw) != 16+720*1600*4 {
		t.Fatalf("raw screencap is %d bytes, want the 16-byte header and 720×1600 RGBA pixels", len(raw))
	}
	// Every app's screen, as laid out: bounds inside the screen, and a
	// tap on an icon's centre opens that app.
	for _, name := range []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"} {
		sh(t, p, "input keyevent HOME")
		e := element(t, p, name)
		if e.Bounds.X1 < 0 || e.Bounds.X2 > 720 || e.Bounds.Y2 > 1600 {
			t.Fatalf("icon %q bounds %+v outside 720×1600", name, e.Bounds)
		}
		tapOn(t, p, name)
		if st := p.State(); st.CurrentApp == p.pkg(pkgLauncher) {
			t.Fatalf("a tap on %q at %+v opened nothing", name, e.Bounds)
		}
		for _, el := range p.UITree() {
			if el.Bounds.X2 > 720 || el.Bounds.Y2 > 1600 {
				t.Errorf("%s: %q at %+v is outside the screen", name, el.Text+el.ResourceID, el.Bounds)
			}
		}
	}
	sh(t, p, "input keyevent HOME")
	tapOn(t, p, "Settings")
	wifi := element(t, p, "wifi_switch")
	tapOn(t, p, "wifi_switch")
	if element(t, p, "wifi_switch").Checked == wifi.Checked {
		t.Fatal("a tap on the Wi-Fi switch at 320 dpi did not toggle it")
	}
	// A swipe up in the list's pixels scrolls it.
	before := element(t, p, "wifi_switch").Bounds
	sh(t, p, "input swipe 360 1400 360 600 300")
	if after, ok := findElement(p, "wifi_switch"); ok && after.Bounds == before {
		t.Fatal("a swipe up at 320 dpi did not scroll Settings")
	}
	if !strings.Contains(sh(t, p, "uiautomator dump /dev/tty"), "[0,") {
		t.Fatal("the UI dump has no bounds")
	}
}

// TestScreenSizesTheConfigAllows: at the smallest layout the config
// accepts (900×1800 at 420 dpi) and at other sizes and densities, every
// app's first screen lies inside the screen and a tap on each launcher
// icon's centre opens its app.
func TestScreenSizesTheConfigAllows(t *testing.T) {
	for _, c := range [][3]int{{900, 1800, 420}, {1080, 2340, 440}, {1440, 3120, 560}, {720, 1440, 320}} {
		p := New(Config{Width: c[0], Height: c[1], Density: c[2]})
		for _, name := range []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"} {
			sh(t, p, "input keyevent HOME")
			tapOn(t, p, name)
			if st := p.State(); st.CurrentApp == p.pkg(pkgLauncher) {
				t.Fatalf("%v: a tap on %q opened nothing", c, name)
			}
			for _, el := range p.UITree() {
				if el.Bounds.X1 < 0 || el.Bounds.Y1 < 0 || el.Bounds.X2 > c[0] || el.Bounds.Y2 > c[1] {
					t.Errorf("%v, %s: %q at %+v is outside the screen", c, name, el.Text+el.ResourceID, el.Bounds)
				}
			}
		}
	}
}
