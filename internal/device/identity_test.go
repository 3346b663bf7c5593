package device_test

import (
	"context"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// hostWithPhone runs our ADB server (a host) with one simulated phone
// whose ro.serialno is serialNo, connected through our client.
func hostWithPhone(t *testing.T, serialNo string) (device.Device, string) {
	t.Helper()
	return hostWithPhoneTB(t, serialNo)
}

func hostWithPhoneTB(t testing.TB, serialNo string) (device.Device, string) {
	t.Helper()
	return hostWith(t, phonesim.Config{SerialNo: serialNo})
}

// hostWith is hostWithPhoneTB for a phone configured as cfg (its Serial
// is the address it listens on).
func hostWith(t testing.TB, cfg phonesim.Config) (device.Device, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := pl.Addr().String()
	cfg.Serial = serial
	p := phonesim.New(cfg)
	life, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Serve(life, pl) }()
	t.Cleanup(func() { stop(); <-done })
	sl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: slog.New(slog.DiscardHandler)})
	go func() { _ = s.Serve(context.Background(), sl) }()
	t.Cleanup(func() { _ = s.Close() })
	c := adb.New(adb.Config{Addr: sl.Addr().String()})
	if err := c.Connect(ctx, serial); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitForDevice(ctx, serial); err != nil {
		t.Fatal(err)
	}
	return device.New(c, serial, device.Options{}), serial
}

// Two hosts' phones are told apart by their ro.serialno, read over the ADB
// wire; a phone whose ro.serialno names no one phone (every emulator's
// "EMULATOR…") is known by its serial.
func TestIdentityOfReadsTheSerialNo(t *testing.T) {
	ctx := context.Background()
	a, _ := hostWithPhone(t, "R58M123ABC")
	b, _ := hostWithPhone(t, "R58M999XYZ")
	ida, err := device.IdentityOf(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	idb, err := device.IdentityOf(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if ida != "R58M123ABC" || idb != "R58M999XYZ" {
		t.Fatalf("identities %q and %q, want the phones' serialno", ida, idb)
	}
	e, serial := hostWithPhone(t, "EMULATOR34X1X1X0")
	if id, err := device.IdentityOf(ctx, e); err != nil || id != serial {
		t.Fatalf("emulator identity %q, %v; want its serial %s", id, err, serial)
	}
}

// BenchmarkIdentityOf is what naming the journal by the phone's identity
// adds to each action: one shell round trip of getprop (ro.serialno and
// the Android release) over our ADB client and server to a simulated phone
// on loopback. Beside it, a `dumpsys window`
// read (CurrentApp), which every action already makes to record the screen
// before its input.
//
//	go test -run '^$' -bench 'IdentityOf|CurrentApp' -count 5 ./internal/device
func BenchmarkIdentityOf(b *testing.B) {
	d, _ := hostWithPhoneTB(b, "R58M123ABC")
	ctx := context.Background()
	for b.Loop() {
		if _, err := device.IdentityOf(ctx, d); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCurrentApp(b *testing.B) {
	d, _ := hostWithPhoneTB(b, "R58M123ABC")
	ctx := context.Background()
	for b.Loop() {
		if _, err := d.CurrentApp(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAppLabelsOverTheSimulator reads app labels the way a real phone
// gives them (pm path, stat, dd of the APK over the exec service) through
// our ADB server from the simulator, for apps the built-in table does not
// name.
func TestAppLabelsOverTheSimulator(t *testing.T) {
	d, _ := hostWithPhone(t, "R58M123ABC")
	l, ok := d.(device.Labeler)
	if !ok {
		t.Fatal("an ADB phone is not a device.Labeler")
	}
	ctx := context.Background()
	for pkg, want := range map[string]string{"com.android.shell": "Shell", "com.google.android.inputmethod.latin": "Gboard",
		"com.android.settings": "Settings", "com.absent.app": ""} {
		if got := l.AppLabel(ctx, pkg); got != want {
			t.Errorf("AppLabel(%s) = %q, want %q", pkg, got, want)
		}
	}
	if app, err := d.CurrentApp(ctx); err != nil || app.Name != "Launcher" {
		t.Errorf("CurrentApp = %+v, %v; want the launcher's label", app, err)
	}
}
