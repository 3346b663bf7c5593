package security

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// signInTodo makes the offline executor tap the Bank's "Sign in" button,
// which it marks as sensitive (message="…" on the tap).
const signInTodo = "Tap the Sign in button"

// openBank brings the Bank app to the foreground through the ADB server,
// as a person holding the phone would, and returns how many input events
// the phone had seen by then.
func (s *stack) openBank(t *testing.T) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ac := adb.New(adb.Config{Addr: s.env.ADBAddr})
	if _, err := ac.Shell(ctx, s.env.Serial, "monkey -p com.example.bank -c android.intent.category.LAUNCHER 1"); err != nil {
		t.Fatalf("launch the Bank app: %v", err)
	}
	st := s.env.Phone.State()
	if st.Screen.App != "Bank" {
		t.Fatalf("foreground after launching Bank = %+v", st.Screen)
	}
	return len(st.InputLog)
}

// bankTaps returns the taps the phone received on the Bank app since
// input event number from.
func (s *stack) bankTaps(from int) []phonesim.InputEvent {
	var out []phonesim.InputEvent
	for _, ev := range s.env.Phone.State().InputLog[from:] {
		if ev.Kind == "tap" && strings.Contains(strings.ToLower(ev.App), "bank") {
			out = append(out, ev)
		}
	}
	return out
}

// TestSensitiveTapNeedsApproval checks that a tap the executor marks as
// sensitive waits for a person: denied, the phone never sees it; approved,
// it is tapped; with AutoApprove it runs without waiting.
func TestSensitiveTapNeedsApproval(t *testing.T) {
	s := newStack(t, stackOptions{})
	ctx := context.Background()
	opts := workflows.GoalOptions{Plan: []string{signInTodo}, MaxSteps: 12}

	t.Run("deny", func(t *testing.T) {
		from := s.openBank(t)
		id, _, err := s.goals.Start(ctx, goalctl.StartRequest{Goal: "Sign in", Device: s.env.Serial, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		st := s.waitStatus(t, id, 2*time.Minute, func(st workflows.Status) bool { return st.PendingApproval != nil })
		if !strings.Contains(st.PendingApproval.Action, "Tap") || st.PendingApproval.Reason == "" {
			t.Errorf("pending approval = %+v, want the tap and its reason", st.PendingApproval)
		}
		// While it waits, nothing touches the Bank app.
		time.Sleep(time.Second)
		if taps := s.bankTaps(from); len(taps) > 0 {
			t.Fatalf("the phone was tapped before approval: %+v", taps)
		}
		if err := s.goals.Approve(ctx, id, false, "not now", false); err != nil {
			t.Fatalf("deny: %v", err)
		}
		// The workflow moves on (the executor reacts to the rejection);
		// the denied tap never reaches the phone.
		s.waitStatus(t, id, 2*time.Minute, func(st workflows.Status) bool {
			return st.PendingApproval == nil || st.Phase == workflows.GoalDone || st.Phase == workflows.GoalFailed
		})
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			if len(s.env.Phone.State().InputLog) > from {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if taps := s.bankTaps(from); len(taps) > 0 {
			t.Fatalf("the denied tap reached the phone: %+v", taps)
		}
		// Another approval request for the same tap would be asked again,
		// never taken silently; end the goal here.
		_ = s.goals.Cancel(ctx, id)
	})

	t.Run("approve", func(t *testing.T) {
		from := s.openBank(t)
		id, _, err := s.goals.Start(ctx, goalctl.StartRequest{Goal: "Sign in", Device: s.env.Serial, Options: opts})
		if err != nil {
			t.Fatal(err)
		}
		s.waitStatus(t, id, 2*time.Minute, func(st workflows.Status) bool { return st.PendingApproval != nil })
		if taps := s.bankTaps(from); len(taps) > 0 {
			t.Fatalf("the phone was tapped before approval: %+v", taps)
		}
		if err := s.goals.Approve(ctx, id, true, "", false); err != nil {
			t.Fatalf("approve: %v", err)
		}
		res := s.result(t, id, 3*time.Minute)
		if taps := s.bankTaps(from); len(taps) != 1 {
			t.Fatalf("after approval the Bank app got %d taps (%+v), want 1", len(taps), taps)
		}
		if res.Status != workflows.GoalDone {
			t.Errorf("goal ended %s: %s", res.Status, res.Reason)
		}
	})

	t.Run("auto-approve", func(t *testing.T) {
		from := s.openBank(t)
		auto := opts
		auto.AutoApprove = true
		// Nobody answers: the goal can only finish if it never waits.
		_, res := s.run(t, goalctl.StartRequest{Goal: "Sign in", Device: s.env.Serial, Options: auto}, 3*time.Minute)
		if res.Status != workflows.GoalDone {
			t.Fatalf("goal ended %s: %s", res.Status, res.Reason)
		}
		if taps := s.bankTaps(from); len(taps) != 1 {
			t.Fatalf("with auto-approve the Bank app got %d taps (%+v), want 1", len(taps), taps)
		}
	})
}
