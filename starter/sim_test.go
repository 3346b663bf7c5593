package main

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// freePortPair finds a port p where p and p+2 are free on loopback.
func freePortPair(t *testing.T) int {
	t.Helper()
	for range 50 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		ln.Close()
		if port%2 == 0 || port+2 > 65535 {
			continue
		}
		ln2, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+2))
		if err == nil {
			ln2.Close()
			return port
		}
	}
	t.Fatal("no free port pair")
	return 0
}

func TestSimPrintsPhonesAndStops(t *testing.T) {
	port := freePortPair(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := newSimCmd()
	var out bytes.Buffer
	cmd.SetOut(&out)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- runSim(ctx, cmd, phonesim.FleetConfig{Addr: addr, Phones: 2}) }()

	second := "127.0.0.1:" + strconv.Itoa(port+2)
	var c net.Conn
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err = net.Dial("tcp", second); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("second phone not listening on %s: %v", second, err)
	}
	c.Close()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "adb connect "+addr) || !strings.Contains(lines[1], "adb connect "+second) ||
		lines[2] != "simulator stopped" {
		t.Fatalf("output:\n%s", out.String())
	}
	// Listeners close right after the context ends.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("phone still listening after stop")
		}
	}
}

func TestSimRejectsBadFlags(t *testing.T) {
	cmd := newSimCmd()
	cmd.SetArgs([]string{"--phones", "0"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if exitCode(err) != exitUsage {
		t.Fatalf("--phones 0: err %v, exit %d, want usage error", err, exitCode(err))
	}
}

// TestSimRejectsAScreenTheAppsDoNotFit: 720×1600 at 420 dpi is too small
// a layout; the usage error names the flags and a size that works.
func TestSimRejectsAScreenTheAppsDoNotFit(t *testing.T) {
	cmd := newSimCmd()
	cmd.SetArgs([]string{"--width", "720", "--height", "1600", "--density", "420"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--density") || !strings.Contains(err.Error(), "720x1600 at 320") {
		t.Fatalf("a screen too small: err %v, exit %d, want a usage error naming the flags and a size that works", err, exitCode(err))
	}
}

// TestSimRejectsAnUnknownCostProfile: the usage error names the profiles.
func TestSimRejectsAnUnknownCostProfile(t *testing.T) {
	cmd := newSimCmd()
	cmd.SetArgs([]string{"--costs", "slow"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--costs") || !strings.Contains(err.Error(), "phone") {
		t.Fatalf("--costs slow: err %v, exit %d, want a usage error naming none and phone", err, exitCode(err))
	}
}

// TestSimRejectsAnUnknownSkin: the usage error names the skins.
func TestSimRejectsAnUnknownSkin(t *testing.T) {
	cmd := newSimCmd()
	cmd.SetArgs([]string{"--skin", "material"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "--skin") || !strings.Contains(err.Error(), "pixel") {
		t.Fatalf("--skin material: err %v, exit %d, want a usage error naming classic and pixel", err, exitCode(err))
	}
}
