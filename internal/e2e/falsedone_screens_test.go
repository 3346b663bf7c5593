package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	localstack "github.com/phoneflow/phoneflow/internal/stack"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// Two more goals that ended done on what the screen seemed to say
// (docs/design.md#verification-and-honest-status): an item below the
// screen's edge, and a switch whose label only starts with the one asked.

// TestDeletedNoteBelowTheEdgeIsNotGone: "Delete the note Note 12" (Note 1
// on Keep) on a phone with a notes list longer than the screen, that note
// below its edge.
// The executor is the weaker persona that takes a note the screen does
// not show for deleted, so it finishes at once; a check that judges only
// the visible screen finds Note 12 absent too. The goal must not end
// done while the note is still in the list.
// False done at ab6227b.
func TestDeletedNoteBelowTheEdgeIsNotGone(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	s := stacktest.Start(ctx, t, localstack.Options{ADB: localstack.AnyADB, Model: modelserver.Config{Naive: true}})
	phone := s.Phones[0]
	phone.Fill(phonesim.Fill{Notes: 12})
	// A person left the phone on the notes list, one end of it below its
	// edge: Note 12 on the classic list, Note 1 on Keep's, which lists the
	// newest first.
	personShell(ctx, t, s, "am start -n "+phone.State().Skin.Component("Notes"))
	target, shown := "Note 12", "Note 1"
	if onScreen(phone, target) {
		target, shown = shown, target
	}
	if onScreen(phone, target) || !onScreen(phone, shown) {
		t.Fatalf("want %s on the screen and %s below its edge; the screen shows %v", shown, target, texts(phone))
	}
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Delete the note " + target, Device: s.Serials[0]})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, s.Goals, id, 3*time.Minute)
	kept := false
	for _, n := range phone.State().Notes {
		kept = kept || n.Title == target
	}
	t.Logf("goal ended %s (%s); %s kept: %t; todos %+v", res.Status, res.Reason, target, kept, res.Todos)
	if res.Status == workflows.GoalDone && kept {
		t.Fatalf("FALSE DONE: the goal ended done with %s still in the list: %+v", target, res.Todos)
	}
}

// TestBluetoothIsNotBluetoothTethering: "Turn off Bluetooth" with
// Bluetooth on and the phone left on Hotspot & tethering, whose Bluetooth
// tethering switch is off. The executor is the weaker persona that reads
// the first switch whose words start with Bluetooth as Bluetooth's, so it
// finishes at once; `switch "Bluetooth" off` must not hold on the
// tethering switch, and the goal must not end done with Bluetooth on.
// False done at ab6227b.
func TestBluetoothIsNotBluetoothTethering(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	// The classic page, whose Hotspot & tethering row and bluetooth_switch
	// sit on the one Settings list.
	cfg := config.Default()
	cfg.Sim.Skin = string(phonesim.SkinClassic)
	s := stacktest.Start(ctx, t, localstack.Options{Config: &cfg, ADB: localstack.AnyADB, Model: modelserver.Config{Naive: true}})
	phone := s.Phones[0]
	// A person turns Bluetooth on and opens Hotspot & tethering.
	personShell(ctx, t, s, "am start -n com.android.settings/.Settings")
	personTap(ctx, t, s, "bluetooth_switch")
	personTap(ctx, t, s, "Hotspot & tethering")
	if tg := phone.State().Toggles; !tg.Bluetooth || tg.BluetoothTethering || !onScreen(phone, "Bluetooth tethering") {
		t.Fatalf("want Bluetooth on and the tethering page with its switch off; toggles %+v, screen %v", tg, texts(phone))
	}
	id, _, err := s.Goals.Start(ctx, goalctl.StartRequest{Goal: "Turn off Bluetooth", Device: s.Serials[0]})
	if err != nil {
		t.Fatal(err)
	}
	res := waitResult(t, s.Goals, id, 3*time.Minute)
	bt := phone.State().Toggles.Bluetooth
	t.Logf("goal ended %s (%s); Bluetooth on: %t; todos %+v", res.Status, res.Reason, bt, res.Todos)
	if res.Status == workflows.GoalDone && bt {
		t.Fatalf("FALSE DONE: the goal ended done with Bluetooth on: %+v", res.Todos)
	}
}

// personShell runs cmd on the phone as a person's own action would reach
// it, outside any goal.
func personShell(ctx context.Context, t *testing.T, s *localstack.Stack, cmd string) {
	t.Helper()
	if out, err := s.ADB.Shell(ctx, s.Serials[0], cmd); err != nil {
		t.Fatalf("%s: %v (%s)", cmd, err, out)
	}
}

// personTap taps the element whose resource ID or text is what.
func personTap(ctx context.Context, t *testing.T, s *localstack.Stack, what string) {
	t.Helper()
	for _, e := range s.Phones[0].UITree() {
		if e.Text == what || strings.HasSuffix(e.ResourceID, ":id/"+what) {
			x, y := centre(e.Bounds)
			personShell(ctx, t, s, fmt.Sprintf("input tap %d %d", x, y))
			return
		}
	}
	t.Fatalf("nothing named %q on the screen %v", what, texts(s.Phones[0]))
}

// onScreen reports whether an element of the phone's screen shows text.
func onScreen(p *phonesim.Phone, text string) bool {
	for _, e := range p.UITree() {
		if e.Text == text && e.Bounds.Y2 > e.Bounds.Y1 {
			return true
		}
	}
	return false
}

func texts(p *phonesim.Phone) []string {
	var out []string
	for _, e := range p.UITree() {
		if e.Text != "" {
			out = append(out, e.Text)
		}
	}
	return out
}
