package workflows

import (
	"errors"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// ChangeLockedPhoneAsks: a Step that found the phone's lock screen
// impassable (no PIN configured, the PIN refused, a pattern) sent nothing;
// the todo asks the person to unlock the phone and runs the same step
// again (docs/design.md §15). Asked only when a Step says so, which no
// history from before it holds.
const ChangeLockedPhoneAsks = "locked-phone-asks"

// askUnlock asks the person to unlock the phone a Step found locked and
// notes the answer for the executor. A run from before the change has no
// way to ask: the lock is its error.
func (t *todoRun) askUnlock(ctx workflow.Context, res activities.StepResult) error {
	if getVersion(ctx, ChangeLockedPhoneAsks, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return errors.New(res.Locked)
	}
	ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: QuestionTakeOver, Text: res.Locked, Action: t.st.NextText})
	if err != nil {
		return err
	}
	t.st.Notes = boundNotes(append(t.st.Notes, "User (about the locked phone): "+ans))
	return nil
}
