// Package bounds holds the time limits of the activities that call models,
// in one place for the workflows that set them and for the config check
// that refuses a model timeout which cannot fit inside them
// (docs/design.md §9).
package bounds

import "time"

// Start-to-close limits of the model-calling activities.
const (
	// Step acts on the phone, observes it and makes one executor call.
	Step = 5 * time.Minute
	// Verify makes up to VerifyCalls verifier (executor) calls.
	Verify = 5 * time.Minute
	// Correct makes up to CorrectCalls planner calls.
	Correct = 5 * time.Minute
	// Plan (PlanOnce, Replan) makes one planner call.
	Plan = 5 * time.Minute
)

// Model calls per activity attempt, and what a Step's phone work may take
// beside its model call.
const (
	VerifyCalls  = 2
	CorrectCalls = 2
	StepDevice   = time.Minute
)

// ModelTimeoutMax returns the longest per-call timeout of the planner and
// of the executor model that fits every activity calling it.
func ModelTimeoutMax() (planner, executor time.Duration) {
	planner = min(Plan, Correct/CorrectCalls)
	executor = min(Step-StepDevice, Verify/VerifyCalls)
	return planner, executor
}
