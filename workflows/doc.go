// Package workflows holds phoneflow's deterministic workflow code: the
// GoalWorkflow (plan once, a child TodoWorkflow per todo, replan after each),
// the TodoWorkflow thought-act-observe loop, and the names on the wire
// (task queues, signals, updates, queries, search attributes) that the
// worker, the starter CLI and the tests share.
package workflows
