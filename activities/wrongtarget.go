package activities

import (
	"context"
	"encoding/json"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// ActRefused starts the result of a commit action the Step did not send:
// the screen contradicts the todo (docs/design.md §9), or its effect is
// already on the phone (§9).
const ActRefused = "refused"

// wrongTarget checks a commit action before it is sent: a tap on a commit
// control (CommitLabels) whose screen contradicts the todo's
// postconditions or named entities, or text typed that is a placeholder.
// Refused says why the action must not be sent ("" when it may be sent)
// and Commit describes a commit action. It reads only the UI tree of the
// screen the decision was made on, so a second check of the same point
// (has this commit already been applied?) can run beside it.
func (a *Activities) wrongTarget(ctx context.Context, in StepInput) (commitCheck, error) {
	act := in.Act
	if act == nil {
		return commitCheck{}, nil
	}
	if (act.Name == autoglm.ActionType || act.Name == autoglm.ActionTypeName) && postcond.Unresolved(act.Text) {
		return commitCheck{Refused: "the text to type, " + clip(act.Text, 80) + ", is a placeholder and not a value: type the value itself"}, nil
	}
	if act.Name != autoglm.ActionTap || act.Element == nil || in.ScreenTreeRef == "" || in.Width <= 0 || in.Height <= 0 {
		return commitCheck{}, nil
	}
	data, err := a.get(ctx, in.ScreenTreeRef)
	if err != nil {
		return commitCheck{}, err
	}
	var elems []uitree.Element
	if json.Unmarshal(data, &elems) != nil {
		return commitCheck{}, nil // no tree to judge by: the journal and verification still guard
	}
	x, y := autoglm.ToPixel(*act.Element, in.Width, in.Height)
	i, ok := tappedControl(elems, x, y)
	var control uitree.Element
	if ok {
		control = elems[i]
		if control.Text == "" && control.Desc == "" {
			// An icon button labelled by its child (Compose's "Send
			// message"): the control is what its label says.
			control.Desc = postcond.ControlLabel(elems, i)
		}
	}
	labels := a.CommitLabels
	if len(labels) == 0 {
		labels = postcond.DefaultCommitLabels
	}
	if !ok || !postcond.IsCommit(control, labels) && !postcond.SavesOnLeaving(control, elems, labels) {
		return commitCheck{}, nil
	}
	t := postcond.Target{Task: in.Task, Expect: in.Expect, Control: control, Elements: elems}
	return commitCheck{Refused: postcond.WrongTarget(t), Commit: postcond.DescribeCommit(t)}, nil
}

// commitCheck is wrongTarget's verdict on one action.
type commitCheck struct {
	Refused string // why the action is not sent
	Commit  string // the commit it makes, when it is a commit action
}

// tappedControl is the index of the smallest clickable element under a
// pixel.
func tappedControl(elems []uitree.Element, x, y int) (int, bool) {
	best, area := -1, -1
	for i, e := range elems {
		if !e.Clickable || !e.Bounds.Contains(x, y) {
			continue
		}
		if a := (e.Bounds.X2 - e.Bounds.X1) * (e.Bounds.Y2 - e.Bounds.Y1); area < 0 || a < area {
			best, area = i, a
		}
	}
	return best, best >= 0
}
