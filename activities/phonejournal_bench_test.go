package activities

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// localOnly is a phone with its notes hidden: the journal is this host's
// alone, as before the phone kept a copy.
type localOnly struct{ device.Device }

// BenchmarkPhoneJournal is what keeping the journal on the phone costs per
// action (docs/design.md §4): an action (a tap on the launcher's empty
// space, no settle wait) through the journal with the host's copy only
// and with the phone's copy too, and the three note round trips it adds
// alone, on the simulator behind the built-in adb server.
//
//	go test -run '^$' -bench PhoneJournal -count 3 ./activities
func BenchmarkPhoneJournal(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	serial := ln.Addr().String()
	sim := phonesim.New(phonesim.Config{Serial: serial, Logger: quiet})
	go func() { _ = sim.Serve(ctx, ln) }()
	sln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	srv := adbserver.New(adbserver.Config{Logger: quiet})
	go func() { _ = srv.Serve(ctx, sln) }()
	b.Cleanup(func() { _ = srv.Close() })
	c := adb.New(adb.Config{Addr: sln.Addr().String()})
	if ok, err := device.ConnectAll(ctx, c, []string{serial}); err != nil || len(ok) != 1 {
		b.Fatalf("connecting the simulator: %v", err)
	}
	d, err := device.NewPool(c, device.PoolOptions{Settle: device.SettlePolicy{Mode: "none"}}).Get(ctx, serial)
	if err != nil {
		b.Fatal(err)
	}
	tap := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{500, 500}}
	act := func(b *testing.B, d device.Device) {
		j, err := OpenJournal(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		a := &Activities{Journal: j}
		n := 0
		for b.Loop() {
			n++
			in := StepInput{Serial: serial, UITree: true, Act: &tap, ActionID: fmt.Sprintf("goal/todo/%s/%d", b.Name(), n), LeaseToken: 9,
				Width: 1080, Height: 2400}
			if res, err := a.actOnce(ctx, d, in, nil); err != nil || res.Result != "ok" {
				b.Fatalf("%+v, %v", res, err)
			}
		}
	}
	b.Run("action/host-journal", func(b *testing.B) { act(b, localOnly{d}) })
	b.Run("action/host+phone-journal", func(b *testing.B) { act(b, d) })
	b.Run("notes/read+intent+result", func(b *testing.B) {
		n := d.(device.Notes)
		entry := `{"id":"goal/todo/run/1","try":"0011223344556677","intent":{"action":{"action":"Tap","element":[500,500]},"before":{"app":"com.android.launcher3","tree":"0123456789abcdef01234567"}}}`
		for b.Loop() {
			if _, _, err := n.ReadNotes(ctx, []string{phoneFile("x"), phoneFile("y")}, phoneTokens); err != nil {
				b.Fatal(err)
			}
			if _, err := n.WriteNotes(ctx, device.NotesWrite{Files: map[string]string{phoneFile("x"): entry}, Marks: []string{tokenMark(9)}, List: phoneTokens}); err != nil {
				b.Fatal(err)
			}
			if _, err := n.WriteNotes(ctx, device.NotesWrite{Files: map[string]string{phoneFile("x"): entry}}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
