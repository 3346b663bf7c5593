package activities

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/device"
	"github.com/phoneflow/phoneflow/internal/probe"
	"github.com/phoneflow/phoneflow/internal/uitree"
	"github.com/phoneflow/phoneflow/internal/verify"
)

var (
	// commitRe is a control that commits something: saves, sends,
	// creates, adds, deletes or pays.
	commitRe = regexp.MustCompile(`(?i)^\s*(?:save|send|create|add|new|delete|remove|pay|post|submit|confirm|transfer|buy|book|order|place order)\b|^\s*(?:保存|发送|创建|添加|新建|删除|支付|付款|确认|提交)`)
	// severalRe is a todo that asks for more than one of a thing.
	severalRe = regexp.MustCompile(`(?i)\b(?:two|three|four|five|six|seven|eight|nine|ten|several|multiple|each|every|twice|again|times|copies|\d+\s+(?:notes|alarms|messages|copies|times))\b|[两三四五六七八九十几]+[个条次份]`)
)

// commitCheck is the look before committing: for a tap on a commit
// control, the todo's effect already on the phone (found with read-only
// probes when its list is longer than the screen), or the same commit on
// the same subject earlier in this todo, refuses the tap. refusal is the
// ActResult to return instead of acting, or nil to go on; key names the
// commit for the todo's log when the tap is a commit (ActResult.Commit).
func (a *Activities) commitCheck(ctx context.Context, d device.Device, in StepInput) (refusal *ActResult, key string, err error) {
	act := in.Act
	if act == nil || act.Name != autoglm.ActionTap || act.Element == nil || in.Width <= 0 || in.Height <= 0 {
		return nil, "", nil
	}
	elems, err := d.UITree(ctx)
	if err != nil {
		return nil, "", nil // no tree, no check: the action goes on as before
	}
	x, y := autoglm.ToPixel(*act.Element, in.Width, in.Height)
	target, ok := tapped(elems, x, y)
	if !ok {
		return nil, "", nil
	}
	label := strings.TrimSpace(firstNonEmpty(target.Text, target.Desc))
	if !commitRe.MatchString(label) {
		return nil, "", nil
	}
	app := target.Package
	fields := fieldValues(elems)
	if len(fields) > 0 {
		// A commit of typed content: the same content twice in one todo
		// is one too many, unless the todo asks for several.
		key = app + "|" + label + "|" + strings.Join(fields, "|")
		for _, k := range in.Commits {
			if k == key && !severalRe.MatchString(in.Task) {
				return &ActResult{Result: fmt.Sprintf("%s: this todo already tapped %q with the same content (%s); it is not done twice. "+
					"If the task is done, finish; the phone keeps what the first tap did", ActRefused, label, clipJoin(fields))}, key, nil
			}
		}
	}
	e, ok := verify.Expect(in.Task)
	if !ok || e.Repeatable || severalRe.MatchString(in.Task) || !e.Shows("", app, elems) {
		return nil, key, nil
	}
	m := shownItem(e.Match)
	r, err := a.Probe(ctx, in.Serial, m, probe.Limits{})
	if err != nil {
		return nil, key, err
	}
	if r.Swipes > 0 && !r.Restored {
		// The tap was aimed at the screen before the probe: do not send it
		// to a list that did not come back to where it was.
		return &ActResult{Result: "error: the list moved while checking whether the task is already done; look at the screen again and decide"}, key, nil
	}
	if !r.Found {
		return nil, key, nil
	}
	return &ActResult{Result: fmt.Sprintf("%s: %s is already on the phone (%s), so %q is not tapped again. If that is what the task asks, finish",
		ActRefused, e.Describe, r.Evidence, label)}, key, nil
}

// shownItem matches an item as a list shows it, never a text field that
// holds the same words while they are typed.
func shownItem(m probe.Match) probe.Match {
	return func(e uitree.Element) bool { return !isField(e) && m(e) }
}

func isField(e uitree.Element) bool { return strings.Contains(e.Class, "EditText") }

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
