package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"
)

// ChangeGoalTextLimit versions the goal's own check of its text's length
// (docs/design.md §2): `run` and `schedule create` refuse a long goal at the
// door, and a goal started another way (the Temporal CLI, the Web UI, a
// client of its own) ends failed before its first planner call instead of
// sitting in planning while the planner's attempts time out. Only a goal
// over the limit records the marker.
const ChangeGoalTextLimit = "goal-text-limit"

// goalTooLong ends a goal whose text is over its MaxGoalText option, with
// a reason that names the limit and a next step that names the fix.
func (g *goalRun) goalTooLong(ctx workflow.Context) (GoalResult, bool) {
	n, limit := len(g.in.Goal), g.opts.MaxGoalText
	if g.st.Planned || n <= limit || getVersion(ctx, ChangeGoalTextLimit, workflow.DefaultVersion, 1) < 1 {
		return GoalResult{}, false
	}
	return g.finish(ctx, GoalResult{Status: GoalFailed,
		Reason: fmt.Sprintf("the goal is %d bytes, over the limit of %d (the option max_goal_text, limits.max_goal_text for the starter)", n, limit),
		NextStep: fmt.Sprintf("say in a few sentences what the phone should do and start it again, or start it with the option max_goal_text=%d "+
			"(with the starter: PHONEFLOW_LIMITS_MAX_GOAL_TEXT=%d or limits.max_goal_text in phoneflow.yaml)", n, n),
	}), true
}
