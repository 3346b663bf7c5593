package workflows

import "go.temporal.io/sdk/workflow"

// ChangeWorkerDefaults: a goal whose options are not Resolved takes every
// option its input leaves out from the config of the worker that starts
// it, recorded once as a side effect (docs/design.md §2). Runs recorded
// before it use the options as given.
const ChangeWorkerDefaults = "worker-defaults"

// NewGoalWorkflow is GoalWorkflow for a worker whose config gives the
// defaults of goals started without phoneflow's client (see
// GoalOptions.Resolved). Register it under GoalWorkflow's name.
func NewGoalWorkflow(defaults GoalOptions) func(workflow.Context, GoalInput) (GoalResult, error) {
	return func(ctx workflow.Context, in GoalInput) (GoalResult, error) {
		return goalWorkflow(ctx, in, &defaults)
	}
}

// resolveOptions fills the options a goal's input left out from the
// worker's defaults, once per goal: the first run records them and later
// runs (continued as new) carry them Resolved.
func resolveOptions(ctx workflow.Context, in GoalInput, defaults *GoalOptions) GoalInput {
	if in.Options.Resolved || in.State != nil {
		return in
	}
	if getVersion(ctx, ChangeWorkerDefaults, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return in
	}
	var d GoalOptions
	// A worker without config (tests, GoalWorkflow registered as is)
	// records empty defaults: the built-in ones apply.
	err := workflow.SideEffect(ctx, func(workflow.Context) any {
		if defaults == nil {
			return GoalOptions{}
		}
		return *defaults
	}).Get(&d)
	if err != nil {
		workflow.GetLogger(ctx).Warn("worker defaults unreadable; using the built-in ones", "error", err)
		d = GoalOptions{}
	}
	in.Options = in.Options.fillFrom(d)
	in.Options.Resolved = true
	return in
}

// fillFrom returns o with every option its JSON input did not give taken
// from d. Options built in Go (no JSON keys known) take d where o is zero.
func (o GoalOptions) fillFrom(d GoalOptions) GoalOptions {
	missing := func(key string, zero bool) bool {
		if o.given != nil {
			return !o.given[key]
		}
		return zero
	}
	ints := []struct {
		key      string
		dst, src *int
	}{
		{"max_steps", &o.MaxSteps, &d.MaxSteps},
		{"todo_max_steps", &o.TodoMaxSteps, &d.TodoMaxSteps},
		{"failure_threshold", &o.FailureThreshold, &d.FailureThreshold},
		{"stuck_threshold", &o.StuckThreshold, &d.StuckThreshold},
		{"max_stuck_retries", &o.MaxStuckRetries, &d.MaxStuckRetries},
		{"feedback_history", &o.FeedbackHistory, &d.FeedbackHistory},
		{"history_event_limit", &o.HistoryEventLimit, &d.HistoryEventLimit},
		{"max_goal_text", &o.MaxGoalText, &d.MaxGoalText},
		{"review_every", &o.ReviewEvery, &d.ReviewEvery},
	}
	for _, f := range ints {
		if missing(f.key, *f.dst == 0) {
			*f.dst = *f.src
		}
	}
	bools := []struct {
		key      string
		dst, src *bool
	}{
		{"auto_approve", &o.AutoApprove, &d.AutoApprove},
		{"optimize_prompt", &o.OptimizePrompt, &d.OptimizePrompt},
		{"routines", &o.Routines, &d.Routines},
		{"keep_phone_during_waits", &o.KeepPhoneDuringWaits, &d.KeepPhoneDuringWaits},
	}
	for _, f := range bools {
		if missing(f.key, !*f.dst) {
			*f.dst = *f.src
		}
	}
	strs := []struct {
		key      string
		dst, src *string
	}{
		{"default_answer", &o.DefaultAnswer, &d.DefaultAnswer},
		{"time_zone", &o.TimeZone, &d.TimeZone},
		{"device_wait", &o.DeviceWait, &d.DeviceWait},
	}
	for _, f := range strs {
		if missing(f.key, *f.dst == "") {
			*f.dst = *f.src
		}
	}
	od, dd := o.durations(), d.durations()
	for i, f := range od {
		if missing(f.key, *f.d == 0) {
			*f.d = *dd[i].d
		}
	}
	if missing("ui_tree", o.UITree == nil) && d.UITree != nil {
		t := *d.UITree
		o.UITree = &t
	}
	return o
}
