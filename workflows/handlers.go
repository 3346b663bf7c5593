package workflows

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/phoneflow/phoneflow/activities"
)

// validText rejects empty or oversized text payloads.
func validText(name, s string) error {
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("%s: text is empty: send a non-empty message", name)
	}
	if len(s) > MaxSignalText {
		return fmt.Errorf("%s: text is %d bytes, over the %d-byte limit: shorten it", name, len(s), MaxSignalText)
	}
	return nil
}

// Validators, shared by updates (the caller gets the error) and signals
// (an invalid signal is logged and dropped).

func (g *goalRun) validClarify(s string) error {
	if g.question == nil {
		return errors.New("clarify: no question is pending")
	}
	return validText(SignalClarify, s)
}

func (g *goalRun) validApprove(ApproveInput) error {
	if g.approval == nil {
		return errors.New("approve: no action is waiting for approval")
	}
	return nil
}

func (g *goalRun) validPause() error {
	if g.st.Paused {
		return errors.New("pause: goal is already paused")
	}
	return nil
}

func (g *goalRun) validReset() error {
	switch {
	case !g.steer.ordered:
		return errors.New("reset: this goal started on a release without reset; cancel it and start it again")
	case g.steer.child == nil:
		return errors.New("reset: no todo is running")
	case g.question != nil || g.approval != nil:
		return errors.New("reset: the todo waits for an answer or an approval; answer it first")
	}
	return nil
}

func (g *goalRun) onReset(ctx workflow.Context) error {
	getVersion(ctx, ChangeTodoReset, workflow.DefaultVersion, 1)
	return g.pass(ctx, Steer{Kind: SteerReset})
}

func (g *goalRun) validResume() error {
	if !g.st.Paused {
		return errors.New("resume: goal is not paused")
	}
	return nil
}

// Handlers. They may block on forwarding a signal to the running todo;
// AllHandlersFinished is awaited before continue-as-new and the goal's end.

func (g *goalRun) onClarify(ctx workflow.Context, s string) error {
	q := g.question
	if q.Todo > 0 && g.child != "" {
		g.question = nil
		g.refresh(ctx)
		return g.pass(ctx, Steer{Kind: SteerClarify, Text: s})
	}
	g.answer = &s
	return nil
}

func (g *goalRun) onApprove(ctx workflow.Context, a ApproveInput) error {
	g.approval = nil
	g.refresh(ctx)
	return g.pass(ctx, Steer{Kind: SteerApprove, Approve: &a})
}

func (g *goalRun) onPause(ctx workflow.Context) error {
	g.st.Paused = true
	g.refresh(ctx)
	return g.pass(ctx, Steer{Kind: SteerPause})
}

func (g *goalRun) onResume(ctx workflow.Context) error {
	g.st.Paused = false
	g.refresh(ctx)
	return g.pass(ctx, Steer{Kind: SteerResume})
}

func (g *goalRun) onInject(ctx workflow.Context, s string) error {
	if g.child != "" || g.steer.ordered {
		// Ordered runs number the text even with no todo running, so it
		// takes its place among the other commands.
		return g.pass(ctx, Steer{Kind: SteerInject, Text: s})
	}
	g.st.Notes = boundNotes(append(g.st.Notes, s)) // for the next todo
	return nil
}

func (g *goalRun) onUserInput(ctx workflow.Context, s string) error {
	// Queued for the next replan (or the plan, if planning has not run).
	g.st.UserMessages = append(g.st.UserMessages, s)
	if len(g.st.UserMessages) > maxUserMessages {
		g.st.UserMessages = g.st.UserMessages[len(g.st.UserMessages)-maxUserMessages:]
	}
	g.details(ctx)
	return nil
}

func (g *goalRun) onTodoEvent(ctx workflow.Context, ev TodoEvent) {
	// Any event of a todo that tells its steps carries its count
	// (docs/design.md §2).
	g.live.heard(ev.From, ev.Steps)
	if ev.Kind == TodoEventSteps {
		// Only the count changes. The refresh is what every event of
		// the current todo gets, so a worker from before notices, which
		// takes one as an event of no known kind, takes it the same way.
		if ev.Todo == g.todo {
			g.todoStep = ev.Steps
			g.refresh(ctx)
		}
		return
	}
	if ev.Todo != g.todo {
		return // a late event from an earlier todo
	}
	g.todoStep = ev.Steps
	switch ev.Kind {
	case TodoEventQuestion:
		g.question, g.answerBy = &question{Text: ev.Text, Todo: ev.Todo, Kind: ev.QuestionKind}, ev.AnswerBy
		g.notify(ctx, activities.NotifyInput{Kind: activities.NotifyQuestion, Text: ev.Text, Todo: ev.Todo, Deadline: ev.AnswerBy}, false)
	case TodoEventApproval:
		g.approval, g.answerBy = &Approval{Action: ev.Action, Reason: ev.Text}, ev.AnswerBy
		text := ev.Action
		if ev.Text != "" {
			text += ": " + ev.Text
		}
		g.notify(ctx, activities.NotifyInput{Kind: activities.NotifyApproval, Text: text, Todo: ev.Todo, Deadline: ev.AnswerBy}, false)
	case TodoEventWaiting:
		g.todoWaiting = ev.Text
		g.waitUntil, g.waitLabel = time.Time{}, ""
	case TodoEventSleep:
		g.todoWaiting, g.waitUntil, g.waitLabel = ev.Text, ev.Until, ev.Until.UTC().Format("15:04 UTC")
	case TodoEventReleasePhone:
		g.phoneOps.SendAsync(phoneOp{Release: true})
	case TodoEventNeedPhone:
		g.todoWaiting, g.waitUntil, g.waitLabel = "", time.Time{}, ""
		if ev.Lost && g.release != nil {
			// The phone's journal refused the todo's action under this
			// goal's token: the phone was granted to another goal after
			// it, even if no revoke signal came (docs/design.md §5).
			g.revoked(ctx, ev.Text)
		}
		g.phoneOps.SendAsync(phoneOp{Seq: ev.Seq})
	case TodoEventResolved:
		if g.question != nil && g.question.Todo > 0 {
			g.question = nil
		}
		g.approval = nil
	}
	g.refresh(ctx)
}

// forward passes a steering signal to the running todo in runs from before
// ordered steering (pass). A todo that just ended cannot receive it; the
// goal's own state still holds it.
func (g *goalRun) forward(ctx workflow.Context, name string, arg any) error {
	if g.child == "" {
		return nil
	}
	err := workflow.SignalExternalWorkflow(ctx, g.child, "", name, arg).Get(ctx, nil)
	if err != nil {
		workflow.GetLogger(ctx).Warn("signal not delivered to the running todo", "signal", name, "todo", g.child, "error", err)
	}
	return nil
}

// goalSignalOrder lists the signals the goal reads. Runs that take them in
// arrival order (§6) use it as the set; older runs apply signals waiting
// together in this fixed order (determinism).
var goalSignalOrder = []string{SignalTodoEvent, SignalPause, SignalResume, SignalInject, SignalUserInput, SignalApprove, SignalClarify}

// applySignal receives one signal from c and applies it, dropping invalid
// ones with a warning (a signal cannot be rejected to its sender).
func (g *goalRun) applySignal(ctx workflow.Context, name string, c workflow.ReceiveChannel) {
	logger := workflow.GetLogger(ctx)
	var err error
	switch name {
	case SignalTodoEvent:
		var ev TodoEvent
		c.Receive(ctx, &ev)
		g.onTodoEvent(ctx, ev)
	case SignalPause:
		c.Receive(ctx, nil)
		if err = g.validPause(); err == nil {
			err = g.onPause(ctx)
		}
	case SignalResume:
		c.Receive(ctx, nil)
		if err = g.validResume(); err == nil {
			err = g.onResume(ctx)
		}
	case SignalInject:
		var s string
		c.Receive(ctx, &s)
		if err = validText(SignalInject, s); err == nil {
			err = g.onInject(ctx, s)
		}
	case SignalUserInput:
		var s string
		c.Receive(ctx, &s)
		if err = validText(SignalUserInput, s); err == nil {
			err = g.onUserInput(ctx, s)
		}
	case SignalApprove:
		var a ApproveInput
		c.Receive(ctx, &a)
		if err = g.validApprove(a); err == nil {
			err = g.onApprove(ctx, a)
		}
	case SignalClarify:
		var s string
		c.Receive(ctx, &s)
		if err = g.validClarify(s); err == nil {
			err = g.onClarify(ctx, s)
		}
	}
	if err != nil {
		logger.Warn("signal dropped", "signal", name, "error", err)
	}
}

func (g *goalRun) signalChannel(ctx workflow.Context, name string) workflow.ReceiveChannel {
	return signalChannel(ctx, name)
}

func (g *goalRun) channelOf(ctx workflow.Context) func(string) workflow.ReceiveChannel {
	return func(name string) workflow.ReceiveChannel { return g.signalChannel(ctx, name) }
}

func (g *goalRun) applier(ctx workflow.Context) func(string, workflow.ReceiveChannel) {
	return func(name string, c workflow.ReceiveChannel) { g.applySignal(ctx, name, c) }
}

// drain applies every signal already delivered (before continue-as-new, so
// none is lost at the boundary).
func (g *goalRun) drain(ctx workflow.Context) {
	if g.signals.byArrival() {
		g.signals.drainByArrival(goalSignalOrder, g.channelOf(ctx), g.applier(ctx))
		return
	}
	for {
		got := false
		for _, name := range goalSignalOrder {
			c := g.signalChannel(ctx, name)
			for c.Len() > 0 {
				g.applySignal(ctx, name, c)
				got = true
			}
		}
		if !got {
			return
		}
	}
}

// setHandlers registers queries, updates (with validators: the caller gets
// a clear rejection) and signals (same names, for fire-and-forget callers
// such as `temporal workflow signal`).
func (g *goalRun) setHandlers(ctx workflow.Context) error {
	if err := setQuery(ctx, QueryStatus, func() (Status, error) { return g.status(), nil }); err != nil {
		return err
	}
	if err := setQuery(ctx, QueryTodos, func() ([]TodoState, error) {
		return g.todos(), nil
	}); err != nil {
		return err
	}
	type upd struct {
		name      string
		handler   any
		validator any
	}
	// An update that steers returns once the todo has its command (or the
	// goal took it back): the caller's answer means the todo knows.
	steered := func(err error, ctx workflow.Context) error {
		if err != nil {
			return err
		}
		return g.awaitSteered(ctx)
	}
	for _, u := range []upd{
		{SignalClarify, func(ctx workflow.Context, s string) error { return steered(g.onClarify(ctx, s), ctx) },
			func(ctx workflow.Context, s string) error { return g.validClarify(s) }},
		{SignalApprove, func(ctx workflow.Context, a ApproveInput) error { return steered(g.onApprove(ctx, a), ctx) },
			func(ctx workflow.Context, a ApproveInput) error { return g.validApprove(a) }},
		{SignalPause, func(ctx workflow.Context) error { return steered(g.onPause(ctx), ctx) },
			func(ctx workflow.Context) error { return g.validPause() }},
		{SignalResume, func(ctx workflow.Context) error { return steered(g.onResume(ctx), ctx) },
			func(ctx workflow.Context) error { return g.validResume() }},
		{SignalInject, func(ctx workflow.Context, s string) error { return steered(g.onInject(ctx, s), ctx) },
			func(ctx workflow.Context, s string) error { return validText(SignalInject, s) }},
		{SignalUserInput, g.onUserInput, func(ctx workflow.Context, s string) error { return validText(SignalUserInput, s) }},
		{UpdateReset, func(ctx workflow.Context) error { return steered(g.onReset(ctx), ctx) },
			func(ctx workflow.Context) error { return g.validReset() }},
		{UpdatePersonAction, g.onPersonAction, func(ctx workflow.Context, a PersonAction) error { return g.validPersonAction(a) }},
	} {
		if err := workflow.SetUpdateHandlerWithOptions(ctx, u.name, u.handler,
			workflow.UpdateHandlerOptions{Validator: u.validator, Description: describe(u.name)}); err != nil {
			return err
		}
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		if g.signals.byArrival() {
			// In the order they arrived, whatever their names (§6).
			g.signals.readByArrival(ctx, goalSignalOrder, g.channelOf(ctx), g.applier(ctx))
			return
		}
		for ctx.Err() == nil {
			sel := workflow.NewSelector(ctx)
			for _, name := range goalSignalOrder {
				sel.AddReceive(g.signalChannel(ctx, name), func(c workflow.ReceiveChannel, more bool) {
					g.applySignal(ctx, name, c)
				})
			}
			sel.Select(ctx)
		}
	})
	return nil
}

// maxDetails keeps SetCurrentDetails under the server's 20 KB limit.
const maxDetails = 16 * 1024

// details writes the Web UI's current details: the todo checklist with
// statuses, counters and anything waiting for a person.
func (g *goalRun) details(ctx workflow.Context) {
	workflow.SetCurrentDetails(ctx, g.markdown())
}

func (g *goalRun) markdown() string {
	var b strings.Builder
	s := g.status()
	running := -1 // index of the todo whose count the goal hears while it runs
	steps := s.Steps
	if g.live.child != "" && g.todo > 0 {
		running = g.todo - 1
		steps, _ = RunningCount(s.Steps, g.st.Todos[running], g.live.steps)
	}
	fmt.Fprintf(&b, "**%s** · steps %d/%d", s.Phase, steps, s.MaxSteps)
	if s.CurrentTodo > 0 {
		fmt.Fprintf(&b, " · todo %d/%d", s.CurrentTodo, len(g.st.Todos))
	}
	fmt.Fprintf(&b, " · device `%s`\n\n", g.in.Device)
	if g.child != "" {
		// The running todo tells the goal its count whenever it waits
		// (docs/design.md §2); its page has its latest action.
		fmt.Fprintf(&b, "The step count includes the steps the running todo has reported; its page (`%s`) shows what it does now.\n\n", g.child)
	}
	if u := viewerLink(g.id); u != "" {
		fmt.Fprintf(&b, "Screenshots of every step: [step viewer](%s)\n\n", u)
	}
	for i, t := range g.st.Todos {
		if i == running {
			_, t.Steps = RunningCount(s.Steps, t, g.live.steps)
		}
		box := " "
		if t.Status == TodoDone {
			box = "x"
		}
		fmt.Fprintf(&b, "- [%s] %d. %s — *%s*", box, t.Index, truncate(t.Text, 200), t.Status)
		if t.Steps > 0 {
			fmt.Fprintf(&b, ", %s", plural(t.Steps, "step"))
		}
		if t.Result != "" && t.Status != TodoRunning {
			fmt.Fprintf(&b, ": %s", truncate(t.Result, 200))
		}
		b.WriteByte('\n')
	}
	if s.PendingQuestion != "" {
		fmt.Fprintf(&b, "\n**Question:** %s  \nanswer with the `clarify` update\n", truncate(s.PendingQuestion, 1000))
	}
	if a := s.PendingApproval; a != nil {
		fmt.Fprintf(&b, "\n**Approval needed:** `%s` — %s  \nanswer with the `approve` update\n", truncate(a.Action, 300), truncate(a.Reason, 500))
	}
	if s.WaitingFor != "" {
		fmt.Fprintf(&b, "\n**Waiting for:** %s\n", s.WaitingFor)
	}
	if n := len(g.st.UserMessages); n > 0 {
		fmt.Fprintf(&b, "\n%d user message(s) queued for the next replan\n", n)
	}
	if u := usageMarkdown(s.Usage); u != "" {
		b.WriteString("\n" + u)
	}
	return truncate(b.String(), maxDetails)
}
