package eval

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/bench"
	"github.com/phoneflow/phoneflow/internal/goalctl"
	"github.com/phoneflow/phoneflow/internal/modelserver"
	"github.com/phoneflow/phoneflow/internal/phonesim"
	"github.com/phoneflow/phoneflow/workflows"
)

// Options configure one evaluation run.
type Options struct {
	Cases     []Case  // a fixed set, run as tasks (Case.Task)
	Tasks     []Task  // generated tasks, run after the cases
	Mode      string  // workflows.ModeLayered (default), ModeSingle or ModeBare
	Seed      int64   // model server seed
	WrongTaps float64 // share of executor taps moved to a wrong point
	Naive     bool    // the executor does not repair its own mistakes
	// Faults are further offline model faults by name and rate, passed
	// through to the model server (see ApplyFaults), e.g. "misread": 0.2.
	Faults   map[string]float64
	Protocol string // executor request layout; empty = the configured default
	// Skin is how the phones' Settings and Quick Settings look
	// (docs/phones.md#skins); "" takes the stack's, classic by default.
	Skin phonesim.Skin
	// Batch is how many tasks run at once, each on its own phone, reset
	// between tasks; 0 = 8.
	Batch int
	// AskWait is how long a question nobody will answer stays pending
	// before the goal is cancelled and the task counted as asked; 0 = 20s.
	AskWait time.Duration
	// PromptOpt, when set, runs every goal with resolved options:
	// prompt optimisation on or off as it says and routines off, so a
	// comparison measures the guidance alone. Nil leaves the options to
	// the worker's defaults.
	PromptOpt *bool
	// ReviewEvery, when set, is every goal's review interval
	// (docs/design.md#planner-review); 0 turns the review off.
	ReviewEvery *int
	Progress    func(string) // nil = silent
}

// Outcome is one task's result.
type Outcome struct {
	Task        Task
	Status      string // the goal's status
	Verdict     Verdict
	Achieved    bool // Verdict == Achieved
	FalseDone   bool // Verdict == FalseDone
	FalseFailed bool // a feasible task that did not end done
	Asked       bool // a question was left unanswered
	Question    string
	// Commits lists the commit actions on targets the task never named
	// (WrongCommits); any makes the outcome a wrong commit action.
	Commits  []string
	Steps    int
	Why      string // why it was not achieved
	Response string
	Reason   string
	// Replayed counts the runs of the goal and its todos replayed against
	// this build's code; NotReplayed is the first that failed, "" when
	// every run replayed.
	Replayed    int
	NotReplayed string
	// TodoRuns counts the goal's todo runs and TodosDone those verified
	// done; Guidance lists the guidance version each todo ran with.
	TodoRuns, TodosDone int
	// TodosFailed counts the goal's todos that ended failed and
	// FailedTodoSteps the executor steps they took.
	TodosFailed, FailedTodoSteps int
	Guidance                     []int
}

// Summary totals a run.
type Summary struct {
	Mode                       string
	Seed                       int64
	Goals, Achieved, FalseDone int
	FalseFailed                int
	HonestFailures, Asked      int
	WrongCommits               int // tasks with at least one wrong commit action
	Replayed, NotReplayed      int // workflow runs replayed; tasks with a run that did not replay
	Steps                      int
	ModelCalls                 int64 // planner + executor + verifier requests answered
	Phones                     int
	Elapsed                    time.Duration
	Outcomes                   []Outcome
}

// PerMinute is the run's throughput in tasks per minute of wall time.
func (s Summary) PerMinute() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Goals) / s.Elapsed.Minutes()
}

var seq atomic.Int64

// Run runs the tasks on the stack: one model server (seeded with Seed) and
// Batch phones, each taking the next task as soon as it is free and reset
// to a new phone's state before every task.
func Run(ctx context.Context, st *bench.Stack, o Options) (Summary, error) {
	if o.Mode == "" {
		o.Mode = workflows.ModeLayered
	}
	if o.Batch <= 0 {
		o.Batch = 8
	}
	if o.AskWait <= 0 {
		o.AskWait = 20 * time.Second
	}
	tasks := make([]Task, 0, len(o.Cases)+len(o.Tasks))
	for _, c := range o.Cases {
		tasks = append(tasks, c.Task())
	}
	tasks = append(tasks, o.Tasks...)
	onSkin(tasks, o.Skin)
	sum := Summary{Mode: o.Mode, Seed: o.Seed}
	if len(tasks) == 0 {
		return sum, fmt.Errorf("eval: no tasks to run")
	}
	mc := modelserver.Config{Seed: o.Seed, RateWrongTap: o.WrongTaps, Naive: o.Naive}
	for _, t := range tasks {
		mc.SendsNothing = append(mc.SendsNothing, t.SendsNothing...)
	}
	if err := ApplyFaults(&mc, o.Faults); err != nil {
		return sum, err
	}
	phones := min(o.Batch, len(tasks))
	began := time.Now()
	env, err := st.StartEnv(ctx, bench.EnvOptions{Phones: phones, Model: mc, Protocol: o.Protocol, Skin: o.Skin})
	if err != nil {
		return sum, err
	}
	defer env.Stop()
	outs := make([]Outcome, len(tasks))
	next := make(chan int)
	var done atomic.Int64
	var wg sync.WaitGroup
	for i := range phones {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				env.Phones[i].Reset()
				outs[j] = runTask(ctx, st.Client, env, i, tasks[j], o.goalOptions(), o.AskWait)
				if n := done.Add(1); o.Progress != nil && (n%10 == 0 || int(n) == len(tasks)) {
					o.Progress(fmt.Sprintf("%s seed %d: %d of %d tasks run", o.Mode, o.Seed, n, len(tasks)))
				}
			}
		}()
	}
	for j := range tasks {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return sum, err
	}
	sum.Elapsed, sum.Phones = time.Since(began), phones
	sum.ModelCalls = env.Model.Stats().Completions
	for _, out := range outs {
		sum.add(out)
	}
	return sum, nil
}

func (s *Summary) add(o Outcome) {
	s.Goals++
	s.Steps += o.Steps
	switch o.Verdict {
	case Achieved:
		s.Achieved++
	case FalseDone:
		s.FalseDone++
	case Asked:
		s.Asked++
	case HonestFailure:
		s.HonestFailures++
	}
	if o.FalseFailed {
		s.FalseFailed++
	}
	if len(o.Commits) > 0 {
		s.WrongCommits++
	}
	s.Replayed += o.Replayed
	if o.NotReplayed != "" {
		s.NotReplayed++
	}
	s.Outcomes = append(s.Outcomes, o)
}

// goalTimeout bounds one goal; the offline models answer at once. A goal
// still running then is cancelled, and given cancelWait to close before it
// is terminated, so the next task finds its phone free.
const (
	goalTimeout = 10 * time.Minute
	cancelWait  = 2 * time.Minute
)

// goalOptions are the options every goal of the run starts with.
func (o Options) goalOptions() workflows.GoalOptions {
	g := workflows.GoalOptions{Mode: o.Mode, AutoApprove: true}
	if o.PromptOpt != nil {
		g.OptimizePrompt, g.Resolved = *o.PromptOpt, true
	}
	// Goals start resolved (through goalctl), so nothing fills the review
	// interval from a worker's config: it is the configuration's default.
	g.ReviewEvery = config.Default().Limits.ReviewEvery
	if o.ReviewEvery != nil {
		// A negative interval is off and is not filled from the worker's
		// config as an unset one is.
		g.ReviewEvery = *o.ReviewEvery
		if g.ReviewEvery == 0 {
			g.ReviewEvery = -1
		}
	}
	return g
}

func runTask(ctx context.Context, c client.Client, env *bench.Env, i int, t Task, opts workflows.GoalOptions, askWait time.Duration) Outcome {
	mode := opts.Mode
	out := Outcome{Task: t}
	phone := env.Phones[i]
	if t.Setup != nil {
		if err := t.Setup(phone); err != nil {
			out.Status, out.Verdict, out.Why = "error", HonestFailure, "the phone could not be prepared: "+err.Error()
			return out
		}
	}
	before := phone.State()
	id := fmt.Sprintf("eval-%s-%s-%d-%d", safeID(t.ID), mode, time.Now().UnixNano()%1e9, seq.Add(1))
	// Through goalctl, as `starter run` does: a call the loaded server did
	// not answer is sent again, not taken for the goal's end.
	goals := goalctl.New(c, goalctl.Options{})
	_, err := goals.StartGoal(ctx, goalctl.StartOptions(id, t.Goal, env.Serials[i]),
		workflows.GoalInput{Goal: t.Goal, Device: env.Serials[i], Options: opts})
	var r workflows.GoalResult
	if err == nil {
		stop := answerQuestions(ctx, c, id, t.Reply, askWait)
		r, err = awaitGoal(ctx, goals, id, goalTimeout)
		out.Asked, out.Question = stop()
		out.Replayed, out.NotReplayed = replayGoal(ctx, c, id)
	}
	after := phone.State()
	out.Commits = WrongCommits(before, after, t.Targets)
	if err != nil {
		r.Status, r.Reason = "error", err.Error()
		if out.Asked {
			r.Status = workflows.GoalCancelled
		}
	}
	out.Status, out.Steps, out.Response, out.Reason = r.Status, r.Steps, r.Response, r.Reason
	for _, td := range r.Todos {
		out.TodoRuns += max(td.Attempts, 1)
		switch td.Status {
		case workflows.TodoDone:
			out.TodosDone++
		case workflows.TodoFailed:
			out.TodosFailed++
			out.FailedTodoSteps += td.Steps
		}
		out.Guidance = append(out.Guidance, td.Guidance)
	}
	holds, why := true, ""
	if t.Check != nil {
		holds, why = t.Check(after, r)
	}
	out.Verdict = classify(t, r.Status, out.Asked, holds)
	if out.Verdict == Asked && rightQuestion(t, out.Asked, out.Question) {
		out.Verdict = Achieved
	}
	out.Achieved, out.FalseDone = out.Verdict == Achieved, out.Verdict == FalseDone
	out.FalseFailed = t.Feasible && r.Status != workflows.GoalDone
	switch out.Verdict {
	case FalseDone:
		out.Why = "done, but " + firstNonEmpty(why, "the task is impossible on this phone")
	case Asked:
		out.Why = "asked and nobody answered"
	case HonestFailure:
		out.Why = r.Status + ": " + firstNonEmpty(r.Reason, why)
	}
	if len(out.Commits) > 0 {
		out.Why = firstNonEmpty(out.Why, "achieved") + "; wrong commit: " + fmt.Sprint(out.Commits)
	}
	return out
}

// awaitGoal waits up to bound for the goal's result. A goal still running
// then is cancelled and its result (cancelled, with what it did) waited
// for; one that does not close within cancelWait is terminated. Either way
// the goal has ended when awaitGoal returns.
func awaitGoal(ctx context.Context, goals *goalctl.Client, id string, bound time.Duration) (workflows.GoalResult, error) {
	wctx, cancel := context.WithTimeout(ctx, bound)
	r, err := goals.Result(wctx, id)
	cancel()
	if err == nil || wctx.Err() == nil || ctx.Err() != nil {
		return r, err
	}
	late := fmt.Errorf("goal %s still running after %s", id, bound)
	// A goal that ended meanwhile has its result to read.
	if cerr := goals.Cancel(ctx, id); cerr == nil || errors.Is(cerr, goalctl.ErrFinished) {
		cctx, cancel := context.WithTimeout(ctx, cancelWait)
		r, err = goals.Result(cctx, id)
		cancel()
		if err == nil {
			r.Reason = strings.TrimSpace(late.Error() + ", cancelled: " + r.Reason)
			return r, nil
		}
	}
	if terr := goals.Terminate(ctx, id, late.Error()); terr != nil {
		return r, fmt.Errorf("%w; terminating it: %w", late, terr)
	}
	return r, late
}

// safeID keeps a task id usable inside a goal id (goalctl.CheckGoalID).
func safeID(s string) string {
	b := []byte(s)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			b[i] = '-'
		}
	}
	return string(b)
}

// answerQuestions answers the goal's pending questions with reply until
// stop is called. Without a reply a question pending for wait cancels the
// goal: nobody will answer it. stop reports whether a question went
// unanswered.
func answerQuestions(ctx context.Context, c client.Client, id, reply string, wait time.Duration) (stop func() (bool, string)) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var unanswered atomic.Bool
	var question atomic.Value // the last question left unanswered
	go func() {
		defer close(done)
		var asked time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case <-time.After(300 * time.Millisecond):
			}
			v, err := c.QueryWorkflow(ctx, id, "", workflows.QueryStatus)
			var st workflows.Status
			if err != nil || v.Get(&st) != nil || st.PendingQuestion == "" {
				asked = time.Time{}
				continue
			}
			if reply == "" {
				unanswered.Store(true)
				question.Store(st.PendingQuestion)
				if asked.IsZero() {
					asked = time.Now()
				} else if time.Since(asked) > wait {
					_ = c.CancelWorkflow(ctx, id, "")
					return
				}
				continue
			}
			_ = c.SignalWorkflow(ctx, id, "", workflows.SignalClarify, reply)
			select { // let the goal take the answer before asking again
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
		}
	}()
	return func() (bool, string) {
		cancel()
		<-done
		q, _ := question.Load().(string)
		return unanswered.Load(), q
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// onSkin decides, for each task whose feasibility is the skin's
// (Task.FeasibleOn), whether it is feasible on the phones' skin; where it
// is not, its check is dropped: it must simply not end done.
func onSkin(tasks []Task, skin phonesim.Skin) {
	for i := range tasks {
		if f := tasks[i].FeasibleOn; f != nil {
			tasks[i].Feasible = f(skin)
			if !tasks[i].Feasible {
				tasks[i].Check = nil
			}
		}
	}
}
