package activities

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/internal/probe"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

var (
	// commitRe is a control that commits something: saves, sends,
	// creates, adds, deletes or pays.
	commitRe = regexp.MustCompile(`(?i)^\s*(?:save|send|create|add|new|delete|remove|pay|post|submit|confirm|transfer|buy|book|order|place order)\b|^\s*(?:保存|发送|创建|添加|新建|删除|支付|付款|确认|提交)`)
	// opensFieldRe is a control that only opens a field to fill, whose
	// words start like a commit's: Google Clock's "Add label" on an alarm's
	// card opens the label dialog, whose OK commits.
	opensFieldRe = regexp.MustCompile(`(?i)^\s*add\s+(?:a\s+)?label\b|^\s*添加(?:标签|备注)$`)
	// severalRe is a todo that asks for more than one of a thing.
	severalRe = regexp.MustCompile(`(?i)\b(?:two|three|four|five|six|seven|eight|nine|ten|several|multiple|each|every|twice|again|times|copies|\d+\s+(?:notes|alarms|messages|copies|times))\b|[两三四五六七八九十几]+[个条次份]`)
)

// commitTap names a tap on a commit control for the todo's log
// (ActResult.Commit): Key is the app, the control and the content its
// fields held; App is the control's package and Shown how often each of
// those field texts showed elsewhere on the screen.
type commitTap struct {
	Key   string `json:"key"`
	App   string `json:"app,omitempty"`
	Shown string `json:"shown,omitempty"`
	// label and content are the control's label and what it commits,
	// for a refusal's words; not kept in the journal.
	label   string
	content []string
}

// repeatRefusal refuses commit c when the todo, or a run of it before
// (TodoInput.Prior, carried in StepInput.Commits), already made it: the
// same content twice is one too many, unless the todo asks for several.
// A commit whose effect no check saw (the row past the list's edge) is so
// never made a second time by a run after it. Nil lets it go on.
func repeatRefusal(in StepInput, c commitTap) *ActResult {
	if c.Key == "" || severalRe.MatchString(in.Task) || !repeats(in.Commits, c) {
		return nil
	}
	return &ActResult{Result: fmt.Sprintf("%s: this todo already tapped %q with the same content (%s); it is not done twice. "+
		"If the task is done, finish; the phone keeps what the first tap did", ActRefused, c.label, clipJoin(c.content))}
}

// unconfirmedMark joins a commit's key and the Shown counts of its screen
// when a system window (a dialog, the keyguard) was in front right after
// the tap: the tap may have landed on that window and not on the control.
const unconfirmedMark = "|met a system window; shown "

// commitCheck is the look before committing: for a tap on a commit
// control, the todo's effect already on the phone (found with read-only
// probes when its list is longer than the screen), or the same commit on
// the same subject earlier in this todo, refuses the tap. refusal is the
// ActResult to return instead of acting, or nil to go on; c names the
// commit for the todo's log when the tap is a commit (c.Key non-empty).
func (a *Activities) commitCheck(ctx context.Context, d device.Device, in StepInput) (refusal *ActResult, c commitTap, err error) {
	act := in.Act
	if act == nil || act.Name != autoglm.ActionTap || act.Element == nil || in.Width <= 0 || in.Height <= 0 {
		return nil, c, nil
	}
	elems, err := d.UITree(ctx)
	if err != nil {
		return nil, c, nil // no tree, no check: the action goes on as before
	}
	x, y := autoglm.ToPixel(*act.Element, in.Width, in.Height)
	label, app, ok := tappedLabel(elems, x, y)
	if !ok || !commitRe.MatchString(label) || opensFieldRe.MatchString(label) {
		return nil, c, nil
	}
	fields := commitContent(elems)
	if len(fields) > 0 {
		// A commit of typed content: the same content twice in one todo
		// is one too many, unless the todo asks for several.
		c = commitTap{Key: app + "|" + label + "|" + strings.Join(fields, "|"), App: app, Shown: shownCounts(elems, fields), label: label, content: fields}
		if r := repeatRefusal(in, c); r != nil {
			return r, c, nil
		}
	}
	e, ok := verify.Expect(in.Task)
	if !ok || e.Repeatable || severalRe.MatchString(in.Task) || !e.Shows("", app, elems) {
		return nil, c, nil
	}
	m := shownItem(e.Match)
	// The probe swipes the phone's list: fenced as the action is.
	if err := a.fenceFirst(ctx, d, in); err != nil {
		return nil, c, err
	}
	r, err := a.Probe(ctx, in.Serial, m, probe.Limits{})
	if err != nil {
		return nil, c, err
	}
	if r.Swipes > 0 && !r.Restored {
		// The tap was aimed at the screen before the probe: do not send it
		// to a list that did not come back to where it was.
		return &ActResult{Result: "error: the list moved while checking whether the task is already done; look at the screen again and decide"}, c, nil
	}
	if !r.Found {
		return nil, c, nil
	}
	return &ActResult{Result: fmt.Sprintf("%s: %s is already on the phone (%s), so %q is not tapped again. If that is what the task asks, finish",
		ActRefused, e.Describe, r.Evidence, label)}, c, nil
}

// repeats reports whether the todo already made commit c. A tap that a
// system window met right after it (unconfirmedMark) does not count when
// its content is still in its fields and shows on the screen exactly as
// often as when it was tapped: whatever it committed would have left the
// fields or shown once more (docs/design.md §4), so it landed on that
// window, not on the control. Any other trace of it counts.
func repeats(made []string, c commitTap) bool {
	for _, k := range made {
		if k == c.Key {
			return true
		}
		if ev, ok := strings.CutPrefix(k, c.Key+unconfirmedMark); ok && ev != c.Shown {
			return true
		}
	}
	return false
}

// shownCounts is how often each field text shows on the screen outside
// text fields, in the fields' order.
func shownCounts(elems []uitree.Element, fields []string) string {
	n := make([]string, len(fields))
	for i, f := range fields {
		n[i] = fmt.Sprint(shown(elems, f))
	}
	return strings.Join(n, ",")
}

// metSystemWindow reports whether the screen after a tap on a control of
// app shows only the system's own windows (a dialog, the keyguard) and
// nothing of app: such a window came to the front around the tap.
func metSystemWindow(app string, after []uitree.Element) bool {
	sys := false
	for _, e := range after {
		switch {
		case e.Package == app:
			return false
		case systemPackage(e.Package):
			sys = true
		}
	}
	return sys
}

// shownItem matches an item as a list shows it, never a text field that
// holds the same words while they are typed.
func shownItem(m probe.Match) probe.Match {
	return func(e uitree.Element) bool { return !isField(e) && m(e) }
}

func isField(e uitree.Element) bool { return e.IsField() }

// tappedLabel is the label and app of what a tap at (x, y) hits: the
// smallest clickable element's own text or description, else its
// descendants' (a Compose control, such as Google Messages' Send, is a
// clickable node without either around a described child), else the
// smallest element with text under the point.
func tappedLabel(elems []uitree.Element, x, y int) (label, app string, ok bool) {
	if i, ok := tappedControl(elems, x, y); ok {
		if l := postcond.ControlLabel(elems, i); l != "" {
			return l, elems[i].Package, true
		}
	}
	e, ok := tapped(elems, x, y)
	if !ok {
		return "", "", false
	}
	return strings.TrimSpace(firstNonEmpty(e.Text, e.Desc)), e.Package, true
}

// tapped is the element a tap at (x, y) hits: the smallest clickable
// element under it, else the smallest element with text.
func tapped(elems []uitree.Element, x, y int) (uitree.Element, bool) {
	var best uitree.Element
	found := false
	area := func(e uitree.Element) int { return (e.Bounds.X2 - e.Bounds.X1) * (e.Bounds.Y2 - e.Bounds.Y1) }
	for _, pass := range []func(uitree.Element) bool{
		func(e uitree.Element) bool { return e.Clickable },
		func(e uitree.Element) bool { return e.Text != "" || e.Desc != "" },
	} {
		for _, e := range elems {
			if e.Bounds.Contains(x, y) && pass(e) && !e.Scrollable && (!found || area(e) < area(best)) {
				best, found = e, true
			}
		}
		if found {
			return best, true
		}
	}
	return best, false
}

// fieldValues are the texts of the screen's text fields, sorted.
func fieldValues(elems []uitree.Element) []string {
	var out []string
	for _, e := range elems {
		if isField(e) && strings.TrimSpace(e.Text) != "" && !e.Password {
			out = append(out, strings.TrimSpace(e.Text))
		}
	}
	sort.Strings(out)
	return out
}

func clipJoin(s []string) string { return clip(strings.Join(s, ", "), 120) }

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// decidedCommit names the commit a tap makes on the screen the executor
// decided it on (StepInput.ScreenTreeRef), or nothing: every try of one
// action reads the same screen, so a retry names the commit its first try
// made, whatever the input left on the phone. isCommit says the wrong
// target check already found the control a commit control; otherwise its
// label must read as one (commitRe). A Back the wrong target check judged
// as leaving an editor saving it is named as the tap on that editor's
// Navigate up is, the same save of the same content.
func (a *Activities) decidedCommit(ctx context.Context, in StepInput, isCommit bool) commitTap {
	act := in.Act
	if act == nil || !judgedAction(in) {
		return commitTap{}
	}
	elems, err := a.tree(ctx, in.ScreenTreeRef)
	if err != nil {
		return commitTap{}
	}
	var label, app string
	if act.Name == autoglm.ActionBack {
		i, ok := postcond.BackSaves(in.Task, elems, a.commitLabels())
		if !ok || !isCommit {
			return commitTap{}
		}
		label, app = postcond.ControlLabel(elems, i), elems[i].Package
	} else {
		x, y := autoglm.ToPixel(*act.Element, in.Width, in.Height)
		label, app, _ = tappedLabel(elems, x, y)
	}
	fields := commitContent(elems)
	if label == "" || len(fields) == 0 || !(isCommit || commitRe.MatchString(label)) {
		return commitTap{}
	}
	return commitTap{Key: app + "|" + label + "|" + strings.Join(fields, "|"), App: app, Shown: shownCounts(elems, fields), label: label, content: fields}
}
