package activities

import (
	"context"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/uitree"
)

// sentByEffect names the commit an action made that no commit control
// names: a tap on a send icon without a label, on the keyboard's own send
// key (outside the app's tree), or typed text ending in Enter. It is the
// text a field held on the screen the action was decided on
// (StepInput.ScreenTreeRef) that no field holds on the screen after it
// (after) and that shows there more often than before: a new bubble. A
// field emptied without a new bubble (cleared, discarded) sent nothing.
// Every try of one action reads the same decided screen, so a retry
// names the same commit (docs/design.md §4).
func (a *Activities) sentByEffect(ctx context.Context, in StepInput, after []uitree.Element) commitTap {
	act := in.Act
	enter := isType(*act) && strings.TrimRight(act.Text, "\r\n") != act.Text
	if in.ScreenTreeRef == "" || len(after) == 0 || (act.Name != autoglm.ActionTap && !enter) {
		return commitTap{}
	}
	before, err := a.tree(ctx, in.ScreenTreeRef)
	if err != nil {
		return commitTap{}
	}
	label := "Enter"
	if act.Name == autoglm.ActionTap {
		label = "tap"
		if act.Element != nil && in.Width > 0 && in.Height > 0 {
			x, y := autoglm.ToPixel(*act.Element, in.Width, in.Height)
			if e, ok := elementAt(before, x, y); ok {
				label = clip(strings.ReplaceAll(firstNonEmpty(firstNonEmpty(strings.TrimSpace(e.Text), strings.TrimSpace(e.Desc)), e.ShortID()), "|", " "), 60)
			}
		}
	}
	for _, e := range before {
		if !isField(e) || e.Password {
			continue
		}
		text := e.Text
		if enter && e.Focused {
			text += strings.TrimRight(act.Text, "\r\n")
		}
		text = strings.TrimSpace(text)
		if text == "" || inAField(after, text) || bubbles(after, text) <= bubbles(before, text) {
			continue
		}
		return commitTap{Key: e.Package + "|" + label + "|" + text, App: e.Package}
	}
	return commitTap{}
}

// inAField reports whether a text field holds text.
func inAField(elems []uitree.Element, text string) bool {
	for _, e := range elems {
		if isField(e) && strings.TrimSpace(e.Text) == text {
			return true
		}
	}
	return false
}

// bubbles counts the elements other than text fields whose text or
// description holds text ("You said on my way" for a bubble of it).
func bubbles(elems []uitree.Element, text string) int {
	n := 0
	for _, e := range elems {
		if !isField(e) && (strings.Contains(e.Text, text) || strings.Contains(e.Desc, text)) {
			n++
		}
	}
	return n
}
