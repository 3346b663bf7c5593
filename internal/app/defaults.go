package app

import (
	"time"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/waits"
	"github.com/phoneflow/phoneflow/workflows"
)

// GoalDefaults are the goal options cfg gives: what `starter run` starts a
// goal with before its flags, and what a worker fills into a goal started
// without them (`temporal workflow start`, the Web UI, a hand-made
// Temporal Schedule; docs/design.md §2). now picks the local time zone
// when the config names none.
func GoalDefaults(cfg config.Config, now time.Time) workflows.GoalOptions {
	l := cfg.Limits
	o := workflows.GoalOptions{
		Mode:             l.Mode,
		MaxSteps:         l.MaxSteps,
		TodoMaxSteps:     l.TodoMaxSteps,
		AutoApprove:      l.AutoApprove,
		FailureThreshold: l.FailureThreshold,
		StuckThreshold:   l.StuckThreshold,
		MaxStuckRetries:  l.MaxStuckRetries,
		FeedbackHistory:  l.MaxExecutorFeedbackHistory,
		// The goal checks its text too, for runs started again elsewhere.
		MaxGoalText: l.MaxGoalText,
		// The planner looks in on running todos (docs/design.md#planner-review).
		ReviewEvery: l.ReviewEvery,

		DeviceWait:         l.DeviceWait,
		DeviceWaitDeadline: l.DeviceWaitDeadline,
		ModelOutageWait:    l.ModelOutageWait,
		AnswerDeadline:     l.AnswerDeadline,
		DefaultAnswer:      l.DefaultAnswer,
		// Waits for a time or a person (docs/design.md §7); times of day
		// are read in this machine's zone unless the config names one.
		DurableWaitAfter:     l.DurableWaitAfter,
		KeepPhoneDuringWaits: !l.ReleasePhoneDuringWaits,
		ReleasePhoneAfter:    l.ReleasePhoneAfter,
		TimeZone:             l.TimeZone,
		// Prompt memory learns from every todo unless turned off.
		OptimizePrompt: cfg.PromptMemory,
		// Routines are learned and replayed unless turned off.
		Routines: cfg.Routines,
	}
	if o.TimeZone == "" {
		o.TimeZone = waits.LocalZone(now)
	}
	ui := l.UITree
	o.UITree = &ui
	return o
}
