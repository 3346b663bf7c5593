package workflows

import (
	"slices"

	"github.com/phoneflow/phoneflow/activities"
)

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
// commit.
func (g *goalRun) priorCommits(text string) []string {
	var out []string
	for _, t := range g.st.Todos {
		if t.Text == text {
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
