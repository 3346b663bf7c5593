package drill_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/internal/drill"
	"github.com/phoneflow/phoneflow/internal/drill/drilltest"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/internal/stack/stacktest"
	"github.com/phoneflow/phoneflow/workflows"
)

// TestPhoneDisconnect cuts a phone off mid-todo. While it is gone the
// Step activity must fail as retryable and the goal must say it waits for
// the device; once it is back the goal must complete with one message.
// Past a configured deadline the goal must ask the user instead.
func TestPhoneDisconnect(t *testing.T) { phoneDisconnect(t, "", true) }

// TestPhoneDisconnectOnEachLook is TestPhoneDisconnect on every look but
// the default one (docs/phones.md#skins), a subtest a look: in `go test`
// the fast recovery only (the deadline is the workflow's, the same on
// every look), with -tags drills the full drill.
func TestPhoneDisconnectOnEachLook(t *testing.T) {
	for _, skin := range stacktest.OtherSkins(t) {
		t.Run(string(skin), func(t *testing.T) { phoneDisconnect(t, skin, disconnectAsksOnEachLook) })
	}
}

// phoneDisconnect is TestPhoneDisconnect on phones wearing skin ("": the
// drills' look, PHONEFLOW_DRILL_SKIN or the default); asks runs its part
// past the deadline too.
func phoneDisconnect(t *testing.T, skin phonesim.Skin, asks bool) {
	phones := 1
	if asks {
		phones = 2
	}
	s := drilltest.StartStack(t, drill.Options{Phones: phones, Skin: skin}, variantDescription)
	stop, err := s.StartWorker(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	t.Run("recovers", func(t *testing.T) {
		goal, text := drilltest.MessageGoal(1)
		id := drilltest.StartGoal(t, s, goal, s.Serials[0])
		if st, ok := drilltest.WaitStatus(s, id+"/todo-1", 2*time.Minute, func(st workflows.Status) bool { return st.Steps >= 2 }); !ok {
			t.Fatalf("goal %s never got two steps into its first todo; last status %+v", id, st)
		}
		began := time.Now()
		if err := s.Phones[0].SetFault(phonesim.Fault{Kind: phonesim.FaultDisconnect, Duration: disconnectFor}); err != nil {
			t.Fatal(err)
		}
		// While the phone is away: watch the goal's status and the todo's
		// pending Step activity.
		var saw struct {
			waiting workflows.Status
			said    bool
			attempt int32
			failure string
		}
		for time.Since(began) < disconnectFor {
			for _, wid := range []string{id, id + "/todo-1"} {
				if st, err := s.Goals.Status(context.Background(), wid); err == nil && mentionsDevice(st) && !saw.said {
					saw.said, saw.waiting = true, st
				}
			}
			if a, msg, ok := pendingStep(s.Client, id); ok && a > saw.attempt {
				saw.attempt, saw.failure = a, msg
			}
			time.Sleep(300 * time.Millisecond)
		}
		res := drilltest.WaitResult(t, s, id, 4*time.Minute)
		t.Logf("phone away %s; goal ended %s %s after the disconnect; highest Step attempt seen %d (last failure %q)",
			disconnectFor, res.Status, time.Since(began).Round(time.Second), saw.attempt, saw.failure)
		drilltest.CheckDone(t, id, res)
		drilltest.CheckOneMessage(t, s.Phones[0], text)

		if saw.attempt < 2 {
			t.Errorf("no retried Step attempt was pending while the phone was away (highest attempt %d): device errors must fail the attempt as retryable", saw.attempt)
		}
		var f drill.Failures
		for _, wid := range drill.GoalWorkflowIDs(id, res) {
			evs, err := drill.History(context.Background(), s.Client, wid)
			if err == nil {
				f.Add(drill.CountFailures(evs))
			}
		}
		t.Logf("history: %+v", f)
		if f.RetriedAttempts == 0 {
			t.Errorf("the history shows no retried activity attempt for the disconnect: %+v", f)
		}
		t.Run("status_says_waiting_for_device", func(t *testing.T) {
			if saw.said {
				t.Logf("status while away: phase %s, waiting for %q", saw.waiting.Phase, saw.waiting.WaitingFor)
				return
			}
			t.Errorf("while the phone was away (%s) the goal's status never said it waits for the device (want waiting_for naming the device or the phone): "+
				"workflows.Status.WaitingFor is set only for the device lease and for pause/approval/user; a Step attempt failing on a device error must set it, e.g. \"device %s: not reachable, retrying\"",
				disconnectFor, s.Serials[0])
		})
	})

	if !asks {
		return
	}
	t.Run("asks_after_deadline", func(t *testing.T) {
		goal, _ := drilltest.MessageGoal(2)
		in := workflows.GoalInput{Goal: goal, Device: s.Serials[1], Options: workflows.GoalOptions{DeviceWaitDeadline: 3 * time.Second}}
		id := goalctl.NewGoalID()
		if _, err := s.Client.ExecuteWorkflow(context.Background(), goalctl.StartOptions(id, goal, s.Serials[1]), workflows.GoalWorkflow, in); err != nil {
			t.Fatal(err)
		}
		if st, ok := drilltest.WaitStatus(s, id+"/todo-1", 2*time.Minute, func(st workflows.Status) bool { return st.Steps >= 2 }); !ok {
			t.Fatalf("goal %s never got two steps into its first todo; last status %+v", id, st)
		}
		if err := s.Phones[1].SetFault(phonesim.Fault{Kind: phonesim.FaultDisconnect, Duration: 3 * disconnectFor}); err != nil {
			t.Fatal(err)
		}
		st, ok := drilltest.WaitStatus(s, id, 3*disconnectFor, func(st workflows.Status) bool { return st.PendingQuestion != "" })
		if !ok {
			t.Fatalf("the phone stayed away past the 3 s deadline but the goal never asked the user; last status %+v", st)
		}
		t.Logf("asked: %q (phase %s)", st.PendingQuestion, st.Phase)
		_ = s.Goals.Cancel(context.Background(), id)
	})
}

// mentionsDevice reports a status that says the goal waits for its phone.
func mentionsDevice(st workflows.Status) bool {
	w := strings.ToLower(st.WaitingFor + " " + st.Phase)
	return strings.Contains(w, "device") || strings.Contains(w, "phone")
}

// pendingStep returns the attempt and last failure of the pending
// activity of the goal's running todo.
func pendingStep(c client.Client, goalID string) (int32, string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d, err := c.DescribeWorkflowExecution(ctx, goalID, "")
	if err != nil {
		return 0, "", false
	}
	for _, ch := range d.GetPendingChildren() {
		cd, err := c.DescribeWorkflowExecution(ctx, ch.GetWorkflowId(), "")
		if err != nil {
			continue
		}
		for _, a := range cd.GetPendingActivities() {
			return a.GetAttempt(), a.GetLastFailure().GetMessage(), true
		}
	}
	return 0, "", false
}
