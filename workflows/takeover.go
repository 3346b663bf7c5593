package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// UpdatePersonAction is a person's tap, swipe, key or typed text on the
// goal's phone, sent from the step viewer while the goal waits for them
// (docs/design.md §7, taking over from the browser). An update only: the
// person's browser learns at once whether the phone took it.
const UpdatePersonAction = "person_action"

// ChangePersonAction: the goal runs a person's action on its phone as a
// PersonAct activity on the phone's queue. Asked only in the update's
// handler, so histories without the update replay unchanged.
const ChangePersonAction = "person-action"

// PersonAction is the payload of UpdatePersonAction: one input in the
// phone's pixels. Typed text is never in it: Sealed names where the step
// viewer's host keeps it until the activity types it, and Chars says how
// long it was.
type PersonAction = activities.PersonAction

// personTakeover is a goal's state of a person acting on its phone: the
// actions run one at a time, numbered for their activity IDs.
type personTakeover struct {
	mu workflow.Mutex
	n  int
}

func (g *goalRun) validPersonAction(a PersonAction) error {
	if err := a.Valid(); err != nil {
		return fmt.Errorf("%s: %w", UpdatePersonAction, err)
	}
	switch {
	case g.question == nil && g.approval == nil && !g.st.Paused:
		return errors.New(UpdatePersonAction + ": the goal is not waiting for a person: take over when it asks a question or an approval, or pause it first")
	case g.child == "":
		return errors.New(UpdatePersonAction + ": no todo is running, so the goal does not hold the phone; answer the question instead")
	case DeviceLease != nil && g.release == nil:
		return fmt.Errorf("%s: the goal has given phone %s back while it waits (limits.release_phone_after); answer it, and it takes the phone again", UpdatePersonAction, g.in.Device)
	}
	return nil
}

// onPersonAction runs a on the phone under the goal's lease token, like
// the executor's actions (docs/design.md §5), and returns what it did as
// history records it.
func (g *goalRun) onPersonAction(ctx workflow.Context, a PersonAction) (activities.PersonActResult, error) {
	getVersion(ctx, ChangePersonAction, workflow.DefaultVersion, 1)
	if g.person.mu == nil {
		g.person.mu = workflow.NewMutex(ctx)
	}
	if err := g.person.mu.Lock(ctx); err != nil {
		return activities.PersonActResult{}, err
	}
	defer g.person.mu.Unlock()
	// Checked again under the lock: the todo may have ended meanwhile.
	if err := g.validPersonAction(a); err != nil {
		return activities.PersonActResult{}, temporal.NewNonRetryableApplicationError(err.Error(), "PersonActionRefused", nil)
	}
	g.person.n++
	in := activities.PersonActInput{Serial: g.in.Device, GoalID: g.id, LeaseToken: g.lease.Token, Action: a}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:              DeviceTaskQueue(g.in.Device),
		ActivityID:             fmt.Sprintf("person-%d", g.person.n),
		ScheduleToStartTimeout: deviceScheduleToStart,
		StartToCloseTimeout:    30 * time.Second,
		// A person's input is sent at most once: a person who sees it
		// did not land sends it again.
		RetryPolicy: &temporal.RetryPolicy{MaximumAttempts: 1},
		Summary:     truncate("PersonAct: the person "+a.Describe(), 380),
	})
	var res activities.PersonActResult
	err := workflow.ExecuteActivity(actx, activities.NamePersonAct, in).Get(ctx, &res)
	return res, err
}
