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
// control (CommitLabels), or a Back that leaves an editor saving it
// (postcond.BackSaves), whose screen contradicts the todo's postconditions
// or named entities, or text typed that is a placeholder.
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
	if !judgedAction(in) {
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
	control, ok := committedBy(in, elems, a.commitLabels())
	if !ok {
		return commitCheck{}, nil
	}
	t := postcond.Target{Task: in.Task, Expect: in.Expect, Control: control, Elements: elems}
	c := commitCheck{Refused: postcond.WrongTarget(t), Commit: postcond.DescribeCommit(t)}
	if act.Name == autoglm.ActionBack {
		c.Commit = "Back, leaving as " + c.Commit
	}
	return c, nil
}

// commitLabels are the labels of commit controls (CommitLabels, or
// postcond.DefaultCommitLabels).
func (a *Activities) commitLabels() []string {
	if len(a.CommitLabels) > 0 {
		return a.CommitLabels
	}
	return postcond.DefaultCommitLabels
}

// judgedAction reports an action the look before committing can judge
// from the screen it was decided on: a tap, or a system Back, which
// leaves an editor as its Navigate up does.
func judgedAction(in StepInput) bool {
	act := in.Act
	if in.ScreenTreeRef == "" {
		return false
	}
	if act.Name == autoglm.ActionBack {
		return true
	}
	return act.Name == autoglm.ActionTap && act.Element != nil && in.Width > 0 && in.Height > 0
}

// committedBy is the commit control an action on elems uses: the commit
// control tapped (IsCommit), the Navigate up of an editor that saves on
// leaving (SavesOnLeaving), or for a system Back the Navigate up of such
// an editor (BackSaves: the Back leaves it, saving, as that tap would).
func committedBy(in StepInput, elems []uitree.Element, labels []string) (uitree.Element, bool) {
	if in.Act.Name == autoglm.ActionBack {
		i, ok := postcond.BackSaves(in.Task, elems, labels)
		if !ok {
			return uitree.Element{}, false
		}
		return elems[i], true
	}
	x, y := autoglm.ToPixel(*in.Act.Element, in.Width, in.Height)
	i, ok := tappedControl(elems, x, y)
	if !ok {
		return uitree.Element{}, false
	}
	control := elems[i]
	if control.Text == "" && control.Desc == "" {
		// An icon button labelled by its child (Compose's "Send
		// message"): the control is what its label says.
		control.Desc = postcond.ControlLabel(elems, i)
	}
	if !postcond.IsCommit(control, labels) && !postcond.SavesOnLeaving(control, elems, labels) {
		return uitree.Element{}, false
	}
	return control, true
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
