package security

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// addPhone starts a second simulated phone and attaches it to the stack's
// ADB server, so the worker sees it but its allow list does not name it.
func (s *stack) addPhone(t *testing.T) (*phonesim.Phone, string) {
	t.Helper()
	l, err := phonesim.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := l.Addr().String()
	p := phonesim.New(phonesim.Config{Serial: serial, Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() { _ = p.Serve(ctx, l) }()
	cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer ccancel()
	ac := adb.New(adb.Config{Addr: s.env.ADBAddr})
	if err := ac.Connect(cctx, serial); err != nil {
		t.Fatalf("adb connect %s: %v", serial, err)
	}
	if err := ac.WaitForDevice(cctx, serial); err != nil {
		t.Fatalf("the second phone did not come up: %v", err)
	}
	return p, serial
}

// TestWorkerDrivesOnlyAllowedPhones attaches two phones to the worker's
// ADB server with only the first allowed: the worker serves the first, a
// goal for the second is refused before it starts, the device pool refuses
// the second naming the allowed serials, and the second phone never gets
// any input even when a goal for it is started past the check.
func TestWorkerDrivesOnlyAllowedPhones(t *testing.T) {
	s := newStack(t, stackOptions{})
	other, otherSerial := s.addPhone(t)
	allowed := s.env.Config.ADB.Allow
	if len(allowed) != 1 || allowed[0] != s.env.Serial {
		t.Fatalf("allow list = %v, want only %s", allowed, s.env.Serial)
	}
	ctx := context.Background()

	// The worker re-lists phones every 10 s; give it two rounds to (not)
	// pick the new phone up.
	time.Sleep(21 * time.Second)
	if err := s.goals.CheckDevice(ctx, s.env.Serial); err != nil {
		t.Fatalf("the allowed phone is not served: %v", err)
	}
	err := s.goals.CheckDevice(ctx, otherSerial)
	var nf *goalctl.NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), otherSerial) || !strings.Contains(err.Error(), "no worker serves") {
		t.Fatalf("check of the phone outside the allow list: err = %v, want a not-found error naming it", err)
	}

	// The pool the worker's activities use refuses the phone and says
	// which ones it may drive.
	pool := device.NewPool(adb.New(adb.Config{Addr: s.env.ADBAddr}), device.PoolOptions{Allow: allowed})
	_, err = pool.Get(ctx, otherSerial)
	var na *device.NotAllowedError
	if !errors.As(err, &na) || !strings.Contains(err.Error(), s.env.Serial) || !strings.Contains(err.Error(), "allow list") {
		t.Fatalf("pool.Get(%s): err = %v, want NotAllowedError naming the allowed %s", otherSerial, err, s.env.Serial)
	}
	infos, err := pool.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range infos {
		if in.Serial == otherSerial {
			t.Errorf("pool.List shows the phone outside the allow list: %+v", infos)
		}
	}

	// Past the check (e.g. a schedule or `temporal workflow start`), the
	// goal must still never drive the phone.
	before := len(other.State().InputLog)
	id, _, err := s.goals.Start(ctx, goalctl.StartRequest{Goal: "Turn on Bluetooth", Device: otherSerial,
		Options: workflows.GoalOptions{Plan: []string{"Turn on Bluetooth"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.goals.Cancel(ctx, id) }()
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	res, rerr := s.goals.Result(rctx, id)
	cancel()
	st, _ := s.goals.Status(ctx, id)
	if after := other.State(); len(after.InputLog) != before || after.Toggles.Bluetooth {
		t.Fatalf("the phone outside the allow list was driven: %d input events, bluetooth %v", len(after.InputLog)-before, after.Toggles.Bluetooth)
	}
	if rerr == nil {
		if res.Status == workflows.GoalDone {
			t.Fatalf("a goal on a phone outside the allow list ended done: %+v", res)
		}
		t.Logf("goal for %s ended %s: %s", otherSerial, res.Status, res.Reason)
	} else {
		t.Logf("goal for %s, started past the check, still waits after 15 s (phase %s, todo %d, steps %d): no worker polls %s",
			otherSerial, st.Phase, st.CurrentTodo, st.Steps, workflows.DeviceTaskQueue(otherSerial))
	}
}
