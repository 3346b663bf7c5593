package device

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// stack is a simulated phone attached to a real adb server.
type stack struct {
	phone  *phonesim.Phone
	client *adb.Client
	serial string
}

// startStack starts the simulator in-process and Debian's adb server on a
// free loopback port, connects the two through our client, and stops both
// when the test ends. Without adb on PATH it skips, unless
// PHONEFLOW_REQUIRE_ADB=1 makes that a failure.
func startStack(tb testing.TB) *stack {
	tb.Helper()
	return startStackWith(tb, phonesim.Life{})
}

// startStackWith is startStack with a simulated phone that has life.
func startStackWith(tb testing.TB, life phonesim.Life) *stack {
	tb.Helper()
	adbPath, err := exec.LookPath("adb")
	if err != nil {
		msg := "adb is not installed (apt-get install adb); skipping the tests against the real adb server"
		if os.Getenv("PHONEFLOW_REQUIRE_ADB") == "1" {
			tb.Fatal(msg + ", but PHONEFLOW_REQUIRE_ADB=1 requires them")
		}
		tb.Skip(msg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	serial := ln.Addr().String()
	phone := phonesim.New(phonesim.Config{Serial: serial, Life: life})
	served := make(chan struct{})
	go func() { defer close(served); _ = phone.Serve(ctx, ln) }()
	tb.Cleanup(func() { cancel(); <-served })

	port := freePort(tb)
	home := tb.TempDir() // adb keeps its key under $HOME/.android
	run := func(args ...string) ([]byte, error) {
		cmd := exec.Command(adbPath, append([]string{"-P", port}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "ANDROID_SDK_HOME="+home)
		return cmd.CombinedOutput()
	}
	if out, err := run("start-server"); err != nil {
		tb.Fatalf("adb -P %s start-server: %v\n%s", port, err, out)
	}
	tb.Cleanup(func() {
		if out, err := run("kill-server"); err != nil {
			tb.Logf("adb -P %s kill-server: %v\n%s", port, err, out)
		}
	})
	client := adb.New(adb.Config{Addr: "127.0.0.1:" + port})
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()
	if ok, err := ConnectAll(cctx, client, []string{serial}); err != nil || len(ok) != 1 {
		tb.Fatalf("connecting the simulator at %s: %v", serial, err)
	}
	return &stack{phone: phone, client: client, serial: serial}
}

func freePort(tb testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// center finds the element showing text (or with that resource id) and
// returns its center.
func center(tb testing.TB, d Device, text string) (int, int) {
	tb.Helper()
	elems, err := d.UITree(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range elems {
		if e.Text == text || e.ShortID() == text {
			return e.Bounds.Center()
		}
	}
	tb.Fatalf("no element %q on screen; have %s", text, texts(elems))
	return 0, 0
}

func texts(elems []uitree.Element) string {
	var s []string
	for _, e := range elems {
		if e.Text != "" {
			s = append(s, strconv.Quote(e.Text))
		}
	}
	return strings.Join(s, " ")
}

func hasText(tb testing.TB, d Device, text string) bool {
	elems, err := d.UITree(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	return slices.ContainsFunc(elems, func(e uitree.Element) bool { return e.Text == text })
}

func TestEndToEnd(t *testing.T) {
	s := startStack(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	state := s.phone.State

	pool := NewPool(s.client, PoolOptions{Allow: []string{s.serial}})
	infos, err := pool.List(ctx)
	if err != nil || len(infos) != 1 || infos[0].Serial != s.serial || infos[0].State != "device" || infos[0].Model == "" {
		t.Fatalf("List = %+v, %v", infos, err)
	}
	if _, err := pool.Get(ctx, "127.0.0.1:1"); err == nil {
		t.Fatal("Get of a serial outside the allow list succeeded")
	}
	d, err := pool.Get(ctx, s.serial)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("screen size and screenshot", func(t *testing.T) {
		w, h, err := d.ScreenSize(ctx)
		if err != nil || w != 1080 || h != 2400 {
			t.Fatalf("ScreenSize = %d x %d, %v", w, h, err)
		}
		shot, err := d.Screenshot(ctx)
		if err != nil || shot.Sensitive || shot.Width != 1080 || shot.Height != 2400 {
			t.Fatalf("Screenshot = %dx%d sensitive=%v %q, %v", shot.Width, shot.Height, shot.Sensitive, shot.Reason, err)
		}
		want, _, _ := s.phone.Screenshot()
		if !bytes.Equal(shot.PNG, want) {
			t.Errorf("screenshot through adb (%d bytes) differs from the simulator's screen (%d bytes)", len(shot.PNG), len(want))
		}
	})

	t.Run("raw screenshot is the PNG's pixels", func(t *testing.T) {
		want, _, _ := s.phone.Screenshot()
		img, err := png.Decode(bytes.NewReader(want))
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second capture reuses the first one's buffer
			shot, err := d.(PixelCapturer).ScreenPixels(ctx)
			if err != nil || shot.Sensitive || shot.Pixels == nil || shot.Width != 1080 || shot.Height != 2400 {
				t.Fatalf("ScreenPixels = %dx%d sensitive=%v %q, %v", shot.Width, shot.Height, shot.Sensitive, shot.Reason, err)
			}
			for _, p := range []image.Point{{0, 0}, {540, 1200}, {1079, 2399}, {100, 2000}} {
				r, g, b, _ := img.At(p.X, p.Y).RGBA()
				c := shot.Pixels.RGBAAt(p.X, p.Y)
				if uint8(r>>8) != c.R || uint8(g>>8) != c.G || uint8(b>>8) != c.B || c.A != 0xff {
					t.Fatalf("raw pixel %v = %v, the PNG has %d,%d,%d", p, c, r>>8, g>>8, b>>8)
				}
			}
			Release(shot)
		}
	})

	t.Run("current app and ui tree", func(t *testing.T) {
		app, err := d.CurrentApp(ctx)
		if err != nil || app.Package != "com.android.launcher3" || app.Name != "Launcher" {
			t.Fatalf("CurrentApp = %+v, %v", app, err)
		}
		for _, label := range []string{"Settings", "Contacts", "Messages", "Clock", "Notes", "Bank"} {
			if !hasText(t, d, label) {
				t.Errorf("launcher lacks %q", label)
			}
		}
	})

	t.Run("tap toggles wifi", func(t *testing.T) {
		x, y := center(t, d, "Settings")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		if st := state(); st.CurrentApp != "com.android.settings" {
			t.Fatalf("after tapping Settings the app is %q", st.CurrentApp)
		}
		before := state().Toggles.WiFi
		x, y = center(t, d, "wifi_switch")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		if st := state(); st.Toggles.WiFi == before {
			t.Fatalf("Wi-Fi still %v after the tap", before)
		}
	})

	t.Run("swipe reaches about phone, back returns", func(t *testing.T) {
		if hasText(t, d, "About phone") {
			t.Fatal("About phone visible before scrolling; the test cannot show the swipe")
		}
		if err := d.Swipe(ctx, 540, 2000, 540, 600, 0); err != nil {
			t.Fatal(err)
		}
		x, y := center(t, d, "About phone")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		if st := state(); st.Screen.Page != "about" || !hasText(t, d, "Model: Pixel 7 (phonesim)") {
			t.Fatalf("after tapping About phone the screen is %+v", st.Screen)
		}
		if err := d.Back(ctx); err != nil {
			t.Fatal(err)
		}
		if st := state(); st.Screen.App != "Settings" || st.Screen.Page == "about" {
			t.Fatalf("after Back the screen is %+v", st.Screen)
		}
	})

	t.Run("home", func(t *testing.T) {
		if err := d.Home(ctx); err != nil {
			t.Fatal(err)
		}
		if st := state(); st.CurrentApp != "com.android.launcher3" {
			t.Fatalf("after Home the app is %q", st.CurrentApp)
		}
	})

	t.Run("launch, type Chinese, send", func(t *testing.T) {
		if err := d.Launch(ctx, "信息"); err != nil { // Messages, by its Chinese name
			t.Fatal(err)
		}
		if st := state(); st.CurrentApp != "com.google.android.apps.messaging" {
			t.Fatalf("Launch(信息) opened %q", st.CurrentApp)
		}
		x, y := center(t, d, "Zhang San")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		x, y = center(t, d, "compose_message_text")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		const msg = "会议改到下午两点 (2pm) 👍"
		if err := d.Type(ctx, msg); err != nil {
			t.Fatal(err)
		}
		if !hasText(t, d, msg) {
			t.Fatalf("typed text not in the compose field")
		}
		if st := state(); st.InputMethod == AdbIME {
			t.Errorf("input method left on the ADB Keyboard")
		}
		x, y = center(t, d, "send_button")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		st := state()
		if len(st.MessagesSent) != 1 || st.MessagesSent[0].To != "Zhang San" || st.MessagesSent[0].Text != msg {
			t.Fatalf("sent %+v", st.MessagesSent)
		}
	})

	t.Run("double tap and long press", func(t *testing.T) {
		n := len(state().InputLog)
		if err := d.DoubleTap(ctx, 300, 400); err != nil {
			t.Fatal(err)
		}
		if err := d.LongPress(ctx, 300, 400); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, ev := range state().InputLog[n:] {
			got = append(got, ev.Kind+" "+strings.Join(ev.Args, " "))
		}
		want := []string{"tap 300 400", "tap 300 400", "swipe 300 400 300 400 3000"}
		if !slices.Equal(got, want) {
			t.Fatalf("input log %q, want %q", got, want)
		}
	})

	t.Run("wake", func(t *testing.T) {
		if _, err := s.client.Shell(ctx, s.serial, "input keyevent KEYCODE_SLEEP"); err != nil {
			t.Fatal(err)
		}
		if state().Awake {
			t.Fatal("phone did not go to sleep")
		}
		if err := d.Wake(ctx); err != nil {
			t.Fatal(err)
		}
		if !state().Awake {
			t.Fatal("Wake left the phone asleep")
		}
	})

	t.Run("launch errors", func(t *testing.T) {
		var nf *AppNotFoundError
		err := d.Launch(ctx, "微信")
		if !errors.As(err, &nf) || nf.Package != "com.tencent.mm" {
			t.Errorf("Launch(微信) on a phone without WeChat = %v", err)
		}
		err = d.Launch(ctx, "Notez")
		if !errors.As(err, &nf) || !slices.Contains(nf.Suggestions, "Notes") {
			t.Errorf("Launch(Notez) = %v; want a suggestion of Notes", err)
		}
	})

	t.Run("secure screen", func(t *testing.T) {
		if err := d.Launch(ctx, "Bank"); err != nil {
			t.Fatal(err)
		}
		shot, err := d.Screenshot(ctx)
		if err != nil || !shot.Sensitive || shot.PNG != nil || !strings.Contains(shot.Reason, "secure screen") || shot.Width != 1080 {
			t.Fatalf("Screenshot on the bank = %+v, %v; want a sensitive screen", shot, err)
		}
		if raw, err := d.(PixelCapturer).ScreenPixels(ctx); err != nil || !raw.Sensitive || raw.Pixels != nil {
			t.Fatalf("ScreenPixels on the bank = sensitive %v, pixels %v, %v; want a sensitive screen", raw.Sensitive, raw.Pixels != nil, err)
		}
		if !hasText(t, d, "Sign in") {
			t.Error("UI tree of the secure screen lacks Sign in")
		}
		if app, _ := d.CurrentApp(ctx); app.Name != "Bank" {
			t.Errorf("CurrentApp on the bank = %+v", app)
		}
	})

	t.Run("screencap failing once is retried", func(t *testing.T) {
		if err := d.Home(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultScreencapFail, Count: 1}); err != nil {
			t.Fatal(err)
		}
		shot, err := d.Screenshot(ctx)
		if err != nil || shot.Sensitive {
			t.Fatalf("Screenshot after one failed capture = sensitive %v %q, %v", shot.Sensitive, shot.Reason, err)
		}
	})

	t.Run("settle waits for a delayed redraw", func(t *testing.T) {
		if err := d.Launch(ctx, "Settings"); err != nil {
			t.Fatal(err)
		}
		if err := s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultScreenDelay, Duration: 250 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		defer s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultClear})
		before := state().Toggles.Bluetooth
		x, y := center(t, d, "bluetooth_switch")
		if err := d.Tap(ctx, x, y); err != nil {
			t.Fatal(err)
		}
		// Right after Tap returns the display must already show the change.
		for _, e := range s.phone.UITree() {
			if e.ShortID() == "bluetooth_switch" && e.Checked == before {
				t.Fatalf("Tap returned while the screen still showed the old switch (settle %+v)", d.(Settler).LastSettle())
			}
		}
	})

	t.Run("missing ADB Keyboard", func(t *testing.T) {
		if err := s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultNoIME}); err != nil {
			t.Fatal(err)
		}
		defer s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultClear})
		nd := New(s.client, s.serial, Options{}) // a fresh device: no cached IME check
		if err := nd.Type(ctx, "x"); !errors.Is(err, ErrIMENotInstalled) {
			t.Fatalf("Type without the IME = %v", err)
		}
	})

	t.Run("sync through the adb server", func(t *testing.T) {
		data := bytes.Repeat([]byte("phoneflow "), 30000) // 300 KB: several DATA chunks
		mtime := time.Unix(1750000000, 0)
		if err := s.client.Push(ctx, s.serial, "/sdcard/pf.bin", 0o644, mtime, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		fi, err := s.client.Stat(ctx, s.serial, "/sdcard/pf.bin")
		if err != nil || fi.Size != uint32(len(data)) || !fi.IsRegular() {
			t.Fatalf("Stat = %+v, %v", fi, err)
		}
		got, err := s.client.Pull(ctx, s.serial, "/sdcard/pf.bin")
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Pull: %d bytes, %v", len(got), err)
		}
	})

	t.Run("transport drop and reconnect", func(t *testing.T) {
		if err := s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultDisconnect, Duration: 300 * time.Millisecond}); err != nil {
			t.Fatal(err)
		}
		// The server notices the drop and marks the phone offline (or, on a
		// fast reconnect of its own, never lets us see it).
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			_, err := s.client.Shell(ctx, s.serial, "true")
			var nf *adb.DeviceNotFoundError
			if errors.Is(err, adb.ErrDeviceOffline) || errors.As(err, &nf) {
				break
			}
		}
		time.Sleep(400 * time.Millisecond) // the phone accepts connections again
		nd, err := pool.Get(ctx, s.serial)
		if err != nil {
			t.Fatalf("Get after the drop: %v", err)
		}
		n := len(state().InputLog)
		if err := nd.Back(ctx); err != nil {
			t.Fatalf("Back after reconnecting: %v", err)
		}
		if log := state().InputLog; len(log) != n+1 || log[n].Kind != "keyevent" {
			t.Fatalf("input log after reconnecting: %+v", log[n:])
		}
	})

	t.Run("server version and refused connect", func(t *testing.T) {
		v, err := s.client.Version(ctx)
		if err != nil || v < 31 {
			t.Fatalf("Version = %d, %v", v, err)
		}
		err = s.client.Connect(ctx, "127.0.0.1:"+freePort(t))
		var fe *adb.FailError
		if !errors.As(err, &fe) || !strings.Contains(fe.Message, "failed to connect") {
			t.Fatalf("Connect to a closed port = %v; want the server's failure text", err)
		}
	})

	t.Run("unknown serial", func(t *testing.T) {
		_, err := s.client.Shell(ctx, "127.0.0.1:1", "true")
		var nf *adb.DeviceNotFoundError
		if !errors.As(err, &nf) || !slices.Contains(nf.Present, s.serial) {
			t.Fatalf("Shell on an unknown serial = %v", err)
		}
	})
}

// TestInputCutOffOverRealADB: a connection cut when the input command
// reaches the phone, before it runs, looks to the real adb server's client
// like a command that printed nothing. The driver must not call that
// sent: the tap is an error that says it may or may not have run, and the
// phone's input log shows it did not.
func TestInputCutOffOverRealADB(t *testing.T) {
	s := startStack(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d := New(s.client, s.serial, Options{})
	if err := s.phone.SetFault(phonesim.Fault{Kind: phonesim.FaultDropInput, Count: 1}); err != nil {
		t.Fatal(err)
	}
	err := d.Tap(ctx, 540, 900)
	t.Logf("tap cut off: %v", err)
	if err == nil || NotSent(err) || Sent(err) {
		t.Fatalf("tap whose connection was cut before it ran: %v; want an error neither sent nor not sent", err)
	}
	if n := len(s.phone.State().InputLog); n != 0 || s.phone.Dropped() != 1 {
		t.Fatalf("input log has %d events, %d inputs dropped", n, s.phone.Dropped())
	}
}
