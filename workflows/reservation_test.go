package workflows

import (
	"testing"
	"time"

	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// A reservation lasts what it was given, then ends on its own, so a phone
// whose goal never held it is free to the next pick again.
func TestPhoneReservationLastsItsTime(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestWorkflowEnvironment()
	env.RegisterWorkflowWithOptions(PhoneReservationWorkflow, workflow.RegisterOptions{Name: PhoneReservationWorkflowType})
	running := false
	env.RegisterDelayedCallback(func() { running = true }, 89*time.Second)
	start := env.Now()
	env.ExecuteWorkflow(PhoneReservationWorkflowType, activities.PhoneReservation{Serial: "emu-1", GoalID: "goal-1", For: 90 * time.Second})
	if !env.IsWorkflowCompleted() || env.GetWorkflowError() != nil {
		t.Fatalf("reservation did not end: %v", env.GetWorkflowError())
	}
	if !running {
		t.Error("the reservation ended before its 90 s")
	}
	if d := env.Now().Sub(start); d < 90*time.Second || d > 91*time.Second {
		t.Errorf("reservation lasted %s, want 90s", d)
	}
}

// A phone picked while another goal had reserved it says so in the goal's
// status: the goal waits for it under the lease's rules.
func TestPickedLineSaysWhoReservedTheBusyPhone(t *testing.T) {
	got := pickedLine(activities.PickPhoneResult{Serial: "emu-1", ReservedBy: "goal-9"}, stringer("any"))
	if want := "on phone emu-1, reserved by goal goal-9 when picked: waiting for it for --on any"; got != want {
		t.Errorf("picked line = %q, want %q", got, want)
	}
}

type stringer string

func (s stringer) String() string { return string(s) }
