package activities

import (
	"context"
	"fmt"

	"go.temporal.io/sdk/temporal"

	"github.com/phoneflow/phoneflow/internal/device"
)

// ErrTypePhoneLeaseLost is the error type of a device action refused because
// its goal no longer holds the phone: the phone's journal has recorded a
// newer lease grant's fencing token than the one the action carries
// (docs/design.md §5). It is not retryable: the todo asks its goal for the
// phone again first, and runs the step under the new grant's token.
const ErrTypePhoneLeaseLost = "PhoneLeaseLost"

// fence refuses an action whose lease token is lower than the highest the
// phone's journal has recorded (high), and fails closed: a tokenless action
// (a todo of a goal granted the phone before fencing tokens) is refused too
// once the phone has seen a token, since some goal was granted the phone
// after it. The refused goal asks for the phone again and gets a token with
// the new grant.
func fence(phone, goal string, token, high int64) error {
	if token >= high {
		return nil
	}
	who := "this goal"
	if goal != "" {
		who = "goal " + goal
	}
	carries := fmt.Sprintf("lease token %d", token)
	if token == 0 {
		carries = "no lease token (its grant is older than fencing tokens)"
	}
	return temporal.NewNonRetryableApplicationError(fmt.Sprintf(
		"phone %s was granted to another goal after %s got it: the action carries %s and the phone's journal has recorded token %d; nothing was sent, and the goal asks for the phone again before it acts",
		phone, who, carries, high), ErrTypePhoneLeaseLost, nil)
}

// fenceFirst fences what an acting Step does to the phone before its
// action (docs/design.md §5): waking and unlocking it, and the look
// before a commit's read-only probe swipes. A goal whose phone was
// granted to another goal after it (a newer token recorded on the phone
// or the host) gets PhoneLeaseLost and touches nothing: its unlock
// would type the PIN, and its swipes scroll the list, on the phone the
// other goal drives. Steps that carry no action, and runs without the
// journal, are not fenced (as their actions are not).
func (a *Activities) fenceFirst(ctx context.Context, d device.Device, in StepInput) error {
	if a.Journal == nil || in.Act == nil || !in.Act.TouchesDevice() || in.ActionID == "" {
		return nil
	}
	_, unlock, err := a.fenced(ctx, d, in.GoalID, in.LeaseToken)
	if err != nil {
		return err
	}
	unlock()
	return nil
}
