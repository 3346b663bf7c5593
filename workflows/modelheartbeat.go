package workflows

import (
	"time"

	"go.temporal.io/sdk/workflow"
)

// ChangeModelHeartbeat: the planner's activities (PlanOnce, Replan,
// Correct) have a heartbeat timeout (15 s on the phone's queue) and
// heartbeat while they run, as Verify does since ChangeVerifyHeartbeat.
// Before it, an attempt whose completion the server could not store (its
// database down at that moment, docs/design.md §14) or whose worker died
// stayed started until the 5-minute start-to-close timeout, and the goal
// made no progress meanwhile.
const ChangeModelHeartbeat = "model-heartbeat"

// modelHeartbeatTimeout is the heartbeat timeout of a planner activity.
const modelHeartbeatTimeout = time.Minute

// withModelHeartbeat gives o a heartbeat timeout where this run is past
// ChangeModelHeartbeat.
func withModelHeartbeat(ctx workflow.Context, o workflow.ActivityOptions) workflow.ActivityOptions {
	if getVersion(ctx, ChangeModelHeartbeat, workflow.DefaultVersion, 1) >= 1 {
		o.HeartbeatTimeout = modelHeartbeatTimeout
	}
	return o
}
