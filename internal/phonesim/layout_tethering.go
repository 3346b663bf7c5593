package phonesim

// sectionTethering is the Settings page that shares the phone's
// connection. It is not one of settingsRows: those pages show nothing to
// change.
const sectionTethering = "Hotspot & tethering"

// layoutTethering lays the tethering page out as Android Settings lays a
// switch preference: a row whose title and summary are text views, the
// summary below the title, and a switch beside them with no text of its
// own; the row, not the switch, takes the tap. The switch's content
// description repeats the title for screen readers, as apps do (Huawei
// Calendar's switches in
// internal/realscreens/testdata/nofocus-huawei-calendar-new-event-zh.xml).
func (p *Phone) layoutTethering(b *builder) {
	w := b.s.w
	st := &p.st
	li := b.list(contentTop, b.s.h)
	on := st.Toggles.BluetoothTethering
	summary := "Not sharing this phone's internet connection via Bluetooth"
	if on {
		summary = "Sharing this phone's internet connection via Bluetooth"
	}
	b.item(widget{kind: kRow, class: "android.widget.LinearLayout", clickable: true, tap: func() {
		st.Toggles.BluetoothTethering = !st.Toggles.BluetoothTethering
		if st.Toggles.BluetoothTethering {
			st.Toggles.Bluetooth = true
		}
	}}, 0, 0, w, rowH+40)
	b.item(widget{kind: kText, text: "Bluetooth tethering", id: "android:id/title"}, 48, 24, w-320, 104)
	b.item(widget{kind: kSubText, text: summary, id: "android:id/summary"}, 48, 104, w-320, rowH+16)
	b.item(widget{kind: kSwitch, class: "android.widget.Switch", desc: "Bluetooth tethering", id: "android:id/switch_widget",
		checkable: true, checked: on}, w-220, 50, w-40, rowH-10)
	b.y += rowH + 40
	b.endList(li)
}
