package activities

import (
	"context"

	"go.temporal.io/sdk/activity"

	"github.com/phoneflow/phoneflow/internal/memory"
)

// RecallLimit is how many remembered facts a planner request carries.
const RecallLimit = 20

// learn keeps what answers and todos verified done teach later goals on
// device's phone (docs/design.md §8). The planner activities call it:
// the workflow never reads the store, so its replays do not depend on it.
// Failures are logged; memory never fails a plan.
func (a *Activities) learn(ctx context.Context, device string, answers []QA, done []DoneTodo) {
	if a.Memory == nil || device == "" {
		return
	}
	scope, goal := a.memoryScope(device), ""
	if activity.IsActivity(ctx) {
		goal = activity.GetInfo(ctx).WorkflowExecution.ID
	}
	var facts []memory.Fact
	for _, q := range answers {
		if f, ok := memory.FromAnswer(scope, q.Question, q.Answer); ok {
			facts = append(facts, f)
		}
	}
	for _, d := range done {
		if d.Status != "done" || !d.Verified {
			continue
		}
		if f, ok := memory.FromVerified(scope, d.Todo, d.Evidence); ok {
			facts = append(facts, f)
		}
	}
	for _, f := range facts {
		if err := a.Memory.Learn(f, goal); err != nil {
			a.logger(ctx).Warn("memory: fact not kept", "id", f.ID, "error", err)
		}
	}
}

// recall is what the planner is shown of device's memory.
func (a *Activities) recall(ctx context.Context, device string) []string {
	if a.Memory == nil || device == "" {
		return nil
	}
	facts, err := a.Memory.Recall(RecallLimit, a.memoryScope(device))
	if err != nil {
		a.logger(ctx).Warn("memory: partly unreadable", "error", err)
	}
	return facts
}

// memoryScope is where device's goals learn and read: the person of
// memory.user when set, else the phone.
func (a *Activities) memoryScope(device string) string {
	if a.MemoryUser != "" {
		return memory.UserScope(a.MemoryUser)
	}
	return memory.PhoneScope(device)
}
