// Package workflows holds phoneflow's deterministic workflow code: the
// GoalWorkflow (plan once, a child TodoWorkflow per todo, replan after each),
// the TodoWorkflow thought-act-observe loop, the DeviceLeaseWorkflow that
// lets one goal at a time drive a phone, and the names on the wire (task
// queues, signals, updates, queries, search attributes) that the worker, the
// starter CLI and the tests share.
//
// A todo runs one Step activity per iteration: the workflow gates the
// decided action first (finish, Take_over/Interact, sensitive taps, pause,
// the step budget), then Step acts, lets the screen settle, observes and
// thinks the next action. Screenshots, UI trees and the executor's earlier
// turns stay in the blob store; history carries refs, a screen hash and the
// decision, about six events and well under a kilobyte of payload a step.
//
// People steer the goal (updates with validators, or signals of the same
// names); the goal forwards what concerns the running todo, and the todo
// tells the goal through the todo_event signal when it needs a person, so
// the goal's status query shows every pending question and approval.
// Waiting for a person is a workflow.Await: it holds no worker slot and
// costs no steps. Both workflows continue as new at their loop heads
// (between todos, between steps) once the server suggests it or their
// history reaches GoalOptions.HistoryEventLimit, carrying all their state.
package workflows
