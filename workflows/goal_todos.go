package workflows

import (
	"fmt"
	"strconv"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// budgetStop implements docs/design.md §2 rule 1 at the goal's loop head.
func (g *goalRun) budgetStop(ctx workflow.Context) (GoalResult, bool) {
	if g.st.Steps < g.opts.MaxSteps {
		return GoalResult{}, false
	}
	next := "raise max_steps and start the goal again"
	if i := g.nextPending(); i >= 0 {
		next = fmt.Sprintf("continue with todo %d: %s (raise max_steps)", i+1, g.st.Todos[i].Text)
	}
	return g.finish(ctx, GoalResult{Status: GoalFailed,
		Reason:   fmt.Sprintf("step limit reached: %d of %d steps used", g.st.Steps, g.opts.MaxSteps),
		NextStep: next}), true
}

func (g *goalRun) todoID(i, attempt int) string {
	id := g.id + "/todo-" + strconv.Itoa(i+1)
	if attempt > 1 {
		id += "-r" + strconv.Itoa(attempt-1)
	}
	return id
}

// runTodo runs todo i as a child workflow: on the goal's own task queue
// with its phone-bound activities on the phone's queue, or (runs from
// before ChangeTodoOnSharedQueue) wholly on the phone's queue.
func (g *goalRun) runTodo(ctx workflow.Context, i int, on todoPhone) (TodoResult, error) {
	t := &g.st.Todos[i]
	t.Status = TodoRunning
	t.Attempts++
	g.todo, g.todoStep = i+1, 0
	id := g.todoID(i, t.Attempts)
	todoQueue, deviceQueue := g.todoOnSharedQueue(ctx)
	if on.Other {
		deviceQueue = DeviceTaskQueue(on.Serial)
	}
	cctx := workflow.WithChildOptions(ctx, workflow.ChildWorkflowOptions{
		WorkflowID:    id,
		TaskQueue:     todoQueue,
		StaticSummary: onPhoneSummary(t.Text, on),
		// The goal waits for the child to finish cancelling so the todo
		// ends cleanly before the goal records it as cancelled.
		WaitForCancellation: true,
	})
	in := TodoInput{
		GoalID: g.id, Index: i + 1, Task: t.Text, Device: on.Serial, TaskType: g.st.TaskType,
		StepBudget: g.opts.MaxSteps - g.st.Steps, MaxSteps: g.opts.TodoMaxSteps, GoalTurns: g.st.Turns,
		AutoApprove: g.opts.AutoApprove, UITree: g.opts.UseUITree(), Paused: g.st.Paused,
		OptimizePrompt:   g.opts.OptimizePrompt,
		Routines:         g.opts.Routines && !t.Look,
		LookOnly:         t.Look,
		Expect:           t.Expect,
		Established:      g.st.Established.checks(),
		Prior:            g.priorCommits(ctx, t.Text),
		Notes:            g.st.Notes,
		FailureThreshold: g.opts.FailureThreshold, StuckThreshold: g.opts.StuckThreshold,
		MaxStuckRetries: g.opts.MaxStuckRetries, HistoryEventLimit: g.opts.HistoryEventLimit,
		DeviceWaitDeadline: g.opts.DeviceWaitDeadline,
		ModelOutageWait:    g.opts.ModelOutageWait,
		AnswerDeadline:     g.opts.AnswerDeadline,
		DefaultAnswer:      g.opts.DefaultAnswer,
		DurableWaitAfter:   g.opts.DurableWaitAfter,
		ReleasePhone:       g.release != nil && !g.opts.KeepPhoneDuringWaits && !on.Other,
		ReleasePhoneAfter:  g.opts.ReleasePhoneAfter,
		Unguarded:          g.opts.Mode == ModeBare,
		SteerSeq:           g.st.SteerSeq,
		DeviceQueue:        deviceQueue,
		LeaseToken:         on.Token,
		OtherPhone:         on.Other,
		// The planner in the loop (docs/design.md#executor-questions).
		Goal: g.in.Goal, Earlier: g.earlierResults(i), Answers: g.st.Answers,
		AskPlanner: !g.opts.singleLoop(), ReviewEvery: g.reviewEvery(),
	}
	if t.Look {
		in = lookInput(ctx, in)
	}
	g.st.Notes = nil
	g.child = id
	g.live.start(id)
	g.details(ctx)
	var res TodoResult
	fut := workflow.ExecuteChildWorkflow(cctx, TodoWorkflow, in)
	g.startSteering(fut)
	err := fut.Get(ctx, &res)
	if err != nil {
		// A todo that closed as Canceled carries its partial result.
		CanceledResult(err, &res)
	}
	g.endSteering(res)
	// From here the todo's result carries its steps. One that ended with
	// no result (its workflow failed, or it was cancelled before it could
	// close cleanly) keeps the steps it told: only todos that tell them
	// (docs/design.md §2) have any here, so older histories replay as
	// they ran.
	res.Steps = max(res.Steps, g.live.end())
	g.child, g.todoWaiting = "", ""
	g.question, g.approval = nil, nil
	if ctx.Err() != nil {
		// The goal was cancelled: the todo ended cleanly (its result says
		// cancelled) or with the cancellation itself. Keep its steps and
		// stop the goal either way.
		t.Steps += res.Steps
		g.st.Steps += res.Steps
		t.Usage = t.Usage.Add(res.Usage)
		g.st.Usage = g.st.Usage.Add(res.Usage)
		return TodoResult{}, ctx.Err()
	}
	if err != nil {
		if temporal.IsCanceledError(err) {
			return TodoResult{}, err
		}
		return TodoResult{Status: TodoFailed, Result: "todo workflow failed: " + rootMessage(err), Steps: res.Steps}, nil
	}
	return res, nil
}

// afterTodo records a todo's outcome and decides whether the goal stops.
func (g *goalRun) afterTodo(ctx workflow.Context, i int, tr TodoResult) (GoalResult, bool) {
	t := &g.st.Todos[i]
	g.todoStep = tr.Steps
	g.st.Steps += tr.Steps
	t.Steps += tr.Steps
	t.Usage = t.Usage.Add(tr.Usage)
	g.st.Usage = g.st.Usage.Add(tr.Usage)
	t.Result = tr.Result
	t.Verified, t.Evidence = tr.Verified, tr.Evidence
	t.Guidance = tr.Guidance
	t.Answered = tr.Answered
	t.Checks, t.Refused = tr.Checks, t.Refused+tr.Refused
	if t.Look {
		g.st.Established.looked(i+1, tr)
	} else {
		g.st.Established.took(i+1, tr)
	}
	t.Committed = append(t.Committed, tr.Committed...)
	t.CommitKeys = mergeKeys(t.CommitKeys, tr.CommitKeys)
	g.st.LastRecent = tr.Recent
	g.st.Turns += tr.Turns
	for _, q := range tr.Asked {
		// The executor's questions and the answers reach the replanner
		// with the planner's own (docs/design.md §7).
		g.st.Answers = append(g.st.Answers, q)
	}
	if len(g.st.Answers) > maxAnswers {
		g.st.Answers = g.st.Answers[len(g.st.Answers)-maxAnswers:]
	}
	g.lastVerdict = ""
	if tr.Evidence != "" {
		g.lastVerdict = fmt.Sprintf("todo %d %s: %s", i+1, map[bool]string{true: "verified done", false: "not verified"}[tr.Verified], truncate(tr.Evidence, 300))
	}
	g.st.Notes = append(g.st.Notes, tr.Notes...)
	switch tr.Status {
	case TodoDone:
		t.Status = TodoDone
	case TodoStuck:
		if t.Attempts <= MaxTodoRestarts {
			t.Status = TodoPending // restart with a fresh executor context
		} else {
			t.Status = TodoFailed
		}
	case TodoReset:
		t.Status = TodoPending // run again under a new child ID, fresh context
	case TodoCancelled:
		t.Status = TodoCancelled
	case TodoOutOfBudget:
		t.Status = TodoFailed
	default:
		t.Status = TodoFailed
	}
	if r := g.st.Repeats.record(t.Text, tr); r != "" {
		t.Repeated = r
	}
	g.addFeedback(fmt.Sprintf("todo %d %s after %d steps: %s", i+1, tr.Status, tr.Steps, truncate(tr.Result, 300)))
	g.details(ctx)
	if tr.Unanswered != "" {
		// A person was needed and did not come: no replan can help.
		un := &unansweredError{Text: tr.Unanswered}
		return g.finish(ctx, GoalResult{Status: GoalFailed, Reason: fmt.Sprintf("todo %d: %s", i+1, tr.Result), NextStep: un.nextStep(), Unanswered: tr.Unanswered}), true
	}
	if tr.Status == TodoOutOfBudget {
		r, _ := g.budgetStop(ctx)
		if r.Status == "" {
			r = g.finish(ctx, GoalResult{Status: GoalFailed, Reason: tr.Result})
		}
		return r, true
	}
	return GoalResult{}, false
}

// maxEarlier bounds the earlier todos' results a todo carries for the
// planner's answers.
const maxEarlier = 8

// earlierResults are the goal's todos before todo i that ran, with their
// outcome, for the planner hearing an executor's question.
func (g *goalRun) earlierResults(i int) []string {
	var out []string
	for j := range i {
		t := g.st.Todos[j]
		if t.Status == TodoPending || t.Status == TodoRunning {
			continue
		}
		text := activities.AnsweredTask(truncate(t.Text, 200), t.Answered)
		out = append(out, fmt.Sprintf("todo %d %s: %s → %s", j+1, t.Status, truncate(text, 500), truncate(t.Result, 300)))
	}
	if len(out) > maxEarlier {
		out = out[len(out)-maxEarlier:]
	}
	return out
}

// reviewEvery is the todos' review interval: off in the single-loop
// modes, which have no planner.
func (g *goalRun) reviewEvery() int {
	if g.opts.singleLoop() {
		return 0
	}
	return max(g.opts.ReviewEvery, 0)
}
