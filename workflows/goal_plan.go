package workflows

import (
	"fmt"
	"slices"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
	"github.com/phoneflow/phoneflow/internal/postcond"
)

// plan fills the todo list: the single todo of single mode, the given plan,
// or PlanOnce (not counted against the budget; docs/design.md §2 rule 3).
func (g *goalRun) plan(ctx workflow.Context) error {
	switch {
	case g.opts.singleLoop():
		g.setTodos([]string{g.in.Goal}, nil, nil)
		g.st.TaskType = g.opts.TaskType
		return nil
	case len(g.opts.Plan) > 0:
		g.setTodos(g.opts.Plan, nil, nil)
		g.st.TaskType = g.opts.TaskType
		return nil
	}
	invalid, rejected := "", ""
	for {
		in := activities.PlanInput{Goal: g.in.Goal, Answers: g.st.Answers, UserMessages: g.st.UserMessages,
			Invalid: invalid, Rejected: rejected, Situation: g.situation(ctx), Device: g.in.Device, Phones: g.st.Span.Phones}
		var d activities.PlanDecision
		if err := g.callPlanner(ctx, "Plan the goal", activities.NamePlanOnce, &in, &in.HandBackOutages, &d); err != nil {
			return err
		}
		g.st.Usage.Planner = g.st.Usage.Planner.Add(d.Usage)
		if d.Invalid == "" && d.Status == activities.PlanPlanned && len(d.Plan) == 0 {
			d.Invalid = "the plan is empty: answer with a non-empty plan or ask_user"
		}
		if d.Invalid != "" {
			g.st.Failures++
			invalid, rejected = d.Invalid, d.Raw
			if g.st.Failures >= g.opts.FailureThreshold {
				if err := g.ask(ctx, fmt.Sprintf("The planner failed %d times (%s). How should I proceed?", g.st.Failures, d.Invalid), 0); err != nil {
					return err
				}
				g.st.Failures, invalid, rejected = 0, "", ""
			}
			continue
		}
		g.st.Failures, invalid, rejected = 0, "", ""
		switch d.Status {
		case activities.PlanAskUser:
			if err := g.ask(ctx, d.Question, 0); err != nil {
				return err
			}
		default:
			g.setTodos(d.Plan, d.Expect, d.Phones)
			g.st.TaskType = d.TaskType
			if g.opts.TaskType != "" {
				g.st.TaskType = g.opts.TaskType
			}
			g.consumeUserMessages(len(in.UserMessages))
			return nil
		}
	}
}

func (g *goalRun) setTodos(plan []string, expect [][]postcond.Check, phones []string) {
	phones = keepPhones(g.st.Todos, plan, phones)
	var keep []TodoState
	for _, t := range g.st.Todos {
		if t.Status != TodoPending && t.Status != TodoRunning {
			keep = append(keep, t)
		}
	}
	for i, p := range plan {
		t := TodoState{Index: len(keep) + 1, Text: p, Status: TodoPending}
		if i < len(expect) {
			t.Expect = expect[i]
		}
		t.Phone = phones[i]
		keep = append(keep, t)
	}
	g.st.Todos = keep
}

// consumeUserMessages drops the n oldest queued user messages, the ones the
// planner has just seen; messages that arrived during the call stay queued.
func (g *goalRun) consumeUserMessages(n int) {
	n = min(n, len(g.st.UserMessages))
	g.st.UserMessages = append([]string(nil), g.st.UserMessages[n:]...)
	if len(g.st.UserMessages) == 0 {
		g.st.UserMessages = nil
	}
}

// pendingTexts are the texts of the todos not yet started, in order.
func (g *goalRun) pendingTexts() []string {
	var out []string
	for _, t := range g.st.Todos {
		if t.Status == TodoPending {
			out = append(out, t.Text)
		}
	}
	return out
}

func (g *goalRun) nextPending() int {
	for i, t := range g.st.Todos {
		if t.Status == TodoPending {
			return i
		}
	}
	return -1
}

func (g *goalRun) addFeedback(s string) {
	g.st.Feedback = append(g.st.Feedback, s)
	if len(g.st.Feedback) > maxFeedback {
		g.st.Feedback = g.st.Feedback[len(g.st.Feedback)-maxFeedback:]
	}
}

func (g *goalRun) lastFeedback() []string {
	f := g.st.Feedback
	if n := g.opts.FeedbackHistory; len(f) > n {
		f = f[len(f)-n:]
	}
	return f
}

// replan asks the planner what next. Each attempt counts against the budget
// (failures too); consecutive invalid answers end in a question to the user.
func (g *goalRun) replan(ctx workflow.Context) (GoalResult, bool, error) {
	if c, ok := g.closingAfterLooks(); ok {
		// The look todos ran: the goal ends on the done the replanner
		// gave before them and on what they saw.
		r, _ := g.endDone(ctx, c.Response, c.Dropped)
		return r, true, nil
	}
	invalid, rejected := "", ""
	for {
		if err := g.awaitResumed(ctx); err != nil {
			return GoalResult{}, true, err
		}
		if r, ok := g.budgetStop(ctx); ok {
			return r, true, nil
		}
		in := activities.ReplanInput{Goal: g.in.Goal, TodoIndex: g.todo, Feedback: g.lastFeedback(),
			Answers: g.st.Answers, UserMessages: g.st.UserMessages, Invalid: invalid, Rejected: rejected,
			Situation: g.situation(ctx), LastActions: g.st.LastRecent, Device: g.in.Device, Phones: g.st.Span.Phones}
		queued := len(in.UserMessages)
		if g.steer.ordered {
			// Inject text no todo has taken yet reaches the replanner too
			// (it still waits for the next todo): an instruction is never
			// lost when the planner ends the goal.
			in.UserMessages = append([]string(nil), in.UserMessages...)
			for _, n := range g.st.Notes {
				in.UserMessages = append(in.UserMessages, executorNotePrefix+n)
			}
		}
		for _, t := range g.st.Todos {
			switch t.Status {
			case TodoPending:
				in.Remaining = append(in.Remaining, t.Text)
			case TodoDone, TodoFailed, TodoSkipped:
				in.Done = append(in.Done, activities.DoneTodo{Todo: t.Text, Status: t.Status, Result: truncate(t.Result, 500), Steps: t.Steps,
					Committed: t.Committed, Repeated: t.Repeated,
					Evidence: truncate(t.Evidence, 500), Verified: t.Verified, Answered: t.Answered})
			}
		}
		summary := "Replan"
		if g.todo > 0 {
			summary = fmt.Sprintf("Replan after todo %d", g.todo)
		}
		var d activities.PlanDecision
		err := g.callPlanner(ctx, summary, activities.NameReplan, &in, &in.HandBackOutages, &d)
		g.st.Steps++ // each replan attempt counts, failures too
		g.st.Usage.Planner = g.st.Usage.Planner.Add(d.Usage)
		if err != nil {
			if temporal.IsCanceledError(err) || ctx.Err() != nil {
				return GoalResult{}, true, err
			}
			return g.finish(ctx, GoalResult{Status: GoalFailed, Reason: "replan failed: " + rootMessage(err),
				NextStep: "check the planner model endpoint, then start the goal again"}), true, nil
		}
		if d.Invalid == "" {
			switch {
			case d.Status == activities.PlanReplanned && len(d.Plan) == 0:
				d.Invalid = "replanned needs a non-empty plan; answer done with a response when the goal is complete"
			case d.Status == activities.PlanDone && d.Response == "":
				d.Invalid = "done needs a response"
			case d.Status != activities.PlanReplanned && d.Status != activities.PlanDone && d.Status != activities.PlanAskUser:
				d.Invalid = fmt.Sprintf("unknown status %q: use replanned, done or ask_user", d.Status)
			}
		}
		if d.Invalid != "" {
			g.st.Failures++
			invalid, rejected = d.Invalid, d.Raw
			if g.st.Failures >= g.opts.FailureThreshold {
				if err := g.ask(ctx, fmt.Sprintf("The planner failed %d times (%s). How should I proceed?", g.st.Failures, d.Invalid), 0); err != nil {
					return GoalResult{}, true, err
				}
				g.st.Failures, invalid, rejected = 0, "", ""
			}
			continue
		}
		g.st.Failures = 0
		switch d.Status {
		case activities.PlanDone:
			for i := range g.st.Todos {
				if g.st.Todos[i].Status == TodoPending {
					g.st.Todos[i].Status = TodoSkipped
				}
			}
			if g.noneDone() {
				// The planner may drop a failed todo it judges unneeded, but a
				// goal where nothing succeeded has not been achieved.
				return g.finish(ctx, GoalResult{Status: GoalFailed, Response: d.Response,
					Reason:   "no todo succeeded: " + d.Response,
					NextStep: "check the phone, then retry the goal with clearer instructions"}), true, nil
			}
			if r, ended := g.endDone(ctx, d.Response, d.Dropped); ended {
				return r, true, nil
			}
			// Look todos were added: they run before the goal ends.
			return GoalResult{}, false, nil
		case activities.PlanAskUser:
			if err := g.ask(ctx, d.Question, 0); err != nil {
				return GoalResult{}, true, err
			}
			invalid, rejected = "", ""
		default:
			// A replan that answers the todos not yet started as they were
			// kept the plan: the live view says so (no command).
			g.st.Replans++
			// A new plan after the look todos: its todos may undo what
			// they saw, so a later done looks again.
			g.st.Closing = nil
			g.st.ReplanKept = slices.Equal(d.Plan, g.pendingTexts())
			g.setTodos(d.Plan, d.Expect, d.Phones)
			g.st.NeedReplan = false
			g.consumeUserMessages(queued)
			g.details(ctx)
			return GoalResult{}, false, nil
		}
	}
}

// situation is what the planner is always told: the time in the user's
// zone, the step budget and what is left of it (docs/design.md §3).
func (g *goalRun) situation(ctx workflow.Context) activities.Situation {
	return activities.Situation{Now: workflow.Now(ctx), TimeZone: g.opts.TimeZone,
		StepsUsed: g.st.Steps, MaxSteps: g.opts.MaxSteps, TodoMaxSteps: g.opts.TodoMaxSteps}
}

// endDone ends a goal the replanner called done: failed when a todo the
// planner kept was not done or a state an earlier todo set is undone or
// could not be seen again; otherwise done. ended is false when it added
// look todos instead (ChangeLookAgain), which run first.
func (g *goalRun) endDone(ctx workflow.Context, response string, dropped []activities.Dropped) (r GoalResult, ended bool) {
	if getVersion(ctx, ChangeHonestGoalStatus, workflow.DefaultVersion, 1) >= 1 {
		if missing := g.notDone(dropped); len(missing) > 0 {
			return g.finish(ctx, GoalResult{Status: GoalFailed, Response: response,
				Reason:   "not every todo was done: " + strings.Join(missing, "; "),
				NextStep: "fix what the reason names (install the app, add the contact, adjust the goal), then run the goal again"}), true
		}
	}
	if why := g.undoneFails(ctx); why != "" {
		return g.finish(ctx, GoalResult{Status: GoalFailed, Response: response, Reason: why,
			NextStep: "the phone no longer shows what an earlier todo did: run the goal again, or name the order the changes must come in"}), true
	}
	if g.lookAgain(ctx, response, dropped) {
		return GoalResult{}, false
	}
	if g.st.Closing != nil {
		if why := g.notSeenAgain(); why != "" {
			return g.finish(ctx, GoalResult{Status: GoalFailed, Response: response, Reason: why,
				NextStep: "check the phone for what the reason names, then run the goal again"}), true
		}
	}
	return g.finish(ctx, GoalResult{Status: GoalDone, Response: response}), true
}
