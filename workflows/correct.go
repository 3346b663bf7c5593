package workflows

import (
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/bounds"
)

// ChangePlannerCorrection: a stuck executor's correction is written by the
// planner (the Correct activity) from the todo, the recent actions and the
// screen, with CorrectionNote as the fallback when the planner fails or
// answers badly (docs/design.md §2). Before it, the correction was always
// CorrectionNote.
const ChangePlannerCorrection = "planner-correction"

// maxRecent bounds the recent actions a todo keeps for the correction
// writer.
const maxRecent = 5

// correctionActivityOptions: a correction is an aid on the way to the next
// think, so it is tried twice within a short bound and otherwise replaced
// by the fixed note; a model outage is not waited out here.
func correctionActivityOptions(summary string) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout: bounds.Correct,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    2 * time.Second,
			BackoffCoefficient: 2,
			MaximumAttempts:    2,
		},
		Summary: summary,
	}
}

// correct adds the correction for the stuck executor to its next think:
// under ChangePlannerCorrection the planner's, else (and as the fallback)
// CorrectionNote.
func (t *todoRun) correct(ctx workflow.Context, why string) error {
	if getVersion(ctx, ChangePlannerCorrection, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		t.oneShot = append(t.oneShot, CorrectionNote)
		return nil
	}
	in := activities.CorrectInput{Task: t.in.Task, Why: why, Recent: t.st.Recent, Screen: t.st.Screen,
		Corrections: t.st.Corrections - 1}
	summary := truncate(fmt.Sprintf("Correct todo %d: %s", t.in.Index, why), 380)
	opts := withModelHeartbeat(ctx, correctionActivityOptions(summary))
	waitOut := getVersion(ctx, ChangeVerifyOutageWait, workflow.DefaultVersion, 1) >= 1
	if waitOut {
		// Enough attempts for the activity to hand a lasting outage back.
		opts.RetryPolicy.MaximumAttempts = activities.OutageHandBackAttempt
		in.HandBackOutages = true
	}
	actx := workflow.WithActivityOptions(ctx, t.onPhone(opts))
	var res activities.CorrectResult
	call := func() error { return workflow.ExecuteActivity(actx, activities.NameCorrect, in).Get(ctx, &res) }
	var err error
	if waitOut {
		err = t.waitOutModel(ctx, call)
	} else {
		err = call()
	}
	switch {
	case err != nil && (temporal.IsCanceledError(err) || ctx.Err() != nil):
		return err
	case err != nil:
		workflow.GetLogger(ctx).Warn("planner correction failed; sending the fixed one", "error", err)
		t.correction = "fixed (planner failed: " + truncate(rootMessage(err), 200) + ")"
	case res.Correction == "":
		t.correction = "fixed (planner answer invalid: " + truncate(res.Invalid, 200) + ")"
	default:
		t.correction = res.Correction
	}
	t.st.Usage.Planner = t.st.Usage.Planner.Add(res.Usage)
	if res.Correction == "" {
		t.oneShot = append(t.oneShot, CorrectionNote)
		return nil
	}
	t.oneShot = append(t.oneShot, correctionPrefix+res.Correction)
	t.st.Lessons = appendLesson(t.st.Lessons, "when stuck: "+res.Correction)
	return nil
}

// correctionPrefix opens every correction note, the fixed CorrectionNote
// and a planner-written one, so the executor knows why it gets it.
const correctionPrefix = "You seem stuck: the screen did not change or you repeated the same action. "

// IsCorrection reports whether an executor note is a stuck correction,
// fixed or planner-written.
func IsCorrection(note string) bool { return strings.HasPrefix(note, correctionPrefix) }

// addRecent keeps the last maxRecent actions with their results.
func (t *todoRun) addRecent(action, result string) {
	r := append(t.st.Recent, truncate(action, 200)+" → "+truncate(result, 200))
	if len(r) > maxRecent {
		r = r[len(r)-maxRecent:]
	}
	t.st.Recent = r
}
