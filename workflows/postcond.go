package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// Change IDs of the planner's postconditions (docs/design.md §9).
const (
	// ChangePostconditions: Verify gets the todo's postconditions, written
	// by the planner, and the screens the todo observed; they decide the
	// verdict before any model is asked. Before it, Verify had the task
	// and the final screen only.
	ChangePostconditions = "planner-postconditions"
	// ChangeRefusedCommitAsks: a commit action the Step refused a second
	// time in one todo makes the todo ask the person what to do. Before
	// it, a refusal was only fed back to the executor.
	ChangeRefusedCommitAsks = "refused-commit-asks"
)

// maxSeen bounds the screens a todo keeps for checking a read's answer.
const maxSeen = 24

// todoChecks is what a todo keeps for the checks of docs/design.md §9:
// the screens it observed (UI tree references only), the commit actions
// it applied or that were refused, and the questions it asked the person.
type todoChecks struct {
	Seen        []activities.Observation `json:"seen,omitempty"`
	Refused     int                      `json:"refused,omitempty"`
	Committed   []string                 `json:"committed,omitempty"`
	Asked       []activities.QA          `json:"asked,omitempty"`
	LastRefusal string                   `json:"last_refusal,omitempty"`
	// Stale is set while the todo's last observation is from before a wait
	// in which a person could use the phone (a pause, a question): the
	// phone may no longer show it (ChangeReobserveAfterWait).
	Stale bool `json:"stale,omitempty"`
}

// waited records a wait in which a person could act on the phone.
func (c *todoChecks) waited() { c.Stale = true }

// saw records an observed screen (its UI tree reference and app).
func (c *todoChecks) saw(o activities.Observation) {
	if o.Hash != "" || o.TreeRef != "" {
		c.Stale = false
	}
	if o.TreeRef == "" {
		return
	}
	if n := len(c.Seen); n > 0 && c.Seen[n-1].TreeRef == o.TreeRef {
		return
	}
	c.Seen = append(c.Seen, activities.Observation{TreeRef: o.TreeRef, App: o.App, AppPackage: o.AppPackage})
	if len(c.Seen) > maxSeen {
		c.Seen = append([]activities.Observation(nil), c.Seen[len(c.Seen)-maxSeen:]...)
	}
}

// acted records a device action's commit or refusal.
func (c *todoChecks) acted(r *activities.ActResult) {
	if r == nil {
		return
	}
	if r.Refused != "" {
		c.Refused++
		c.LastRefusal = r.Refused
	}
	if r.Committed != "" {
		c.Committed = append(c.Committed, r.Committed)
	}
}

// asked records a question the executor put to the person and the answer,
// for the replanner.
func (c *todoChecks) asked(q, a string) {
	c.Asked = append(c.Asked, activities.QA{Question: "executor asked: " + q, Answer: a})
}

// askAfterRefusal asks the person when the executor tries a refused commit
// again: the Step will not send it, and guessing once more is not safe.
func (t *todoRun) askAfterRefusal(ctx workflow.Context, res activities.StepResult) error {
	if res.Act == nil || res.Act.Refused == "" || t.st.Checks.Refused < 2 {
		return nil
	}
	if getVersion(ctx, ChangeRefusedCommitAsks, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return nil
	}
	action := t.st.PreviousAction
	q := fmt.Sprintf("The executor tried again to commit %s, which was refused: %s. What should it do?", truncate(action, 200), res.Act.Refused)
	ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: QuestionClarify, Text: q, Action: action})
	if err != nil {
		return err
	}
	t.st.Checks.asked(q, ans)
	t.st.Notes = boundNotes(append(t.st.Notes, "User: "+ans))
	t.handled(action, "refused: "+res.Act.Refused+"; the user answered: "+ans)
	t.st.Failures = 0
	t.details(ctx)
	return nil
}

// CheckLines writes a todo's postconditions, and which held once it was
// verified, for the Web UI details and the step viewer.
func CheckLines(expect []postcond.Check, results []postcond.Result) []string {
	if len(results) > 0 {
		out := make([]string, 0, len(results))
		for _, r := range results {
			mark := "✗"
			if r.Held {
				mark = "✓"
			}
			out = append(out, fmt.Sprintf("%s %s — %s", mark, r.Check, truncate(r.Evidence, 200)))
		}
		return out
	}
	out := make([]string, 0, len(expect))
	for _, c := range expect {
		out = append(out, "· "+c.String())
	}
	return out
}

// checksMarkdown is the details block of a todo's postconditions.
func checksMarkdown(expect []postcond.Check, results []postcond.Result) string {
	lines := CheckLines(expect, results)
	if len(lines) == 0 {
		return ""
	}
	return "- postconditions:\n  - " + strings.Join(lines, "\n  - ") + "\n"
}
