package workflows

import (
	"slices"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/verify"
)

// ChangePriorCommitsOfTheItem: a todo gets as its earlier runs' commits
// (TodoInput.Prior) also those of the goal's earlier todos in other words
// that create the same item (verify.Expect: an alarm at 08:30, the note
// "Trip") and were not verified done, so a commit whose effect no check
// saw is not made again by the todo the replanner wrote after it
// (docs/design.md §9). Asked only when such a todo has commits this one's
// text alone would not get, so goals without one record no marker.
const ChangePriorCommitsOfTheItem = "prior-commits-of-the-item"

// maxCommitsKept bounds the commits a todo remembers.
const maxCommitsKept = 16

// commitLog is the commits a todo's actions made (a Save or Send of typed
// content), sent with each step so the Step refuses the same commit on the
// same subject a second time (docs/design.md §9). It adds no command: it
// is state carried in step inputs and across continue-as-new.
type commitLog struct {
	Made []string `json:"made,omitempty"`
}

// record takes in a step's action result: a commit the phone took is
// remembered.
func (c *commitLog) record(r *activities.ActResult) {
	if r == nil || r.Commit == "" {
		return
	}
	for _, k := range c.Made {
		if k == r.Commit {
			return
		}
	}
	c.Made = append(c.Made, r.Commit)
	if len(c.Made) > maxCommitsKept {
		c.Made = c.Made[len(c.Made)-maxCommitsKept:]
	}
}

// priorCommits are the commits earlier runs of a todo with this text
// applied, in this goal: a todo run again after a failed verification
// starts from what the phone shows, and the Step refuses the same commit
// on the same content a second time (docs/design.md §9). Only runs of
// the same todo count: the same words sent to another person are another
// commit. From ChangePriorCommitsOfTheItem, so do the commits of earlier
// todos not verified done that create the same item as this one, which
// a person never makes twice on purpose (not a message).
func (g *goalRun) priorCommits(ctx workflow.Context, text string) []string {
	out := g.sameTodoCommits(text)
	more := g.itemCommits(text)
	fresh := false
	for _, k := range more {
		fresh = fresh || !slices.Contains(out, k)
	}
	if !fresh || getVersion(ctx, ChangePriorCommitsOfTheItem, workflow.DefaultVersion, 1) < 1 {
		return out
	}
	return mergeKeys(out, more)
}

// sameTodoCommits are the commits of the goal's todos with this text.
func (g *goalRun) sameTodoCommits(text string) []string {
	var out []string
	for _, t := range g.st.Todos {
		if t.Text == text {
			out = mergeKeys(out, t.CommitKeys)
		}
	}
	return out
}

// itemCommits are the commits of the goal's todos in other words than
// text, not verified done, that create the item text creates; none when
// text creates no item verify.Expect knows, or one made again on purpose.
func (g *goalRun) itemCommits(text string) []string {
	e, ok := verify.Expect(text)
	if !ok || e.Repeatable {
		return nil
	}
	var out []string
	for _, t := range g.st.Todos {
		if t.Text == text || t.Verified || len(t.CommitKeys) == 0 {
			continue
		}
		if o, ok := verify.Expect(t.Text); ok && o.Kind == e.Kind && o.Describe == e.Describe {
			out = mergeKeys(out, t.CommitKeys)
		}
	}
	return out
}

// mergeKeys appends the keys of b not in a, bounded like a todo's log.
func mergeKeys(a, b []string) []string {
	for _, k := range b {
		if !slices.Contains(a, k) {
			a = append(a, k)
		}
	}
	if len(a) > maxCommitsKept {
		a = a[len(a)-maxCommitsKept:]
	}
	return a
}
