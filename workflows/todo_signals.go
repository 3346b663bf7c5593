package workflows

import (
	"go.temporal.io/sdk/workflow"
)

// setHandlers listens to the steering signals. The goal forwards them here;
// a person may also signal a todo directly. Signals (not updates) because
// the goal's updates already validated them.
func (t *todoRun) setHandlers(ctx workflow.Context) error {
	if err := setQuery(ctx, QueryStatus, func() (Status, error) {
		return t.status(), nil
	}); err != nil {
		return err
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		if t.signals.byArrival() {
			// In the order they arrived, whatever their names (§6).
			chs := t.channels(ctx)
			t.signals.readByArrival(ctx, todoSignalOrder, func(n string) workflow.ReceiveChannel { return chs[n] },
				func(n string, c workflow.ReceiveChannel) { t.receive(ctx, n, c) })
			return
		}
		for {
			sel := workflow.NewSelector(ctx)
			t.addSignalCases(ctx, sel)
			sel.Select(ctx)
			if ctx.Err() != nil {
				return
			}
		}
	})
	return nil
}

// status answers the status query: counters, what the todo waits for, and
// its latest action, result and reasoning (Feedback carries them as one
// line, as the goal's feedback items do).
func (t *todoRun) status() Status {
	s := Status{Phase: GoalRunning, CurrentTodo: t.in.Index, Steps: t.st.Steps, MaxSteps: t.in.StepBudget,
		TodoSteps: t.st.Steps, Paused: t.st.Paused, Device: t.in.Device, WaitingFor: t.waiting,
		LastAction: t.st.PreviousAction, LastResult: t.st.PreviousResult, Thinking: t.thinking,
		NextAction: t.st.NextText, Usage: t.st.Usage, Verdict: verdictLine(t.verdict), SteerSeq: t.st.SteerSeq,
		Routine: t.routineLine()}
	if t.st.Paused {
		s.Phase = GoalPaused
	}
	if r := t.ended; r != nil {
		s.Phase, s.NextAction = r.Status, ""
	}
	if s.LastAction != "" {
		s.Feedback = []string{truncate(s.LastAction, 200) + " → " + truncate(s.LastResult, 300)}
	}
	return s
}

func (t *todoRun) channels(ctx workflow.Context) map[string]workflow.ReceiveChannel {
	return map[string]workflow.ReceiveChannel{
		SignalPause:   signalChannel(ctx, SignalPause),
		SignalResume:  signalChannel(ctx, SignalResume),
		SignalInject:  signalChannel(ctx, SignalInject),
		SignalApprove: signalChannel(ctx, SignalApprove),
		SignalClarify: signalChannel(ctx, SignalClarify),
		SignalSteer:   signalChannel(ctx, SignalSteer),
	}
}

// todoSignalOrder lists the signals the todo reads: the set it takes in
// arrival order (docs/design.md §6), and for older runs the fixed order
// over channels (map order is random and workflow code must be
// deterministic). SignalSteer carries a goal's
// numbered commands in order (docs/design.md §6); the others are what a
// person signals to a todo directly, and what goals from before ordered
// steering forward.
var todoSignalOrder = []string{SignalPause, SignalResume, SignalInject, SignalApprove, SignalClarify, SignalSteer}

func (t *todoRun) addSignalCases(ctx workflow.Context, sel workflow.Selector) {
	chs := t.channels(ctx)
	for _, name := range todoSignalOrder {
		sel.AddReceive(chs[name], func(c workflow.ReceiveChannel, more bool) { t.receive(ctx, name, c) })
	}
}

// drain applies every signal already delivered, before continue-as-new.
func (t *todoRun) drain(ctx workflow.Context) {
	chs := t.channels(ctx)
	if t.signals.byArrival() {
		t.signals.drainByArrival(todoSignalOrder, func(n string) workflow.ReceiveChannel { return chs[n] },
			func(n string, c workflow.ReceiveChannel) { t.receive(ctx, n, c) })
		return
	}
	for {
		got := false
		for _, name := range todoSignalOrder {
			for chs[name].Len() > 0 {
				t.receive(ctx, name, chs[name])
				got = true
			}
		}
		if !got {
			return
		}
	}
}

func (t *todoRun) receive(ctx workflow.Context, name string, c workflow.ReceiveChannel) {
	logger := workflow.GetLogger(ctx)
	switch name {
	case SignalPause:
		c.Receive(ctx, nil)
		t.st.Paused = true
	case SignalResume:
		c.Receive(ctx, nil)
		t.st.Paused = false
	case SignalInject:
		var s string
		c.Receive(ctx, &s)
		if err := validText(SignalInject, s); err != nil {
			logger.Warn("inject signal dropped", "error", err)
			return
		}
		t.st.Notes = boundNotes(append(t.st.Notes, s))
		t.st.Unseen = append(t.st.Unseen, s)
	case SignalApprove:
		var a ApproveInput
		c.Receive(ctx, &a)
		t.approval = &a
	case SignalClarify:
		var s string
		c.Receive(ctx, &s)
		t.answer = &s
	case SignalSteer:
		var batch []Steer
		c.Receive(ctx, &batch)
		t.applySteer(ctx, batch)
	}
}

func boundNotes(n []string) []string {
	if len(n) > maxNotes {
		n = n[len(n)-maxNotes:]
	}
	return n
}
