package device_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// costlyPhone is a simulated phone with the cost profile c behind our
// ADB server.
func costlyPhone(t *testing.T, c phonesim.Costs) (device.Device, *phonesim.Phone) {
	t.Helper()
	d, p, _ := costlyPhoneClient(t, c)
	return d, p
}

func costlyPhoneClient(t *testing.T, c phonesim.Costs) (device.Device, *phonesim.Phone, *adb.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	pl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := pl.Addr().String()
	p := phonesim.New(phonesim.Config{Serial: serial, Costs: c})
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
	cl := adb.New(adb.Config{Addr: sl.Addr().String()})
	if err := cl.Connect(ctx, serial); err != nil {
		t.Fatal(err)
	}
	if err := cl.WaitForDevice(ctx, serial); err != nil {
		t.Fatal(err)
	}
	return device.New(cl, serial, device.Options{}), p, cl
}

// A screen that never goes idle has no tree: UITree tries a bounded number
// of times, says why in ErrNotIdle, and never reads the dump file an
// earlier screen left on the phone.
func TestUITreeOfAScreenThatNeverGoesIdle(t *testing.T) {
	ctx := context.Background()
	c := phonesim.Costs{IdleWindow: 5 * time.Millisecond, IdleTimeout: 40 * time.Millisecond,
		AnimateChance: 1, Animate: phonesim.Span{Min: time.Hour, Max: time.Hour}}
	d, p := costlyPhone(t, c)
	elems, err := d.UITree(ctx)
	if !errors.Is(err, device.ErrNotIdle) {
		t.Fatalf("UITree = %d elements, %v; want ErrNotIdle", len(elems), err)
	}
	if !strings.Contains(err.Error(), "could not get idle state") || !strings.Contains(err.Error(), "screenshot") {
		t.Fatalf("the error %q does not say what happened and what still works", err)
	}
	if n := p.DumpsNotIdle(); n != 2 {
		t.Fatalf("%d dumps; want one try and one retry", n)
	}
	shot, err := d.Screenshot(ctx)
	if err != nil || shot.Sensitive || len(shot.PNG) == 0 {
		t.Fatalf("the screenshot of the animating screen: %v, sensitive %v", err, shot.Sensitive)
	}
}

// A phone that refuses /dev/tty and whose dump to a file finds no idle
// state: the file an earlier dump left is not this screen's tree.
func TestUITreeNeverReadsAStaleDumpFile(t *testing.T) {
	ctx := context.Background()
	c := phonesim.Costs{IdleWindow: 5 * time.Millisecond, IdleTimeout: 40 * time.Millisecond,
		AnimateChance: 1, Animate: phonesim.Span{Min: time.Hour, Max: time.Hour}}
	d, _, cl := costlyPhoneClient(t, c)
	old := `<?xml version="1.0"?><hierarchy rotation="0"><node text="An old screen" bounds="[0,0][10,10]"/></hierarchy>`
	if err := cl.Push(ctx, d.Serial(), "/sdcard/window_dump.xml", 0o660, time.Now(), strings.NewReader(old)); err != nil {
		t.Fatalf("push: %v", err)
	}
	elems, err := d.UITree(ctx)
	for _, e := range elems {
		if e.Text == "An old screen" {
			t.Fatalf("UITree read the stale dump file: %+v", elems)
		}
	}
	if !errors.Is(err, device.ErrNotIdle) {
		t.Fatalf("UITree = %v; want ErrNotIdle", err)
	}
}

// Under the phone profile's transition, a dump right after a launch waits
// and succeeds: only an animation longer than uiautomator's timeout fails.
func TestUITreeAfterALaunchWaitsForIdle(t *testing.T) {
	ctx := context.Background()
	c := phonesim.Costs{IdleWindow: 20 * time.Millisecond, IdleTimeout: time.Second, Transition: 50 * time.Millisecond}
	d, p := costlyPhone(t, c)
	if err := d.Launch(ctx, "Settings"); err != nil {
		t.Fatal(err)
	}
	elems, err := d.UITree(ctx)
	if err != nil || len(elems) == 0 {
		t.Fatalf("UITree after the launch: %d elements, %v", len(elems), err)
	}
	if n := p.DumpsNotIdle(); n != 0 {
		t.Fatalf("%d dumps found no idle state; the transition ends within the timeout", n)
	}
}
