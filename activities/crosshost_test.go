package activities

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adbserver"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/blob"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// sharedPhone is one simulated phone that several hosts reach, each
// through an adb server of its own, as a network phone connected from two
// hosts is.
type sharedPhone struct {
	sim    *phonesim.Phone
	serial string
}

func newSharedPhone(t *testing.T) *sharedPhone {
	t.Helper()
	return newSharedPhoneWith(t, phonesim.Costs{})
}

// newSharedPhoneWith is newSharedPhone on a phone with the cost profile c.
func newSharedPhoneWith(t *testing.T, c phonesim.Costs) *sharedPhone {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serial := ln.Addr().String()
	sim := phonesim.New(phonesim.Config{Serial: serial, Costs: c, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = sim.Serve(ctx, ln) }()
	return &sharedPhone{sim: sim, serial: serial}
}

// host is a worker host that reaches the phone: its own adb server and
// its own data directory (journal and blobs).
func (s *sharedPhone) host(t *testing.T) *Activities {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := adbserver.New(adbserver.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	go func() { _ = srv.Serve(ctx, ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	c := adb.New(adb.Config{Addr: ln.Addr().String()})
	if ok, err := device.ConnectAll(ctx, c, []string{s.serial}); err != nil || len(ok) != 1 {
		t.Fatalf("connecting the simulator: %v", err)
	}
	store, err := blob.NewFS(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j, err := OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &Activities{Devices: device.NewPool(c, device.PoolOptions{}), Blobs: store, Journal: j}
}

// openDraft opens Alice Chen's conversation with "see you at 7" typed
// into its field, sent by nobody yet, and returns the Send button.
func (s *sharedPhone) openDraft(t *testing.T, a *Activities) uitree.Element {
	t.Helper()
	ctx := context.Background()
	d, err := a.Devices.Get(ctx, s.serial)
	if err != nil {
		t.Fatal(err)
	}
	tapText := func(text string) {
		t.Helper()
		elems, err := d.UITree(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range elems {
			if e.Text == text || e.ShortID() == text {
				x, y := e.Bounds.Center()
				if err := d.Tap(ctx, x, y); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		t.Fatalf("no %q on the screen", text)
	}
	if err := d.Launch(ctx, "Messages"); err != nil {
		t.Fatal(err)
	}
	tapText("Alice Chen")
	tapText("compose_message_text")
	if err := d.Type(ctx, "see you at 7"); err != nil {
		t.Fatal(err)
	}
	elems, err := d.UITree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range elems {
		if e.ShortID() == "send_button" {
			return e
		}
	}
	t.Fatal("no Send button")
	return uitree.Element{}
}

// tapStep is the Step that taps el, decided on the screen obs, as the
// todo sends it under action ID id with a lease token.
func tapStep(obs Observation, el uitree.Element, serial, id string, token int64) StepInput {
	x, y := el.Bounds.Center()
	act := autoglm.Action{Name: autoglm.ActionTap, Element: &autoglm.Point{x * 1000 / obs.Width, y * 1000 / obs.Height}}
	return StepInput{Serial: serial, Task: "Text Alice Chen: see you at 7", UITree: true, Act: &act, ActionID: id, GoalID: "goal-1", LeaseToken: token,
		Width: obs.Width, Height: obs.Height, ScreenHash: obs.Hash, ScreenTreeRef: obs.TreeRef, ScreenApp: obs.AppPackage}
}

// dies runs the Step on a host whose worker dies at a fault hook (before
// the input with beforeSend, else after it, before the result is
// recorded).
func dies(t *testing.T, a *Activities, in StepInput, beforeSend bool) {
	t.Helper()
	hook := func(string, string) { panic(crash{}) }
	if beforeSend {
		a.FaultBeforeSend = hook
	} else {
		a.Fault = hook
	}
	defer func() {
		a.Fault, a.FaultBeforeSend = nil, nil
		if r := recover(); r == nil {
			t.Fatal("the fault hook did not run")
		} else if _, ok := r.(crash); !ok {
			panic(r)
		}
	}()
	_, _ = a.Step(context.Background(), in)
}

func (s *sharedPhone) sent() []string {
	var out []string
	for _, m := range s.sim.State().MessagesSent {
		out = append(out, m.Text)
	}
	return out
}

// TestCrossHostRetryReadsThePhonesJournal: host 1 writes the intent of a
// Send and dies, before or after the phone took the tap; the goal moves
// to host 2, whose data directory holds nothing of it. Host 2 finds the
// intent on the phone: a Send that went out is judged from its own
// evidence and not sent again, one that never went out is sent once
// (docs/design.md §4).
func TestCrossHostRetryReadsThePhonesJournal(t *testing.T) {
	for _, c := range []struct {
		name       string
		beforeSend bool
	}{{"died after the tap", false}, {"died before the tap", true}} {
		t.Run(c.name, func(t *testing.T) {
			s := newSharedPhone(t)
			h1, h2 := s.host(t), s.host(t)
			send := s.openDraft(t, h1)
			obs, err := h1.Observe(context.Background(), ObserveInput{Serial: s.serial, UITree: true})
			if err != nil {
				t.Fatal(err)
			}
			in := tapStep(obs, send, s.serial, "goal-1/todo-1/run-1/4", 7)
			inputs := len(s.sim.State().InputLog)
			dies(t, h1, in, c.beforeSend)

			// Host 2 reads the decided screen from its own blob store.
			if in.ScreenTreeRef, err = h2.Blobs.Put(context.Background(), mustGet(t, h1, obs.TreeRef), "application/json"); err != nil {
				t.Fatal(err)
			}
			res, err := h2.Step(context.Background(), in)
			if err != nil || res.Act == nil || res.Act.Result != "ok" {
				t.Fatalf("host 2's retry = %+v, %v", res.Act, err)
			}
			if got := s.sent(); len(got) != 1 || got[0] != "see you at 7" {
				t.Fatalf("messages sent = %q, want the message once", got)
			}
			if taps := s.sim.State().InputLog[inputs:]; len(taps) != 1 {
				t.Fatalf("the phone took %d inputs for one Send tap: %+v", len(taps), taps)
			}
			if recovered := res.Act.Recovered != ""; recovered == c.beforeSend {
				t.Fatalf("recovered %q: the tap was judged applied=%t, want %t", res.Act.Recovered, recovered, !c.beforeSend)
			}
			// Once decided, the decision is on the phone for the next host.
			h3 := s.host(t)
			if _, err := h3.Blobs.Put(context.Background(), mustGet(t, h1, obs.TreeRef), "application/json"); err != nil {
				t.Fatal(err)
			}
			again, err := h3.Step(context.Background(), in)
			if err != nil || again.Act == nil || again.Act.Result != "ok" || len(s.sent()) != 1 || len(s.sim.State().InputLog) != inputs+1 {
				t.Fatalf("host 3's retry = %+v, %v; sent %q", again.Act, err, s.sent())
			}
		})
	}
}

// TestLeaseTokenFenceHoldsAcrossHosts: a goal granted the phone later acts
// from host 1; an action of the goal that held it before, from host 2 with
// a journal of its own, is refused with nothing sent.
func TestLeaseTokenFenceHoldsAcrossHosts(t *testing.T) {
	s := newSharedPhone(t)
	h1, h2 := s.host(t), s.host(t)
	send := s.openDraft(t, h1)
	obs, err := h1.Observe(context.Background(), ObserveInput{Serial: s.serial, UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	field := autoglm.Action{Name: autoglm.ActionType, Text: "see you at 8"}
	newer := StepInput{Serial: s.serial, UITree: true, Act: &field, ActionID: "goal-2/todo-1/run-1/1", GoalID: "goal-2", LeaseToken: 20,
		Width: obs.Width, Height: obs.Height}
	if res, err := h1.Step(context.Background(), newer); err != nil || res.Act == nil || res.Act.Result != "ok" {
		t.Fatalf("the newer goal's action: %+v, %v", res.Act, err)
	}
	inputs := len(s.sim.State().InputLog)
	older := tapStep(obs, send, s.serial, "goal-1/todo-1/run-1/4", 10)
	older.ScreenTreeRef = "" // host 2 has not the decided screen's blob
	_, err = h2.Step(context.Background(), older)
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypePhoneLeaseLost || !strings.Contains(err.Error(), "token 20") {
		t.Fatalf("host 2's stale action = %v, want %s naming token 20", err, ErrTypePhoneLeaseLost)
	}
	if n := len(s.sim.State().InputLog); n != inputs || len(s.sent()) != 0 {
		t.Fatalf("the refused action reached the phone: %d inputs (was %d), sent %q", n, inputs, s.sent())
	}
}

// TestIntentNotWrittenOnThePhoneIsNotSent: a phone whose storage is full
// takes no intent, and the action is not sent (it fails closed, retried
// like a device error, naming the fix); once there is room, the retry
// sends it once.
func TestIntentNotWrittenOnThePhoneIsNotSent(t *testing.T) {
	s := newSharedPhone(t)
	h := s.host(t)
	send := s.openDraft(t, h)
	obs, err := h.Observe(context.Background(), ObserveInput{Serial: s.serial, UITree: true})
	if err != nil {
		t.Fatal(err)
	}
	in := tapStep(obs, send, s.serial, "goal-1/todo-1/run-1/4", 7)
	if err := s.sim.SetFault(phonesim.Fault{Kind: phonesim.FaultDataFull}); err != nil {
		t.Fatal(err)
	}
	_, err = h.Step(context.Background(), in)
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != ErrTypeDevice || ae.NonRetryable() ||
		!strings.Contains(err.Error(), "nothing was sent") || !strings.Contains(err.Error(), "free space") {
		t.Fatalf("step on a full phone = %v, want a retryable device error that names the fix", err)
	}
	if got := s.sent(); len(got) != 0 {
		t.Fatalf("sent %q with no intent on the phone", got)
	}
	if err := s.sim.SetFault(phonesim.Fault{Kind: phonesim.FaultClear}); err != nil {
		t.Fatal(err)
	}
	if res, err := h.Step(context.Background(), in); err != nil || res.Act == nil || res.Act.Result != "ok" || len(s.sent()) != 1 {
		t.Fatalf("retry with room = %+v, %v; sent %q", res.Act, err, s.sent())
	}
}

func mustGet(t *testing.T, a *Activities, ref string) []byte {
	t.Helper()
	data, err := a.Blobs.Get(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
