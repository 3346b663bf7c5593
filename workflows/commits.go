package workflows

import "github.com/phoneflow/phoneflow/activities"

// maxCommitsKept bounds the commits a todo remembers.
const maxCommitsKept = 16

// commitLog is the commits a todo's actions made (a Save or Send of typed
// content), sent with each step so the Step refuses the same commit on the
// same subject a second time (docs/design.md §26). It adds no command: it
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
