package activities

import (
	"context"
	"fmt"
	"regexp"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// stepperRe is a button that moves a value by a step (the classic
// Settings' brightness "-" and "+").
var stepperRe = regexp.MustCompile(`(?i)^\s*(?:[+\-−]|increase|decrease|调高|调低)\s*$`)

// lookOnly keeps from the phone an action of a todo that only looks
// (StepInput.LookOnly, docs/design.md §9, A todo that only looks): one that
// could change the state the todo looks at or any other. It returns the
// result that takes the place of sending it, or nil when the action may
// be sent: navigation (a tap on a row that opens a page, Back, Home,
// Launch, a scrolling swipe) and what touches nothing. The executor is
// told why, as after a before-action hook's veto; the person is not
// asked, since the todo can still look without the action.
//
// What a tap hits is read on the tree the action was decided on, else on
// the phone's tree now. Without either a tap cannot be placed and is sent
// (only typing is refused then): the look's verdict still comes from the
// todo's postcondition on the screen it ends on.
func (a *Activities) lookOnly(ctx context.Context, d device.Device, in StepInput) *ActResult {
	act := in.Act
	if !in.LookOnly || act == nil {
		return nil
	}
	var why string
	switch act.Name {
	case autoglm.ActionType, autoglm.ActionTypeName:
		why = "it types text"
	case autoglm.ActionTap, autoglm.ActionLongPress, autoglm.ActionDoubleTap:
		if act.Element == nil {
			return nil
		}
		elems, x, y, ok := a.lookTree(ctx, d, in, *act.Element)
		if !ok {
			return nil
		}
		why = a.changingTap(elems, x, y)
	case autoglm.ActionSwipe:
		if act.Start == nil {
			return nil
		}
		elems, x, y, ok := a.lookTree(ctx, d, in, *act.Start)
		if !ok {
			return nil
		}
		for _, e := range elems {
			if postcond.Slider(e) && e.Bounds.Contains(x, y) {
				why = "it starts on a slider, which a drag moves"
				break
			}
		}
	}
	if why == "" {
		return nil
	}
	why = "this todo only looks and changes nothing, and " + why
	a.logger(ctx).Info("action of a todo that only looks; not sent", "serial", in.Serial, "action", autoglm.FormatAction(*act), "reason", why)
	return &ActResult{
		Result: ActVetoed + ": " + why + ": this action was not sent and will not be; open the screen that shows what the todo looks at, without changing it, then finish saying what it shows",
		Vetoed: why,
	}
}

// lookTree is the tree a look todo's action at p is judged on and p in its
// pixels; false when there is none or the point cannot be placed.
func (a *Activities) lookTree(ctx context.Context, d device.Device, in StepInput, p autoglm.Point) ([]uitree.Element, int, int, bool) {
	if in.Width <= 0 || in.Height <= 0 {
		return nil, 0, 0, false
	}
	var elems []uitree.Element
	if in.ScreenTreeRef != "" {
		if es, err := a.tree(ctx, in.ScreenTreeRef); err == nil {
			elems = es
		}
	}
	if len(elems) == 0 {
		es, err := d.UITree(ctx)
		if err != nil || len(es) == 0 {
			return nil, 0, 0, false
		}
		elems = es
	}
	x, y := autoglm.ToPixel(p, in.Width, in.Height)
	return elems, x, y, true
}

// changingTap says why a tap at (x, y) could change the phone, or "": it
// hits a switch, a row that flips one, a commit control, a stepper or a
// slider.
func (a *Activities) changingTap(elems []uitree.Element, x, y int) string {
	for _, e := range elems {
		if !e.Bounds.Contains(x, y) {
			continue
		}
		switch {
		case postcond.Slider(e):
			return "it lands on a slider, which a tap moves"
		case e.Checkable || postcond.ToggleClass(e):
			return fmt.Sprintf("it lands on %s, which a tap flips", describeToggle(elems, e))
		}
	}
	i, ok := tappedControl(elems, x, y)
	if !ok {
		return ""
	}
	if postcond.Toggles(elems, i) {
		return fmt.Sprintf("it lands on %s, which a tap flips", describeToggle(elems, elems[i]))
	}
	label := postcond.ControlLabel(elems, i)
	labels := a.CommitLabels
	if len(labels) == 0 {
		labels = postcond.DefaultCommitLabels
	}
	switch {
	case label == "":
	case postcond.IsCommitLabel(label, labels) || commitRe.MatchString(label):
		return fmt.Sprintf("it lands on %q, which commits", clip(label, 60))
	case stepperRe.MatchString(label):
		return fmt.Sprintf("it lands on %q, which changes a value", label)
	}
	return ""
}

// describeToggle names a switch or the row holding one for the executor.
func describeToggle(elems []uitree.Element, e uitree.Element) string {
	label := firstNonEmpty(e.Text, e.Desc)
	if label == "" {
		for i := range elems {
			if elems[i] == e {
				label = postcond.ControlLabel(elems, i)
				break
			}
		}
	}
	if label == "" {
		return "a switch"
	}
	return fmt.Sprintf("the switch %q", clip(label, 60))
}
