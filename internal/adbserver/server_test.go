package adbserver_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// logger is silent unless PHONEFLOW_TEST_LOG=1 asks for debug logs.
func logger() *slog.Logger {
	if os.Getenv("PHONEFLOW_TEST_LOG") == "1" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func testCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// countingListener counts accepted connections, to see how many TCP
// connections the server opened to the phone.
type countingListener struct {
	net.Listener
	n atomic.Int32
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// startPhone serves a simulated phone on a free loopback port; its serial
// is its address, as the server will name it.
func startPhone(t *testing.T) (*phonesim.Phone, string, *countingListener) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cl := &countingListener{Listener: ln}
	addr := ln.Addr().String()
	p := phonesim.New(phonesim.Config{Serial: addr, Logger: logger()})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = p.Serve(ctx, cl) }()
	t.Cleanup(func() { cancel(); <-done })
	return p, addr, cl
}

// startServer runs our ADB server on a free loopback port.
func startServer(t *testing.T) (*adbserver.Server, *adb.Client, <-chan error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: logger()})
	served := make(chan error, 1)
	go func() { served <- s.Serve(context.Background(), ln) }()
	t.Cleanup(func() { _ = s.Close() })
	// Serve records the listener from its own goroutine; wait for Addr.
	for end := time.Now().Add(5 * time.Second); s.Addr() != ln.Addr().String(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("Addr = %q, want %s", s.Addr(), ln.Addr())
		}
	}
	return s, adb.New(adb.Config{Addr: ln.Addr().String()}), served
}

type rig struct {
	phone  *phonesim.Phone
	serial string
	accept *countingListener
	srv    *adbserver.Server
	client *adb.Client
}

// newRig connects a simulated phone to our server through our client.
func newRig(t *testing.T) *rig {
	t.Helper()
	p, serial, cl := startPhone(t)
	s, c, _ := startServer(t)
	ctx := testCtx(t, 20*time.Second)
	if err := c.Connect(ctx, serial); err != nil {
		t.Fatalf("Connect(%s): %v", serial, err)
	}
	if err := c.WaitForDevice(ctx, serial); err != nil {
		t.Fatal(err)
	}
	return &rig{phone: p, serial: serial, accept: cl, srv: s, client: c}
}

// hostString sends one host request by hand and returns the status and the
// length-prefixed text after it.
func hostString(t *testing.T, addr, req string) (string, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(15 * time.Second))
	fmt.Fprintf(c, "%04x%s", len(req), req)
	var st [4]byte
	if _, err := io.ReadFull(c, st[:]); err != nil {
		t.Fatalf("%s: reading status: %v", req, err)
	}
	var hx [4]byte
	if _, err := io.ReadFull(c, hx[:]); err != nil {
		t.Fatalf("%s: reading length: %v", req, err)
	}
	var n int
	if _, err := fmt.Sscanf(string(hx[:]), "%04x", &n); err != nil {
		t.Fatalf("%s: length %q", req, hx)
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(c, msg); err != nil {
		t.Fatalf("%s: reading %d bytes: %v", req, n, err)
	}
	return string(st[:]), string(msg)
}

func TestVersionAndNoDevices(t *testing.T) {
	s, c, _ := startServer(t)
	ctx := testCtx(t, 10*time.Second)
	v, err := c.Version(ctx)
	if err != nil || v != 41 {
		t.Fatalf("Version = %d, %v; want 41", v, err)
	}
	if st, msg := hostString(t, s.Addr(), "host:version"); st != "OKAY" || msg != "0029" {
		t.Fatalf("host:version = %s %q; want OKAY \"0029\"", st, msg)
	}
	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 0 {
		t.Fatalf("Devices = %+v, %v; want none", devs, err)
	}
	_, err = c.Shell(ctx, "", "echo hi")
	var nf *adb.DeviceNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("Shell with no devices = %v; want *adb.DeviceNotFoundError", err)
	}
	if st, msg := hostString(t, s.Addr(), "host:transport-any"); st != "FAIL" || msg != "no devices/emulators found" {
		t.Fatalf("host:transport-any = %s %q", st, msg)
	}
	if st, msg := hostString(t, s.Addr(), "host:frobnicate"); st != "FAIL" || !strings.Contains(msg, "unknown host service") {
		t.Fatalf("unknown service = %s %q", st, msg)
	}
}

func TestConnectAndList(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 20*time.Second)
	devs, err := r.client.Devices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := adb.DeviceInfo{Serial: r.serial, State: "device", Product: "phonesim", Model: "Pixel_7__phonesim_", Device: "phonesim", TransportID: 1}
	if len(devs) != 1 || devs[0] != want {
		t.Fatalf("Devices = %+v\nwant [%+v]", devs, want)
	}
	if st, msg := hostString(t, r.srv.Addr(), "host:connect:"+r.serial); st != "OKAY" || msg != "already connected to "+r.serial {
		t.Fatalf("second connect = %s %q", st, msg)
	}
	if st, msg := hostString(t, r.srv.Addr(), "host:devices"); msg != r.serial+"\tdevice\n" {
		t.Fatalf("host:devices = %s %q", st, msg)
	}
	if st, msg := hostString(t, r.srv.Addr(), "host-serial:"+r.serial+":features"); st != "OKAY" || msg != "fixed_push_mkdir" {
		t.Fatalf("features = %s %q", st, msg)
	}
	if st, msg := hostString(t, r.srv.Addr(), "host-serial:"+r.serial+":get-state"); st != "OKAY" || msg != "device" {
		t.Fatalf("get-state = %s %q", st, msg)
	}

	// A port nobody listens on: the failure text comes with OKAY, as adb's.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	st, msg := hostString(t, r.srv.Addr(), "host:connect:"+closed)
	if st != "OKAY" || msg != "failed to connect to "+closed+": Connection refused" {
		t.Fatalf("connect to a closed port = %s %q", st, msg)
	}
	err = r.client.Connect(ctx, closed)
	var fe *adb.FailError
	if !errors.As(err, &fe) || !strings.Contains(fe.Message, "Connection refused") {
		t.Fatalf("client Connect to a closed port = %v", err)
	}
	if devs, _ := r.client.Devices(ctx); len(devs) != 1 {
		t.Fatalf("failed connect left a device behind: %+v", devs)
	}
}

func TestShellAndExec(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 20*time.Second)
	out, err := r.client.Shell(ctx, r.serial, "echo hi")
	if err != nil || string(out) != "hi\n" {
		t.Fatalf("Shell(echo hi) = %q, %v", out, err)
	}
	// transport-any finds the only phone.
	out, err = r.client.Shell(ctx, "", "getprop ro.product.model")
	if err != nil || strings.TrimSpace(string(out)) != "Pixel 7 (phonesim)" {
		t.Fatalf("Shell on any device = %q, %v", out, err)
	}
	png, err := r.client.Exec(ctx, r.serial, "screencap -p")
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := r.phone.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(png, want) || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("exec screencap gave %d bytes, the phone's screen is %d bytes", len(png), len(want))
	}
	// A service the phone refuses.
	if _, err := r.client.OpenService(ctx, r.serial, "nosuchservice:"); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("refused service = %v; want FAIL closed", err)
	}
}

func TestSyncPushPull(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 30*time.Second)
	data := make([]byte, 200*1024)
	for i := range data {
		data[i] = byte(i*7 + i>>9)
	}
	mtime := time.Unix(1760000000, 0)
	if err := r.client.Push(ctx, r.serial, "/sdcard/Download/blob.bin", 0o640, mtime, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	fi, err := r.client.Stat(ctx, r.serial, "/sdcard/Download/blob.bin")
	if err != nil || fi.Size != uint32(len(data)) || !fi.IsRegular() {
		t.Fatalf("Stat = %+v, %v", fi, err)
	}
	got, err := r.client.Pull(ctx, r.serial, "/sdcard/Download/blob.bin")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Pull = %d bytes, %v; pushed %d", len(got), err, len(data))
	}
	if _, err := r.client.Pull(ctx, r.serial, "/sdcard/nope"); err == nil {
		t.Fatal("Pull of a missing file succeeded")
	}
}

func TestConcurrentShellsShareOneConnection(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 60*time.Second)
	want, _, _ := r.phone.Screenshot()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			for i := range 4 {
				tag := fmt.Sprintf("g%d-i%d", g, i)
				out, err := r.client.Shell(ctx, r.serial, "echo "+tag)
				if err != nil || string(out) != tag+"\n" {
					errs <- fmt.Errorf("shell %s = %q, %v", tag, out, err)
				}
				if i == 1 {
					png, err := r.client.Exec(ctx, r.serial, "screencap -p")
					if err != nil || !bytes.Equal(png, want) {
						errs <- fmt.Errorf("screencap in %s: %d bytes, %v", tag, len(png), err)
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := r.accept.n.Load(); n != 1 {
		t.Errorf("the server opened %d connections to the phone; streams should share one", n)
	}
}

func TestDisconnectFaultReconnects(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 30*time.Second)
	if _, err := r.client.Shell(ctx, r.serial, "simctl fault disconnect 2"); err != nil {
		t.Fatal(err)
	}
	sawOffline := false
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !sawOffline; time.Sleep(20 * time.Millisecond) {
		devs, err := r.client.Devices(ctx)
		if err != nil {
			t.Fatal(err)
		}
		sawOffline = len(devs) == 1 && devs[0].State == "offline"
	}
	if !sawOffline {
		t.Fatal("the phone was never listed offline after its connection dropped")
	}
	if _, err := r.client.Shell(ctx, r.serial, "echo x"); !errors.Is(err, adb.ErrDeviceOffline) {
		t.Fatalf("Shell on the offline phone = %v; want adb.ErrDeviceOffline", err)
	}
	if err := r.client.WaitForDevice(ctx, r.serial); err != nil {
		t.Fatalf("the phone did not come back by itself: %v", err)
	}
	out, err := r.client.Shell(ctx, r.serial, "echo back")
	if err != nil || string(out) != "back\n" {
		t.Fatalf("Shell after reconnecting = %q, %v", out, err)
	}
	if n := r.accept.n.Load(); n < 2 {
		t.Errorf("phone accepted %d connections; want a reconnect", n)
	}
}

func TestUnknownSerialAndDisconnect(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 20*time.Second)
	_, err := r.client.Shell(ctx, "127.0.0.1:1", "echo x")
	var nf *adb.DeviceNotFoundError
	if !errors.As(err, &nf) || len(nf.Present) != 1 || nf.Present[0] != r.serial {
		t.Fatalf("Shell on an unknown serial = %v; want *adb.DeviceNotFoundError listing %s", err, r.serial)
	}
	if st, msg := hostString(t, r.srv.Addr(), "host:transport:127.0.0.1:1"); st != "FAIL" || msg != "device '127.0.0.1:1' not found" {
		t.Fatalf("transport to an unknown serial = %s %q", st, msg)
	}
	if err := r.client.Disconnect(ctx, r.serial); err != nil {
		t.Fatal(err)
	}
	if devs, err := r.client.Devices(ctx); err != nil || len(devs) != 0 {
		t.Fatalf("Devices after Disconnect = %+v, %v", devs, err)
	}
	err = r.client.Disconnect(ctx, r.serial)
	var fe *adb.FailError
	if !errors.As(err, &fe) || fe.Message != "no such device '"+r.serial+"'" {
		t.Fatalf("second Disconnect = %v", err)
	}
	// No reconnects after a disconnect.
	n := r.accept.n.Load()
	time.Sleep(1500 * time.Millisecond)
	if m := r.accept.n.Load(); m != n {
		t.Fatalf("the server dialled the phone %d times after disconnect", m-n)
	}
}

func TestKillStopsServe(t *testing.T) {
	r := newRig(t)
	_, c, served := startServer(t)
	ctx := testCtx(t, 20*time.Second)
	if err := c.Connect(ctx, r.serial); err != nil {
		t.Fatal(err)
	}
	if err := c.Kill(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve after host:kill = %v", err)
		}
	case <-ctx.Done():
		t.Fatal("Serve did not return after host:kill")
	}
	if _, err := c.Version(ctx); !errors.Is(err, adb.ErrServerNotRunning) {
		t.Fatalf("Version after kill = %v; want adb.ErrServerNotRunning", err)
	}
	// The first server still drives the phone.
	if out, err := r.client.Shell(ctx, r.serial, "echo alive"); err != nil || string(out) != "alive\n" {
		t.Fatalf("other server's shell = %q, %v", out, err)
	}
}

func TestServeEndsWithContext(t *testing.T) {
	_, serial, _ := startPhone(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: logger()})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	c := adb.New(adb.Config{Addr: ln.Addr().String()})
	tctx := testCtx(t, 20*time.Second)
	if err := c.Connect(tctx, serial); err != nil {
		t.Fatal(err)
	}
	// A shell stream stays open while the context ends.
	sh, err := c.OpenService(tctx, serial, "shell:")
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve = %v", err)
		}
	case <-tctx.Done():
		t.Fatal("Serve did not return after its context ended")
	}
	_ = sh.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadAll(sh); err != nil {
		t.Fatalf("open stream was not closed by the shutdown: %v", err)
	}
	if err := s.Serve(context.Background(), ln); !errors.Is(err, adbserver.ErrServerClosed) {
		t.Fatalf("Serve on a closed server = %v", err)
	}
}

// readHex reads one length-prefixed string from a host-protocol socket.
func readHex(t *testing.T, c net.Conn) string {
	t.Helper()
	var hx [4]byte
	if _, err := io.ReadFull(c, hx[:]); err != nil {
		t.Fatalf("reading length: %v", err)
	}
	var n int
	if _, err := fmt.Sscanf(string(hx[:]), "%04x", &n); err != nil {
		t.Fatalf("length %q", hx)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(c, b); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func expectStatus(t *testing.T, c net.Conn, want string) {
	t.Helper()
	var st [4]byte
	if _, err := io.ReadFull(c, st[:]); err != nil || string(st[:]) != want {
		t.Fatalf("status %q, %v; want %s", st, err, want)
	}
}

func TestTrackAndWaitFor(t *testing.T) {
	_, serial, _ := startPhone(t)
	s, c, _ := startServer(t)
	ctx := testCtx(t, 20*time.Second)
	dial := func(req string) net.Conn {
		nc, err := net.Dial("tcp", s.Addr())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		_ = nc.SetDeadline(time.Now().Add(15 * time.Second))
		fmt.Fprintf(nc, "%04x%s", len(req), req)
		return nc
	}
	track := dial("host:track-devices")
	expectStatus(t, track, "OKAY")
	if got := readHex(t, track); got != "" {
		t.Fatalf("first tracked list = %q; want empty", got)
	}
	wait := dial("host-serial:" + serial + ":wait-for-any-device")
	expectStatus(t, wait, "OKAY") // the request is accepted at once

	if err := c.Connect(ctx, serial); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, wait, "OKAY") // and answered again once the phone is ready
	for {
		got := readHex(t, track)
		if got == serial+"\tdevice\n" {
			break
		}
		if got != serial+"\tconnecting\n" && got != serial+"\toffline\n" {
			t.Fatalf("tracked list %q", got)
		}
	}
	gone := dial("host-serial:" + serial + ":wait-for-any-disconnect")
	expectStatus(t, gone, "OKAY")
	if err := c.Disconnect(ctx, serial); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, gone, "OKAY")
	if got := readHex(t, track); got != "" {
		t.Fatalf("tracked list after disconnect = %q", got)
	}
}

func TestConnectWaitsForHeldHandshake(t *testing.T) {
	p, serial, _ := startPhone(t)
	_, c, _ := startServer(t)
	ctx := testCtx(t, 20*time.Second)
	// The phone holds its CNXN answer back for a while, as one that is
	// still booting does; connect waits for it.
	if err := p.SetFault(phonesim.Fault{Kind: phonesim.FaultOffline, Duration: 700 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	if err := c.Connect(ctx, serial); err != nil {
		t.Fatal(err)
	}
	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 1 || devs[0].State != "device" {
		t.Fatalf("Devices right after connect = %+v, %v; want the phone ready", devs, err)
	}
	if out, err := c.Shell(ctx, serial, "echo up"); err != nil || string(out) != "up\n" {
		t.Fatalf("Shell = %q, %v", out, err)
	}
}

// TestShortCommands runs commands whose stream the phone closes right
// after opening it; none may be mistaken for a refused service.
func TestShortCommands(t *testing.T) {
	r := newRig(t)
	ctx := testCtx(t, 60*time.Second)
	for i := range 200 {
		out, err := r.client.Shell(ctx, r.serial, "true")
		if err != nil || len(out) != 0 {
			t.Fatalf("run %d: Shell(true) = %q, %v", i, out, err)
		}
	}
}

// TestInteractiveShellHalfClose types into an interactive shell and then
// closes the write side: the server must close the stream on the phone
// and the client must see the end of the output.
func TestInteractiveShellHalfClose(t *testing.T) {
	r := newRig(t)
	nc, err := net.Dial("tcp", r.srv.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(15 * time.Second))
	for _, req := range []string{"host:transport:" + r.serial, "shell:"} {
		fmt.Fprintf(nc, "%04x%s", len(req), req)
		expectStatus(t, nc, "OKAY")
	}
	if _, err := io.WriteString(nc, "echo typed-line\r"); err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 4096)
	for !bytes.Contains(got, []byte("typed-line\r\nphonesim:/ $ ")) {
		n, err := nc.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("reading the shell: %v after %q", err, got)
		}
	}
	if err := nc.(*net.TCPConn).CloseWrite(); err != nil {
		t.Fatal(err)
	}
	if rest, err := io.ReadAll(nc); err != nil {
		t.Fatalf("after closing our side the stream did not end: %v (read %q)", err, rest)
	}
	// The phone is still usable.
	if out, err := r.client.Shell(testCtx(t, 10*time.Second), r.serial, "echo after"); err != nil || string(out) != "after\n" {
		t.Fatalf("Shell after the half-close = %q, %v", out, err)
	}
}
