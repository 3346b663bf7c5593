package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
)

// changeActionJournal versions exactly-once device actions
// (docs/design.md §4): each Step that applies an action names it with an
// action ID, and the worker's journal applies an ID at most once. Runs that
// recorded no marker for it keep the screen-hash guard.
const changeActionJournal = "action-journal"

// ChangeActionIDPerRun names an action by the run that sent it instead of
// the first run of the chain (docs/design.md §4): a run that a
// `temporal workflow reset` starts has a run ID of its own, so the actions
// it sends again never take the results of the actions the reset undid.
// Runs without its marker keep the first run's ID.
const ChangeActionIDPerRun = "action-id-per-run"

// actionID names the device action counted as the todo's current step:
// `<todo workflow ID>/<run ID>/<step>`. A step's action is decided and
// sent within one run (the todo continues as new only between steps), so
// every try and re-run of the step carries the same ID and no other
// action does. Empty in runs from before the journal.
func (t *todoRun) actionID(ctx workflow.Context) string {
	if getVersion(ctx, changeActionJournal, workflow.DefaultVersion, 1) < 1 {
		return ""
	}
	info := workflow.GetInfo(ctx)
	run := info.FirstRunID
	if getVersion(ctx, ChangeActionIDPerRun, workflow.DefaultVersion, 1) >= 1 {
		run = info.WorkflowExecution.RunID
	}
	return fmt.Sprintf("%s/%s/%d", info.WorkflowExecution.ID, run, t.st.Steps)
}

// withAction fills a Step's action fields: the action, the observation it
// was decided on, and (in runs with the journal) its ID.
func (t *todoRun) withAction(ctx workflow.Context, in *activities.StepInput, act *autoglm.Action) {
	s := t.st.Screen
	in.Act = act
	in.ScreenHash, in.Width, in.Height = s.Hash, s.Width, s.Height
	if !act.TouchesDevice() {
		return
	}
	if in.ActionID = t.actionID(ctx); in.ActionID != "" {
		in.ScreenTreeRef, in.ScreenApp, in.ScreenSensitive = s.TreeRef, s.AppPackage, s.Sensitive
	}
}

// askUncertain asks the user whether an action the journal could not
// judge reached the phone, and tells the executor the answer.
func (t *todoRun) askUncertain(ctx workflow.Context, q string) error {
	done := t.st.PreviousAction
	ans, err := t.askHuman(ctx, TodoEvent{Kind: TodoEventQuestion, QuestionKind: QuestionClarify, Action: done, Text: q})
	if err != nil {
		return err
	}
	t.handled(done, "it was unknown whether this action reached the phone; the user was asked and answered: "+ans)
	t.details(ctx)
	return nil
}
