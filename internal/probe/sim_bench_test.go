package probe_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/probe"
)

// simNotes is the simulator, filled with notes and showing the Notes
// list, behind the built-in adb server and the device stack.
func simNotes(b *testing.B, notes int) device.Device {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	serial := ln.Addr().String()
	p := phonesim.New(phonesim.Config{Serial: serial, Logger: log})
	p.Fill(phonesim.Fill{Notes: notes})
	go func() { _ = p.Serve(ctx, ln) }()
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	s := adbserver.New(adbserver.Config{Logger: log})
	go func() { _ = s.Serve(ctx, sln) }()
	b.Cleanup(func() { _ = s.Close() })
	c := adb.New(adb.Config{Addr: sln.Addr().String()})
	if ok, err := device.ConnectAll(ctx, c, []string{serial}); err != nil || len(ok) != 1 {
		b.Fatalf("connecting the simulator: %v", err)
	}
	d, err := device.NewPool(c, device.PoolOptions{}).Get(ctx, serial)
	if err != nil {
		b.Fatal(err)
	}
	if err := d.Launch(ctx, "Notes"); err != nil {
		b.Fatal(err)
	}
	return d
}

// BenchmarkFindOnSimulator is what a probe costs on the simulator with
// a long Notes list, through the adb wire and the device's settle wait:
// the last note (saved where the app adds one), a note in the middle and
// one that is not there.
//
//	go test -run '^$' -bench FindOnSimulator -benchtime 3x ./internal/probe
func BenchmarkFindOnSimulator(b *testing.B) {
	const notes = 110
	d := simNotes(b, notes)
	ctx := context.Background()
	for _, c := range []struct{ name, title string }{
		{"last", "Note 110"}, {"middle", "Note 55"}, {"absent", "n999"},
	} {
		b.Run(c.name, func(b *testing.B) {
			swipes := 0
			for b.Loop() {
				r, err := probe.Find(ctx, d, probe.Text(c.title), probe.Limits{})
				if err != nil {
					b.Fatal(err)
				}
				if r.Found != (c.name != "absent") || !r.Restored {
					b.Fatalf("%+v", r)
				}
				swipes += r.Swipes
			}
			b.ReportMetric(float64(swipes)/float64(b.N), "swipes/op")
		})
	}
	b.Run("uitree", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.UITree(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("swipe+settle", func(b *testing.B) {
		down := true
		for b.Loop() {
			y1, y2 := 1600, 900
			if !down {
				y1, y2 = y2, y1
			}
			down = !down
			if err := d.Swipe(ctx, 540, y1, 540, y2, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}
