package viewer

import (
	"context"
	"slices"
	"time"

	enumspb "go.temporal.io/api/enums/v1"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/autoglm"
	"github.com/phoneflow/phoneflow/internal/postcond"
	"github.com/phoneflow/phoneflow/workflows"
)

// loadTodo reads one todo run's Step activities and steering.
func (r *Reader) loadTodo(ctx context.Context, id string) (Todo, error) {
	evs, err := r.history(ctx, id)
	if err != nil {
		return Todo{}, err
	}
	dc := r.dc()
	t := Todo{WorkflowID: id, Status: workflows.TodoRunning}
	byID := map[int64]int{}    // scheduled event ID → index in t.Steps
	var pendingApproval string // "approved"/"denied" waiting for the next step
	var expect []postcond.Check
	planned := map[int64]plannerCall{} // the planner's looks at the todo
	for _, ev := range evs {
		at := ev.GetEventTime().AsTime()
		switch ev.GetEventType() {
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED:
			var in workflows.TodoInput
			_ = dc.FromPayloads(ev.GetWorkflowExecutionStartedEventAttributes().GetInput(), &in)
			t.Index, t.Text, t.Started = in.Index, in.Task, at
			if in.OtherPhone {
				t.Phone = in.Device
			}
			expect = in.Expect
			t.Checks = workflows.CheckLines(expect, nil)
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED:
			a := ev.GetActivityTaskScheduledEventAttributes()
			if n := a.GetActivityType().GetName(); n == activities.NameAskPlanner || n == activities.NameReview {
				planned[ev.GetEventId()] = plannerCall{name: n, input: a.GetInput()}
				continue
			}
			if a.GetActivityType().GetName() != activities.NameStep {
				continue
			}
			var in activities.StepInput
			_ = dc.FromPayloads(a.GetInput(), &in)
			s := Step{N: len(t.Steps) + 1, Scheduled: at}
			if sum := ev.GetUserMetadata().GetSummary(); sum != nil {
				_ = dc.FromPayload(sum, &s.Summary)
			}
			if in.Act != nil {
				s.Applied = autoglm.FormatAction(*in.Act)
			}
			if slices.ContainsFunc(in.Notes, workflows.IsCorrection) {
				s.Flags = append(s.Flags, FlagCorrected)
			}
			if pendingApproval != "" && len(t.Steps) > 0 {
				prev := &t.Steps[len(t.Steps)-1]
				prev.Flags = append(prev.Flags, pendingApproval)
			}
			pendingApproval = ""
			byID[ev.GetEventId()] = len(t.Steps)
			t.Steps = append(t.Steps, s)
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED:
			a := ev.GetActivityTaskStartedEventAttributes()
			if i, ok := byID[a.GetScheduledEventId()]; ok {
				t.Steps[i].Attempts = int(a.GetAttempt())
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
			a := ev.GetActivityTaskCompletedEventAttributes()
			if c, ok := planned[a.GetScheduledEventId()]; ok {
				if n, ok := plannerNote(dc, c, a.GetResult(), at); ok {
					t.Notes = append(t.Notes, n)
				}
				continue
			}
			i, ok := byID[a.GetScheduledEventId()]
			if !ok {
				continue
			}
			var res activities.StepResult
			if err := dc.FromPayloads(a.GetResult(), &res); err != nil {
				t.Steps[i].Failure = "result unreadable: " + err.Error()
				continue
			}
			t.fill(i, res, at)
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_FAILED:
			a := ev.GetActivityTaskFailedEventAttributes()
			if i, ok := byID[a.GetScheduledEventId()]; ok {
				t.Steps[i].Failure, t.Steps[i].Finished = a.GetFailure().GetMessage(), at
				t.Steps[i].Attempts = max(t.Steps[i].Attempts, 1)
			}
		case enumspb.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
			a := ev.GetActivityTaskTimedOutEventAttributes()
			if i, ok := byID[a.GetScheduledEventId()]; ok {
				t.Steps[i].Failure, t.Steps[i].Finished = "timed out: "+a.GetFailure().GetMessage(), at
			}
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED:
			a := ev.GetWorkflowExecutionSignaledEventAttributes()
			n, ok := steeringNote(dc, a.GetSignalName(), a.GetInput(), at)
			if !ok {
				continue
			}
			if n.Kind == "approved" || n.Kind == "denied" {
				pendingApproval = n.Kind
				if n.Kind == "denied" && len(t.Steps) > 0 {
					// A refused action never runs: say so on its step.
					t.Steps[len(t.Steps)-1].Flags = append(t.Steps[len(t.Steps)-1].Flags, FlagDenied)
					pendingApproval = ""
				}
			}
			t.Notes = append(t.Notes, n)
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED:
			var res workflows.TodoResult
			if dc.FromPayloads(ev.GetWorkflowExecutionCompletedEventAttributes().GetResult(), &res) == nil {
				t.Status, t.Result = res.Status, res.Result
				t.Refused = res.Refused
				if len(res.Checks) > 0 {
					t.Checks = workflows.CheckLines(expect, res.Checks)
				}
			}
			t.Closed = at
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
			enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT:
			t.Status, t.Closed = workflows.TodoFailed, at
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED:
			t.Status, t.Closed = workflows.TodoCancelled, at
		case enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW:
			t.Status = workflows.TodoRunning // the next run goes on; only this run's steps are shown
		}
	}
	// A finish decided by the last step ends the todo without another step.
	if n := len(t.Steps); n > 0 && !t.Closed.IsZero() {
		last := &t.Steps[n-1]
		if last.Result == "" && last.Decided != nil && last.Decided.Name == autoglm.ActionFinish {
			last.Result = "todo " + t.Status
		}
	}
	return t, nil
}

// fill records step i's result and gives the step before it the outcome
// of the action it decided.
func (t *Todo) fill(i int, res activities.StepResult, at time.Time) {
	s := &t.Steps[i]
	s.Raw = &res
	s.Finished = at
	s.Attempts = max(s.Attempts, 1)
	if s.Attempts > 1 {
		s.Flags = append(s.Flags, FlagRetried)
	}
	if res.Act != nil {
		s.AppliedNote = res.Act.Result
		if i > 0 {
			prev := &t.Steps[i-1]
			prev.Result = res.Act.Result
			if res.Act.Result == activities.ActAlreadyApplied {
				prev.Flags = append(prev.Flags, FlagReplayed)
			}
			if res.Act.Refused != "" {
				prev.Flags = append(prev.Flags, FlagRefused)
			}
		}
	}
	sc := res.Screen
	s.ScreenRef, s.Width, s.Height, s.App, s.Sensitive = sc.ScreenRef, sc.Width, sc.Height, sc.App, sc.Sensitive
	if th := res.Think; th != nil {
		s.Model, s.ModelMS, s.Tokens = th.Model, th.TotalMS, [2]int{th.Usage.InputTokens, th.Usage.OutputTokens}
		if th.ParseError != "" || th.Response == nil {
			s.ParseErr = th.ParseError
			s.Flags = append(s.Flags, FlagParse)
			s.Thinking = th.Turn.Assistant
			return
		}
		a := th.Response.Action
		s.Thinking, s.Decided, s.Action = th.Response.Thinking, &a, th.Action
		if s.Action == "" {
			s.Action = autoglm.FormatAction(a)
		}
		s.Marks = marks(a)
	}
}

// marks places a tap or swipe on the screenshot, in percent.
func marks(a autoglm.Action) []Mark {
	pct := func(p *autoglm.Point, kind string) Mark {
		return Mark{X: float64(p[0]) / 10, Y: float64(p[1]) / 10, Kind: kind}
	}
	switch {
	case a.Element != nil:
		return []Mark{pct(a.Element, "tap")}
	case a.Start != nil && a.End != nil:
		return []Mark{pct(a.Start, "start"), pct(a.End, "end")}
	}
	return nil
}
