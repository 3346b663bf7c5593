package viewer

import (
	"fmt"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/phoneflow/phoneflow/activities"
)

// plannerCall is a scheduled AskPlanner or Review activity of a todo.
type plannerCall struct {
	name  string
	input *commonpb.Payloads
}

// plannerNote is the note of the planner's decision on a running todo
// (docs/design.md#executor-questions, docs/design.md#planner-review):
// kind "planner", the question or the review and what the planner chose,
// with its reason.
func plannerNote(dc converter.DataConverter, c plannerCall, result *commonpb.Payloads, at time.Time) (Note, bool) {
	line := func(choice, text, reason string) string {
		s := choice
		if text != "" {
			s += ": " + text
		}
		if reason != "" {
			s += " (" + reason + ")"
		}
		return s
	}
	switch c.name {
	case activities.NameAskPlanner:
		var in activities.AskPlannerInput
		var res activities.AskPlannerResult
		if dc.FromPayloads(c.input, &in) != nil || dc.FromPayloads(result, &res) != nil {
			return Note{}, false
		}
		return Note{Time: at, Kind: "planner", Text: "the executor asked: " + in.Question + " → the planner chose " + line(res.Choice, res.Answer, res.Reason)}, true
	case activities.NameReview:
		var in activities.ReviewInput
		var res activities.ReviewResult
		if dc.FromPayloads(c.input, &in) != nil || dc.FromPayloads(result, &res) != nil {
			return Note{}, false
		}
		return Note{Time: at, Kind: "planner", Text: fmt.Sprintf("review after %d steps → the planner chose %s", in.Steps, line(res.Decision, res.Hint, res.Reason))}, true
	}
	return Note{}, false
}
