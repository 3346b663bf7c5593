package adbserver_test

import (
	"context"
	"net"
	"os/exec"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// benchServers returns a client per ADB server to compare: ours and,
// when adb is installed, Debian's, each with the same phone connected.
func benchServers(b *testing.B) (map[string]*adb.Client, string, *phonesim.Phone) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	serial := ln.Addr().String()
	p := phonesim.New(phonesim.Config{Serial: serial, Logger: logger()})
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	go func() { _ = p.Serve(ctx, ln) }()

	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: logger()})
	go func() { _ = s.Serve(ctx, sln) }()
	b.Cleanup(func() { _ = s.Close() })
	clients := map[string]*adb.Client{"builtin": adb.New(adb.Config{Addr: sln.Addr().String()})}

	if _, err := exec.LookPath("adb"); err == nil {
		pl, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		addr := pl.Addr().String()
		pl.Close()
		cli := newADBCLI(b, addr)
		if out, err := cli.cmd("start-server").CombinedOutput(); err != nil {
			b.Fatalf("adb start-server: %v\n%s", err, out)
		}
		clients["debian-adb"] = adb.New(adb.Config{Addr: addr})
	}
	cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
	defer ccancel()
	for name, c := range clients {
		if err := c.Connect(cctx, serial); err != nil {
			b.Fatalf("%s: connect: %v", name, err)
		}
		if err := c.WaitForDevice(cctx, serial); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
	}
	return clients, serial, p
}

// BenchmarkServer compares our server with Debian's on the two requests
// the agent loop makes most: a short shell command and a screenshot.
//
//	go test -run '^$' -bench Server ./internal/adbserver
func BenchmarkServer(b *testing.B) {
	clients, serial, p := benchServers(b)
	png, _, _ := p.Screenshot()
	ctx := context.Background()
	for _, name := range []string{"builtin", "debian-adb"} {
		c := clients[name]
		if c == nil {
			continue
		}
		b.Run(name+"/shell-echo", func(b *testing.B) {
			for b.Loop() {
				if out, err := c.Shell(ctx, serial, "echo x"); err != nil || string(out) != "x\n" {
					b.Fatalf("%q, %v", out, err)
				}
			}
		})
		b.Run(name+"/exec-screencap", func(b *testing.B) {
			b.SetBytes(int64(len(png)))
			for b.Loop() {
				if out, err := c.Exec(ctx, serial, "screencap -p"); err != nil || len(out) != len(png) {
					b.Fatalf("%d bytes, %v", len(out), err)
				}
			}
		})
	}
}
