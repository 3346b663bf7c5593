package workflows

import (
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// Phone reservation names on the wire (docs/design.md#phone-fleet).
const (
	PhoneReservationWorkflowType     = activities.ReservationWorkflowType
	PhoneReservationWorkflowIDPrefix = activities.ReservationWorkflowIDPrefix // + serial
)

// ChangePhoneReservation marks the new PhoneReservationWorkflow type, so
// a later change to it is versioned from its first recorded history.
const ChangePhoneReservation = "phone-reservation"

// PhoneReservationWorkflow is a free phone's reservation for the goal that
// picked it (activities.PickPhone starts it, one per phone at a time by
// workflow ID). It does nothing but last in.For: while it runs, the next
// goal's pick counts the phone as busy; by then the goal's first todo
// holds the phone's lease, which keeps picks off it on its own. It runs no
// activity, so it needs no phone and no host.
func PhoneReservationWorkflow(ctx workflow.Context, in activities.PhoneReservation) error {
	getVersion(ctx, ChangePhoneReservation, workflow.DefaultVersion, 1)
	d := in.For
	if d <= 0 {
		d = activities.DefaultReserveFor
	}
	return workflow.Sleep(ctx, d)
}
