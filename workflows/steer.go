package workflows

import (
	"go.temporal.io/sdk/workflow"
)

// ChangeSteeringOrder versions how a goal passes steering to its running
// todo (docs/design.md §6): every command gets the goal's next sequence
// number and goes through one ordered queue, drained by one coroutine that
// waits for the child's start and signals it with SignalChildWorkflow; the
// todo applies commands in sequence order and reports the last one it
// applied, so inject text a todo never took goes back to the goal. Runs
// that recorded no marker for it forward each command on its own, as
// before.
const ChangeSteeringOrder = "steering-order"

// SignalSteer is the internal signal a goal sends its running todo: a
// batch of Steer commands in sequence order.
const SignalSteer = "steer"

// Steer kinds: the steering commands a goal passes to its running todo.
const (
	SteerPause   = SignalPause
	SteerResume  = SignalResume
	SteerInject  = SignalInject
	SteerClarify = SignalClarify
	SteerApprove = SignalApprove
	SteerReset   = UpdateReset
)

// ChangeTodoReset versions the reset update: the running todo takes it
// from the ordered steering queue and ends "reset" at its next step, and
// the goal runs it again under a new child ID (docs/design.md §6).
const ChangeTodoReset = "todo-reset"

// Steer is one steering command, numbered by the goal that took it.
type Steer struct {
	Seq     int           `json:"seq"`
	Kind    string        `json:"kind"`
	Text    string        `json:"text,omitempty"`
	Approve *ApproveInput `json:"approve,omitempty"`
}

// executorNotePrefix marks inject text the replanner sees because no todo
// has taken it yet.
const executorNotePrefix = "Instruction for the phone's executor, not used yet: "

// steering is the goal's side of ordered steering.
type steering struct {
	// ordered: this run numbers and queues steering (ChangeSteeringOrder).
	ordered bool
	// child is the running todo's future while one runs.
	child workflow.ChildWorkflowFuture
	// outbox holds commands taken while the todo runs, not yet sent;
	// sent holds those sent (or being sent) to it, until it ends.
	outbox, sent []Steer
	// settled is the highest sequence number that was delivered to a todo
	// or taken back by the goal: an update returns once its command is.
	settled int
}

// pass hands a steering command to the running todo: in ordered runs it
// is numbered and queued (never blocking, so signals and updates are taken
// in arrival order), otherwise forwarded at once as before.
func (g *goalRun) pass(ctx workflow.Context, s Steer) error {
	if !g.steer.ordered {
		var arg any
		switch s.Kind {
		case SteerInject, SteerClarify:
			arg = s.Text
		case SteerApprove:
			arg = *s.Approve
		}
		return g.forward(ctx, s.Kind, arg)
	}
	g.st.SteerSeq++
	s.Seq = g.st.SteerSeq
	if g.steer.child == nil {
		g.takeBack([]Steer{s})
		return nil
	}
	g.steer.outbox = append(g.steer.outbox, s)
	return nil
}

// takeBack keeps on the goal what no todo took: inject text waits for the
// next todo (and is shown to the replanner); pause and resume are already
// the goal's own state; an answer or approval for a todo that ended has
// nobody left to ask.
func (g *goalRun) takeBack(cmds []Steer) {
	for _, s := range cmds {
		if s.Kind == SteerInject {
			g.st.Notes = boundNotes(append(g.st.Notes, s.Text))
		}
		g.steer.settled = max(g.steer.settled, s.Seq)
	}
}

// awaitSteered returns once every command taken so far was delivered or
// taken back, so an update's caller learns that the todo has it.
func (g *goalRun) awaitSteered(ctx workflow.Context) error {
	seq := g.st.SteerSeq
	if !g.steer.ordered || g.steer.settled >= seq {
		return nil
	}
	return workflow.Await(ctx, func() bool { return g.steer.settled >= seq })
}

// deliverSteering is the one coroutine that sends queued commands to the
// running todo, a batch at a time and in order. It waits for the child's
// start first. A failed delivery is logged only: the todo's result names
// the last command it applied, and endSteering takes the rest back.
func (g *goalRun) deliverSteering(ctx workflow.Context) {
	for {
		if err := workflow.Await(ctx, func() bool { return len(g.steer.outbox) > 0 }); err != nil {
			return
		}
		batch, fut := g.steer.outbox, g.steer.child
		g.steer.outbox = nil
		g.steer.sent = append(g.steer.sent, batch...)
		err := fut.GetChildWorkflowExecution().Get(ctx, nil)
		if err == nil {
			err = fut.SignalChildWorkflow(ctx, SignalSteer, batch).Get(ctx, nil)
		}
		if err != nil {
			workflow.GetLogger(ctx).Warn("steering not delivered to the todo; the goal keeps what the todo did not take",
				"from_seq", batch[0].Seq, "to_seq", batch[len(batch)-1].Seq, "error", err)
		}
		g.steer.settled = max(g.steer.settled, batch[len(batch)-1].Seq)
	}
}

// startSteering routes commands to a todo that starts now.
func (g *goalRun) startSteering(fut workflow.ChildWorkflowFuture) {
	if g.steer.ordered {
		g.steer.child, g.steer.outbox, g.steer.sent = fut, nil, nil
	}
}

// endSteering takes back, when the todo has ended, every command it did not
// apply: those after the last sequence number its result names (all of
// them when it ended without a result).
func (g *goalRun) endSteering(res TodoResult) {
	if !g.steer.ordered {
		return
	}
	var back []Steer
	for _, s := range append(g.steer.sent, g.steer.outbox...) {
		if s.Seq > res.SteerSeq {
			back = append(back, s)
		}
	}
	g.steer.child, g.steer.outbox, g.steer.sent = nil, nil, nil
	g.takeBack(back)
	g.steer.settled = max(g.steer.settled, g.st.SteerSeq)
}

// applySteer applies a batch of the goal's commands in sequence order,
// skipping any already applied (the todo started after them, or a
// duplicate delivery).
func (t *todoRun) applySteer(ctx workflow.Context, batch []Steer) {
	for _, s := range batch {
		if s.Seq <= t.st.SteerSeq {
			continue
		}
		t.st.SteerSeq = s.Seq
		switch s.Kind {
		case SteerPause:
			t.st.Paused = true
		case SteerResume:
			t.st.Paused = false
		case SteerInject:
			if err := validText(SignalInject, s.Text); err != nil {
				workflow.GetLogger(ctx).Warn("inject dropped", "seq", s.Seq, "error", err)
				continue
			}
			t.st.Notes = boundNotes(append(t.st.Notes, s.Text))
			t.st.Unseen = append(t.st.Unseen, s.Text)
		case SteerClarify:
			a := s.Text
			t.answer = &a
		case SteerApprove:
			if s.Approve != nil {
				a := *s.Approve
				t.approval = &a
			}
		case SteerReset:
			t.st.Reset = true
		}
	}
}
