package adbserver_test

import (
	"context"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// center finds the element with this text or resource id on the phone's
// screen, straight from the simulator.
func center(t *testing.T, p *phonesim.Phone, name string) (int, int) {
	t.Helper()
	for _, e := range p.UITree() {
		if e.Text == name || e.ShortID() == name {
			return e.Bounds.Center()
		}
	}
	t.Fatalf("no %q on the phone's screen", name)
	return 0, 0
}

// TestDeviceDriverThroughServer runs the device driver over our client and
// our server: the same code path as with Debian's adb server.
func TestDeviceDriverThroughServer(t *testing.T) {
	r := newRig(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d := device.New(r.client, r.serial, device.Options{Logger: logger()})

	w, h, err := d.ScreenSize(ctx)
	if err != nil || w != 1080 || h != 2400 {
		t.Fatalf("ScreenSize = %dx%d, %v", w, h, err)
	}
	shot, err := d.Screenshot(ctx)
	if err != nil || shot.Sensitive || shot.Width != 1080 || shot.Height != 2400 {
		t.Fatalf("Screenshot = %dx%d sensitive=%v, %v", shot.Width, shot.Height, shot.Sensitive, err)
	}

	x, y := center(t, r.phone, "Settings")
	if err := d.Tap(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	if st := r.phone.State(); st.CurrentApp != "com.android.settings" {
		t.Fatalf("after tapping Settings the app is %q", st.CurrentApp)
	}
	before := r.phone.State().Toggles.WiFi
	x, y = center(t, r.phone, "wifi_switch")
	if err := d.Tap(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	if st := r.phone.State(); st.Toggles.WiFi == before {
		t.Fatalf("Wi-Fi still %v after the tap", before)
	}
	app, err := d.CurrentApp(ctx)
	if err != nil || app.Package != "com.android.settings" {
		t.Fatalf("CurrentApp = %+v, %v", app, err)
	}

	if err := d.Launch(ctx, "信息"); err != nil {
		t.Fatal(err)
	}
	x, y = center(t, r.phone, "Zhang San")
	if err := d.Tap(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	x, y = center(t, r.phone, "compose_message_text")
	if err := d.Tap(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	const msg = "会议改到下午两点 (2pm) 👍"
	if err := d.Type(ctx, msg); err != nil {
		t.Fatal(err)
	}
	x, y = center(t, r.phone, "send_button")
	if err := d.Tap(ctx, x, y); err != nil {
		t.Fatal(err)
	}
	st := r.phone.State()
	if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Zhang San" || st.MessagesSent[0].Text != msg {
		t.Fatalf("messages sent %+v; want %q to Zhang San", st.MessagesSent, msg)
	}
	if st.InputMethod == device.AdbIME {
		t.Error("Type left the ADB Keyboard selected")
	}
	elems, err := d.UITree(ctx)
	if err != nil || len(elems) == 0 {
		t.Fatalf("UITree = %d elements, %v", len(elems), err)
	}
}
