package adbserver_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
)

// TestShutdownLeavesNoGoroutines ends a server that has a phone, an open
// shell stream, a device tracker, a waiter and a phone being redialled,
// and checks every goroutine it started is gone.
func TestShutdownLeavesNoGoroutines(t *testing.T) {
	_, serial, _ := startPhone(t)
	_, serial2, _ := startPhone(t)
	runtime.GC()
	base := runtime.NumGoroutine()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: logger()})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()
	c := adb.New(adb.Config{Addr: ln.Addr().String()})
	tctx := testCtx(t, 30*time.Second)
	for _, sr := range []string{serial, serial2} {
		if err := c.Connect(tctx, sr); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := c.Shell(tctx, serial, "echo ok"); err != nil || string(out) != "ok\n" {
		t.Fatalf("Shell = %q, %v", out, err)
	}
	sh, err := c.OpenService(tctx, serial, "shell:")
	if err != nil {
		t.Fatal(err)
	}
	defer sh.Close()
	var clients []net.Conn
	for _, req := range []string{"host:track-devices", "host-serial:127.0.0.1:1:wait-for-any-device"} {
		nc, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		fmt.Fprintf(nc, "%04x%s", len(req), req)
		clients = append(clients, nc)
	}
	// The second phone drops and stays away: the server keeps redialling it.
	if _, err := c.Shell(tctx, serial2, "simctl fault disconnect 60"); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		devs, _ := c.Devices(tctx)
		if len(devs) == 2 && devs[1].State == "offline" {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("second phone not offline: %+v", devs)
		}
	}

	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-tctx.Done():
		t.Fatal("Serve did not return")
	}
	// Every client socket was closed by the server.
	for _, nc := range append(clients, sh) {
		_ = nc.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := io.ReadAll(nc); err != nil {
			t.Fatalf("client socket still open after shutdown: %v", err)
		}
		nc.Close()
	}
	var n int
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if n = runtime.NumGoroutine(); n <= base {
			return
		}
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines after shutdown, %d before the server started:\n%s", n, base, buf[:runtime.Stack(buf, true)])
}
