package adb_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"net"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
)

func newServer(t *testing.T, devs ...adbtest.Device) (*adbtest.Server, *adb.Client) {
	t.Helper()
	s, err := adbtest.New(devs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, adb.New(adb.Config{Addr: s.Addr})
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

var phone = adbtest.Device{Serial: "emulator-5554", State: "device", Model: "Pixel_7", Product: "panther", Device: "panther", TransportID: 3}

func TestVersion(t *testing.T) {
	for _, split := range []bool{false, true} {
		s, c := newServer(t)
		s.SetSplitWrites(split)
		v, err := c.Version(ctx(t))
		if err != nil || v != 41 {
			t.Fatalf("split=%v: Version = %d, %v; want 41", split, v, err)
		}
		if got := s.Requests(); !slices.Equal(got, []string{"host:version"}) {
			t.Errorf("requests %q", got)
		}
	}
}

func TestDevices(t *testing.T) {
	off := adbtest.Device{Serial: "R58M123", State: "unauthorized", TransportID: 4}
	_, c := newServer(t, phone, off)
	got, err := c.Devices(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []adb.DeviceInfo{
		{Serial: "emulator-5554", State: "device", Model: "Pixel_7", Product: "panther", Device: "panther", TransportID: 3},
		{Serial: "R58M123", State: "unauthorized", TransportID: 4},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Devices = %+v\nwant %+v", got, want)
	}
}

func TestParseDevices(t *testing.T) {
	tests := []struct {
		in   string
		want []adb.DeviceInfo
	}{
		{"", nil},
		{"List of devices attached\n", nil},
		{"127.0.0.1:5555         device product:phonesim model:Pixel_7 device:sim transport_id:1\n",
			[]adb.DeviceInfo{{Serial: "127.0.0.1:5555", State: "device", Product: "phonesim", Model: "Pixel_7", Device: "sim", TransportID: 1}}},
		{"0123456789ABCDEF       no permissions (missing udev rules? user is in the plugdev group); see [http://developer.android.com/tools/device.html] usb:1-1 transport_id:2\n",
			[]adb.DeviceInfo{{Serial: "0123456789ABCDEF", State: "no permissions", USB: "1-1", TransportID: 2}}},
		{"a\toffline\nb\tdevice\n", []adb.DeviceInfo{{Serial: "a", State: "offline"}, {Serial: "b", State: "device"}}},
		{"emulator-5556 device usb:3-2 product:sdk model:Android_SDK device:generic\r\n",
			[]adb.DeviceInfo{{Serial: "emulator-5556", State: "device", USB: "3-2", Product: "sdk", Model: "Android_SDK", Device: "generic"}}},
	}
	for _, tt := range tests {
		if got := adb.ParseDevices(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("ParseDevices(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseDevices(f *testing.F) {
	f.Add("127.0.0.1:5555 device product:p model:m device:d transport_id:1\n")
	f.Add("x no permissions (y) [z] usb:1 transport_id:q\n")
	f.Add("a\toffline\n\n\n b")
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range adb.ParseDevices(s) {
			if d.Serial == "" || d.State == "" {
				t.Fatalf("empty serial or state from %q: %+v", s, d)
			}
			if strings.ContainsAny(d.Serial, " \t\n") {
				t.Fatalf("serial with space from %q: %q", s, d.Serial)
			}
		}
	})
}

func TestConnectDisconnect(t *testing.T) {
	s, c := newServer(t, phone)
	if err := c.Connect(ctx(t), "127.0.0.1:5555"); err != nil {
		t.Fatalf("Connect: %v", err)
	}
	if err := c.Connect(ctx(t), "127.0.0.1:5555"); err != nil {
		t.Fatalf("Connect again (already connected): %v", err)
	}
	err := c.Connect(ctx(t), "127.0.0.1:1")
	var fe *adb.FailError
	if !errors.As(err, &fe) || !strings.Contains(fe.Message, "failed to connect") || !strings.Contains(err.Error(), "Connection refused") {
		t.Fatalf("Connect to a closed port = %v; want *FailError with the server's text", err)
	}
	if err := c.Disconnect(ctx(t), "127.0.0.1:5555"); err != nil {
		t.Fatalf("Disconnect: %v", err)
	}
	if _, ok := find(t, c, "127.0.0.1:5555"); ok {
		t.Error("device still listed after Disconnect")
	}
	err = c.Disconnect(ctx(t), "127.0.0.1:5555")
	if !errors.As(err, &fe) || !strings.Contains(fe.Message, "no such device") {
		t.Errorf("second Disconnect = %v; want FAIL no such device", err)
	}
	want := []string{"host:connect:127.0.0.1:5555", "host:connect:127.0.0.1:5555", "host:connect:127.0.0.1:1", "host:disconnect:127.0.0.1:5555"}
	if got := s.Requests(); !slices.Equal(got[:4], want) {
		t.Errorf("requests %q, want prefix %q", got, want)
	}
}

func find(t *testing.T, c *adb.Client, serial string) (adb.DeviceInfo, bool) {
	devs, err := c.Devices(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(devs, func(d adb.DeviceInfo) bool { return d.Serial == serial })
	if i < 0 {
		return adb.DeviceInfo{}, false
	}
	return devs[i], true
}

func TestShellAndExec(t *testing.T) {
	s, c := newServer(t, phone)
	binary := []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0xff}
	s.SetShell(func(serial, cmd string, exec bool) []byte {
		if exec {
			return binary
		}
		return []byte(serial + " ran " + cmd + "\n")
	})
	s.SetSplitWrites(true)
	out, err := c.Shell(ctx(t), "emulator-5554", "input tap 1 2")
	if err != nil || string(out) != "emulator-5554 ran input tap 1 2\n" {
		t.Fatalf("Shell = %q, %v", out, err)
	}
	out, err = c.Exec(ctx(t), "emulator-5554", "screencap -p")
	if err != nil || !bytes.Equal(out, binary) {
		t.Fatalf("Exec = %q, %v", out, err)
	}
	out, err = c.Shell(ctx(t), "", "id")
	if err != nil || string(out) != "emulator-5554 ran id\n" {
		t.Fatalf("Shell on the only device = %q, %v", out, err)
	}
	want := []string{"host:transport:emulator-5554", "shell:input tap 1 2", "host:transport:emulator-5554", "exec:screencap -p", "host:transport-any", "shell:id"}
	if got := s.Requests(); !slices.Equal(got, want) {
		t.Errorf("requests %q, want %q", got, want)
	}
}

func TestDeviceErrors(t *testing.T) {
	_, c := newServer(t, phone,
		adbtest.Device{Serial: "off", State: "offline"},
		adbtest.Device{Serial: "locked", State: "unauthorized"})
	tests := []struct {
		serial string
		check  func(error) bool
		text   string
	}{
		{"nope", func(err error) bool {
			var nf *adb.DeviceNotFoundError
			return errors.As(err, &nf) && slices.Equal(nf.Present, []string{"emulator-5554", "off", "locked"})
		}, "present are emulator-5554, off, locked"},
		{"off", func(err error) bool { return errors.Is(err, adb.ErrDeviceOffline) }, "reconnect"},
		{"locked", func(err error) bool { return errors.Is(err, adb.ErrUnauthorized) }, "accept the USB debugging prompt"},
		{"", func(err error) bool { var fe *adb.FailError; return errors.As(err, &fe) }, "pass the serial"},
	}
	for _, tt := range tests {
		_, err := c.Shell(ctx(t), tt.serial, "true")
		if err == nil || !tt.check(err) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("Shell on %q: err = %v; want a typed error mentioning %q", tt.serial, err, tt.text)
		}
	}
}

func TestServiceFail(t *testing.T) {
	s, c := newServer(t, phone)
	s.FailService("shell:reboot", "permission denied")
	_, err := c.Shell(ctx(t), "emulator-5554", "reboot")
	var fe *adb.FailError
	if !errors.As(err, &fe) || fe.Message != "permission denied" || fe.Service != "shell:reboot" {
		t.Fatalf("err = %#v", err)
	}
}

func TestServerNotRunning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := adb.New(adb.Config{Addr: addr})
	_, err = c.Devices(ctx(t))
	if !errors.Is(err, adb.ErrServerNotRunning) {
		t.Fatalf("err = %v; want ErrServerNotRunning", err)
	}
	_, port, _ := net.SplitHostPort(addr)
	if want := "adb -P " + port + " start-server"; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), addr) {
		t.Errorf("message %q does not name the address and %q", err, want)
	}
	if _, err := adb.New(adb.Config{Addr: "127.0.0.1:5037"}).Devices(ctx(t)); err != nil && errors.Is(err, adb.ErrServerNotRunning) &&
		!strings.Contains(err.Error(), "`adb start-server`") {
		t.Errorf("default port message %q should say `adb start-server`", err)
	}
}

func TestContextDeadline(t *testing.T) {
	// A server that accepts and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	c := adb.New(adb.Config{Addr: ln.Addr().String()})
	cx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = c.Version(cx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline: err = %v; want context.DeadlineExceeded", err)
	}
	cx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err = c.Shell(cx, "x", "sleep 100")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancel: err = %v; want context.Canceled", err)
	}
}

func TestSync(t *testing.T) {
	s, c := newServer(t, phone)
	s.SetSplitWrites(true)
	big := bytes.Repeat([]byte("0123456789abcdef"), 200*1024/16+7) // > 3 chunks, odd tail
	mtime := time.Unix(1700000000, 0)
	if err := c.Push(ctx(t), "emulator-5554", "/sdcard/big.bin", 0o640, mtime, bytes.NewReader(big)); err != nil {
		t.Fatalf("Push: %v", err)
	}
	f, ok := s.File("emulator-5554", "/sdcard/big.bin")
	if !ok || !bytes.Equal(f.Data, big) || f.Mode != 0o100640 || f.MTime != uint32(mtime.Unix()) {
		t.Fatalf("pushed file: ok=%v len=%d mode=%o mtime=%d", ok, len(f.Data), f.Mode, f.MTime)
	}
	if m := s.MaxChunk(); m != adb.MaxSyncData {
		t.Errorf("largest DATA chunk %d, want %d", m, adb.MaxSyncData)
	}
	fi, err := c.Stat(ctx(t), "emulator-5554", "/sdcard/big.bin")
	if err != nil || fi.Size != uint32(len(big)) || !fi.IsRegular() || fi.Perm() != 0o640 || !fi.ModTime.Equal(mtime) {
		t.Fatalf("Stat = %+v, %v", fi, err)
	}
	got, err := c.Pull(ctx(t), "emulator-5554", "/sdcard/big.bin")
	if err != nil || !bytes.Equal(got, big) {
		t.Fatalf("Pull: %d bytes, %v", len(got), err)
	}
	// Empty file round trip.
	if err := c.Push(ctx(t), "emulator-5554", "/sdcard/empty", 0o600, mtime, bytes.NewReader(nil)); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Pull(ctx(t), "emulator-5554", "/sdcard/empty"); err != nil || len(got) != 0 {
		t.Fatalf("Pull empty = %q, %v", got, err)
	}
	if _, err := c.Stat(ctx(t), "emulator-5554", "/sdcard/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat missing: %v; want fs.ErrNotExist", err)
	}
	if _, err := c.Pull(ctx(t), "emulator-5554", "/sdcard/missing"); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "No such file") {
		t.Errorf("Pull missing: %v; want fs.ErrNotExist with the phone's text", err)
	}
	err = c.Push(ctx(t), "emulator-5554", "/system/x", 0o644, mtime, strings.NewReader("x"))
	var fe *adb.FailError
	if !errors.As(err, &fe) || !strings.Contains(fe.Message, "Read-only") {
		t.Errorf("Push to /system: %v; want FailError Read-only", err)
	}
	reqs := s.Requests()
	if !slices.Contains(reqs, "sync:SEND /sdcard/big.bin,33184") || !slices.Contains(reqs, "sync:RECV /sdcard/big.bin") || !slices.Contains(reqs, "sync:QUIT") {
		t.Errorf("sync requests %q", reqs)
	}
}

func TestQuote(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to check quoting against")
	}
	for _, s := range []string{"", "plain", "two words", "it's", `a"b`, "$HOME `id` \\n", "微信 'x'", "a;b&&c|d>e", "\n\t"} {
		out, err := exec.Command(sh, "-c", "printf %s "+adb.Quote(s)).Output()
		if err != nil || string(out) != s {
			t.Errorf("sh printf %s = %q, %v; want %q", adb.Quote(s), out, err, s)
		}
	}
	if adb.Quote("com.android.settings") != "com.android.settings" {
		t.Error("safe words should stay unquoted")
	}
}

func TestWaitForDevice(t *testing.T) {
	s, c := newServer(t, adbtest.Device{Serial: "net:1", State: "offline"})
	go func() {
		time.Sleep(150 * time.Millisecond)
		s.SetDevices(adbtest.Device{Serial: "net:1", State: "device"})
	}()
	if err := c.WaitForDevice(ctx(t), "net:1"); err != nil {
		t.Fatalf("WaitForDevice: %v", err)
	}
	cx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := c.WaitForDevice(cx, "absent:2"); !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "absent") {
		t.Errorf("WaitForDevice absent: %v", err)
	}
}

func TestKill(t *testing.T) {
	s, c := newServer(t)
	if err := c.Kill(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if got := s.Requests(); !slices.Equal(got, []string{"host:kill"}) {
		t.Errorf("requests %q", got)
	}
}

// TestServiceNotStarted: an error before the phone began a service says
// so (the server is down, the phone is gone or offline, the service was
// refused), and an error after it began does not, so a caller can tell an
// input that never reached the phone from one that may have.
func TestServiceNotStarted(t *testing.T) {
	s, c := newServer(t, phone, adbtest.Device{Serial: "off", State: "offline"})
	s.FailService("shell:input tap 1 2", "closed")
	for _, serial := range []string{"nope", "off", "emulator-5554"} {
		if _, err := c.Shell(ctx(t), serial, "input tap 1 2"); err == nil || !adb.NotStarted(err) {
			t.Errorf("Shell on %q: err = %v; want a not-started error", serial, err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	if _, err := adb.New(adb.Config{Addr: addr}).Shell(ctx(t), "emulator-5554", "input tap 1 2"); !adb.NotStarted(err) || !errors.Is(err, adb.ErrServerNotRunning) {
		t.Errorf("server down: err = %v; want a not-started ErrServerNotRunning", err)
	}
	cx, cancel := context.WithCancel(context.Background())
	s.SetShell(func(serial, cmd string, exec bool) []byte { cancel(); time.Sleep(50 * time.Millisecond); return nil })
	if _, err := c.Shell(cx, "emulator-5554", "input tap 3 4"); err == nil || adb.NotStarted(err) {
		t.Errorf("cut off after the phone began: err = %v; want an error that is not not-started", err)
	}
}
