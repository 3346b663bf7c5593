package workflows

import (
	"errors"
	"fmt"
	"time"

	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// Change IDs of workflow.GetVersion (docs/design.md §7).
const (
	// ChangeAnswerDeadline: questions and approvals wait at most the
	// answer deadline (a timer); before it they waited forever.
	ChangeAnswerDeadline = "answer-deadline"
	// ChangeNotify: the goal runs the Notify activity when it starts
	// waiting for a person and when it ends failed.
	ChangeNotify = "notify-webhook"
	// ChangeFanOutAsked: a question or approval a Step waited on (the
	// phone's lock screen) that nobody answered ends the todo unanswered,
	// and with it the goal, which a fan-out counts as asked; before it the
	// todo failed with the step and the planner replanned over it.
	ChangeFanOutAsked = "fan-out-asked"
)

// unansweredError ends a wait for a person that passed its deadline.
type unansweredError struct {
	What     string // "question" or "approval"
	Text     string
	Deadline time.Duration
}

func (e *unansweredError) Error() string {
	return fmt.Sprintf("no answer within %s to the %s: %s", e.Deadline, e.What, truncate(e.Text, 300))
}

// nextStep says what to do about a goal that ended unanswered.
func (e *unansweredError) nextStep() string {
	return "start the goal again and answer in time; limits.answer_deadline (or a schedule's --answer-deadline) sets how long a question waits, and limits.default_answer answers questions nobody answered"
}

// answerDeadline is how long a wait for a person that starts now may
// last: d under ChangeAnswerDeadline, 0 (no limit) in histories recorded
// before it. Call it before telling anyone about the wait, so the
// deadline can be told too.
func answerDeadline(ctx workflow.Context, d time.Duration) time.Duration {
	if getVersion(ctx, ChangeAnswerDeadline, workflow.DefaultVersion, 1) == workflow.DefaultVersion || d <= 0 {
		return 0
	}
	return d
}

// awaitPerson waits for cond, at most d when d > 0. It reports whether
// cond became true. Like Await, the wait holds no worker slot.
func awaitPerson(ctx workflow.Context, d time.Duration, cond func() bool) (bool, error) {
	if d <= 0 {
		return true, workflow.Await(ctx, cond)
	}
	return workflow.AwaitWithTimeout(ctx, d, cond)
}

// answerBy is when a wait for a person that starts now with deadline d
// ends (zero for no deadline).
func answerBy(ctx workflow.Context, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return workflow.Now(ctx).Add(d).UTC()
}

// waitsUntil is the status suffix of a wait that ends at by.
func waitsUntil(by time.Time) string {
	if by.IsZero() {
		return ""
	}
	return " (waits until " + by.Format("2006-01-02 15:04 UTC") + ")"
}

// notifyOptions retry a webhook that is down for about ten minutes; a
// notification is a courtesy, never a reason to hold up or fail a goal.
func notifyOptions(summary string) workflow.ActivityOptions {
	return workflow.ActivityOptions{
		StartToCloseTimeout:    30 * time.Second,
		ScheduleToCloseTimeout: 10 * time.Minute,
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:        2 * time.Second,
			BackoffCoefficient:     2,
			MaximumInterval:        time.Minute,
			NonRetryableErrorTypes: []string{activities.ErrTypeNotifyPermanent},
		},
		Summary: truncate(summary, 380),
	}
}

// notify runs the Notify activity for the goal (docs/design.md §7). With
// wait false it runs beside the goal, which goes on waiting for the
// person; a failed notification is logged, never returned.
func (g *goalRun) notify(ctx workflow.Context, in activities.NotifyInput, wait bool) {
	if getVersion(ctx, ChangeNotify, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	in.GoalID, in.Goal, in.Device = g.id, g.in.Goal, g.in.Device
	in.Schedule = g.schedule(ctx)
	actx := workflow.WithActivityOptions(ctx, notifyOptions("Notify: "+in.Kind+": "+in.Text))
	send := func(ctx workflow.Context) {
		if err := workflow.ExecuteActivity(actx, activities.NameNotify, in).Get(ctx, nil); err != nil {
			var can *temporal.CanceledError
			if !errors.As(err, &can) {
				workflow.GetLogger(ctx).Warn("notification not sent", "kind", in.Kind, "error", err)
			}
		}
	}
	if wait {
		send(ctx)
		return
	}
	workflow.Go(ctx, send)
}

// schedule returns the ID of the schedule that started the goal, from the
// search attribute Temporal sets on scheduled runs ("" otherwise).
func (g *goalRun) schedule(ctx workflow.Context) string {
	sa := workflow.GetInfo(ctx).SearchAttributes
	if sa == nil {
		return ""
	}
	p, ok := sa.GetIndexedFields()["TemporalScheduledById"]
	if !ok {
		return ""
	}
	var id string
	if err := converter.GetDefaultDataConverter().FromPayload(p, &id); err != nil {
		return ""
	}
	return id
}

// Unanswered reports whether r is a goal that failed because its question
// or approval waited past its deadline for a person: a fan-out counts it
// as asked, not failed (docs/design.md#phone-fleet).
func Unanswered(r GoalResult) bool {
	// A goal from before GoalResult.Unanswered says so by its next step.
	return r.Status == GoalFailed && (r.Unanswered != "" || r.NextStep == (&unansweredError{}).nextStep())
}
