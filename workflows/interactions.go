package workflows

import "go.temporal.io/sdk/workflow"

// What each signal, query and update of these workflows is for, as the
// Temporal Web UI and `__temporal_workflow_metadata` show it beside its
// name (docs/design.md#6-steering-signals-updates-order-cancel). The Go SDK lists every signal channel
// and query a workflow registers, so the workflows' own plumbing cannot
// be hidden: its descriptions start with internalMark and say not to
// send it by hand. A description changes no command: it is not in
// history.
const internalMark = "internal, do not send by hand: "

var interactionDocs = map[string]string{
	SignalClarify:      "Answer the goal's question (text). Also an update, which rejects an answer when nothing is asked.",
	SignalApprove:      `Approve or deny the sensitive action the goal waits on ({"approved": true|false, "note": "…"}).`,
	SignalPause:        "Pause the goal after the running step (no payload); resume continues it.",
	SignalResume:       "Resume a paused goal (no payload).",
	SignalInject:       "Give the running todo's executor one more instruction (text).",
	SignalUserInput:    "Add a message for the planner: more to do or a correction (text).",
	UpdateReset:        "Restart the running todo with a fresh executor context (no payload).",
	UpdatePersonAction: "Take the phone over by hand, or hand it back, from the step viewer (PersonAction).",
	QueryStatus:        "The goal's status: todo states, step counter, question or wait, last result.",
	QueryTodos:         "The goal's todos with their status, steps and result.",

	SignalTodoEvent:    internalMark + "a todo tells its goal it needs a person, or no longer does.",
	SignalPhoneHeld:    internalMark + "the goal tells its todo it holds the phone again.",
	SignalSteer:        internalMark + "the goal passes a steering command to its running todo.",
	SignalLeaseAcquire: internalMark + "a goal asks the phone's lease for the phone.",
	SignalLeaseRelease: internalMark + "a goal gives the phone back to its lease.",
	SignalLeaseGranted: internalMark + "the phone's lease grants the phone to this goal.",
	SignalLeaseBusy:    internalMark + "the phone's lease says another goal holds the phone.",
	SignalLeaseRevoked: internalMark + "the phone's lease took the phone back from this goal.",
	QueryLease:         internalMark + "who holds the phone and who waits for it.",
	QueryLeaseClaim:    internalMark + "the phone lease this goal claims, read by the lease to check a holder.",
}

// describe is what the Web UI shows for the interaction name.
func describe(name string) string {
	if d, ok := interactionDocs[name]; ok {
		return d
	}
	return internalMark + name
}

// signalChannel is workflow.GetSignalChannel with the signal's
// description (the first request of a name sets it, so every request
// goes through here).
func signalChannel(ctx workflow.Context, name string) workflow.ReceiveChannel {
	return workflow.GetSignalChannelWithOptions(ctx, name, workflow.SignalChannelOptions{Description: describe(name)})
}

// setQuery is workflow.SetQueryHandler with the query's description.
func setQuery(ctx workflow.Context, name string, handler any) error {
	return workflow.SetQueryHandlerWithOptions(ctx, name, handler, workflow.QueryHandlerOptions{Description: describe(name)})
}
