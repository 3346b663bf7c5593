package workflows

import (
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/fleet"
)

// FanOutWorkflowName is the workflow type of a fan-out: one goal over
// every phone of a kind (`starter run --on label=L --each`).
const FanOutWorkflowName = "FanOutWorkflow"

// ChangeFanOut: the fan-out parent lists its phones, starts one goal
// child per served phone, at most Parallel at once, and ends with a
// summary per phone (docs/design.md#phone-fleet). A new workflow type,
// so no history from before it meets the marker; versioned for the
// change-ID table.
const ChangeFanOut = "fan-out"

// QueryFanOut answers a fan-out's FanOutStatus.
const QueryFanOut = "fanout"

// DefaultFanOutParallel is how many goals a fan-out runs at once when
// its input does not say.
const DefaultFanOutParallel = 4

// Outcomes of one phone of a fan-out.
const (
	PhonePending   = "pending"
	PhoneRunning   = "running"
	PhoneDone      = "done"
	PhoneFailed    = "failed"
	PhoneAsked     = "asked"     // its goal asked a person, who did not answer in time
	PhoneUnserved  = "unserved"  // no worker served the phone: no goal was started
	PhoneCancelled = "cancelled" // its goal was cancelled
)

// FanOutInput is one goal to run on many phones.
type FanOutInput struct {
	Goal    string         `json:"goal"`
	On      fleet.Selector `json:"on"`
	Options GoalOptions    `json:"options"`
	// Parallel bounds the goals running at once; 0 takes
	// DefaultFanOutParallel.
	Parallel int `json:"parallel,omitempty"`
	// Serials, when set, are the phones to run on instead of the ones On
	// matches now: a retry of another fan-out's failed phones (RetryOf).
	Serials []string `json:"serials,omitempty"`
	RetryOf string   `json:"retry_of,omitempty"`
}

// PhoneOutcome is one phone of a fan-out: its goal and how it ended.
type PhoneOutcome struct {
	Serial string   `json:"serial"`
	Labels []string `json:"labels,omitempty"`
	GoalID string   `json:"goal_id,omitempty"`
	Status string   `json:"status"`
	Steps  int      `json:"steps,omitempty"`
	// Reason says why a phone did not end done; Response is a done goal's
	// answer.
	Reason   string `json:"reason,omitempty"`
	Response string `json:"response,omitempty"`
}

// Retry reports whether a retry of the failed phones runs this one
// again: every phone that did not end done.
func (p PhoneOutcome) Retry() bool {
	return p.Status != PhoneDone && p.Status != PhonePending && p.Status != PhoneRunning
}

// FanOutStatus is what a fan-out says while it runs and when it ends.
type FanOutStatus struct {
	Input  FanOutInput    `json:"input"`
	Phase  string         `json:"phase"` // listing | running | done | failed
	Phones []PhoneOutcome `json:"phones"`
	Why    string         `json:"why,omitempty"` // why there were no phones
}

// Count returns how many phones have status s.
func (st FanOutStatus) Count(s string) int {
	n := 0
	for _, p := range st.Phones {
		if p.Status == s {
			n++
		}
	}
	return n
}

// FanOutChildID is the workflow ID of the goal a fan-out starts on a phone.
func FanOutChildID(parent, serial string) string { return parent + "-" + fleet.QueueSafe(serial) }

// FanOutWorkflow runs one goal on every phone its selector matches, as one
// child GoalWorkflow per phone, at most Parallel at once. A phone no
// worker serves, a goal that fails, asks and is not answered, or whose
// phone disappears is a result in the summary; the fan-out ends done only
// when every phone did, else it closes as Failed with the summary
// (closeFanOut).
func FanOutWorkflow(ctx workflow.Context, in FanOutInput) (FanOutStatus, error) {
	getVersion(ctx, ChangeFanOut, workflow.DefaultVersion, 1)
	st := FanOutStatus{Input: in, Phase: "listing"}
	if err := workflow.SetQueryHandler(ctx, QueryFanOut, func() (FanOutStatus, error) { return st, nil }); err != nil {
		return st, err
	}
	parallel := in.Parallel
	if parallel <= 0 {
		parallel = DefaultFanOutParallel
	}
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &temporal.RetryPolicy{InitialInterval: time.Second, BackoffCoefficient: 2, MaximumInterval: 10 * time.Second, MaximumAttempts: 5},
		Summary:             "List " + clip(in.On.Kind(), 60),
	})
	var fp activities.FleetPhonesResult
	if err := workflow.ExecuteActivity(actx, activities.NameFleetPhones,
		activities.FleetPhonesInput{Selector: in.On, Serials: in.Serials, QueuePrefix: DeviceTaskQueuePrefix}).Get(ctx, &fp); err != nil {
		st.Phase, st.Why = PhoneFailed, "the fleet cannot be read: "+rootMessage(err)
		return closeFanOut(ctx, st)
	}
	st.Why = fp.Why
	var todo []int
	for _, p := range fp.Phones {
		o := PhoneOutcome{Serial: p.Serial, Labels: p.Labels, Status: PhonePending}
		if !p.Served {
			o.Status, o.Reason = PhoneUnserved, p.Why
		} else {
			o.GoalID = FanOutChildID(workflow.GetInfo(ctx).WorkflowExecution.ID, p.Serial)
			todo = append(todo, len(st.Phones))
		}
		st.Phones = append(st.Phones, o)
	}
	st.Phase = "running"
	sel := workflow.NewSelector(ctx)
	running := 0
	for len(todo) > 0 || running > 0 {
		for running < parallel && len(todo) > 0 {
			i := todo[0]
			todo = todo[1:]
			running++
			st.Phones[i].Status = PhoneRunning
			fut := workflow.ExecuteChildWorkflow(fanOutChildContext(ctx, in.Goal, st.Phones[i]), GoalWorkflowName,
				GoalInput{Goal: in.Goal, Device: st.Phones[i].Serial, Options: in.Options})
			sel.AddFuture(fut, func(f workflow.Future) {
				running--
				var res GoalResult
				st.Phones[i] = phoneOutcome(st.Phones[i], f.Get(ctx, &res), res)
			})
		}
		sel.Select(ctx)
		if ctx.Err() != nil {
			break
		}
	}
	st.Phase = PhoneDone
	if ctx.Err() != nil {
		st.Phase = PhoneCancelled
	} else if len(st.Phones) == 0 || st.Count(PhoneDone) < len(st.Phones) {
		st.Phase = PhoneFailed
	}
	return closeFanOut(ctx, st)
}

// GoalWorkflowName is the workflow type of a goal, as workers register it.
const GoalWorkflowName = "GoalWorkflow"

// fanOutChildContext starts a fan-out's goal like `starter run --device`
// does: on the goal task queue, with its text as summary and memo and the
// search attributes `starter list` filters on. A cancelled fan-out asks
// its goals to cancel, so each gives its phone back.
func fanOutChildContext(ctx workflow.Context, goal string, p PhoneOutcome) workflow.Context {
	summary := goal
	if len(summary) > 400 {
		summary = clip(summary, 390)
	}
	return workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:            p.GoalID,
		TaskQueue:             TaskQueue,
		StaticSummary:         summary,
		Memo:                  map[string]any{"goal": goal},
		ParentClosePolicy:     enumspb.PARENT_CLOSE_POLICY_REQUEST_CANCEL,
		WaitForCancellation:   true,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		TypedSearchAttributes: temporal.NewSearchAttributes(
			temporal.NewSearchAttributeKeyKeyword(SearchAttrStatus).ValueSet(GoalPlanning),
			temporal.NewSearchAttributeKeyKeyword(SearchAttrDevice).ValueSet(p.Serial),
		),
	})
}

// phoneOutcome is how a phone's goal ended, from what its child's Get
// returned: done, failed with the reason, asked when its question or
// approval went unanswered, cancelled.
func phoneOutcome(o PhoneOutcome, err error, res GoalResult) PhoneOutcome {
	res, err = GoalOutcome(res, err)
	if err != nil {
		o.Status, o.Reason = PhoneFailed, "the goal ended without a result: "+rootMessage(err)
		return o
	}
	o.Steps, o.Reason = res.Steps, res.Reason
	switch {
	case res.Status == GoalDone:
		o.Status, o.Reason, o.Response = PhoneDone, "", clip(res.Response, 300)
	case res.Status == GoalCancelled:
		o.Status = PhoneCancelled
	case Unanswered(res):
		o.Status = PhoneAsked
	default:
		o.Status = PhoneFailed
	}
	if o.Status != PhoneDone && o.Reason == "" {
		o.Reason = "the goal ended " + res.Status + " without a reason"
	}
	return o
}

// String is the one-line summary of a phone's outcome.
func (p PhoneOutcome) String() string {
	s := fmt.Sprintf("%s: %s", p.Serial, p.Status)
	if p.Steps > 0 {
		s += fmt.Sprintf(" after %d steps", p.Steps)
	}
	if p.Reason != "" {
		s += ": " + p.Reason
	}
	return s
}
