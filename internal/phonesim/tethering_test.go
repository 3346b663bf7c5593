package phonesim

import "testing"

// The tethering page is a switch preference as Android lays it out: the
// title and summary are text views, the switch beside them has no text,
// its description repeats the title, and the row takes the tap.
// Tethering needs Bluetooth: turning it on turns Bluetooth on, Bluetooth
// or airplane mode going off ends it.
func TestBluetoothTethering(t *testing.T) {
	p := New(Config{})
	launch(t, p, pkgSettings)
	tapOn(t, p, sectionTethering)
	title, sw := element(t, p, "Bluetooth tethering"), element(t, p, "switch_widget")
	for _, e := range p.UITree() {
		if e.Text == "Bluetooth tethering" && e.ResourceID != "android:id/title" {
			t.Errorf("%s says the title too: only the title and the switch's description should", e.ResourceID)
		}
	}
	if sw.Text != "" || sw.Desc != "Bluetooth tethering" || !sw.Checkable || sw.Checked || sw.Clickable {
		t.Fatalf("switch = %+v, want no text, the title as its description, off, the row taking the tap", sw)
	}
	if sw.Bounds.X1 <= title.Bounds.X2 || sw.Bounds.Y1 >= title.Bounds.Y2+100 {
		t.Errorf("switch %v is not beside the title %v", sw.Bounds, title.Bounds)
	}
	element(t, p, "summary")
	tapOn(t, p, "summary") // the row, anywhere
	if tg := p.State().Toggles; !tg.BluetoothTethering || !tg.Bluetooth {
		t.Fatalf("after a tap on the row: %+v, want tethering and Bluetooth on", tg)
	}
	if !element(t, p, "switch_widget").Checked {
		t.Error("the switch does not show tethering on")
	}
	sh(t, p, "input keyevent 4")
	tapOn(t, p, "bluetooth_switch")
	if tg := p.State().Toggles; tg.Bluetooth || tg.BluetoothTethering {
		t.Fatalf("after Bluetooth off: %+v, want tethering off too", tg)
	}
	tapOn(t, p, sectionTethering)
	tapOn(t, p, "summary")
	sh(t, p, "input keyevent 4")
	tapOn(t, p, "airplane_switch")
	if tg := p.State().Toggles; tg.Bluetooth || tg.BluetoothTethering || !tg.Airplane {
		t.Fatalf("after airplane mode on: %+v, want Bluetooth and tethering off", tg)
	}
}
